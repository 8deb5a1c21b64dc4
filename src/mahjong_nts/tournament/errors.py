"""Errors of the tournament logic: each a :class:`~mahjong_nts.core.errors.MahjongError`
(so ``except MahjongError`` is still the one catch for bad input), raised with a
message template marked for the catalogue and its parameters, saying what is wrong
and where (``round 2, table 3: ...``), so that a page or the terminal can say it in
Dutch.
"""

from __future__ import annotations

from mahjong_nts.core.errors import MahjongError

__all__ = [
    "InvalidPlayer",
    "InvalidResult",
    "InvalidSchedule",
    "InvalidSeating",
    "InvalidSettings",
    "TournamentError",
]


class TournamentError(MahjongError):
    """Base class of the tournament's errors."""


class InvalidPlayer(TournamentError):
    """A player that cannot be registered: a bad number or name, a duplicate."""


class InvalidSettings(TournamentError):
    """Tournament or seating settings out of range: too many players or rounds, table
    points that do not fit the table, an unknown ranking method."""


class InvalidSeating(TournamentError):
    """A round whose seating is not one: a player in two places, a present player
    missing, a table of a size not allowed, a swap of players who cannot swap."""


class InvalidSchedule(TournamentError):
    """A fixed schedule (a loopschema) or a clubs list that does not read."""


class InvalidResult(TournamentError):
    """A table result that cannot be entered: scores that do not sum to the table's
    total, a player who did not sit at the table, a result entered twice."""
