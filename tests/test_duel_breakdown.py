"""benchmarks/duel_breakdown.py: its parts add up to the duel's margin (at 4 and 3 seats),
each seat-hand has exactly one part, a bot against itself differs by 0 in every part, and
bad arguments are one error line (exit 2)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cli_helpers import invoke_main, run_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "duel_breakdown.py"
PARTS = (
    "won self-drawn",
    "won on a discard",
    "paid a self-drawn win",
    "gave the winning tile",
    "paid another's discard win",
    "remise",
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_script(SCRIPT, *args)


def _rows(out: str) -> dict[str, list[float]]:
    """Each part's numbers: A share, B share, A points, B points, A - B."""
    rows = {}
    for line in out.splitlines():
        for part in (*PARTS, "margin (the duel)"):
            if line.startswith(part):
                rows[part] = [float(x) for x in re.findall(r"[+-]?\d+\.\d+", line[len(part) :])]
    return rows


@pytest.mark.parametrize(("ruleset", "seats"), [("nts-2016", 4), ("nmb-2009+three-players", 3)])
def test_the_parts_add_up_to_the_duels_margin(ruleset: str, seats: int) -> None:
    walls = 3
    res = run("heuristic", "random", "--walls", str(walls), "--seed", "4", "--ruleset", ruleset)
    assert res.returncode == 0, res.stderr
    rows = _rows(res.stdout)
    hands = walls * (4 if seats == 4 else 6)  # a wall is dealt once per arrangement
    argv = ["duel", "heuristic", "random", "--hands", str(hands), "--seed", "4", "-r", ruleset]
    duel = json.loads(invoke_main([*argv, "--json"]).output)
    assert duel["walls"] == walls
    margin = rows["margin (the duel)"][0]
    assert abs(margin - duel["mean_diff"]) < 0.05
    assert abs(sum(rows[p][4] for p in PARTS) - margin) < 0.05 * len(PARTS)
    # every seat of a bot has one part in each hand: the shares add up to one seat's worth
    for col in (0, 1):
        assert abs(sum(rows[p][col] for p in PARTS) - 1.0) < 0.01
    assert rows["remise"][2:5] == [0.0, 0.0, 0.0]


def test_a_bot_against_itself_differs_by_zero_in_every_part() -> None:
    res = run("heuristic", "heuristic", "--walls", "2", "--seed", "7", "--ready")
    assert res.returncode == 0, res.stderr
    rows = _rows(res.stdout)
    for part in PARTS:
        a_share, b_share, a_pts, b_pts, diff = rows[part][:5]
        assert (a_share, a_pts, diff) == (b_share, b_pts, 0.0)
    ready = [line for line in res.stdout.splitlines() if "validly ready" in line]
    assert len(ready) == 2 and ready[0].split(":", 1)[1] == ready[1].split(":", 1)[1]


def test_bad_arguments_are_one_error_line() -> None:
    for args in (("strong", "nobot:X"), ("strong", "normal", "--walls", "1"), ("a",)):
        res = run(*args)
        assert res.returncode == 2
        assert res.stdout == "" and "Traceback" not in res.stderr
        assert res.stderr.splitlines()[-1].startswith("duel_breakdown.py: error: ")
