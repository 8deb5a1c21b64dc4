"""Bounded JSON parsing (formats/safejson.py): every refusal says what is wrong."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_nts.formats.safejson import MAX_DEPTH, JsonInputError, field_path, loads


def test_plain_objects_parse() -> None:
    assert loads('{"a": [1, 2.5, "x", null, true]}', max_bytes=100) == {
        "a": [1, 2.5, "x", None, True]
    }
    assert loads(b'{"a": 1}', max_bytes=100) == {"a": 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"winner": 1, "winner": 2}', "duplicate key 'winner'"),
        ('{"a": {"b": 1, "b": 1}}', "duplicate key 'b'"),
        ('{"winner": ' + "9" * 6000 + "}", "6000 digits"),
        ('{"x": -' + "9" * 100 + "}", "100 digits"),
        ('{"x": 1e400}', "too large"),
        ('{"x": NaN}', "NaN is not a JSON number"),
        ('{"x": -Infinity}', "-Infinity is not a JSON number"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested more than"),
        ("[" * 100_000, "nested more than"),
        ('{"a": ', "invalid JSON at column"),
    ],
)
def test_refusals(text: str, message: str) -> None:
    with pytest.raises(JsonInputError, match=message.replace("(", r"\(")):
        loads(text, max_bytes=1_000_000)


def test_length_is_checked_before_parsing() -> None:
    big = '{"a": "' + "x" * 10_000_000 + '"}'
    with pytest.raises(JsonInputError) as info:
        loads(big, max_bytes=65_536)
    assert len(str(info.value)) < 100
    assert "10000009 bytes" in str(info.value)


def test_bad_utf8() -> None:
    with pytest.raises(JsonInputError, match="not valid UTF-8 \\(byte 6\\)"):
        loads(b'{"a": \xff}', max_bytes=100)


def test_depth_at_the_limit_is_fine() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(text, max_bytes=1000) == json.loads(text)


def test_field_path() -> None:
    assert field_path(["melds", 1, "tiles"]) == "melds[1].tiles"
    assert field_path([2, "a"]) == "[2].a"
    assert field_path([]) == ""
    # an unknown key can be long: each is cut to 60 characters
    assert field_path(["win", "k" * 10_000]) == "win." + "k" * 57 + "..."


@given(st.text(max_size=300))
def test_any_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        loads(text, max_bytes=10_000)
    except JsonInputError as exc:
        assert len(str(exc)) < 200


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_round_trip_within_bounds(value: object) -> None:
    text = json.dumps(value)
    try:
        assert loads(text, max_bytes=100_000) == value
    except JsonInputError as exc:
        assert "nested" in str(exc)
