"""The ``mahjong-nts`` command: score, settle, rules, play, replay, simulate, keygen.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback.  ``--json`` switches ``score`` and ``settle`` to the JSON
lines contract of :mod:`mahjong_nts.formats.wire` (see ``docs/json.md``).
Each command lives in a module of its own; this package face builds the app.

A run of one command imports only that command's module (``mahjong-nts simulate``
needs neither the JSON contract nor the game logs, nor pydantic): :func:`main` builds an
app of that command alone; ``app``, every command, is built when first asked for.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

import typer

from mahjong_nts.cli.options import error, input_errors, stderr

if TYPE_CHECKING:
    from typing import Any

__all__ = ["app", "main"]

_HELP = (
    "Dutch tournament Mahjong (NTS rules): score and settle hands, play against bots, "
    "replay and verify hand logs, simulate bots, show rule sets."
)

# name: (module, function, short help); a name whose function is "" is a command group
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "score": ("score", "score_cmd", "Score one hand and explain every item."),
    "settle": ("settle", "settle_cmd", "Who pays whom, from the scores or the hands."),
    "rules": ("rules", "", "List, show and compare rule sets."),
    "replay": ("replay", "replay_cmd", "Show a hand log, or verify it by playing it again."),
    "play": ("play", "play_cmd", "Play against bots in the terminal."),
    "simulate": ("simulate", "simulate_cmd", "Play many hands between bots; summarise them."),
    "keygen": ("keygen", "keygen_cmd", "Make a key to sign hand logs."),
    "serve": ("serve", "serve_cmd", "Start the web app (calculator, HTTP API)."),
}


def _new_app() -> typer.Typer:
    return typer.Typer(
        name="mahjong-nts",
        help=_HELP,
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # plain help: "[b789]" in a help text is notation, not a rich style tag
        rich_markup_mode=None,
    )


def _add(app: typer.Typer, name: str) -> None:
    module_name, function, short_help = _COMMANDS[name]
    module = import_module(f"mahjong_nts.cli.{module_name}")
    if function:
        command: Callable[..., None] = getattr(module, function)
        app.command(name, short_help=short_help)(command)
    else:
        app.add_typer(module.app, name=name, short_help=short_help)


def _build(names: tuple[str, ...]) -> typer.Typer:
    app = _new_app()
    for name in names:
        _add(app, name)
    if len(names) == 1:
        # one command alone would be run without its name: keep it a group
        app.callback()(_group)
    return app


def _group() -> None:
    """The app's own options: none (``--help`` only)."""


_APP: list[typer.Typer] = []


def __getattr__(name: str) -> Any:
    """``app``: the whole command, every subcommand registered (built once)."""
    if name == "app":
        if not _APP:
            _APP.append(_build(tuple(_COMMANDS)))
        return _APP[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """The console script: run the app; bad input exits 2 with one ``error:`` line.

    Usage errors are reported by typer itself (exit code 2); the commands turn
    rules errors into ``error: ...`` lines; this is the last safety net."""
    args = sys.argv[1:] if argv is None else argv
    # the command named first gets an app of its own; anything else (--help, a typo)
    # the whole app
    first = args[0] if args else ""
    app = _build((first,)) if first in _COMMANDS else __getattr__("app")
    try:
        app(args=args, prog_name="mahjong-nts")
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        stderr.print(str(code), markup=False)
        return 1
    except input_errors() as exc:
        from mahjong_nts.formats import wire

        error(wire.error_message(exc))
        return 2
    except OSError as exc:
        error(f"{exc.filename or 'input'}: {exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def run() -> None:
    """``python -m mahjong_nts.cli``."""
    sys.exit(main())
