"""The ``mahjong-nts`` command: score, settle, rules, play, replay, simulate, keygen.

Every bad input ends with one line ``error: ...`` on stderr and exit code 2,
never a traceback.  ``--json`` switches ``score`` and ``settle`` to the JSON
lines contract of :mod:`mahjong_nts.formats.wire` (see ``docs/json.md``).
Each command lives in a module of its own; this package face builds the app.
"""

from __future__ import annotations

import sys

import typer
from pydantic import ValidationError

from mahjong_nts.cli import keygen, play, replay, rules, score, serve, settle, simulate
from mahjong_nts.cli.options import UsageProblem, error, stderr
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.formats import wire

__all__ = ["app", "main"]

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


def main(argv: list[str] | None = None) -> int:
    """The console script: run the app; bad input exits 2 with one ``error:`` line.

    Usage errors are reported by typer itself (exit code 2); the commands turn
    rules errors into ``error: ...`` lines; this is the last safety net."""
    try:
        app(args=argv, prog_name="mahjong-nts")
    except SystemExit as exc:
        code = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        stderr.print(str(code), markup=False)
        return 1
    except (MahjongError, ValidationError, UsageProblem) as exc:
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
