"""``mahjong-nts serve``: run the web app under uvicorn and say which address to open.

The command binds the socket itself, so a port in use or a host that cannot be
listened on ends with one ``error:`` line and exit code 2 before anything
starts.  It hands the app to uvicorn by name (``mahjong_nts.web:create_app``,
a factory), with the settings in the ``MAHJONG_NTS_*`` environment the factory
reads: the terminal front end does not import the web one (docs/web.md).

``--workers N`` runs N processes (:mod:`mahjong_nts.cli.workers`), on Linux each
with its own socket on the port; the database is opened and migrated here, once,
before any of them starts.  ``--node-url`` is where this process is reached when several
``serve`` processes share one PostgreSQL database (docs/online.md, "Several processes").
"""

from __future__ import annotations

import contextlib
import copy
import os
import socket
import sys
from typing import Annotated, Any, Final

import typer
from pydantic import ValidationError

from mahjong_nts.cli.i18n import N_, _
from mahjong_nts.cli.options import UsageProblem, os_reason
from mahjong_nts.formats import wire
from mahjong_nts.i18n import language
from mahjong_nts.online.nodes import check_node_url
from mahjong_nts.store import StoreError, open_store
from mahjong_nts.store.db import MAX_URL_CHARS, default_url

__all__ = ["APP_FACTORY", "HELP", "MAX_WORKERS", "bind", "check_database", "listeners", "serve_cmd"]

HELP = N_("Start the web app: the calculator and the HTTP API (docs at /docs).")

APP_FACTORY: Final = "mahjong_nts.web:create_app"

MAX_WORKERS: Final = 32
"""``--workers``: at most this many processes."""

WS_MAX_BYTES: Final = 64 * 1024
"""A WebSocket message uvicorn takes at all (a longer one closes the socket, 1009); the
online tables refuse anything over 4 KiB with an error and go on."""


def bind(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one); with
    ``reuse_port``, one of several on the same port (``SO_REUSEPORT``).
    OSError (socket.gaierror for an unknown host) when it cannot be had."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def balances_connections() -> bool:
    """Whether the kernel spreads connections over sockets sharing a port (Linux's
    ``SO_REUSEPORT``; BSD's and macOS's does not balance them)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def listeners(host: str, port: int, workers: int) -> list[socket.socket]:
    """The listening sockets of ``workers`` processes: one per worker where the
    kernel balances connections over them, else one for all.  The first bind is a
    plain one, so a port in use (even by sockets that share theirs) is an OSError;
    port 0 becomes the free port it found."""
    first = bind(host, port)
    if workers == 1 or not balances_connections():
        return [first]
    port = first.getsockname()[1]
    first.close()
    socks: list[socket.socket] = []
    try:
        for _ in range(workers):
            socks.append(bind(host, port, reuse_port=True))
    except OSError:
        for sock in socks:
            sock.close()
        raise
    return socks


def check_database(db: str | None) -> None:
    """Open the database the app will open (``--db``, else ``MAHJONG_NTS_DB_URL``,
    else the SQLite file in ``MAHJONG_NTS_DATA_DIR`` or the user's data folder),
    creating and migrating it on first start, and close it again: a database
    that cannot be opened is one ``error:`` line before anything starts."""
    url = db or os.environ.get("MAHJONG_NTS_DB_URL")
    try:
        if url is None:
            folder = os.environ.get("MAHJONG_NTS_DATA_DIR") or None
            open_store(default_url(folder)).close()
        else:
            open_store(url).close()
    except StoreError as exc:
        raise UsageProblem(f"--db: {exc}" if db is not None else str(exc)) from None


def address_url(host: str, port: int) -> str:
    """The address to open in a browser (an IPv6 address in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _log_config() -> dict[str, Any]:
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    # one line per request from the app (path without query string, no bodies);
    # uvicorn's own access log is off because it writes the query string
    config["loggers"]["mahjong_nts"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    return config


def serve_cmd(
    host: Annotated[
        str,
        typer.Option(
            "--host", help=N_("The address to listen on (127.0.0.1: this computer only).")
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, help=N_("The port to listen on (0: a free one).")),
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help=N_("A SQLAlchemy database URL (default: SQLite in the user's data directory)."),
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=N_(
                "nl or en: the language of this command and of the pages for a browser "
                "that asks for neither."
            ),
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=MAX_WORKERS,
            help=N_(
                "Processes answering requests (1 to 32). With more than one, games "
                "against the bots and replays are refused: they live in one process."
            ),
        ),
    ] = 1,
    node_url: Annotated[
        str | None,
        typer.Option(
            "--node-url",
            help=N_(
                "Where this process is reached when several share one PostgreSQL database "
                "(http://10.0.0.2:8001; default: the address it listens on)."
            ),
        ),
    ] = None,
) -> None:
    """Start the web app (:data:`HELP`); its messages are in the language of the run."""
    chosen = language(lang) if lang is not None else None
    if lang is not None and chosen is None:
        raise UsageProblem(_("--lang: {value} is not en or nl").format(value=repr(lang)))
    if db is not None and not 0 < len(db) <= MAX_URL_CHARS:
        raise UsageProblem(
            _("--db: a database URL has 1 to {most} characters").format(most=MAX_URL_CHARS)
        )
    if node_url is not None:
        try:
            node_url = check_node_url(node_url)
        except ValueError as exc:
            raise UsageProblem(_("--node-url: {reason}").format(reason=str(exc))) from None
    check_database(db)
    try:
        socks = listeners(host, port, workers)
    except OSError as exc:
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        raise UsageProblem(
            _("cannot listen on {address}: {reason}").format(
                address=where,
                reason=_("unknown host") if isinstance(exc, socket.gaierror) else os_reason(exc),
            )
        ) from None
    with contextlib.ExitStack() as held:
        for sock in socks:
            held.enter_context(sock)
        bound_port = socks[0].getsockname()[1]
        os.environ["MAHJONG_NTS_HOST"] = host
        os.environ["MAHJONG_NTS_PORT"] = str(bound_port)
        if db is not None:
            os.environ["MAHJONG_NTS_DB_URL"] = db
        if chosen is not None:
            os.environ["MAHJONG_NTS_DEFAULT_LANGUAGE"] = chosen
        os.environ["MAHJONG_NTS_WORKERS"] = str(workers)
        if node_url is not None:
            os.environ["MAHJONG_NTS_NODE_URL"] = node_url
        if workers == 1:
            config = _config(1)
            _load(config)  # builds the app now: a bad setting is an error line, not a traceback
        else:
            _load(_config(1))  # the same check; each worker builds its own app
            config = _config(workers)
        typer.echo(
            _("Open {url} in a browser. Ctrl+C stops the server.").format(
                url=address_url(host, bound_port)
            )
        )
        started = _run(config, socks)
    if not started:
        raise typer.Exit(1)


def _config(workers: int) -> Any:
    import uvicorn

    return uvicorn.Config(
        APP_FACTORY,
        factory=True,
        workers=workers,
        access_log=False,
        log_config=_log_config(),
        server_header=False,
        proxy_headers=False,
        ws_max_size=WS_MAX_BYTES,
    )


def _load(config: Any) -> None:
    try:
        config.load()
    except ValidationError as exc:
        raise UsageProblem(
            _("a MAHJONG_NTS_* environment variable: {reason}").format(
                reason=wire.error_message(exc)
            )
        ) from None


def _run(config: Any, socks: list[socket.socket]) -> bool:
    """Serve on ``socks`` until stopped: in this process, or in ``config.workers``
    processes (:func:`mahjong_nts.cli.workers.run_workers`).  Whether it started."""
    import uvicorn

    if config.workers == 1:
        server = uvicorn.Server(config)
        server.run(sockets=socks)
        return bool(server.started)
    from mahjong_nts.cli.workers import run_workers

    return run_workers(config, socks, config.workers)
