"""The JSON contract (mahjong_nts.formats.wire): requests, responses, error lines, fuzzing."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_nts.formats import wire
from wire_helpers import FIVE_HANDS, WINNER, error, score, settle

NON_WINNER = {
    "seat_wind": "S",
    "round_wind": "E",
    "concealed": "b1 b1 b1 k5 k5 t2 t3",
    "melds": [
        {"kind": "pung", "tiles": "C C C", "open": True},
        {"kind": "chow", "tiles": "t4 t5 t6", "open": True},
    ],
}


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


def test_partial_hand_scores_only_its_sets() -> None:
    # seat S, round E (nts-2016): concealed pung of C 8 + open pung of E 4; the pair of W
    # is nobody's wind here, so it is worth nothing. Doublings: dragon pung 1, round-wind
    # pung 1: 12 x 4 = 48. No whole-hand doubling (all honours) from the sets shown.
    resp = score(
        {
            **NON_WINNER,
            "concealed": "C C C W W",
            "melds": [{"kind": "pung", "tiles": "E E E"}],
            "partial": True,
        }
    )
    assert (resp["points"], resp["doublings"], resp["score"]) == (12, 2, 48)
    assert {i["id"] for i in resp["items"]} == {
        "pung_major_concealed",
        "pung_major_open",
        "pung_dragon",
        "pung_round_wind",
    }


def test_partial_hand_errors() -> None:
    too_many = score({**NON_WINNER, "concealed": "b111 b222 b333 b444", "partial": True})
    assert too_many["error"].startswith("hand: a partial hand has at most 13 tiles")
    won = score({**WINNER, "partial": True})
    assert won["error"].startswith("partial: a partial hand (only the sets that score)")
    assert score({**NON_WINNER, "partial": "yes"})["error"].startswith("partial:")
    # without partial, the same sets are a wrong number of tiles
    whole = score({**NON_WINNER, "concealed": "PPP", "melds": []})
    assert "non-winning hand has 13 tiles" in whole["error"]


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
        # an unknown key spelled like a union member is still named
        ({"str": 1}, "str: unknown field"),
        ({"win": {"list[str]": True}}, "win.list[str]: unknown field"),
        ({"melds": [{"kind": "pung", "tiles": 5}]}, "melds[0].tiles: expected tiles as a"),
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
        ("[" * 100_000, "the line is longer than 65536 bytes"),
        ("[" * 1000 + "]" * 1000, "nested more than 16 levels deep"),
        ('{"winner": 1, "winner": 2}', "duplicate key 'winner'"),
        ('{"winner": ' + "9" * 6000 + "}", "a whole number of 6000 digits: at most 80"),
        ('{"round_to": NaN}', "NaN is not a JSON number"),
        ('{"round_to": 1e400}', "too large"),
    ],
    ids=[
        "open",
        "array",
        "string",
        "null",
        "number",
        "utf8",
        "long",
        "deep",
        "dup",
        "digits",
        "nan",
        "inf",
    ],
)
def test_bad_json_lines(line: str | bytes, expected: str) -> None:
    assert expected in error(wire.handle_score_line(line))
    assert expected in error(wire.handle_settle_line(line))


# --------------------------------------------------------------------------- framing, bounds


class Recording(io.BytesIO):
    """A byte stream that remembers the longest piece any one read returned."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.longest = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.longest = max(self.longest, len(line))
        return line


def test_read_lines_bounds_and_endings() -> None:
    data = b"".join(
        [
            b"a" * 10 + b"\n",  # exactly the bound
            b"\n",  # blank: skipped
            b"  \t \r\n",  # blank too
            b"b" * 11 + b"\n",  # one byte over, ended within the read
            b"c" * 5000 + b"\n",  # far over: never read whole
            b"d" * 9 + b"\r\n",  # CRLF
            b"e" * 10,  # the last line without a newline
        ]
    )
    stream = Recording(data)
    got = list(wire.read_lines(stream, max_bytes=10))
    assert got == [
        b"a" * 10,
        wire.LineTooLong(11),
        wire.LineTooLong(),
        b"d" * 9,
        b"e" * 10,
    ]
    assert stream.longest <= 12  # 10 + "\r\n": the 5000-byte line only in pieces


def test_read_lines_answers_an_overlong_line_before_reading_on() -> None:
    stream = Recording(b"x" * 100_000 + b"\n{}\n")
    lines = wire.read_lines(stream, max_bytes=100)
    assert next(lines) == wire.LineTooLong()
    assert stream.tell() == 102  # only the start was read when the answer is due
    assert next(lines) == b"{}"
    assert stream.longest <= 102


def test_read_lines_text_stream() -> None:
    stream = io.StringIO("é" * 6 + "\n" + "é" * 4 + "\n")  # 12 and 8 bytes
    assert list(wire.read_lines(stream, max_bytes=10)) == [
        wire.LineTooLong(12),
        "é".encode() * 4,
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "\ud800",  # a lone high surrogate (a str built in Python)
        "x\udfff",  # a lone low surrogate outside surrogateescape's range
        b"\xff\xfe".decode("utf-8", "surrogateescape"),  # stdin with surrogateescape
        "\udc80\ud800",  # both kinds in one line
    ],
)
def test_read_lines_text_stream_with_a_lone_surrogate(bad: str) -> None:
    """Regression: a lone surrogate that surrogateescape cannot encode raised
    UnicodeEncodeError out of read_lines; now its line gets its error and the
    stream goes on."""
    good = json.dumps(WINNER)
    stream = io.StringIO(f"{good}\n{bad}\n{good}\n")
    lines = list(wire.read_lines(stream))
    assert len(lines) == 3 and lines[0] == lines[2] == good.encode()
    assert isinstance(lines[1], bytes)
    answers = [json.loads(wire.answer_score_line(line)) for line in lines]  # type: ignore[arg-type]
    assert "error" not in answers[0] and answers[0] == answers[2]
    assert set(answers[1]) == {"error"} and "not valid UTF-8" in answers[1]["error"]


def test_overlong_line_answer() -> None:
    answer = json.loads(wire.LineTooLong().answer)
    assert answer == {
        "error": "the line is longer than 65536 bytes: a request has at most 65536 bytes"
    }


@pytest.mark.parametrize("kind", [str, bytes])
def test_ten_megabyte_line_is_not_echoed(kind: type) -> None:
    line = json.dumps({**WINNER, "concealed": "b1 " * 3_500_000})
    msg = error(wire.handle_score_line(line if kind is str else line.encode()))
    assert msg.startswith("the line is longer than 65536 bytes")
    assert len(msg) < 100


def test_line_at_the_bound_is_parsed() -> None:
    short = json.dumps(WINNER)
    pad = wire.MAX_LINE_BYTES - len(short)
    line = json.dumps({**WINNER, "concealed": WINNER["concealed"] + " " * pad})
    assert len(line) == wire.MAX_LINE_BYTES
    assert wire.handle_score_line(line)["score"] == 576
    assert wire.handle_score_line(line.encode())["score"] == 576
    longer = json.dumps({**WINNER, "concealed": WINNER["concealed"] + " " * (pad + 1)})
    assert error(wire.handle_score_line(longer)).startswith("the line is longer than 65536")
    # a str within the bound in characters but not in UTF-8 bytes
    wide = json.dumps({**WINNER, "x": "é" * (wire.MAX_LINE_BYTES // 2)}, ensure_ascii=False)
    assert len(wide) < wire.MAX_LINE_BYTES < len(wide.encode())
    assert "bytes long: at most 65536" in error(wire.handle_score_line(wide))


@pytest.mark.parametrize(
    "request_",
    [
        {**WINNER, "concealed": "b1 " + "x" * 60_000},  # the core quotes the tiles it read
        {**WINNER, "winning_tile": "q" * 60_000},
        {**WINNER, "k" * 60_000: 1},  # an unknown field with a long name
        {**WINNER, "seat_wind": "Q" * 60_000},
        {**WINNER, "melds": [{"kind": "chow", "tiles": ["b1"] * 5000}]},
    ],
    ids=["tiles", "winning_tile", "key", "wind", "meld"],
)
def test_error_messages_are_bounded(request_: dict[str, Any]) -> None:
    msg = error(score(request_))
    assert len(msg) <= wire.MAX_ERROR_CHARS
    assert "x" * 60 not in msg and "q" * 60 not in msg and "k" * 60 not in msg


def test_error_messages_escape_control_characters() -> None:
    msg = error(score({**WINNER, "\x1b[31mred\x07": 1}))
    assert "\x1b" not in msg and "\x07" not in msg
    assert msg.startswith("\\x1b[31mred\\x07: unknown field")
    assert "\x1b" not in error(score({**WINNER, "seat_wind": "\x1b[2J"}))


def test_short_message() -> None:
    assert wire.short_message("plain") == "plain"
    assert wire.short_message("a: unknown tile 'qq' in '" + "b1 " * 40 + "'") == (
        "a: unknown tile 'qq' in '" + "b1 " * 18 + "b...'"
    )
    assert wire.short_message('"' + "z" * 58 + '"') == '"' + "z" * 58 + '"'  # 60: kept
    assert wire.short_message('"' + "z" * 59 + '"') == '"' + "z" * 55 + '..."'
    prose = "hands[0]: the winner's hand may not go mahjong: 1 doubling: a mahjong needs 2"
    assert wire.short_message(prose) == prose  # an apostrophe is not a quote
    assert wire.short_message(prose + " 'b1'") == prose + " 'b1'"
    assert wire.short_message("a\nb\x9bc") == "a\\x0ab\\x9bc"
    cut = wire.short_message("y" * 10_000)
    assert len(cut) == wire.MAX_ERROR_CHARS and cut.endswith("...")


# Pieces of text that pair quote marks in many ways: reprs holding both kinds, names
# with apostrophes, long runs of one letter.
_message_parts = st.sampled_from(["'", '"', "':", '": ', "{'\"': None}", " got ", "x" * 30])


@given(parts=st.lists(_message_parts | st.text(max_size=70), max_size=40))
def test_short_message_said_twice_says_the_same(parts: list[str]) -> None:
    """A web answer bounds a message the JSON lines already bounded: the second time
    must change nothing (a hypothesis example once found a cut whose quote marks paired
    into a new long piece, so the two answers differed)."""
    once = wire.short_message("".join(parts))
    assert wire.short_message(once) == once
    assert len(once) <= wire.MAX_ERROR_CHARS


def test_answer_line_writes_json_inside_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    good = wire.answer_score_line(json.dumps(WINNER))
    assert json.loads(good)["score"] == 576 and "\n" not in good
    assert json.loads(wire.answer_settle_line("[]")) == {
        "error": "a request must be a JSON object, not an array"
    }
    # an answer that cannot be written (a bug) is itself answered, never raised
    monkeypatch.setattr(wire, "score", lambda req: {"score": object()})
    bad = json.loads(wire.answer_score_line(json.dumps(WINNER)))
    assert bad["error"].startswith("internal error: TypeError")
    monkeypatch.setattr(wire, "score", lambda req: {"score": 10**5000})
    bad = json.loads(wire.answer_score_line(json.dumps(WINNER)))
    assert bad["error"].startswith("internal error: ValueError")
    assert len(bad["error"]) <= wire.MAX_ERROR_CHARS


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
        ([1, 2, 3], "scores: rule set 'nts-2016' is played by four players: give 4 scores, got 3"),
        ([1, 2, 3, 4, 5], "scores: rule set 'nts-2016' is played by four players: give 4"),
        ([1, 2, 3, 4] * 1000, "scores: rule set 'nts-2016' is played by four players"),
        ([1, -2, 3, 4], "scores[1]: a score is a whole number 0-281474976710656, got -2"),
        ([1, 2, 2**48 + 1, 4], "scores[2]: a score is a whole number 0-281474976710656, got"),
        ([1, 2, 3, 10**79], "scores[3]: a score is a whole number 0-281474976710656, got"),
        ([1, "2", 3, 4], "scores[1]"),
        ([1, 2.5, 3, 4], "scores[1]"),
        ([1, True, 3, 4], "scores[1]"),
    ],
)
def test_settle_bad_scores(scores: list[Any], expected: str) -> None:
    assert expected in error(settle({"winner": 0, "scores": scores}))


def test_settle_largest_score() -> None:
    """The bound itself is accepted; nts-2016: East (seat 0) wins, receives double."""
    top = 2**48  # core.rules.MAX_SCORE: the most a valid rule set scores
    resp = settle({"winner": 0, "scores": [top, 0, 0, 0]})
    assert resp["balances"] == [6 * top, -2 * top, -2 * top, -2 * top]
    assert max(abs(b) for b in resp["balances"]) < 2**53


# --- three and five players (NTS 2016, 2.1; NMB 2009, "Het verrekenen van de punten",
# --- "Drie spelers", "Vijf spelers"); every value below is worked out by hand.


def test_settle_three_players_discarder_pays_double() -> None:
    """nmb-2009 at three: the discarder pays the winner double, the others single;
    the two losers settle their difference (16 against 4: West pays East 12)."""
    resp = settle(
        {
            "ruleset": "nmb-2009+three-players",
            "winner": 1,
            "discarder": 2,
            "scores": [16, 64, 4],
        }
    )
    assert resp["balances"] == [-64 + 12, 64 + 2 * 64, -2 * 64 - 12]
    assert resp["payments"] == [[0, 1, 64], [2, 0, 12], [2, 1, 128]]
    assert resp["scores"] == [16, 64, 4]


def test_settle_three_players_green_dragon_hand() -> None:
    """The dominant player (seat 2) pays and receives double; East (seat 1) does not.
    Seat 0 wins 40 self-drawn: 40 from seat 1, 80 from seat 2.  Losers: seat 2
    receives 2 x 24 from seat 1 and pays him 2 x 8: seat 1 pays seat 2 32."""
    resp = settle(
        {
            "ruleset": "nmb-2009+three-players",
            "east": 1,
            "winner": 0,
            "dominant": 2,
            "scores": [40, 8, 24],
        }
    )
    assert resp["balances"] == [120, -72, -48]
    assert resp["payments"] == [[1, 0, 40], [1, 2, 32], [2, 0, 80]]


def test_settle_three_players_east_double() -> None:
    """nts-2016 at three, no green-dragon hand: East (seat 0) pays double.  East
    gives the winning tile of 30 (60, no discarder double in nts-2016), West pays
    30; East pays West 2 x 10."""
    resp = settle(
        {
            "ruleset": "nts-2016+three-players",
            "winner": 1,
            "discarder": 0,
            "scores": [0, 30, 10],
        }
    )
    assert resp["balances"] == [-80, 90, -10]
    assert resp["payments"] == [[0, 1, 60], [0, 2, 20], [2, 1, 30]]


def test_settle_five_players_dreamer_balance_zero() -> None:
    """nmb-2009 at five: seat 0 dreams; seat 4 wins 100 on seat 2's discard (200
    from him, 100 from seats 1 and 3).  Losers 30, 20, 12: seat 2 pays seat 1 10,
    seat 3 pays seat 1 18 and seat 2 8."""
    resp = settle(
        {
            "ruleset": "nmb-2009+five-players",
            "east": 1,
            "dreamer": 0,
            "winner": 4,
            "discarder": 2,
            "scores": [0, 30, 20, 12, 100],
        }
    )
    assert resp["balances"] == [0, -72, -202, -126, 400]
    assert resp["payments"] == [
        [1, 4, 100],
        [2, 1, 10],
        [2, 4, 200],
        [3, 1, 18],
        [3, 2, 8],
        [3, 4, 100],
    ]
    assert resp["scores"] == [0, 30, 20, 12, 100]


def test_settle_five_players_east_double() -> None:
    """nts-2016 at five: seat 2 dreams, seat 3 is East (double).  Seat 0 wins 24
    self-drawn: 48 from East, 24 from seats 1 and 4.  Losers 8 (seat 1), 16 (East),
    4 (seat 4): seat 1 pays East 2 x (16 - 8), seat 4 pays seat 1 8 - 4 and East
    2 x (16 - 4)."""
    resp = settle(
        {
            "ruleset": "nts-2016+five-players",
            "east": 3,
            "dreamer": 2,
            "winner": 0,
            "scores": [24, 8, 0, 16, 4],
        }
    )
    assert resp["balances"] == [96, -36, 0, -8, -52]
    assert resp["payments"] == [
        [1, 0, 24],
        [1, 3, 16],
        [3, 0, 48],
        [4, 0, 24],
        [4, 1, 4],
        [4, 3, 24],
    ]


def test_settle_five_players_remise() -> None:
    resp = settle(
        {"ruleset": "nmb-2009+five-players", "dreamer": 4, "winner": None, "scores": [5] * 4 + [0]}
    )
    assert resp["balances"] == [0] * 5 and resp["payments"] == []


def test_settle_three_players_from_hands() -> None:
    """nmb-2009 at three (East seat 0, South 1, West 2; round wind East).

    South wins self-drawn on b6 (b45 waits on b3 and b6): mahjong 20, self-drawn
    15, concealed pung of red dragons 8, open pung of South (own wind) 4 = 47
    points; doublings: dragons 1, own wind 1: 47 x 4 = 188.  East: concealed pungs
    b999 8 and k222 4, pair of green dragons 2: 14.  West: open pung b777 2,
    concealed pung k555 4, pair of West (own wind) 2: 8.  Nobody doubles: each
    loser pays South 188; West pays East 14 - 8 = 6."""
    resp = settle(
        {
            "ruleset": "nmb-2009+three-players",
            "winner": 1,
            "hands": [
                {"concealed": "b999 k222 k34 b56 E FF"},
                {
                    "concealed": "b123 b456 CCC k11",
                    "melds": [{"kind": "pung", "tiles": "SSS"}],
                    "winning_tile": "b6",
                },
                {"concealed": "k555 WW b12 k89 E", "melds": [{"kind": "pung", "tiles": "b777"}]},
            ],
        }
    )
    assert [h["score"] for h in resp["hands"]] == [14, 188, 8]
    assert resp["scores"] == [14, 188, 8]
    assert resp["balances"] == [-182, 376, -194]
    assert resp["payments"] == [[0, 1, 188], [2, 0, 6], [2, 1, 188]]


def test_settle_five_players_from_hands() -> None:
    """nts-2016 at five, seat 4 dreams, seat 0 is East (double), round wind West.
    West receives 2 x 120 from East, 120 from South and from North (no discarder
    double in nts-2016).  Losers 6 (East), 16, 4: East pays South 2 x (16 - 6),
    North pays East 2 x (6 - 4) and South 16 - 4."""
    resp = settle(
        {
            "ruleset": "nts-2016+five-players",
            "dreamer": 4,
            "round_wind": "W",
            "winner": 2,
            "discarder": 3,
            "hands": FIVE_HANDS,
        }
    )
    assert [h and h["score"] for h in resp["hands"]] == [6, 16, 120, 4, None]
    assert resp["scores"] == [6, 16, 120, 4, 0]
    assert resp["balances"] == [-256, -88, 480, -136, 0]
    assert resp["payments"] == [
        [0, 1, 20],
        [0, 2, 240],
        [1, 2, 120],
        [3, 0, 4],
        [3, 1, 12],
        [3, 2, 120],
    ]


def test_settle_five_players_seat_winds_pass_over_the_dreamer() -> None:
    """With seat 1 East and seat 3 dreaming: 1 East, 2 South, 4 West, 0 North."""
    assert [wire.seat_wind(i, 1, seats=5, dreamer=3).token for i in (1, 2, 4, 0)] == list("ESWN")
    assert [wire.seat_wind(i, 2, seats=3).token for i in (2, 0, 1)] == list("ESW")
    hands = [FIVE_HANDS[4], *FIVE_HANDS[:4]]  # everyone one seat on: seat 0 dreams
    request = {
        "ruleset": "nts-2016+five-players",
        "east": 1,
        "dreamer": 0,
        "round_wind": "W",
        "winner": 3,
        "discarder": 4,
        "hands": hands,
    }
    resp = settle(request)
    assert resp["balances"] == [0, -256, -88, 480, -136]
    named = list(hands)
    named[3] = {**hands[3], "seat_wind": "W"}
    assert settle({**request, "hands": named})["balances"] == resp["balances"]
    named[3] = {**hands[3], "seat_wind": "N"}
    assert error(settle({**request, "hands": named})) == (
        "hands[3].seat_wind: seat 3 is West when seat 1 is East, not 'N'"
    )


SCORES_3 = {"ruleset": "nmb-2009+three-players", "winner": 0, "scores": [10, 0, 0]}
SCORES_5 = {
    "ruleset": "nmb-2009+five-players",
    "winner": 0,
    "dreamer": 4,
    "scores": [10, 0, 0, 0, 0],
}
HANDS_5 = {
    "ruleset": "nts-2016+five-players",
    "dreamer": 4,
    "round_wind": "W",
    "winner": 2,
    "discarder": 3,
    "hands": FIVE_HANDS,
}


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (
            {**SCORES_3, "scores": [10, 0, 0, 0]},
            "scores: rule set 'nmb-2009+three-players' is played by three players: give 3 "
            "scores, got 4",
        ),
        (
            {**SCORES_5, "scores": [10, 0, 0, 0]},
            "scores: rule set 'nmb-2009+five-players' seats five players (four play each hand, "
            "the fifth is the dreamer): give 5 scores, got 4",
        ),
        ({**SCORES_3, "east": 3}, "east: 3 is not a seat at a table of three (seats 0-2)"),
        ({**SCORES_3, "winner": -1}, "winner: -1 is not a seat at a table of three (seats 0-2)"),
        (
            {"winner": 4, "scores": [0, 0, 0, 0]},
            "winner: 4 is not a seat at a table of four (seats 0-3)",
        ),
        (
            {**SCORES_5, "winner": 10**79},
            "winner: 1000000000000000000000000000000000000000000000000000",
        ),
        ({**SCORES_5, "discarder": 5}, "discarder: 5 is not a seat at a table of five (seats 0-4)"),
        (
            {k: v for k, v in SCORES_5.items() if k != "dreamer"},
            "dreamer: at a table of five one player sits each hand out: give the dreamer's seat "
            "(0-4)",
        ),
        (
            {**SCORES_3, "dreamer": 1},
            "dreamer: only a table of five has a dreamer; rule set 'nmb-2009+three-players' is "
            "played by three players",
        ),
        (
            {**SCORES_5, "dreamer": 0, "east": 1},
            "winner: seat 0 is the dreamer, who sits the hand out and cannot win",
        ),
        (
            {**SCORES_5, "east": 4},
            "east: seat 4 is the dreamer, who sits the hand out and cannot be East",
        ),
        (
            {**SCORES_5, "discarder": 4},
            "discarder: seat 4 is the dreamer, who sits the hand out and cannot give the winning "
            "tile",
        ),
        (
            {**SCORES_5, "dominant": 4},
            "dominant: seat 4 is the dreamer, who sits the hand out and cannot be the dominant "
            "player",
        ),
        (
            {**SCORES_5, "scores": [10, 0, 0, 0, 8]},
            "scores[4]: seat 4 is the dreamer, who plays no hand: his score is 0, not 8",
        ),
        (
            {"winner": 0, "dominant": 1, "scores": [1, 0, 0, 0]},
            "dominant: rule set 'nts-2016' plays no green-dragon hand, so there is no dominant "
            "player",
        ),
        ({**SCORES_3, "round_to": 1001}, "round_to: expected a whole number 0-1000, got 1001"),
        ({**SCORES_3, "round_to": -5}, "round_to: expected a whole number 0-1000, got -5"),
        (
            {**HANDS_5, "hands": [*FIVE_HANDS[:4], FIVE_HANDS[0]]},
            "hands[4]: seat 4 is the dreamer, who plays no hand: give null",
        ),
        (
            {**HANDS_5, "hands": [None, *FIVE_HANDS[1:]]},
            "hands[0]: null stands for the dreamer's hand, and the dreamer is seat 4",
        ),
        (
            {"winner": 0, "hands": [None] * 4},
            "hands[0]: null stands for the dreamer's hand, and this table has none",
        ),
        (
            {**HANDS_5, "hands": FIVE_HANDS[:4]},
            "hands: rule set 'nts-2016+five-players' seats five players",
        ),
        (
            {**HANDS_5, "round_wind": "F"},
            "dominant: the green-dragon hand (round wind F) has a dominant player: give his seat",
        ),
        (
            {**HANDS_5, "dominant": 1},
            "dominant: the dominant player belongs to the green-dragon hand, whose round wind is "
            "F, not 'W'",
        ),
        (
            {**HANDS_5, "hands": [*FIVE_HANDS[:3], {**FIVE_HANDS[3], "round_wind": "S"}, None]},
            "hands[3].round_wind: 'S' differs from the settle request's round wind 'W'",
        ),
        (
            {
                "ruleset": "nmb-2009+three-players",
                "winner": 0,
                "round_wind": "N",
                "hands": [{"concealed": ""}] * 3,
            },
            "round_wind: 'N': rule set 'nmb-2009+three-players' plays with the winds E, S, W only",
        ),
        (
            {"winner": 0, "round_wind": "F", "hands": [{"concealed": ""}] * 4},
            "round_wind: F: rule set 'nts-2016' plays no green-dragon hand",
        ),
    ],
)
def test_settle_table_errors(request_: dict[str, Any], expected: str) -> None:
    assert error(settle(request_)).startswith(expected)


def test_melds_bound() -> None:
    melds = [{"kind": "pung", "tiles": "b111"}] * 9
    assert error(score({**WINNER, "melds": melds})) == "melds: expected at most 8 items, got 9"


DOCS = Path(__file__).resolve().parents[1] / "docs" / "json.md"


def test_docs_settle_example_answers_as_documented() -> None:
    """docs/json.md's settle example: every request gets the answer written under it
    (the shortened ``hands`` responses by their scores)."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("mahjong-nts settle --json <<'EOF'\n", 1)[1]
    requests = block.split("\nEOF\n", 1)[0].splitlines()
    answers = block.split("```json\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert len(requests) == len(answers) == 10
    for request, documented in zip(requests, answers, strict=True):
        actual = wire.handle_settle_line(request)
        if "..." not in documented:
            assert json.loads(documented) == actual, request
            continue
        head, hands = documented.split(', "hands": ', 1)
        assert head == json.dumps({k: v for k, v in actual.items() if k != "hands"})[:-1]
        scores = [int(m) for m in re.findall(r'"score": (\d+)', hands)]
        assert scores == [h["score"] for h in actual["hands"] if h is not None]
        assert hands.count("null") == actual["hands"].count(None)


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
    "partial",
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


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_fuzz_score_lines(line: str | bytes) -> None:
    response = wire.handle_score_line(line)
    check_line(response)
    if "error" not in response:
        assert set(response) >= SCORE_KEYS


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
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
