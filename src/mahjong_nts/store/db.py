"""Opening the store: the database URL, the engine, migrations to head.

:func:`open_store` takes any SQLAlchemy URL (``sqlite:///path``,
``postgresql+psycopg://user:password@host/db``); without one it opens an SQLite
file in the user's data folder (``platformdirs.user_data_dir("mahjong-nts")``).
SQLite runs in WAL mode with foreign keys on.  The schema is created and
migrated to the newest revision (Alembic, ``store/migrations``) when the store
opens, so the first start makes the database.  Every failure to open is a
:class:`StoreError` with one clear line (the password of a URL never shown).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    SQLAlchemyError,
)
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = [
    "DEFAULT_FILE",
    "Conflict",
    "NotFound",
    "NotOwner",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "alembic_config",
    "default_url",
    "open_store",
]

DEFAULT_FILE: Final = "mahjong-nts.sqlite3"
"""The SQLite file's name in the user's data folder."""

MAX_URL_CHARS: Final = 2000
"""Characters of a database URL."""

BUSY_TIMEOUT_MS: Final = 5000
"""How long an SQLite writer waits for another one before it gives up."""

HUNG_TRANSACTION_SECONDS: Final = 5.0
"""How long a PostgreSQL session may sit in an open transaction between two statements
before the database ends it.  The store's transactions run their statements back to back
(milliseconds apart); one that waits this long belongs to a hung process (a stopped
machine), whose row locks would otherwise stop every other process (an online table's
takeover) until it wakes."""

MIGRATIONS: Final = Path(__file__).resolve().parent / "migrations"


class StoreError(Exception):
    """The store cannot do what was asked; the message is one line to show."""


class StoreUnavailable(StoreError):
    """The database cannot be opened or reached (a bad URL, a server down)."""


class NotFound(StoreError):
    """No such sheet (or hand)."""


class Conflict(StoreError):
    """Someone else changed the same thing first: reload and try again."""


class NotOwner(Conflict):
    """A write for an online table by a server process that no longer owns it (another
    took it over): nothing was stored, and this process must let the table go."""


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if len(line) <= 300 else line[:297] + "..."


def default_url(folder: str | Path | None = None) -> URL:
    """The SQLite file :data:`DEFAULT_FILE` in ``folder``, by default the user's
    data folder (the folder is made if missing)."""
    if folder is None:
        import platformdirs

        folder = platformdirs.user_data_dir("mahjong-nts")
    folder = Path(folder).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot make the data folder {folder}: {exc.strerror}") from None
    return URL.create("sqlite", database=str(folder / DEFAULT_FILE))


def _parse_url(url: str | URL | None) -> URL:
    if url is None:
        return default_url()
    if isinstance(url, URL):
        parsed = url
    else:
        if not isinstance(url, str) or not url.strip():
            raise StoreUnavailable("the database URL is empty")
        if len(url) > MAX_URL_CHARS:
            raise StoreUnavailable(f"the database URL has more than {MAX_URL_CHARS} characters")
        try:
            parsed = make_url(url.strip())
        except ArgumentError:
            raise StoreUnavailable(
                "not a database URL: give one such as sqlite:///sheets.sqlite3 or "
                "postgresql+psycopg://user:password@host/db"
            ) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3, not psycopg2
    return parsed


def _shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def _sqlite_pragmas(engine: Engine, memory: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
        finally:
            cursor.close()


def _postgresql_settings(engine: Engine) -> None:
    """Every connection ends a transaction left idle :data:`HUNG_TRANSACTION_SECONDS`:
    the locks of a hung process are bounded (the process, when it wakes, gets an error
    and a new connection)."""
    limit_ms = round(HUNG_TRANSACTION_SECONDS * 1000)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET idle_in_transaction_session_timeout = {limit_ms}")
        finally:
            dbapi_connection.autocommit = autocommit


def alembic_config(url: str | URL) -> Config:
    """An Alembic configuration for the shipped migrations (no ini file needed):
    ``command.revision(alembic_config(url), "add x", autogenerate=True)``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    text = url if isinstance(url, str) else url.render_as_string(hide_password=False)
    cfg.set_main_option("sqlalchemy.url", text.replace("%", "%%"))
    return cfg


class Store:
    """An open database.  :meth:`session` gives an ORM session inside one
    transaction; :meth:`close` lets the connections go."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.url = _shown(engine.url)
        """The URL, its password hidden."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on an
        error.  A database that fails on the way is a :class:`StoreUnavailable`."""
        try:
            with self._sessions.begin() as session:
                yield session
        except DBAPIError as exc:
            if not isinstance(exc, IntegrityError):
                raise StoreUnavailable(f"the database failed: {_first_line(exc)}") from None
            raise

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Store {self.url}>"


def open_store(url: str | URL | None = None) -> Store:
    """Open (and on first use create) the database at ``url`` and migrate it to
    the newest schema.  ``None``: the SQLite file in the user's data folder.
    Raises :class:`StoreUnavailable` with one clear line when it cannot."""
    parsed = _parse_url(url)
    shown = _shown(parsed)
    sqlite = parsed.get_backend_name() == "sqlite"
    memory = sqlite and parsed.database in (None, "", ":memory:")
    options: dict[str, Any] = {}
    if memory:  # one connection, or each would see its own empty database
        options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    try:
        engine = create_engine(parsed, **options)
    except NoSuchModuleError:
        raise StoreUnavailable(
            f"{shown}: unknown database kind {parsed.drivername!r} (sqlite and "
            "postgresql+psycopg are supported)"
        ) from None
    except ImportError as exc:
        raise StoreUnavailable(
            f"{shown}: the database driver is not installed ({_first_line(exc)}); "
            "sqlite and postgresql+psycopg are supported"
        ) from None
    except (ArgumentError, SQLAlchemyError) as exc:
        raise StoreUnavailable(f"{shown}: {_first_line(exc)}") from None
    if sqlite:
        if not memory and parsed.database:
            folder = Path(parsed.database).expanduser().parent
            if not folder.is_dir():
                engine.dispose()
                raise StoreUnavailable(f"{shown}: the folder {folder} does not exist")
        _sqlite_pragmas(engine, memory)
    else:
        _postgresql_settings(engine)
    try:
        with engine.begin() as conn:
            cfg = alembic_config(parsed)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except CommandError as exc:
        engine.dispose()
        raise StoreUnavailable(
            f"{shown}: the database's schema is not one this version knows ({_first_line(exc)})"
        ) from None
    except (DBAPIError, SQLAlchemyError, OSError) as exc:
        engine.dispose()
        raise StoreUnavailable(f"cannot open the database {shown}: {_first_line(exc)}") from None
    return Store(engine)
