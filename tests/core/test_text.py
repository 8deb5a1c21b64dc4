"""core.text: English texts that keep the template and parameters they were made from."""

from __future__ import annotations

import json
import pickle

import pytest

from mahjong_nts.core.errors import (
    IllegalAction,
    InvalidHand,
    MahjongError,
    NotYourTurn,
    StaleAction,
)
from mahjong_nts.core.notation import parse_hand
from mahjong_nts.core.text import N_, Text, TextList, find_param, join


def test_a_text_is_its_english() -> None:
    text = Text(N_("{n} copies of {tile}"), n=5, tile="b1")
    assert text == "5 copies of b1"
    assert isinstance(text, str)
    assert hash(text) == hash("5 copies of b1")
    assert text.template == "{n} copies of {tile}"
    assert dict(text.params) == {"n": 5, "tile": "b1"}
    assert json.dumps({"reason": text}) == '{"reason": "5 copies of b1"}'
    assert str(text) == "5 copies of b1" and type(str(text)) is str


def test_a_template_without_parameters_is_not_formatted() -> None:
    text = Text("expected a table like { self_drawn = 1000 } or false")
    assert text == "expected a table like { self_drawn = 1000 } or false"
    assert dict(text.params) == {}


def test_a_list_joins_its_parts() -> None:
    parts = [Text(N_("pung of {tile}"), tile=t) for t in ("E", "S")]
    joined = join(", ", parts)
    assert joined == "pung of E, pung of S"
    assert isinstance(joined, TextList)
    assert joined.parts == tuple(parts)


def test_texts_pickle_with_their_structure() -> None:
    inner = Text(N_("at column {column} of {text!r}"), column=3, text="b1x")
    text = Text(N_("{problem} {where}"), problem="bad", where=inner)
    back = pickle.loads(pickle.dumps(text))
    assert back == text and back.template == text.template
    assert find_param(back, "column") == 3
    joined = pickle.loads(pickle.dumps(join(" and ", ["b1", "b4"])))
    assert joined == "b1 and b4" and joined.parts == ("b1", "b4")


def test_find_param_looks_into_nested_texts() -> None:
    where = Text(N_("at column {column} of {text!r}"), column=7, text="xx")
    text = Text(N_("{problem} {where}"), problem=Text(N_("empty line")), where=where)
    assert find_param(text, "column") == 7
    assert find_param(text, "tile") is None
    assert find_param("plain", "column") is None


def test_an_error_keeps_its_text() -> None:
    error = InvalidHand(N_("{tile} is not a flower or season"), tile="b3")
    assert str(error) == "b3 is not a flower or season"
    assert error.text.template == "{tile} is not a flower or season"
    assert error.text.params == {"tile": "b3"}
    plain = MahjongError("a message from elsewhere")  # a plain message is its own template
    assert plain.text == "a message from elsewhere" == plain.text.template
    assert MahjongError().text == ""


def test_errors_pickle_with_their_text() -> None:
    for error in (
        InvalidHand(N_("{tile} is not a flower or season"), tile="b3"),
        NotYourTurn(N_("seat {seat} is not asked to decide now"), 2, seat=2),
        StaleAction(N_("stale action: {seq}"), 5, 3, seq=3),
        IllegalAction(Text(N_("the hand is over"))),
    ):
        back = pickle.loads(pickle.dumps(error))
        assert str(back) == str(error)
        assert back.text.template == error.text.template
        assert back.args == error.args


def test_a_parse_error_names_its_column_and_tile() -> None:
    with pytest.raises(MahjongError) as caught:
        parse_hand("b123 b456 X")
    assert str(caught.value).startswith("unknown tile 'X' at column 11 of 'b123 b456 X';")
    assert find_param(caught.value.text, "column") == 11
    with pytest.raises(MahjongError) as caught:
        parse_hand("b1 b1 [b111]")
    assert str(caught.value) == (
        "5 copies of b1 (2 concealed, 3 in melds): there are only 4 of each tile"
    )
    assert find_param(caught.value.text, "tile") == "b1"
