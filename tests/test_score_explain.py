"""The score explanation and the scorer's refusals through the front ends: the JSON
response's ``detail`` and ``not_counted``, the terminal's Detail column and "Not counted"
part, and one ``error:`` line (exit 2) for a hand the table cannot hold."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli import app
from wire_helpers import score

runner = CliRunner()

# Seat South, round East: b23 + the discarded b4 (b1 would also have done), a pung of W
# (neither wind), a pung of red dragons; clean bamboo.  36 points, 2 doublings = 144.
CLAIMED = {
    "seat_wind": "S",
    "round_wind": "E",
    "concealed": "b123 WWW CCC b23 b55 b4",
    "winning_tile": "b4",
    "win": {"from": "discard"},
}


def test_json_details_and_not_counted() -> None:
    resp = score(CLAIMED)
    assert resp["score"] == 144
    assert [(i["id"], i["count"], i["detail"]) for i in resp["items"]] == [
        ("pung_major_concealed", 2, "pung of W (concealed), pung of C (concealed)"),
        ("mahjong", 1, "b4, claimed from a discard"),
        ("pung_dragon", 1, "pung of C"),
        ("clean_suit", 1, "bamboo with winds and dragons"),
    ]
    assert resp["not_counted"] == [
        {
            "id": "only_possible_tile",
            "nl": "Enig mogelijke steen",
            "en": "Only possible tile",
            "reason": "b4 was not the only tile that completed the hand: b1 also did",
        },
        {
            "id": "pung_own_wind",
            "nl": "Pung/kong eigen wind",
            "en": "Pung/kong of own wind",
            "reason": "pung of W: a wind pung counts only for the own wind (S) or the "
            "round wind (E)",
        },
        {
            "id": "fully_concealed",
            "nl": "Verborgen schat",
            "en": "Fully concealed hand",
            "reason": "b4 was claimed from a discard: a fully concealed hand draws every "
            "tile itself, the winning tile too",
        },
    ]


def test_json_not_counted_is_empty_when_nothing_is_missed() -> None:
    resp = score(
        {
            "seat_wind": "E",
            "round_wind": "E",
            "concealed": "b123 k456 t789 EEE CC",
            "winning_tile": "C",
            "win": {"from": "wall"},
        }
    )
    assert resp["not_counted"] == []
    assert all(item["detail"] for item in resp["items"])


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {
                "ruleset": "nmb-2009+three-players",
                "concealed": "b123 WWW CCC t23 b55 t4",
                "winning_tile": "t4",
            },
            "t2 is not played under nmb-2009+three-players",
        ),
        (
            {"ruleset": "nts-2016+three-players", "seat_wind": "N"},
            "seat wind N does not exist under nts-2016+three-players",
        ),
        (
            {
                "ruleset": "nts-2016+three-players",
                "concealed": "WWW CCC b23 b55 b4",
                "melds": [{"kind": "chow", "tiles": "b1 b2 b3"}],
            },
            "the open chow [b123] is not possible under nts-2016+three-players",
        ),
        ({"flowers": "f1"}, "f1: nts-2016 is played without flowers and seasons"),
        ({"win": {"from": "loose_tile"}}, "needs a declared kong, and the hand has none"),
        (
            {
                "seat_wind": "E",
                "win": {"from": "wall", "heaven": True},
                "melds": [{"kind": "pung", "tiles": "W W W"}],
                "concealed": "b123 CCC b23 b55 b4",
            },
            "heaven (East wins on the 14 dealt tiles) contradicts the open meld [WWW]",
        ),
    ],
    ids=["characters", "north", "open-chow", "flowers", "loose-tile", "heaven-meld"],
)
def test_json_refuses_what_cannot_happen(change: dict[str, Any], expected: str) -> None:
    resp = score({**CLAIMED, **change})
    assert set(resp) == {"error"}
    assert expected in resp["error"]


def test_terminal_detail_column_and_not_counted() -> None:
    result = runner.invoke(
        app, ["score", "b123 WWW CCC b23 b55 +b4", "--seat", "S", "--from", "discard"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in (
        "Detail",
        "pung of C",
        "claimed from a",  # "b4, claimed from a discard", wrapped in the column
        "Not counted:",
        "Only possible tile (Enig mogelijke steen): b4 was not the only tile",
        "Fully concealed hand (Verborgen schat): b4 was claimed",
    ):
        assert text in out, text
    dutch = runner.invoke(
        app,
        ["score", "b123 WWW CCC b23 b55 +b4", "--seat", "S", "--from", "discard", "--lang", "nl"],
    )
    assert "Telt niet:" in dutch.stdout
    # in Dutch the item is named in Dutch only, and the reason is Dutch
    assert "Enig mogelijke steen: b4 was niet de enige steen" in dutch.stdout
    assert "Only possible tile" not in dutch.stdout


def test_terminal_shows_a_meld_in_a_detail_as_text() -> None:
    """The limit hand's shape holds "[b4444]": printed as is, not read as a style."""
    result = runner.invoke(
        app,
        ["score", "[b4444] (b1111) (b2222) (b3333) b5 +b5", "--ruleset", "nmb-2009", "--seat", "S"],
    )
    assert result.exit_code == 0, result.output
    assert "(b1111) (b2222) (b3333) [b4444] b55" in result.stdout


def test_terminal_refusal_is_one_error_line() -> None:
    result = runner.invoke(
        app, ["score", "b123 k456 t789 EEE C +C", "--ruleset", "nts-2016+three-players"]
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert "t7 is not played under nts-2016+three-players" in lines[0]
    assert "Traceback" not in result.output
