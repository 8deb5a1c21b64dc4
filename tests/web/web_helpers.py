"""Requests shared by the web tests, with their scores worked out by hand (nts-2016)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from httpx import Response

JSON = {"content-type": "application/json"}

# East in the East round, self-drawn, fully concealed: chows b123 k456 t789, a concealed
# pung of East (8), a pair of red dragons (2), mahjong 20, self-drawn 2, completing the
# pair 2, the only possible tile 2 = 36 points; doublings: East is own and round wind
# (1 + 1), fully concealed (2) = 4.  36 x 2**4 = 576.
WINNER: dict[str, Any] = {
    "seat_wind": "E",
    "round_wind": "E",
    "concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C",
    "winning_tile": "C",
    "win": {"from": "wall"},
}
WINNER_SCORE = 576

# South, not the winner: a concealed pung of b1 (terminals, 8), an open pung of red
# dragons (4, one doubling), an open chow and loose tiles (0).  12 x 2 = 24.
NON_WINNER: dict[str, Any] = {
    "seat_wind": "S",
    "round_wind": "E",
    "concealed": "b1 b1 b1 k5 k5 t2 t3",
    "melds": [
        {"kind": "pung", "tiles": "C C C", "open": True},
        {"kind": "chow", "tiles": "t4 t5 t6", "open": True},
    ],
}
NON_WINNER_SCORE = 24

# nts-2016 settles with East paying and receiving double, the winner receiving his score
# from each player, the others paying each other the difference of their scores.
# South (seat 1) wins 40, the others 0: East pays 80, West and North 40 each.
SETTLE_SCORES: dict[str, Any] = {"scores": [0, 40, 0, 0], "winner": 1}
SETTLE_SCORES_BALANCES = [-80, 160, -40, -40]

# Scores 10, 40, 20, 0, South wins.  To South: East 80, West 40, North 40.
# West gets 10 from East, doubled: 20.  East gets 10 from North, doubled: 20.
# West gets 20 from North.  East -80 -20 +20 = -80; South +160; West -40 +20 +20 = 0;
# North -40 -20 -20 = -80.
SETTLE_DIFFERENCES: dict[str, Any] = {"scores": [10, 40, 20, 0], "winner": 1}
SETTLE_DIFFERENCES_BALANCES = [-80, 160, 0, -80]


def post(client: TestClient, path: str, body: bytes | str, **headers: str) -> Response:
    """POST ``body`` as it is (JSON content type unless ``headers`` says otherwise)."""
    content = body.encode() if isinstance(body, str) else body
    return client.post(path, content=content, headers={**JSON, **headers})


def post_json(client: TestClient, path: str, request: object) -> Response:
    return post(client, path, json.dumps(request))


def error_of(response: Response) -> str:
    """The message of an error answer: exactly ``{"error": "..."}``."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"]
    assert "internal error" not in body["error"]
    return body["error"]
