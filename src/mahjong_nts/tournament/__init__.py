"""Tournaments: players, seating, results, table points, standings, exports.

Pure logic (standard library and the rules core only; no I/O, no clock, no global
random numbers): ``store/`` keeps a tournament, ``web/`` and ``cli/`` show it and call
these functions.  A front end seats the next round with
``seat_round(present, history, options, rng)`` (or plans every round at once with
:func:`plan_rounds`), checks and ranks results with :func:`standings`, and writes the
rows of :func:`ema_rows`.  See ``docs/tournament.md``.
"""

from __future__ import annotations

from mahjong_nts.tournament.errors import (
    InvalidPlayer,
    InvalidResult,
    InvalidSchedule,
    InvalidSeating,
    InvalidSettings,
    TournamentError,
)
from mahjong_nts.tournament.players import MAX_PLAYERS, MAX_ROUNDS, Player, Roster
from mahjong_nts.tournament.results import (
    Penalty,
    Ranking,
    Standing,
    TablePoints,
    TableResult,
    check_results,
    ema_rows,
    format_points,
    standings,
)
from mahjong_nts.tournament.seating import (
    DAY_PLANS,
    SEATS,
    DayPlans,
    Rng,
    Round,
    SeatingOptions,
    Swap,
    club_meetings,
    meetings,
    next_round,
    plan,
    plan_rounds,
    read_clubs,
    read_schedule,
    repeat_lower_bound,
    repeat_pairs,
    repeats,
    seat_round,
    swap,
    table_sizes,
    wind_counts,
)

__all__ = [
    "DAY_PLANS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "SEATS",
    "DayPlans",
    "InvalidPlayer",
    "InvalidResult",
    "InvalidSchedule",
    "InvalidSeating",
    "InvalidSettings",
    "Penalty",
    "Player",
    "Ranking",
    "Rng",
    "Roster",
    "Round",
    "SeatingOptions",
    "Standing",
    "Swap",
    "TablePoints",
    "TableResult",
    "TournamentError",
    "check_results",
    "club_meetings",
    "ema_rows",
    "format_points",
    "meetings",
    "next_round",
    "plan",
    "plan_rounds",
    "read_clubs",
    "read_schedule",
    "repeat_lower_bound",
    "repeat_pairs",
    "repeats",
    "seat_round",
    "standings",
    "swap",
    "table_sizes",
    "wind_counts",
]
