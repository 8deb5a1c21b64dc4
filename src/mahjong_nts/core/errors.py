"""Exceptions of the rules core.

``Invalid*`` errors mean malformed input (a bad token, a meld that is not one, a
broken rule-set value); ``Illegal*`` errors mean well-formed input that is not
allowed now.  Every one is a :class:`ValueError`, so callers that only care
about "bad input" can catch that.
"""

from __future__ import annotations

from typing import Final

QUOTE_CHARS: Final = 40
"""At most this many characters of a value from outside are quoted in an error message."""


def quote(value: object) -> str:
    """A value from outside, shown in an error message: its repr cut to
    :data:`QUOTE_CHARS` characters (a whole number too long for that is described by
    its size: Python refuses to print ints of more than 4300 digits).  Anything that
    is not a str, int, float or None is named by its type only, so an error never
    echoes a large or hostile object."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 128:
            return f"a whole number of about {int(value.bit_length() * 0.30103)} digits"
        text = repr(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = repr(value[: QUOTE_CHARS + 1])
    else:
        return f"a {type(value).__name__}"
    if len(text) > QUOTE_CHARS:
        text = text[: QUOTE_CHARS - 3] + "..."
    return text


class MahjongError(ValueError):
    """Base class of every error the package raises for bad input: the rules core's
    below, and the errors of :mod:`mahjong_nts.formats` (a hand log that does not
    read or verify, a bad key file, bad JSON), so that ``except MahjongError`` is the
    one catch for bad input."""


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

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat
        """The seat the action was sent for."""

    def __reduce__(self) -> tuple[type[NotYourTurn], tuple[str, int]]:
        return type(self), (str(self), self.seat)


class StaleAction(IllegalAction):
    """An action that answers an earlier decision than the one asked now (authority
    check): a replayed, delayed or duplicated message."""

    def __init__(self, message: str, expected: int, got: int) -> None:
        super().__init__(message)
        self.expected = expected
        """The sequence number of the decision asked now (:attr:`Game.seq`)."""
        self.got = got
        """The sequence number the action answered."""

    def __reduce__(self) -> tuple[type[StaleAction], tuple[str, int, int]]:
        return type(self), (str(self), self.expected, self.got)


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
