"""POST /api/settle (mahjong_nts/web/api/routes/settle.py): the answers of settle --json."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import (
    NON_WINNER,
    SETTLE_DIFFERENCES,
    SETTLE_DIFFERENCES_BALANCES,
    SETTLE_SCORES,
    SETTLE_SCORES_BALANCES,
    WINNER,
    error_of,
    post,
    post_json,
)

from mahjong_nts.formats import wire

HANDS: dict[str, Any] = {
    "east": 0,
    "winner": 0,
    "hands": [
        {k: v for k, v in WINNER.items() if k not in ("seat_wind", "round_wind")},
        {k: v for k, v in NON_WINNER.items() if k not in ("seat_wind", "round_wind")},
        {"concealed": "k1 k2 k3 k7 k8 k9 t1 t1 t5 t6 t7 b4 b5"},
        {"concealed": "k2 k3 k4 b6 b7 b8 t2 t2 t4 b9 b9 S S"},
    ],
}

GOLDEN: list[dict[str, Any]] = [
    SETTLE_SCORES,
    SETTLE_DIFFERENCES,
    {**SETTLE_SCORES, "discarder": 2},
    {"scores": [0, 40, 0, 0], "winner": None},
    {**SETTLE_DIFFERENCES, "ruleset": "nmb-2009", "round_to": 10},
    {"ruleset": "nts-2016+three-players", "scores": [10, 40, 20], "winner": 1},
    {"ruleset": "nts-2016+five-players", "scores": [10, 40, 0, 20, 0], "winner": 1, "dreamer": 4},
    HANDS,
]


@pytest.mark.parametrize("request_", GOLDEN, ids=range(len(GOLDEN)))
def test_answers_equal_settle_json(client: TestClient, request_: dict[str, Any]) -> None:
    line = json.dumps(request_)
    response = post(client, "/api/settle", line)
    assert response.status_code == 200, response.text
    assert response.json() == wire.handle_settle_line(line)


def test_balances_worked_out_by_hand(client: TestClient) -> None:
    answer = post_json(client, "/api/settle", SETTLE_SCORES).json()
    assert answer["balances"] == SETTLE_SCORES_BALANCES
    assert answer["payments"] == [[0, 1, 80], [2, 1, 40], [3, 1, 40]]
    answer = post_json(client, "/api/settle", SETTLE_DIFFERENCES).json()
    assert answer["balances"] == SETTLE_DIFFERENCES_BALANCES
    assert sum(answer["balances"]) == 0


def test_settle_from_hands_scores_them(client: TestClient) -> None:
    answer = post_json(client, "/api/settle", HANDS).json()
    assert answer["scores"][:2] == [576, 24]  # worked out in web_helpers
    assert [hand["score"] for hand in answer["hands"]] == answer["scores"]
    assert sum(answer["balances"]) == 0


PARTIAL_HANDS: dict[str, Any] = {
    "east": 0,
    "winner": 0,
    "hands": [
        HANDS["hands"][0],
        {"concealed": "P P P", "melds": [{"kind": "pung", "tiles": "S S S"}], "partial": True},
        {"concealed": "k1 k1 k1", "partial": True},
        {"concealed": "N N", "partial": True},
    ],
}


def test_settle_takes_the_sets_that_score_of_the_non_winners(client: TestClient) -> None:
    """As the settle page's tests/web/test_settle_page.py::test_from_partial_hands,
    worked out there: East 576 self-drawn; South 48, West 8, North 2 from their sets."""
    line = json.dumps(PARTIAL_HANDS)
    answer = post(client, "/api/settle", line).json()
    assert answer == wire.handle_settle_line(line)  # the answer of settle --json
    assert answer["scores"] == [576, 48, 8, 2]
    assert answer["balances"] == [3456, -1066, -1186, -1204]
    # each hand's answer is that of POST /api/score for it alone
    for i, seat in enumerate("ESWN"):
        if i == 0:
            continue
        alone = {**PARTIAL_HANDS["hands"][i], "seat_wind": seat, "round_wind": "E"}
        assert answer["hands"][i] == post_json(client, "/api/score", alone).json()
    # without "partial" the same sets are too few tiles for a non-winner
    whole = {**PARTIAL_HANDS, "hands": [*PARTIAL_HANDS["hands"][:3], {"concealed": "N N"}]}
    refused = post_json(client, "/api/settle", whole)
    assert refused.status_code == 422
    assert "a non-winning hand has 13 tiles" in refused.json()["error"]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ({"scores": [0, 40, 0], "winner": 1}, "scores: rule set 'nts-2016' is played by four"),
        ({"scores": [0, 40, 0, 0], "winner": 4}, "winner: 4 is not a seat at a table of four"),
        ({"scores": [0, 40, 0, 0], "winner": 1, "discarder": 1}, "discarder: the winner cannot"),
        ({"scores": [0, -1, 0, 0], "winner": 1}, "scores[1]: a score is a whole number"),
        ({"scores": [0, 40, 0, 0], "winner": True}, "winner:"),
        ({"scores": [0, 40, 0, 0]}, "winner: required field is missing"),
        ({"winner": 1}, "give either scores"),
        ({"scores": [0, 40, 0, 0], "winner": 1, "round_to": 5000}, "round_to: expected"),
        ({**SETTLE_SCORES, "ruleset": "/etc/passwd"}, "never name a file"),
    ],
)
def test_field_problems_are_422(
    client: TestClient, request_: dict[str, Any], expected: str
) -> None:
    line = json.dumps(request_)
    response = post(client, "/api/settle", line)
    assert response.status_code == 422
    assert expected in error_of(response)
    assert response.json() == wire.handle_settle_line(line)
