"""Exceptions of the rules core.

``Invalid*`` errors mean malformed input (a bad token, a meld that is not one, a
broken rule-set value); ``Illegal*`` errors mean well-formed input that is not
allowed now.  Every one is a :class:`ValueError`, so callers that only care
about "bad input" can catch that.
"""

from __future__ import annotations


class MahjongError(ValueError):
    """Base class of every error raised by the rules core."""


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
