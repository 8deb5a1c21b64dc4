"""The ``mahjong-nts`` command: score, settle, rules, play, replay, simulate, duel, keygen,
serve, tournament.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback.  ``--json`` switches ``score`` and ``settle`` to the JSON
lines contract of :mod:`mahjong_nts.formats.wire` (see ``docs/json.md``).
Each command lives in a module of its own; this package face builds the app.

A run of one command imports only that command's module (``mahjong-nts simulate``
needs neither the JSON contract nor the game logs): :func:`main` builds an app of that
command alone; ``app``, every command, is built when first asked for.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Annotated, Any

import typer

from mahjong_nts.cli.clicktext import usage_text
from mahjong_nts.cli.i18n import (
    N_,
    LangProblem,
    _,
    choose,
    current,
    set_language,
    translate_command,
)
from mahjong_nts.cli.options import error, input_errors, os_problem, stderr
from mahjong_nts.core.errors import QUOTE_CHARS, MahjongError

__all__ = ["app", "main", "usage_message"]

_HELP = N_(
    "Dutch tournament Mahjong (NTS rules): score and settle hands, play against bots, "
    "replay and verify hand logs, simulate bots, show rule sets."
)

# name: (module, function, short help); a name whose function is "" is a command group
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "score": ("score", "score_cmd", N_("Score one hand and explain every item.")),
    "settle": ("settle", "settle_cmd", N_("Who pays whom, from the scores or the hands.")),
    "rules": ("rules", "", N_("List, show and compare rule sets.")),
    "replay": ("replay", "replay_cmd", N_("Show a hand log, or verify it by playing it again.")),
    "play": ("play", "play_cmd", N_("Play against bots in the terminal.")),
    "simulate": ("simulate", "simulate_cmd", N_("Play many hands between bots; summarise them.")),
    "duel": ("duel", "duel_cmd", N_("Duplicate evaluation: two bots on the same walls.")),
    "keygen": ("keygen", "keygen_cmd", N_("Make a key to sign hand logs.")),
    "serve": ("serve", "serve_cmd", N_("Start the web app (calculator, HTTP API).")),
    "tournament": (
        "tournament",
        "",
        N_("Tournaments: a seating plan, or a tournament in the database."),
    ),
}


_TAKE_LANG = frozenset({"score", "settle", "play", "serve"})
"""The commands with a ``--lang`` option of their own (it is handed on to them)."""


def _build(names: tuple[str, ...]) -> typer.Typer:
    app = typer.Typer(
        name="mahjong-nts",
        help=_HELP,
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # plain help: "[b789]" in a help text is notation, not a rich style tag
        rich_markup_mode=None,
    )
    for name in names:
        module_name, function, short_help = _COMMANDS[name]
        module = import_module(f"mahjong_nts.cli.{module_name}")
        if function:
            command: Callable[..., Any] = getattr(module, function)
            app.command(name, short_help=short_help, help=getattr(module, "HELP", None))(command)
        else:
            app.add_typer(module.app, name=name, short_help=short_help)
    # a command alone would run without its name: keep it a group of one
    app.callback()(_app_options)
    return app


def _app_options(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=N_(
                "The language of every text: nl or en (else MAHJONG_NTS_LANG, else a "
                "Dutch locale, else English); anywhere on the line."
            ),
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help=N_("Show the version and the build (compiled or pure Python), then stop."),
            is_eager=True,
            callback=lambda shown: _show_version() if shown else None,
        ),
    ] = False,
) -> None:
    """The app's own options: ``--lang`` (read by :func:`main` before the app is built)
    and ``--version``."""


def version_line() -> str:
    """``mahjong-nts 0.1.0 (pure Python)``, or ``(compiled (mypyc))``: the version and
    which build of the core and the bots runs (:mod:`mahjong_nts.core.build`)."""
    from mahjong_nts import __version__
    from mahjong_nts.core.build import COMPILED

    build = _("compiled (mypyc)") if COMPILED else _("pure Python")
    return f"{PROG} {__version__} ({build})"


def _show_version() -> None:
    typer.echo(version_line())
    raise typer.Exit()


_APP: list[typer.Typer] = []


def __getattr__(name: str) -> Any:
    """``app``: the whole command, every subcommand registered (built once)."""
    if name == "app":
        if not _APP:
            _APP.append(_build(tuple(_COMMANDS)))
        return _APP[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _app_for(args: list[str]) -> typer.Typer:
    """The app to run ``args``: of their command alone when they start with one (so
    only its module is imported), else (``--help``, no command, a typo) the whole app."""
    if args and args[0] in _COMMANDS:
        return _build((args[0],))
    app: typer.Typer = __getattr__("app")
    return app


PROG = "mahjong-nts"

_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
"""The base of typer's (click's) usage errors: ``UsageError``, ``BadParameter``,
``NoSuchOption`` and the rest; found by name, since typer may vendor click or use it."""

_LONG_WORD = re.compile(rf"\S{{{QUOTE_CHARS + 1},}}")


def _cut_word(match: re.Match[str]) -> str:
    return match.group()[: QUOTE_CHARS - 3] + "..."


def _command_path(args: list[str]) -> str:
    """The command the arguments name (``mahjong-nts rules show``), as far as they
    name one: for the hint of an error that comes without its context."""
    command: Any = typer.main.get_command(_app_for(args))
    path = [PROG]
    for arg in args:
        commands = getattr(command, "commands", None)
        if not isinstance(commands, dict) or arg not in commands:
            if arg.startswith("-") or not isinstance(commands, dict):
                continue
            break
        command = commands[arg]
        path.append(arg)
    return " ".join(path)


def usage_message(exc: Exception, args: list[str]) -> str:
    """One line for a usage error of typer (click): what is wrong (in the language of
    the run, :func:`clicktext.usage_text`), with any word of the input cut to an
    excerpt, and where to look (``see mahjong-nts score --help``).

    The line stays within :data:`wire.MAX_ERROR_CHARS` with the hint kept whole."""
    from mahjong_nts.formats import wire

    message = usage_text(exc)
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    where = path if isinstance(path, str) else _command_path(args)
    hint = " (" + _("see {command} --help").format(command=where) + ")"
    message = wire.short_message(_LONG_WORD.sub(_cut_word, message))
    room = wire.MAX_ERROR_CHARS - len(hint)
    if len(message) > room:
        message = message[: room - 3] + "..."
    return message + hint


def main(argv: list[str] | None = None) -> int:
    """The console script: run the app in the language chosen for this run (see
    :mod:`mahjong_nts.cli.i18n`); bad input exits 2 with one ``error:`` line.

    The app runs outside typer's standalone mode, so that a usage error (an unknown
    option or command, a missing or malformed value) comes here instead of being
    printed as a ``Usage:`` block with the argument echoed whole: it becomes one
    bounded ``error:`` line with a hint (:func:`usage_message`).  The commands turn
    rules errors into ``error: ...`` lines themselves; this is the last safety net.
    ``--help`` (and a command given without arguments) still prints the help."""
    before = current()
    try:
        return _main(argv)
    finally:
        set_language(before)  # a run's language does not outlive it (in-process callers)


def _main(argv: list[str] | None) -> int:
    """:func:`main`, the language not yet restored."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        lang, args, given = choose(args)
    except LangProblem as exc:
        set_language("en")
        error(str(exc))
        return 2
    set_language(lang)
    if given and args and args[0] in _TAKE_LANG:
        # their own --lang, as before: serve tells the pages only a language given
        args = [args[0], "--lang", lang, *args[1:]]
    try:
        command = typer.main.get_command(_app_for(args))
        translate_command(command)
        code = command.main(args=args, prog_name=PROG, standalone_mode=False)
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        stderr.print(str(code), markup=False)
        return 1
    except _CLICK_ERROR as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # no arguments: the help, as before
            exc.show()  # type: ignore[attr-defined]
            return int(getattr(exc, "exit_code", 2))
        error(usage_message(exc, args))
        return 2
    except typer.Abort:
        error(_("aborted"))
        return 1
    except input_errors() as exc:
        from mahjong_nts.formats import wire

        error(exc.text if isinstance(exc, MahjongError) and str(exc) else wire.error_message(exc))
        return 2
    except OSError as exc:
        error(os_problem(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    # outside standalone mode the app returns an exit code (typer.Exit) or what the
    # command returned (None)
    return code if isinstance(code, int) else 0


def run() -> None:
    """``python -m mahjong_nts.cli``."""
    sys.exit(main())
