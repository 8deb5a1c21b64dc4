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
    assert text.endswith(("...", "digits", "...]", "...}"))
