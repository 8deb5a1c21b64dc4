"""The organiser's pure helpers (tournament/registration.py): the players file,
duplicates, a player's status in a round, the table-by-table record."""

from __future__ import annotations

import doctest

import pytest

import mahjong_nts.tournament.registration as registration
from mahjong_nts.tournament import InvalidPlayer, Player, Ranking, TablePoints, TableResult
from mahjong_nts.tournament.registration import (
    RECORD_HEADER,
    PlayerRow,
    check_new_players,
    read_players,
    record_rows,
    status,
)


def test_doctests() -> None:
    outcome = doctest.testmod(registration)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_columns_in_any_order_and_either_language() -> None:
    rows = read_players("EMA;Voornaam;NMB\n0412;Anna;77\n")
    assert rows == (PlayerRow(2, "Anna", ema="0412", nmb="77"),)
    rows = read_players('first_name,club\n"Bo, jr.","De ""Draak"""\n')
    assert rows == (PlayerRow(2, "Bo, jr.", club='De "Draak"'),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first name,first_name\nA,B\n", r"line 1, column 2: first name twice"),
        ("first name\n\x00Anna\n", r"line 2, column 1 \(first name\).*control character"),
        ("first name\n" + "A" * 1001 + "\n", r"line 2: longer than 1000 characters"),
        ("first name,club\nAnna," + "c" * 61 + "\n", r"line 2, column 2 \(club\): 61 characters"),
        ("first name\n  \n,\n", r"line 3: 2 fields, but the header names 1"),
    ],
)
def test_errors_name_line_and_column(text: str, message: str) -> None:
    with pytest.raises(InvalidPlayer, match=message):
        read_players(text)


def test_duplicates_by_name_ema_and_nmb() -> None:
    existing = [Player(1, "Anna", "de Vries", ema="0412", nmb="77")]
    check_new_players(existing, [PlayerRow(2, "Anna", "Visser")])
    with pytest.raises(InvalidPlayer, match=r"line 3: NMB number '77' is registered already"):
        check_new_players(existing, [PlayerRow(3, "Bo", nmb="77")])
    with pytest.raises(InvalidPlayer, match=r"line 5: EMA number '0412'.*\(line 4\)"):
        check_new_players([], [PlayerRow(4, "A", ema="0412"), PlayerRow(5, "B", ema="0412")])


def test_status_per_round() -> None:
    p = Player(4, "Dirk", first_round=2, last_round=5, absent=frozenset({4}))
    assert [status(p, r) for r in range(1, 7)] == [
        "late",
        "present",
        "present",
        "absent",
        "present",
        "dropped",
    ]
    assert status(Player(9, "Jet", first_round=3), 3, substitute=True) == "substitute"


def test_the_record_row_by_row() -> None:
    players = [Player(n, f"P{n}", "X") for n in range(1, 5)]
    res = TableResult(1, 1, (3, 1, 4, 2), (30, 30, 0, -60), (1, 1, 0, 0), (0, 0, 0, 1))
    rows = record_rows([res], players, Ranking(points=TablePoints.parse("4/2/1/0.5")))
    assert rows[0] == RECORD_HEADER
    # 3 and 1 tie for first: (4 + 2) / 2 = 3 each; then 1; the last gets 0.5
    assert rows[1:] == [
        ("1", "1", "E", "3", "P3", "X", "30", "30", "3", "1", "0"),
        ("1", "1", "S", "1", "P1", "X", "30", "30", "3", "1", "0"),
        ("1", "1", "W", "4", "P4", "X", "0", "0", "1", "0", "0"),
        ("1", "1", "N", "2", "P2", "X", "-60", "-60", "0.5", "0", "1"),
    ]
