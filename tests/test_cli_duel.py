"""``mahjong-nts duel``: the result (text and JSON), the same for any --jobs, and bad
arguments (one ``error:`` line, exit 2)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from cli_helpers import invoke_main

DUEL_KEYS = {
    "unit",
    "walls",
    "hands",
    "hands_per_wall",
    "seed",
    "ruleset",
    "ruleset_name",
    "seats",
    "a",
    "b",
    "scheme",
    "arrangements",
    "confidence",
    "mean_diff",
    "mean_diff_ci",
    "wall_sd",
    "bots",
    "remise",
    "wins",
    "decisions_per_hand",
    "timing",
}


def duel_json(*args: str) -> dict[str, Any]:
    res = invoke_main(["duel", *args, "--json"])
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def test_json_result_and_the_same_for_any_jobs() -> None:
    one = duel_json("heuristic", "random", "-n", "40", "--seed", "4")
    two = duel_json("heuristic", "random", "-n", "40", "--seed", "4", "--jobs", "2")
    assert set(one) == DUEL_KEYS
    t1, t2 = one.pop("timing"), two.pop("timing")
    assert one == two
    assert (t1["jobs"], t2["jobs"], t1["backend"]) == (1, 2, "local")
    assert t1["hands_per_second"] == pytest.approx(40 / t1["seconds"])
    assert one["walls"] == 10 and one["hands"] == 40 and one["hands_per_wall"] == 4
    assert one["arrangements"] == ["AABB", "BAAB", "BBAA", "ABBA"]
    assert one["scheme"] == "two against two" and one["seed"] == 4
    assert [b["bot"] for b in one["bots"]] == ["heuristic", "random"]
    lo, hi = one["mean_diff_ci"]
    assert lo <= one["mean_diff"] <= hi


def test_three_seats_play_six_hands_a_wall() -> None:
    s = duel_json("random", "heuristic", "-n", "13", "--seed", "2", "-r", "nts-2016+three-players")
    assert s["walls"] == 3 and s["hands"] == 18 and s["scheme"] == "one against two"
    assert s["bots"][0]["seat_hands"] == s["bots"][1]["seat_hands"] == 27


def test_text_result() -> None:
    res = invoke_main(["duel", "heuristic", "random", "-n", "8", "--seed", "1"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.stdout.split())
    assert "Duel of heuristic (A) and random (B): 8 hands on 2 walls of nts-2016 (4 seats)" in out
    assert "Seating: two of each bot, seated AABB, BAAB, BBAA, ABBA" in out
    assert "points a hand [" in out and "a wall is the unit" in out
    assert "hands/s, 1 job)" in out


def test_text_in_dutch() -> None:
    res = invoke_main(["--lang", "nl", "duel", "heuristic", "random", "-n", "8", "--seed", "1"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.stdout.split())
    assert "Duel van heuristic (A) en random (B)" in out
    assert "een muur is de eenheid" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "0"], "error: --hands must be from 1 to 1000000, not 0"),
        (["-n", "1000001"], "error: --hands must be from 1 to 1000000, not 1000001"),
        (["--jobs", "0"], "error: --jobs must be at least 1, not 0"),
        (["--seed", "-1"], "error: --seed"),
        (["-r", "nts-1900"], "error: --ruleset"),
        (["--backend", "cloud"], "error: --backend: 'cloud' is not local or ray"),
        (["--address", "auto"], "error: --address is the address of a Ray cluster"),
        (
            ["--backend", "ray", "--address", "http://x"],
            "error: --address: 'http://x' is not a Ray address",
        ),
        (
            ["--backend", "ray", "--address", "h:70000"],
            "error: --address: 'h:70000': the port is 1 to 65535, not 70000",
        ),
        (
            ["--backend", "ray", "--address", "h" * 301 + ":1"],
            "error: --address: a Ray address has at most 300 characters, not 303",
        ),
    ],
)
def test_bad_arguments(args: list[str], message: str) -> None:
    res = invoke_main(["duel", "heuristic", "random", *args])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(message), res.stderr
    assert res.stdout == "" and len(res.stderr.splitlines()) == 1


def test_bad_bots() -> None:
    res = invoke_main(["duel", "heuristic", "genius"])
    assert res.exit_code == 2
    assert res.stderr.startswith(
        "error: B: unknown bot 'genius': one of easy, heuristic, normal, random, strong"
    )
    res = invoke_main(["duel", "heuristic"])
    assert res.exit_code == 2 and "error:" in res.stderr


def test_ray_not_installed_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails as if not installed
    for command in (["duel", "heuristic", "random"], ["simulate"]):
        res = invoke_main([*command, "--backend", "ray", "-n", "8"])
        assert res.exit_code == 2, res.output
        assert res.stderr == (
            "error: --backend ray needs Ray, which is not installed: "
            "pip install 'mahjong-nts[ray]'\n"
        )


def test_simulate_refuses_logs_on_ray(tmp_path: Any) -> None:
    res = invoke_main(["simulate", "-n", "8", "--backend", "ray", "--log", str(tmp_path / "x")])
    assert res.exit_code == 2
    assert "--log writes on the machine that plays the hand" in res.stderr
    assert not (tmp_path / "x").exists()
