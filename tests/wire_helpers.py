"""What the tests of the JSON lines share: a worked example hand, the hands of a
table of five, and the two handlers called on a request."""

from __future__ import annotations

import json
from typing import Any

from mahjong_nts.formats import wire

# East, round East, self-drawn: pung of East (own + round wind), pair of red dragons,
# three chows; fully concealed.  2 + 2 + 2 + 2 + 8 + 20 = 36 points, 4 doublings: 576
# under nts-2016 (NTS 2016, 2.4.1 and 2.4.2).
WINNER = {
    "seat_wind": "E",
    "round_wind": "E",
    "concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C",
    "winning_tile": "C",
    "win": {"from": "wall"},
}

FIVE_HANDS: list[Any] = [
    # seat 0, East: open pung b555 2, concealed pung k222 4: 6
    {"concealed": "k222 t12 b89 S E F", "melds": [{"kind": "pung", "tiles": "b555"}]},
    # seat 1, South: concealed pung of white dragons 8, 1 doubling: 16
    {"concealed": "PPP k99 t135 b247 NN"},
    # seat 2, West, wins on t9 from seat 3 (t78 waits on t6 and t9), round wind West:
    # mahjong 20, concealed pung of West 8, pair of red dragons 2 = 30; West is own
    # and round wind: 2 doublings: 120
    {"concealed": "b123 k456 t789 WWW CC", "winning_tile": "t9", "win": {"from": "discard"}},
    # seat 3, North: open pungs k333 and b666, 2 each: 4
    {
        "concealed": "t44 t67 F S E",
        "melds": [{"kind": "pung", "tiles": "k333"}, {"kind": "pung", "tiles": "b666"}],
    },
    None,  # seat 4, the dreamer
]


def score(request: dict[str, Any]) -> dict[str, Any]:
    return wire.handle_score_line(json.dumps(request))


def settle(request: dict[str, Any]) -> dict[str, Any]:
    return wire.handle_settle_line(json.dumps(request))


def error(response: dict[str, Any]) -> str:
    assert set(response) == {"error"}, response
    assert isinstance(response["error"], str)
    assert "internal error" not in response["error"]
    return response["error"]
