"""``mahjong-nts tournament seat``: the JSON object of issue 11, the plan as text, bad
input (exit 2, one ``error:`` line), Dutch."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke_main


def _seat(*args: str) -> dict[str, Any]:
    result = invoke_main(["tournament", "seat", *args, "--json"])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _repeats_by_hand(rounds: list[list[list[int]]]) -> int:
    met: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                met[a, b] = met.get((a, b), 0) + 1
    return sum(m - 1 for m in met.values() if m > 1)


def test_json_shape() -> None:
    data = _seat("--players", "40", "--rounds", "7", "--seed", "5")
    assert set(data) == {"rounds", "repeats", "east"}
    assert len(data["rounds"]) == 7
    for tables in data["rounds"]:
        assert len(tables) == 10
        assert sorted(p for t in tables for p in t) == list(range(1, 41))
    assert data["repeats"] == 0 == _repeats_by_hand(data["rounds"])
    # east[i]: how often player i + 1 sits first (East) at a table
    east = [0] * 40
    for tables in data["rounds"]:
        for t in tables:
            east[t[0] - 1] += 1
    assert data["east"] == east
    assert sum(east) == 70 and max(east) - min(east) <= 1


def test_same_seed_same_plan() -> None:
    a = _seat("--players", "22", "--rounds", "4", "--seed", "99")
    b = _seat("--players", "22", "--rounds", "4", "--seed", "99")
    assert a == b
    # 22 players: four tables of four and two of three
    assert sorted(len(t) for t in a["rounds"][0]) == [3, 3, 4, 4, 4, 4]


def test_repeats_counted_as_pairs_beyond_the_first() -> None:
    # 5 players over 3 rounds at one table of five: every pair meets three times, and
    # counts twice: 10 pairs * 2
    data = _seat("--players", "5", "--rounds", "3", "--seed", "1")
    assert data["repeats"] == 20 == _repeats_by_hand(data["rounds"])
    assert [len(t) for t in data["rounds"][0]] == [5]


def test_text_plan() -> None:
    result = invoke_main(["tournament", "seat", "--players", "8", "--rounds", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Round 1" in out and "Round 2" in out and "Table  2:" in out
    # 8 players, 2 rounds: at least 4 repeats (see docs/tournament.md)
    assert "4 repeat meetings (the fewest possible by counting: 4)." in out
    assert "East: every player 0 to 1 times." in out
    assert "Seed 3 (give --seed 3 for the same plan)." in out


def test_dutch() -> None:
    result = invoke_main(
        ["--lang", "nl", "tournament", "seat", "--players", "8", "--rounds", "2", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "Ronde 1" in result.stdout and "Tafel  1:" in result.stdout
    assert " O " in result.stdout and " Z " in result.stdout
    assert "4 herhaalde ontmoetingen" in result.stdout
    bad = invoke_main(["--lang", "nl", "tournament", "seat", "--players", "500", "--rounds", "2"])
    assert bad.exit_code == 2
    assert bad.stderr.strip() == "error: --players: 4 tot en met 400, niet 500"


def test_clubs(tmp_path: Path) -> None:
    clubs = tmp_path / "clubs.csv"
    clubs.write_text(
        "player,club\n" + "".join(f"{p},club {p % 4}\n" for p in range(1, 33)), encoding="utf-8"
    )
    data = _seat("--players", "32", "--rounds", "4", "--clubs", str(clubs), "--seed", "2")
    club = {p: p % 4 for p in range(1, 33)}
    for tables in data["rounds"]:
        for t in tables:
            assert len({club[p] for p in t}) == len(t)  # no club mates at one table
    text = invoke_main(
        ["tournament", "seat", "-n", "32", "-r", "4", "--clubs", str(clubs), "--seed", "2"]
    )
    assert "Club mates at one table: 0 times." in text.stdout


def test_schedule(tmp_path: Path) -> None:
    schedule = tmp_path / "loopschema.csv"
    schedule.write_text("1,1,4,3,2,1\n1,2,8,7,6,5\n", encoding="utf-8")
    data = _seat("--players", "8", "--rounds", "2", "--schedule", str(schedule), "--seed", "1")
    assert data["rounds"][0] == [[4, 3, 2, 1], [8, 7, 6, 5]]
    assert sorted(p for t in data["rounds"][1] for p in t) == list(range(1, 9))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3", "--rounds", "2"], "--players: 4 to 400, not 3"),
        (["--players", "401", "--rounds", "2"], "--players: 4 to 400, not 401"),
        (["--players", "8", "--rounds", "0"], "--rounds: 1 to 20, not 0"),
        (["--players", "8", "--rounds", "21"], "--rounds: 1 to 20, not 21"),
        (["--players", "8", "--rounds", "2", "--seed", "-1"], "--seed: a whole number"),
        (["--players", "5", "--rounds", "2", "--no-fives"], "allow a table of 5"),
        (["--players", "x", "--rounds", "2"], "'x' is not a whole number"),
        (["--rounds", "2"], "missing option '--players'"),
    ],
)
def test_bad_options(args: list[str], message: str) -> None:
    result = invoke_main(["tournament", "seat", *args])
    assert result.exit_code == 2, result.output
    assert result.exception is None
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"1,A\n1,B\n", "--clubs, line 2: player 1 twice"),
        (b"9,A\n", "--clubs: player 9 is not one of 1 to 8"),
        (b"1;<b>club</b>\n", "not markup"),
        (b"1,\xff\xfe\n", "is not UTF-8 text"),
        (b"1,A\n" * 20000, "is larger than 65536 bytes"),
    ],
)
def test_bad_clubs_file(tmp_path: Path, content: bytes, message: str) -> None:
    clubs = tmp_path / "clubs.csv"
    clubs.write_bytes(content)
    result = invoke_main(["tournament", "seat", "-n", "8", "-r", "2", "--clubs", str(clubs)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_files(tmp_path: Path) -> None:
    for option in ("--clubs", "--schedule"):
        result = invoke_main(
            ["tournament", "seat", "-n", "8", "-r", "2", option, str(tmp_path / "none.csv")]
        )
        assert result.exit_code == 2
        assert f"error: {option}: " in result.stderr
        assert "no such file" in result.stderr.lower()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1,1,1,2,3,4\n1,2,5,6,7,9\n", "round 1 seats player 9, not one of 1 to 8"),
        ("1,1,1,2,3,4\n", "round 1 does not seat player 5"),
        ("1,1,1,2,3,4\n1,2,1,6,7,8\n", "player 1 at table 1 and at table 2"),
        (
            "1,1,1,2,3,4\n1,2,5,6,7,8\n2,1,1,2,3,4\n2,2,5,6,7,8\n3,1,1,2,3,4\n3,2,5,6,7,8\n",
            "3 rounds, more than --rounds 2",
        ),
    ],
)
def test_bad_schedule(tmp_path: Path, content: str, message: str) -> None:
    schedule = tmp_path / "s.csv"
    schedule.write_text(content, encoding="utf-8")
    result = invoke_main(["tournament", "seat", "-n", "8", "-r", "2", "--schedule", str(schedule)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_help_lists_tournament() -> None:
    result = invoke_main(["--help"])
    assert "tournament" in result.stdout
    result = invoke_main(["tournament", "seat", "--help"])
    assert result.exit_code == 0
    assert "--players" in result.stdout and "--clubs" in result.stdout


def test_dutch_errors_of_the_files(tmp_path: Path) -> None:
    schedule = tmp_path / "s.csv"
    schedule.write_text("1,1,1,2,3,4\n1,2,1,6,7,8\n", encoding="utf-8")
    result = invoke_main(
        ["--lang", "nl", "tournament", "seat", "-n", "8", "-r", "2", "--schedule", str(schedule)]
    )
    assert result.exit_code == 2
    assert result.stderr == ("error: --schedule: ronde 1: speler 1 aan tafel 1 en aan tafel 2\n")
    clubs = tmp_path / "c.csv"
    clubs.write_text("1,A\nx,B\n", encoding="utf-8")
    result = invoke_main(
        ["--lang", "nl", "tournament", "seat", "-n", "8", "-r", "2", "--clubs", str(clubs)]
    )
    assert result.stderr == ("error: --clubs, regel 2: 'x' is geen getal van 1 tot en met 400\n")
