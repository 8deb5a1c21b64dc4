"""The ``mahjong-nts`` command: score, settle, rules, play, replay, simulate, keygen.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback.  ``--json`` switches ``score`` and ``settle`` to the JSON
lines contract of :mod:`mahjong_nts.formats.wire` (see ``docs/json.md``).
Each command lives in a module of its own; this package face builds the app.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import typer
from pydantic import ValidationError

from mahjong_nts.cli import keygen, play, replay, rules, score, serve, settle, simulate
from mahjong_nts.cli.options import UsageProblem, error, stderr
from mahjong_nts.core.errors import QUOTE_CHARS, MahjongError, quote
from mahjong_nts.formats import wire

__all__ = ["app", "main", "usage_message"]

app = typer.Typer(
    name="mahjong-nts",
    help="Dutch tournament Mahjong (NTS rules): score and settle hands, play against bots, "
    "replay and verify hand logs, simulate bots, show rule sets.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # plain help: "[b789]" in a help text is notation, not a rich style tag
    rich_markup_mode=None,
)

app.command("score", short_help="Score one hand and explain every item.")(score.score_cmd)
app.command("settle", short_help="Who pays whom, from the scores or the hands.")(settle.settle_cmd)
app.add_typer(rules.app, name="rules", short_help="List, show and compare rule sets.")
app.command("replay", short_help="Show a hand log, or verify it by playing it again.")(
    replay.replay_cmd
)
app.command("play", short_help="Play against bots in the terminal.")(play.play_cmd)
app.command("simulate", short_help="Play many hands between bots; summarise them.")(
    simulate.simulate_cmd
)
app.command("keygen", short_help="Make a key to sign hand logs.")(keygen.keygen_cmd)
app.command("serve", short_help="Start the web app (calculator, HTTP API).")(serve.serve_cmd)


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
    command: Any = typer.main.get_command(app)
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
    """One line for a usage error of typer (click): what is wrong, with any word of
    the input cut to an excerpt, and where to look (``see mahjong-nts score --help``).

    The line stays within :data:`wire.MAX_ERROR_CHARS` with the hint kept whole."""
    option = getattr(exc, "option_name", None)
    if isinstance(option, str) and hasattr(exc, "possibilities"):  # NoSuchOption
        message = f"no such option {quote(option)}"
        possible = [p for p in getattr(exc, "possibilities", None) or [] if isinstance(p, str)]
        if possible:
            message += f"; did you mean {', '.join(sorted(possible)[:5])}?"
    else:
        format_message = getattr(exc, "format_message", None)
        message = format_message() if callable(format_message) else str(exc)
        message = " ".join(str(message).split()).rstrip(".")
        if message[:2].istitle():  # "No such command" -> "no such command"
            message = message[0].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    hint = f" (see {path if isinstance(path, str) else _command_path(args)} --help)"
    message = wire.short_message(_LONG_WORD.sub(_cut_word, message))
    room = wire.MAX_ERROR_CHARS - len(hint)
    if len(message) > room:
        message = message[: room - 3] + "..."
    return message + hint


def main(argv: list[str] | None = None) -> int:
    """The console script: run the app; bad input exits 2 with one ``error:`` line.

    The app runs outside typer's standalone mode, so that a usage error (an unknown
    option or command, a missing or malformed value) comes here instead of being
    printed as a ``Usage:`` block with the argument echoed whole: it becomes one
    bounded ``error:`` line with a hint (:func:`usage_message`).  The commands turn
    rules errors into ``error: ...`` lines themselves; this is the last safety net.
    ``--help`` (and a command given without arguments) still prints the help."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = app(args=args, prog_name=PROG, standalone_mode=False)
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
        error("aborted")
        return 1
    except (MahjongError, ValidationError, UsageProblem) as exc:
        error(wire.error_message(exc))
        return 2
    except OSError as exc:
        error(f"{exc.filename or 'input'}: {exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        return 130
    # outside standalone mode the app returns an exit code (typer.Exit) or what the
    # command returned (None)
    return code if isinstance(code, int) else 0


def run() -> None:
    """``python -m mahjong_nts.cli``."""
    sys.exit(main())
