"""core.errors.quote: the one way every layer quotes a value from outside in a message."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_nts.core.errors import QUOTE_CHARS, quote


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("abc", "'abc'"),
        (None, "None"),
        (True, "True"),
        (-12, "-12"),
        (1.5, "1.5"),
        ("\x1b[31m", "'\\x1b[31m'"),  # repr escapes what a terminal would act on
        ([1, 2, 3, 4, 5, 6], "[1, 2, 3, 4, ...]"),  # first entries only
        ({"a": [[["deep"]]]}, "{'a': [[...]]}"),  # two levels deep
        (10**5000, "a whole number of about 5001 digits"),  # 10**5000 has 5001 digits
        ([10**5000], "a list too large to show"),
        (datetime.date(2020, 1, 2), "a date"),  # anything else: its type only
        (object(), "a object"),
    ],
    ids=lambda v: type(v).__name__,  # never str(): 10**5000 does not print
)
def test_quote(value: object, shown: str) -> None:
    assert quote(value) == shown


@pytest.mark.parametrize(
    "value", ["x" * 10_000, ["y" * 10_000], {"k" * 500: 1}, 7**300], ids=lambda v: type(v).__name__
)
def test_quote_is_short(value: object) -> None:
    text = quote(value)
    assert len(text) <= QUOTE_CHARS == 60
    assert text.endswith(("...", "...'", "digits", "...']", "...': 1}"))


# A container too long for the limit is shown with fewer entries and shorter strings,
# never cut through: its brackets stay closed and every string keeps its quotes.  By
# hand: the first excerpt that fits 60 characters shows up to 4 entries and strings of
# up to 60 characters with their quotes; the next, strings of 16; the next, 2 entries
# and strings of 10.
@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (["x" * 100], "['" + "x" * 11 + "...']"),  # 16 characters: 11 x's, "..." and quotes
        (["ab" * 30, "cd" * 30, 7], "['" + "ab" * 5 + "a...', '" + "cd" * 5 + "c...', 7]"),
        ({"k": ["v" * 30] * 8}, "{'k': ['" + "v" * 5 + "...', '" + "v" * 5 + "...', ...]}"),
        (["\x1b" * 3], "['\\x1b\\x1b\\x1b']"),  # short enough: whole
        # 13 escapes of 4, "..." and quotes are 57, in brackets 59: the first excerpt fits
        (["\x1b" * 30], "['" + "\\x1b" * 13 + "...']"),
        # two such strings do not; strings of 16 take 2 escapes (never half of one)
        (["\x1b" * 30] * 2, "['\\x1b\\x1b...', '\\x1b\\x1b...']"),
        ([list(range(100))] * 3, "[[0, 1, 2, 3, ...], [0, 1, 2, 3, ...], [0, 1, 2, 3, ...]]"),
    ],
    ids=lambda v: type(v).__name__,
)
def test_quote_long_container_keeps_its_brackets(value: object, shown: str) -> None:
    assert quote(value) == shown
    assert len(shown) <= QUOTE_CHARS


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=80),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=80), inner),
    max_leaves=40,
)


@given(value=json_values, limit=st.integers(5, 200))
def test_quote_of_any_json_value_fits_and_closes_its_brackets(value: object, limit: int) -> None:
    text = quote(value, limit=limit)
    assert len(text) <= limit
    if isinstance(value, list):
        assert text.startswith("[") and text.endswith("]")
    elif isinstance(value, dict):
        assert text.startswith("{") and text.endswith("}")
    elif isinstance(value, str):
        assert text[0] == text[-1] in "'\""


# A string too long is cut inside its quotes: the closing quote stays, "..." before it,
# and the whole is at most QUOTE_CHARS (60) characters.  Expected values by hand: the
# repr of n plain characters is n + 2 long, so 58 of them are exactly 60; past that,
# 55 characters + 2 quotes + "..." are 60.
@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("", "''"),
        ("abc", "'abc'"),
        ("x" * 57, "'" + "x" * 57 + "'"),  # 59: under the bound
        ("x" * 58, "'" + "x" * 58 + "'"),  # 60: exactly at the bound, whole
        ("x" * 59, "'" + "x" * 55 + "...'"),  # 61: one over, cut
        ("x" * 10_000, "'" + "x" * 55 + "...'"),
        # \x1b is 4 characters in the repr: 13 of them (52) fit before "...'", 14 (56) not
        ("\x1b" * 100, "'" + "\\x1b" * 13 + "...'"),
        # with an apostrophe repr quotes with ": "it's " (5) and 50 a's fit
        ("it's " + "a" * 100, "\"it's " + "a" * 50 + '..."'),
    ],
    ids=lambda v: f"{len(v)} chars",
)
def test_quote_long_string_keeps_its_quotes(value: str, shown: str) -> None:
    assert quote(value) == shown
    assert len(shown) <= QUOTE_CHARS


def test_quote_string_with_a_smaller_limit() -> None:
    assert quote("abcdef", limit=8) == "'abcdef'"  # 8: exactly at the bound
    assert quote("abcdefg", limit=8) == "'abc...'"
