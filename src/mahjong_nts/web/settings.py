"""Settings of the web app, read from the environment (``MAHJONG_NTS_*``).

``MAHJONG_NTS_HOST``, ``MAHJONG_NTS_PORT``, ``MAHJONG_NTS_DB_URL``,
``MAHJONG_NTS_DATA_DIR``, ``MAHJONG_NTS_DEFAULT_LANGUAGE``, ``MAHJONG_NTS_WORKERS``,
for the online tables ``MAHJONG_NTS_ONLINE_SECRET``, ``MAHJONG_NTS_ALLOWED_ORIGINS`` (a
JSON list), ``MAHJONG_NTS_WINDOW_SECONDS``, ``MAHJONG_NTS_BOT_DELAY_SECONDS``,
``MAHJONG_NTS_TABLES_PER_CLIENT``, ``MAHJONG_NTS_NODE_URL`` and
``MAHJONG_NTS_LEASE_SECONDS`` (several processes), and, for
tests and screenshots only, ``MAHJONG_NTS_PLAY_SEED``; tests and ``mahjong-nts serve``
pass their own.  Nothing here opens a file or a database.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from mahjong_nts.core.seeding import MAX_SEED
from mahjong_nts.i18n import Language
from mahjong_nts.online.limits import (
    BOT_DELAY_SECONDS,
    LEASE_SECONDS,
    MAX_OPEN_TABLES,
    MAX_TABLES_PER_CLIENT,
    WINDOW_SECONDS,
)
from mahjong_nts.online.nodes import MAX_NODE_URL_CHARS, check_node_url, default_node_url
from mahjong_nts.store.db import MAX_URL_CHARS

__all__ = ["APP_NAME", "Settings", "default_data_dir"]

APP_NAME = "mahjong-nts"


def default_data_dir() -> Path:
    """The user's data directory for the app (platformdirs), e.g.
    ``~/.local/share/mahjong-nts`` on Linux.  Not created here."""
    return Path(user_data_dir(APP_NAME, appauthor=False))


class Settings(BaseSettings):
    """What the app is started with.  Every value has a default fit for one
    player's computer: listen on the loopback interface only."""

    model_config = SettingsConfigDict(env_prefix="MAHJONG_NTS_", frozen=True, extra="ignore")

    host: str = Field(default="127.0.0.1", min_length=1, max_length=255)
    port: int = Field(default=8000, ge=0, le=65535)
    db_url: str | None = Field(default=None, max_length=MAX_URL_CHARS)
    """A SQLAlchemy URL; None means SQLite in :attr:`data_dir` (the store's default)."""
    data_dir: Path = Field(default_factory=default_data_dir)
    default_language: Language = "en"
    """The page language when neither a cookie nor the browser's Accept-Language picks one."""
    online_secret: str | None = Field(default=None, min_length=32, max_length=256)
    """The key that signs the online tables' seat cookies; None: the file
    ``online-secret`` in :attr:`data_dir`, made on first start."""
    allowed_origins: tuple[str, ...] = Field(default=(), max_length=20)
    """Origins (``https://club.example``) besides the server's own whose pages may open
    the online tables' sockets."""
    window_seconds: float = Field(default=WINDOW_SECONDS, ge=0, le=30)
    """The online tables' claim window: its fixed minimum length after every discard."""
    bot_delay_seconds: float = Field(default=BOT_DELAY_SECONDS, ge=0, le=10)
    """How long a bot at an online table waits before it moves."""
    tables_per_client: int = Field(default=MAX_TABLES_PER_CLIENT, ge=1, le=MAX_OPEN_TABLES)
    """Live online tables one client address may have made (a club behind one address,
    or the load benchmark); never more than the server's own bound."""
    node_url: str | None = Field(default=None, min_length=1, max_length=MAX_NODE_URL_CHARS)
    """Where this process is reached when several share one database: a request for a
    table it holds is sent there (``http://10.0.0.2:8001``; no path).  None: the address
    it listens on (:attr:`host`, :attr:`port`)."""
    lease_seconds: float = Field(default=LEASE_SECONDS[2], ge=LEASE_SECONDS[0], le=LEASE_SECONDS[1])
    """How long this process holds its online tables without renewing the hold; another
    process takes over the tables of one that crashed once it has passed."""
    play_seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    """For tests and screenshots only: the games against the bots are dealt from this
    seed (the n-th game of the server from ``derive_seed(play_seed, "web-play", n)``),
    and the online tables (the n-th from ``derive_seed(play_seed, "online", n)``), so
    the same games come on every run; anyone who knows it knows every deal, so it
    is never set on a server people play on.  None (the default): seeds from
    ``secrets``."""
    workers: int = Field(default=1, ge=1)
    """How many processes serve the app (``serve --workers``).  Games against the bots
    and replays live in the memory of one process, and a browser's next request may
    reach another: with more than one worker they are refused (503), not lost at random."""

    @field_validator("node_url")
    @classmethod
    def _node_url(cls, value: str | None) -> str | None:
        return None if value is None else check_node_url(value)

    def advertised_url(self) -> str:
        """This process's address as a node (:attr:`node_url`, else where it listens)."""
        return self.node_url or default_node_url(self.host, self.port)
