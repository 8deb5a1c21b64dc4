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

from mahjong_nts.cli import keygen, play, replay, rules, score, settle, simulate
from mahjong_nts.cli.options import UsageProblem, stderr
from mahjong_nts.core.errors import MahjongError
from mahjong_nts.formats import wire

__all__ = ["app", "main"]

app = typer.Typer(
    name="mahjong-nts",
    help="Dutch tournament Mahjong (NTS rules): score hands, settle payments, show rule sets.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

app.command("score")(score.score_cmd)
app.command("settle")(settle.settle_cmd)
app.add_typer(rules.app, name="rules")
app.command("replay")(replay.replay_cmd)
app.command("play")(play.play_cmd)
app.command("simulate")(simulate.simulate_cmd)
app.command("keygen")(keygen.keygen_cmd)


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
        stderr.print(f"error: {wire.error_message(exc)}", markup=False)
        return 2
    except OSError as exc:
        stderr.print(f"error: {exc.filename or 'input'}: {exc.strerror or exc}", markup=False)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def run() -> None:
    """``python -m mahjong_nts.cli``."""
    sys.exit(main())
