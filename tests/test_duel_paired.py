"""benchmarks/duel_paired.py: its margins are the duel's, a bot paired with itself differs
by exactly 0 on every wall, and bad arguments are one error line (exit 2)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from cli_helpers import invoke_main, run_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "duel_paired.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, *args)


def test_margins_are_the_duels_and_a_bot_paired_with_itself_differs_by_zero() -> None:
    res = run("normal", "normal", "--against", "heuristic", "--walls", "2", "--seed", "5")
    assert res.returncode == 0, res.stderr
    base, variant = res.stdout.splitlines()
    duel = json.loads(
        invoke_main(["duel", "normal", "heuristic", "--hands", "8", "--seed", "5", "--json"]).output
    )
    margin = float(re.search(r": ([+-][0-9.]+) \+-", base).group(1))  # type: ignore[union-attr]
    assert abs(margin - duel["mean_diff"]) < 0.05
    assert variant.endswith("paired: +0.0 +-0.0")


def test_bad_arguments_are_one_error_line() -> None:
    for args in (("strong", "nobot:X"), ("strong", "normal", "--walls", "1")):
        res = run(*args)
        assert res.returncode == 2
        assert res.stdout == "" and "Traceback" not in res.stderr
        assert res.stderr.splitlines()[-1].startswith("duel_paired.py: error: ")
