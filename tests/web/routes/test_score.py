"""POST /api/score (mahjong_nts/web/api/routes/score.py): the answers of score --json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import (
    NON_WINNER,
    NON_WINNER_SCORE,
    WINNER,
    WINNER_SCORE,
    error_of,
    post,
    post_json,
)

from mahjong_nts.formats import wire

GOLDEN: list[dict[str, Any]] = [
    WINNER,
    NON_WINNER,
    {**WINNER, "concealed": WINNER["concealed"].split()},
    {**WINNER, "concealed": "b123 k456 t789 EEE CC"},
    {**WINNER, "ruleset": "nmb-2009"},
    {**WINNER, "ruleset": "nts-2002"},
    {**WINNER, "ruleset": "rode-draak"},
    {**WINNER, "ruleset": "nmb-2009+flowers", "flowers": "f1 s1"},
    {**WINNER, "ruleset": {"base": "nts-2016", "scoring": {"limit": 500}}},
    {**WINNER, "seat_wind": "S", "win": {"from": "discard"}},  # refused: too few doublings
    {**NON_WINNER, "concealed": "b1 b1 b1", "dead": True},
    {
        "seat_wind": "S",
        "round_wind": "E",
        "concealed": "b1 b9 k1 k9 t1 t9 E S W N F C P P",
        "winning_tile": "P",
        "win": {"from": "discard"},
    },
]


@pytest.mark.parametrize("request_", GOLDEN, ids=range(len(GOLDEN)))
def test_answers_equal_score_json(client: TestClient, request_: dict[str, Any]) -> None:
    line = json.dumps(request_)
    response = post(client, "/api/score", line)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json() == wire.handle_score_line(line)


def test_scores_worked_out_by_hand(client: TestClient) -> None:
    winner = post_json(client, "/api/score", WINNER).json()
    assert (winner["points"], winner["doublings"], winner["score"]) == (36, 4, WINNER_SCORE)
    assert winner["mahjong_allowed"] is True
    other = post_json(client, "/api/score", NON_WINNER).json()
    assert (other["points"], other["doublings"], other["score"]) == (12, 1, NON_WINNER_SCORE)
    assert other["mahjong_allowed"] is None
    # thirteen orphans on a discard: a limit hand, 2000 in nts-2016
    orphans = post_json(client, "/api/score", GOLDEN[-1]).json()
    assert (orphans["limit_hand"], orphans["score"]) == ("thirteen_orphans", 2000)
    # the same hand under a house limit of 500
    capped = post_json(client, "/api/score", GOLDEN[8]).json()
    assert capped["score"] == 500


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"concealed": "b1 b2 x3"}, "concealed: unknown tile 'x3'"),
        ({"concealed": ["b1", "zz"]}, "concealed[1]: unknown tile 'zz'"),
        (
            {"melds": [{"kind": "chow", "tiles": "b1 b2 b4"}]},
            "melds[0].tiles: b1 b2 b4 is not a chow, pung or kong",
        ),
        ({"winning_tile": "P"}, "winning_tile: P must be among the concealed tiles"),
        ({"seat_wind": "C"}, "seat_wind: 'C' is not a wind"),
        ({"ruleset": "nts-1999"}, "ruleset: unknown rule set 'nts-1999'"),
        ({"ruleset": 7}, "ruleset: expected a shipped rule set name"),
        ({"dead": "yes"}, "dead:"),
        ({"extra": 1}, "extra: unknown field"),
        ({"melds": [{"kind": "pung", "tiles": "C C C"}] * 9}, "melds: expected at most 8 items"),
    ],
)
def test_field_problems_are_422(client: TestClient, change: dict[str, Any], expected: str) -> None:
    line = json.dumps({**WINNER, **change})
    response = post(client, "/api/score", line)
    assert response.status_code == 422
    message = error_of(response)
    assert expected in message
    assert response.json() == wire.handle_score_line(line)


def test_missing_fields_are_422(client: TestClient) -> None:
    response = post_json(client, "/api/score", {"seat_wind": "E"})
    assert response.status_code == 422
    message = error_of(response)
    assert "round_wind: required field is missing" in message
    assert "concealed: required field is missing" in message


@pytest.mark.parametrize("path", ["/etc/passwd", "../../etc/passwd", "club.toml", "/dev/zero"])
def test_a_ruleset_never_names_a_file(client: TestClient, path: str) -> None:
    response = post_json(client, "/api/score", {**WINNER, "ruleset": path})
    assert response.status_code == 422
    message = error_of(response)
    assert message.startswith("ruleset: ")
    assert "never name a file" in message
    if Path("/etc/passwd").is_file():
        first = Path("/etc/passwd").read_text(encoding="utf-8", errors="replace").split("\n")[0]
        assert first not in response.text  # nothing of the file comes back
    assert "root:" not in response.text
