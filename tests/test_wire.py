"""The JSON contract (mahjong_nts.formats.wire): requests, responses, error lines, fuzzing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_nts.formats import wire

# East, round East, self-drawn: pung of East (own + round wind), pair of red dragons,
# three chows; fully concealed.  2 + 2 + 2 + 2 + 8 + 20 = 36 points, 4 doublings: 576.
WINNER = {
    "seat_wind": "E",
    "round_wind": "E",
    "concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C",
    "winning_tile": "C",
    "win": {"from": "wall"},
}
NON_WINNER = {
    "seat_wind": "S",
    "round_wind": "E",
    "concealed": "b1 b1 b1 k5 k5 t2 t3",
    "melds": [
        {"kind": "pung", "tiles": "C C C", "open": True},
        {"kind": "chow", "tiles": "t4 t5 t6", "open": True},
    ],
}


def score(request: dict[str, Any]) -> dict[str, Any]:
    return wire.handle_score_line(json.dumps(request))


def settle(request: dict[str, Any]) -> dict[str, Any]:
    return wire.handle_settle_line(json.dumps(request))


def error(response: dict[str, Any]) -> str:
    assert set(response) == {"error"}, response
    assert isinstance(response["error"], str)
    assert "internal error" not in response["error"]
    return response["error"]


# --------------------------------------------------------------------------- score


SCORE_KEYS = {
    "score",
    "points",
    "doublings",
    "limit_hand",
    "limit_hand_name",
    "base",
    "cap",
    "mahjong_allowed",
    "refusal",
    "dead",
    "items",
    "arrangement",
    "ruleset",
}


def test_score_winner_response_shape() -> None:
    resp = score(WINNER)
    assert set(resp) >= SCORE_KEYS
    assert resp["ruleset"] == "nts-2016"
    assert resp["points"] == 36
    assert resp["doublings"] == 4
    assert resp["score"] == 576
    assert resp["mahjong_allowed"] is True
    assert resp["refusal"] is None
    assert resp["limit_hand"] is None and resp["limit_hand_name"] is None
    ids = {item["id"] for item in resp["items"]}
    assert {"mahjong", "self_drawn", "pair_dragon", "fully_concealed"} <= ids
    for item in resp["items"]:
        assert set(item) == {"id", "nl", "en", "points", "doublings", "count", "detail"}
    assert resp["arrangement"]
    json.dumps(resp)


def test_score_non_winner() -> None:
    resp = score(NON_WINNER)
    assert resp["mahjong_allowed"] is None
    assert resp["score"] > 0  # pung of terminals, pung of dragons


def test_winning_tile_without_win_defaults_to_wall() -> None:
    request = {k: v for k, v in WINNER.items() if k != "win"}
    assert score(request) == score(WINNER)


def test_win_missing_flags_default_false() -> None:
    request = {**WINNER, "win": {}}
    assert score(request) == score(WINNER)


def test_tiles_as_list_or_compact() -> None:
    as_list = {**WINNER, "concealed": WINNER["concealed"].split()}
    compact = {**WINNER, "concealed": "b123 k456 t789 EEE CC"}
    assert score(as_list) == score(WINNER) == score(compact)


def test_limit_hand_name() -> None:
    resp = score(
        {
            "seat_wind": "S",
            "round_wind": "E",
            "concealed": "b1 b9 k1 k9 t1 t9 E S W N F C P P",
            "winning_tile": "P",
            "win": {"from": "discard"},
        }
    )
    assert resp["limit_hand"] == "thirteen_orphans"
    assert resp["limit_hand_name"] == {"nl": "Dertien wezen", "en": "Thirteen orphans"}
    assert resp["score"] == 2000


def test_refused_mahjong_has_reason() -> None:
    resp = score({**WINNER, "seat_wind": "S", "win": {"from": "discard"}})
    assert resp["mahjong_allowed"] is False
    assert resp["refusal"]


def test_dead_hand() -> None:
    resp = score({**NON_WINNER, "concealed": "b1 b1 b1", "dead": True})
    assert resp["dead"] is True
    assert resp["score"] == 0


def test_other_ruleset() -> None:
    resp = score({**WINNER, "ruleset": "nmb-2009"})
    assert resp["ruleset"] == "nmb-2009"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"concealed": "b1 b2 x3"}, "concealed: unknown tile 'x3'"),
        ({"concealed": ["b1", "zz"]}, "concealed[1]: unknown tile 'zz'"),
        (
            {"melds": [{"kind": "pung", "tiles": "C C C"}, {"kind": "chow", "tiles": "b1 b2 b4"}]},
            "melds[1].tiles: b1 b2 b4 is not a chow, pung or kong",
        ),
        (
            {"melds": [{"kind": "chow", "tiles": "b1 b1 b1"}]},
            "melds[0]: kind is 'chow' but b1 b1 b1 is a pung",
        ),
        (
            {"melds": [{"kind": "pung", "tiles": "C C C", "colour": "red"}]},
            "melds[0].colour: unknown field",
        ),
        ({"concealed": "b1 b1 b1 b1 b1 b2 b3 k4 k5 k6 E E C C"}, "5 copies of b1"),
        ({"concealed": "b1 b2 b3 C C"}, "has 14 tiles"),
        ({"winning_tile": "P"}, "winning_tile: P must be among the concealed tiles"),
        ({"winning_tile": "Q"}, "winning_tile: unknown tile 'Q'"),
        ({"win": {"from": "discard", "last_tile": True}}, "win: last_tile"),
        ({"win": {"from": "wall", "kong_on_kong": True}}, "win: kong_on_kong"),
        ({"win": {"from": "sky"}}, "win.from:"),
        ({"win": {"form": "wall"}}, "win.form: unknown field"),
        ({"seat_wind": "C"}, "seat_wind: 'C' is not a wind"),
        ({"round_wind": "b1"}, "round_wind: 'b1' is not a wind"),
        ({"ruleset": "nts-1999"}, "ruleset: unknown rule set 'nts-1999'"),
        ({"dead": "yes"}, "dead:"),
        ({"flowers": "b1"}, "flowers: b1 is not a flower or season"),
        ({"flowers": "f1 f1"}, "flowers:"),
        ({"concealed": "b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C C f1"}, "concealed: f1 is a flower"),
        ({"concealed": 5}, "concealed: expected tiles"),
        ({"extra": 1}, "extra: unknown field"),
    ],
)
def test_score_errors_name_the_field(change: dict[str, Any], expected: str) -> None:
    assert expected in error(score({**WINNER, **change}))


def test_win_without_winning_tile() -> None:
    request = {**NON_WINNER, "win": {"from": "wall"}}
    assert error(score(request)).startswith("win: a win needs winning_tile")


def test_missing_fields() -> None:
    msg = error(score({"seat_wind": "E"}))
    assert "round_wind: required field is missing" in msg
    assert "concealed: required field is missing" in msg


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{", "invalid JSON at column 2"),
        ("[1, 2]", "must be a JSON object, not an array"),
        ('"hand"', "must be a JSON object, not a string"),
        ("null", "not null"),
        ("12", "not a number"),
        (b"\xff\xfe{}", "not valid UTF-8"),
        ("[" * 100_000, "JSON"),
    ],
)
def test_bad_json_lines(line: str | bytes, expected: str) -> None:
    assert expected in error(wire.handle_score_line(line))
    assert expected in error(wire.handle_settle_line(line))


# --------------------------------------------------------------------------- settle


def test_settle_scores_2009_example() -> None:
    resp = settle(
        {"ruleset": "nmb-2009", "east": 0, "winner": 1, "discarder": 2, "scores": [128, 272, 0, 40]}
    )
    assert resp["balances"] == [-56, 1088, -712, -320]
    assert resp["scores"] == [128, 272, 0, 40]
    assert resp["ruleset"] == "nmb-2009"
    paid: dict[int, int] = dict.fromkeys(range(4), 0)
    for payer, payee, amount in resp["payments"]:
        assert amount > 0
        paid[payer] -= amount
        paid[payee] += amount
    assert list(paid.values()) == resp["balances"]
    assert "hands" not in resp


def test_settle_east_double_nts() -> None:
    resp = settle({"east": 0, "winner": 1, "discarder": None, "scores": [0, 100, 0, 0]})
    assert resp["balances"] == [-200, 400, -100, -100]


def test_settle_remise() -> None:
    resp = settle({"winner": None, "scores": [10, 20, 30, 40]})
    assert resp["balances"] == [0, 0, 0, 0]
    assert resp["payments"] == []


def test_settle_round_to() -> None:
    resp = settle({"winner": 0, "scores": [125, 0, 0, 0], "round_to": 10, "ruleset": "nmb-2009"})
    assert resp["scores"][0] == 130


def four_hands(winner_request: dict[str, Any]) -> list[dict[str, Any]]:
    other = {k: v for k, v in NON_WINNER.items() if k not in ("seat_wind", "round_wind")}
    win = {k: v for k, v in winner_request.items() if k not in ("seat_wind", "round_wind")}
    return [win, other, other, {**other, "concealed": "b2 b2 b2 k5 k5 t2 t3"}]


def test_settle_from_hands() -> None:
    resp = settle({"east": 0, "winner": 0, "discarder": None, "hands": four_hands(WINNER)})
    assert len(resp["hands"]) == 4
    assert resp["hands"][0]["score"] == 576
    assert resp["scores"] == [h["score"] for h in resp["hands"]]
    assert sum(resp["balances"]) == 0
    assert resp["balances"][0] > 0
    # the scores alone give the same settlement
    again = settle({"east": 0, "winner": 0, "discarder": None, "scores": resp["scores"]})
    assert again["balances"] == resp["balances"]


def test_settle_hands_seat_from_east() -> None:
    # the winner sits at index 2 and is East: his hand scores as East's
    hands = four_hands(WINNER)
    hands = [hands[1], hands[3], hands[0], hands[2]]
    resp = settle({"east": 2, "winner": 2, "discarder": None, "hands": hands})
    assert resp["hands"][2]["score"] == 576
    bad = [*hands[:3], {**hands[3], "seat_wind": "N"}]
    assert "hands[3].seat_wind: seat 3 is South" in error(
        settle({"east": 2, "winner": 2, "discarder": None, "hands": bad})
    )
    ok = [*hands[:3], {**hands[3], "seat_wind": "Z"}]
    assert "error" not in settle({"east": 2, "winner": 2, "discarder": None, "hands": ok})


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ({"winner": 0, "discarder": 1}, "hands[0]: won from wall: the winning tile was self-drawn"),
        ({"winner": 1, "discarder": None}, "hands[1]: seat 1 is the winner"),
        ({"winner": None}, "hands[0]: only the winner has a winning tile"),
        ({"winner": 0, "discarder": 0}, "discarder: the winner cannot be the discarder"),
        ({"winner": None, "discarder": 2}, "discarder: a remise"),
        ({"winner": 0, "hands": [{}] * 4}, "hands[0].concealed: required field is missing"),
        ({"winner": 0, "hands": None, "scores": None}, "request: give either scores"),
        ({"winner": 0, "scores": [1, 2, 3, 4]}, "request: give either scores"),
        ({"winner": 0, "east": 4}, "east:"),
        ({"winner": True}, "winner:"),
        ({"winner": 0, "ruleset": "nope"}, "ruleset: unknown rule set"),
    ],
)
def test_settle_errors(request_: dict[str, Any], expected: str) -> None:
    base: dict[str, Any] = {"east": 0, "discarder": None, "hands": four_hands(WINNER)}
    merged = {k: v for k, v in {**base, **request_}.items() if v is not None or k in request_}
    assert expected in error(settle(merged))


def test_settle_winner_must_be_allowed_mahjong() -> None:
    refused = {**WINNER, "win": {"from": "discard"}}
    hands = four_hands(refused)
    msg = error(settle({"east": 1, "winner": 0, "discarder": 2, "hands": hands}))
    assert msg.startswith("hands[0]: the winner's hand may not go mahjong")


def test_settle_claimed_win_needs_discarder() -> None:
    hands = four_hands({**WINNER, "win": {"from": "discard"}})
    msg = error(settle({"east": 0, "winner": 0, "discarder": None, "hands": hands}))
    assert "claimed" in msg


def test_settle_hand_errors_are_located() -> None:
    hands = four_hands(WINNER)
    hands[2] = {**hands[2], "melds": [{"kind": "chow", "tiles": "b1 b2 b4"}]}
    msg = error(settle({"east": 0, "winner": 0, "hands": hands}))
    assert msg.startswith("hands[2].melds[0].tiles:")


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([1, 2, 3], "scores:"),
        ([1, 2, 3, 4, 5], "scores:"),
        ([1, -2, 3, 4], "scores[1]"),
        ([1, "2", 3, 4], "scores[1]"),
        ([1, 2.5, 3, 4], "scores[1]"),
    ],
)
def test_settle_bad_scores(scores: list[Any], expected: str) -> None:
    assert expected in error(settle({"winner": 0, "scores": scores}))


# --------------------------------------------------------------------------- error_message


def test_error_message_kinds() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as info:
        wire.ScoreRequest.model_validate(
            {
                "seat_wind": "E",
                "round_wind": "E",
                "concealed": "",
                "melds": [{"kind": "pung", "tiles": 3}],
            }
        )
    assert wire.error_message(info.value).startswith("melds[0].tiles: expected tiles")
    try:
        json.loads("{x")
    except json.JSONDecodeError as exc:
        assert wire.error_message(exc).startswith("invalid JSON at column 2")
    assert wire.error_message(wire.FieldError("a.b", "wrong")) == "a.b: wrong"


# --------------------------------------------------------------------------- fuzzing

FIELD_NAMES = [
    "ruleset",
    "seat_wind",
    "round_wind",
    "concealed",
    "melds",
    "flowers",
    "winning_tile",
    "win",
    "dead",
    "from",
    "kind",
    "tiles",
    "open",
    "last_tile",
    "last_discard",
    "kong_on_kong",
    "first_discard",
    "heaven",
    "east",
    "winner",
    "discarder",
    "scores",
    "hands",
    "round_to",
    "dominant",
]
TOKENS = [
    "b1",
    "b5",
    "b9",
    "k1",
    "k5",
    "t9",
    "E",
    "S",
    "W",
    "N",
    "O",
    "Z",
    "F",
    "C",
    "P",
    "f1",
    "s4",
    "x",
    "",
    " ",
    "+k5",
    "[b123]",
    "wall",
    "discard",
    "loose_tile",
    "robbed_kong",
    "chow",
    "pung",
    "kong",
    "nts-2016",
    "nmb-2009",
    "rode-draak",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 3000),
    st.floats(allow_nan=False),
    st.sampled_from(TOKENS),
    st.lists(st.sampled_from(TOKENS), max_size=15).map(" ".join),
    st.text(max_size=20),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=5), inner, max_size=6),
    ),
    max_leaves=25,
)
requests = st.dictionaries(st.sampled_from(FIELD_NAMES), json_values, max_size=10)
KINDS = [f"{suit}{rank}" for suit in "bkt" for rank in range(1, 10)] + list("ESWNFCP")
WALL = [t for t in KINDS for _ in range(4)]


@st.composite
def plausible_hands(draw: st.DrawFn) -> dict[str, Any]:
    """13 or 14 real tiles (sometimes fewer or more), maybe a winning tile among them."""
    size = draw(st.sampled_from([13, 14, 14, 14, 11, 15]))
    tiles = draw(st.permutations(WALL))[:size]
    # bias towards complete-looking hands: repeat kinds by sorting and sometimes pairing
    request: dict[str, Any] = {
        "seat_wind": draw(st.sampled_from(["E", "S", "W", "N", "O", "F"])),
        "round_wind": draw(st.sampled_from(["E", "S", "F"])),
        "concealed": " ".join(sorted(tiles)),
    }
    if draw(st.booleans()):
        request["winning_tile"] = draw(st.sampled_from(tiles))
        if draw(st.booleans()):
            request["win"] = draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "from": st.sampled_from(["wall", "discard", "loose_tile", "robbed_kong"]),
                        "last_tile": st.booleans(),
                        "heaven": st.booleans(),
                        "first_discard": st.booleans(),
                        "kong_on_kong": st.booleans(),
                    },
                )
            )
    if draw(st.integers(0, 9)) == 0:
        request["dead"] = True
    if draw(st.booleans()):
        request["ruleset"] = draw(
            st.sampled_from(["nts-2016", "nmb-2009", "rode-draak", "nts-2002"])
        )
    return request


plausible_scores = plausible_hands()
lines = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=40),
    json_values.map(json.dumps),
    requests.map(json.dumps),
    plausible_scores.map(json.dumps),
)


def check_line(response: Any) -> None:
    assert isinstance(response, dict)
    text = json.dumps(response)  # always serialisable, one line
    assert "\n" not in text
    if "error" in response:
        assert set(response) == {"error"}
        assert isinstance(response["error"], str) and response["error"]
        assert "internal error" not in response["error"], response["error"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_fuzz_score_lines(line: str | bytes) -> None:
    response = wire.handle_score_line(line)
    check_line(response)
    if "error" not in response:
        assert set(response) >= SCORE_KEYS


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        lines,
        st.fixed_dictionaries(
            {"winner": st.none() | st.integers(0, 3)},
            optional={
                "east": st.integers(0, 3),
                "discarder": st.none() | st.integers(0, 3),
                "scores": st.lists(st.integers(0, 3000), min_size=4, max_size=4),
                "hands": st.lists(plausible_scores, min_size=4, max_size=4),
                "ruleset": st.sampled_from(["nts-2016", "nmb-2009"]),
            },
        ).map(json.dumps),
    )
)
def test_fuzz_settle_lines(line: str | bytes) -> None:
    response = wire.handle_settle_line(line)
    check_line(response)
    if "error" not in response:
        assert sum(response["balances"]) == 0
