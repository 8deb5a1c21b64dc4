"""Exceptions of the rules core.

``Invalid*`` errors mean malformed input (a bad token, a meld that is not one, a
broken rule-set value); ``Illegal*`` errors mean well-formed input that is not
allowed now.  Every one is a :class:`ValueError`, so callers that only care
about "bad input" can catch that.

Every error is raised with a message template marked for the catalogue and its
parameters, ``InvalidTile(N_("unknown tile {token!r}"), token=token)``: ``str()`` of
the error is the English, :attr:`MahjongError.text` keeps the template and parameters
(a :class:`~mahjong_nts.core.text.Text`) so that a page or the terminal can say it in
Dutch (``docs/i18n.md``).
"""

from __future__ import annotations

import reprlib
from typing import Any, Final

from mahjong_nts.core.text import N_, Text

QUOTE_CHARS: Final = 60
"""At most this many characters of a value from outside are quoted in an error
message (and of each key in a field path, see :func:`quote`)."""


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """A value from outside, shown in an error message: its repr cut to ``limit``
    characters (with ``...``; a string is cut inside its quotes, which stay, so
    ``'abc...'``).  A whole number too long for that is described by its
    size (Python refuses to print ints of more than 4300 digits); lists, tuples, sets
    and dicts show their first entries, two levels deep; anything else that is not a
    str, int, float or None is named by its type only, so an error never echoes a
    large or hostile object.  A container too long for ``limit`` is shown with fewer
    entries and shorter strings, its brackets always closed (``[...]`` at the least).
    Every layer quotes with this one function."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        digits = int(value.bit_length() * 0.30103) + 1
        return Text(N_("a whole number of about {digits} digits"), digits=digits)
    if isinstance(value, str):
        return _quote_str(value, limit)
    if value is None or isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, list | tuple | dict | set | frozenset):
        try:
            for excerpt in _EXCERPTS:
                text = excerpt.repr(value)
                if len(text) <= limit:
                    return text
        except ValueError:  # a whole number past 4300 digits inside
            return Text(N_("a {type} too large to show"), type=type(value).__name__)
    else:
        return Text(N_("a {type}"), type=type(value).__name__)
    if len(text) > limit:
        text = text[: max(limit - 3, 0)] + "..."
    return text


def _quote_str(value: str, limit: int) -> str:
    """``repr(value)`` if it has at most ``limit`` characters; else the repr of the
    longest start of ``value`` that fits with ``...`` before its closing quote (an
    escape such as ``\\x1b`` is never cut in two)."""
    text = repr(value[: limit + 1])  # each character takes at least one in the repr
    if len(text) <= limit:
        return text
    if limit < 5:  # no room for two quotes, a character and "..."
        return text[: max(limit - 3, 0)] + "..."
    for n in range(limit - 5, 0, -1):  # the first fit is the longest
        text = repr(value[:n])
        if len(text) + 3 <= limit:
            return text[:-1] + "..." + text[-1]
    return text[0] + "..." + text[0]  # not one character fits (a single escape is 10 long)


class _ExcerptRepr(reprlib.Repr):
    """:mod:`reprlib`'s excerpt of a container (its first entries, a few levels deep,
    brackets closed), each string in it cut as :func:`quote` cuts one: inside its
    quotes, an escape never cut in two."""

    def __init__(self, levels: int, entries: int, chars: int) -> None:
        super().__init__()
        self.maxlevel = levels
        self.maxlist = self.maxdict = self.maxtuple = self.maxset = entries
        self.maxfrozenset = self.maxdeque = self.maxarray = entries
        self.maxstring = self.maxother = self.maxlong = chars

    def repr_str(self, x: str, level: int) -> str:
        return _quote_str(x, max(self.maxstring, 5))


_EXCERPTS: Final = (
    _ExcerptRepr(2, 4, QUOTE_CHARS),
    _ExcerptRepr(2, 4, 16),
    _ExcerptRepr(2, 2, 10),
    _ExcerptRepr(1, 1, 8),
    _ExcerptRepr(0, 0, 8),
)
"""Ever shorter excerpts of a container, tried in turn until one fits the limit; the
last shows only its brackets (``[...]``)."""


class MahjongError(ValueError):
    """Base class of every error the package raises for bad input: the rules core's
    below, and the errors of :mod:`mahjong_nts.formats` (a hand log that does not
    read or verify, a bad key file, bad JSON), so that ``except MahjongError`` is the
    one catch for bad input.

    ``MahjongError(N_("template {name}"), name=value)``: the message is
    ``Text(template, name=value)``; a :class:`~mahjong_nts.core.text.Text` given alone
    is the message as it is."""

    def __init__(self, message: str = "", /, **params: Any) -> None:
        if params or not isinstance(message, Text):
            message = Text(message, **params)
        super().__init__(message)

    @property
    def text(self) -> Text:
        """The message: its English is ``str(self)``, with its template and parameters."""
        arg = self.args[0] if self.args else ""
        return arg if isinstance(arg, Text) else Text(str(arg))


class InvalidTile(MahjongError):
    """A tile token that names no tile."""


class InvalidNotation(MahjongError):
    """Hand notation that cannot be parsed."""


class InvalidMeld(MahjongError):
    """A declared meld that is not a chow, pung or kong."""


class InvalidHand(MahjongError):
    """A hand that cannot exist: a fifth copy of a tile, a wrong tile count, ..."""


class InvalidWin(MahjongError):
    """Win circumstances that contradict each other or the hand."""


class InvalidRuleSet(MahjongError):
    """A rule set (or house-rule file) with a missing, unknown or malformed value."""


class InvalidAction(MahjongError):
    """An action that is malformed: an unknown kind, a tile that is not one."""


class IllegalAction(MahjongError):
    """A well-formed action that is not allowed in the current state."""


class NotYourTurn(IllegalAction):
    """An action sent for a seat that is not asked to decide now (authority check).

    The message never names the seat that is asked: in a claim window that would tell
    who can use the discard.
    """

    def __init__(self, message: str, seat: int, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.seat = seat
        """The seat the action was sent for."""

    def __reduce__(self) -> tuple[type[NotYourTurn], tuple[Text, int]]:
        return type(self), (self.text, self.seat)


class StaleAction(IllegalAction):
    """An action that answers an earlier decision than the one asked now (authority
    check): a replayed, delayed or duplicated message."""

    def __init__(self, message: str, expected: int, got: int, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.expected = expected
        """The sequence number of the decision asked now (:attr:`Game.seq`)."""
        self.got = got
        """The sequence number the action answered."""

    def __reduce__(self) -> tuple[type[StaleAction], tuple[Text, int, int]]:
        return type(self), (self.text, self.expected, self.got)


class InvalidSetup(MahjongError):
    """A hand or match that cannot be set up: a round wind the table does not play, a
    dominant player who is not at the table or outside a green-dragon hand."""


class InvalidSeed(MahjongError):
    """A seed that is not a whole number 0 .. 2**256 - 1."""


class InvalidSeat(MahjongError):
    """A seat number that is not a seat of the table (an observation asked for
    seat 7 at a four-player table)."""


class IllegalMatchStep(MahjongError):
    """A match driven out of order: dealing before the hand in play is recorded,
    recording a game the match did not deal (or one not over, or one recorded already),
    dealing after the match is over."""
