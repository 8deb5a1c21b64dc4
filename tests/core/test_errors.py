"""core.errors.quote: the one way every layer quotes a value from outside in a message."""

from __future__ import annotations

import datetime

import pytest

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
    assert text.endswith(("...", "...'", "digits", "...]", "...}"))


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
