"""Settling a hand: who pays whom, from the players' scores.

The winner receives his score from each other player; every other player
receives his own score from the other non-winners, so each pair of losers
settles the difference (the 2009 book, "Het verrekenen van de punten").  A
payment is doubled, per rule set, when East takes part in it
(:attr:`SettlementRules.east_double`), when the dominant player of the
green-dragon hand takes part in it (:attr:`SettlementRules.dominant_double`;
East is then not doubled), and when the discarder of the winning tile pays
the winner (:attr:`SettlementRules.discarder_double`).  The doublings
multiply.  The balances always sum to zero.

Seats are indices into ``scores``: 0 .. n-1 with n = 3, 4 or 5.  At a table of
five one seat is the dreamer, who sits the hand out and neither pays nor
receives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mahjong_nts.core.errors import InvalidRuleSet, InvalidWin
from mahjong_nts.core.rules import MAX_ROUND_TO, MAX_SCORE, SettlementRules
from mahjong_nts.core.text import N_

__all__ = [
    "MAX_BALANCE",
    "MAX_PAYMENT",
    "MAX_SETTLED_SCORE",
    "Payment",
    "Settlement",
    "balance_factor",
    "round_score",
    "settle",
]

MAX_SETTLED_SCORE: Final = MAX_SCORE + MAX_ROUND_TO // 2
"""The largest score as settled: a hand scores at most :data:`~mahjong_nts.core.rules.MAX_SCORE`
under a valid rule set, and rounding to ``round_to`` (halves up) adds at most half of it."""

MAX_PAYMENT: Final = 4 * MAX_SETTLED_SCORE
"""The largest payment: the winner's score, doubled for East (or the dominant player)
and doubled again for the discarder; two losers settle at most twice a score."""


def balance_factor(playing: int) -> int:
    """The most a seat's balance can be, in scores, at a table where ``playing`` seats
    play the hand (3 or 4; the dreamer of a table of five sits out): ``2 * playing``.

    The winner only receives: his score from each of the ``playing - 1`` others, each
    payment doubled at most twice (East and the discarder) and no two payers both
    doubled twice, so at most ``4 + 2 * (playing - 2)`` scores when he is East.  A loser
    pays the winner at most four scores and every other loser at most two, and receives
    nothing when his own score is 0: at most ``4 + 2 * (playing - 2)`` as well."""
    return 2 * playing


MAX_BALANCE: Final = balance_factor(4) * MAX_SETTLED_SCORE
"""The largest balance of one hand in size (below 2**52, so a JSON number, in
JavaScript too, holds it exactly)."""


@dataclass(frozen=True, slots=True, order=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` points (seats are indices)."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of settling one hand."""

    scores: tuple[int, ...]
    """The scores as settled (after rounding; all zero in a remise)."""
    balances: tuple[int, ...]
    """What each seat gains (positive) or loses (negative); they sum to zero."""
    payments: tuple[Payment, ...]
    """Net payments, one per pair of seats that exchange anything, sorted."""
    gross: tuple[tuple[int, ...], ...] = ()
    """The book's table before netting: ``gross[payer][payee]`` is what ``payer``
    owes ``payee`` for ``payee``'s score (doublings applied); the net payment of a
    pair is the difference of its two entries.  Empty when nothing is settled (a
    remise)."""

    def paid_by(self, seat: int) -> int:
        """Total that ``seat`` pays."""
        return sum(p.amount for p in self.payments if p.payer == seat)

    def received_by(self, seat: int) -> int:
        """Total that ``seat`` receives."""
        return sum(p.amount for p in self.payments if p.payee == seat)


def round_score(score: int, to: int) -> int:
    """``score`` rounded to the nearest multiple of ``to``, halves up (``to`` 0:
    unchanged).  The 2009 book rounds to whole tens when paying with chips
    ("Fiches"): ``round_score(125, 10) == 130``, ``round_score(124, 10) == 120``."""
    if isinstance(to, bool) or not isinstance(to, int) or to < 0:
        raise InvalidRuleSet(N_("round_to must be a whole number >= 0, got {value!r}"), value=to)
    if to == 0:
        return score
    return (2 * score + to) // (2 * to) * to


def _seat(value: int | None, name: str, n: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidWin(N_("{name} must be a seat number, not {value!r}"), name=name, value=value)
    if not 0 <= value < n:
        raise InvalidWin(
            N_("{name} {value} is not a seat at a table of {n} (seats 0-{last})"),
            name=name,
            value=value,
            n=n,
            last=n - 1,
        )


def _validate(
    scores: Sequence[object],
    winner: int | None,
    discarder: int | None,
    east: int,
    dominant: int | None,
    dreamer: int | None,
) -> None:
    n = len(scores)
    if n not in (3, 4, 5):
        raise InvalidWin(N_("settlement needs 3, 4 or 5 scores (one per seat), got {n}"), n=n)
    for seat, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int):
            raise InvalidWin(
                N_("the score of seat {seat} must be a whole number, not {score!r}"),
                seat=seat,
                score=score,
            )
        if score < 0:
            raise InvalidWin(
                N_("the score of seat {seat} is {score}: a score is never negative"),
                seat=seat,
                score=score,
            )
    if east is None:
        raise InvalidWin(N_("east must be a seat number"))
    for value, name in (
        (winner, "winner"),
        (discarder, "discarder"),
        (east, "east"),
        (dominant, "dominant"),
        (dreamer, "dreamer"),
    ):
        _seat(value, name, n)
    if n == 5 and dreamer is None:
        raise InvalidWin(N_("at a table of five one seat is the dreamer: give dreamer="))
    if n < 5 and dreamer is not None:
        raise InvalidWin(N_("only a table of five has a dreamer, this one has {n} seats"), n=n)
    if discarder is not None and winner is None:
        raise InvalidWin(N_("a remise (no winner) has no discarder"))
    if discarder is not None and discarder == winner:
        raise InvalidWin(
            N_("seat {seat} cannot win on his own discard (self-drawn: discarder=None)"),
            seat=winner,
        )
    if dreamer is not None:
        for value, template in (
            (winner, N_("the dreamer (seat {seat}) sits the hand out and cannot win")),
            (
                discarder,
                N_(
                    "the dreamer (seat {seat}) sits the hand out and cannot discard the "
                    "winning tile"
                ),
            ),
            (east, N_("the dreamer (seat {seat}) sits the hand out and cannot be East")),
            (
                dominant,
                N_("the dreamer (seat {seat}) sits the hand out and cannot be the dominant player"),
            ),
        ):
            if value == dreamer:
                raise InvalidWin(template, seat=dreamer)
        if scores[dreamer]:
            raise InvalidWin(
                N_("the dreamer (seat {seat}) plays no hand: his score must be 0, not {score}"),
                seat=dreamer,
                score=scores[dreamer],
            )


def settle(
    scores: Sequence[int],
    *,
    winner: int | None,
    discarder: int | None,
    east: int,
    rules: SettlementRules,
    dominant: int | None = None,
    dreamer: int | None = None,
) -> Settlement:
    """Settle one hand.

    ``scores``: each seat's score for the hand (0 for a dead hand, and for the
    dreamer); ``winner``: the seat that went mahjong, ``None`` for a remise
    (nothing is settled); ``discarder``: the seat whose discard (or robbed
    kong) gave the winning tile, ``None`` when self-drawn; ``east``: East's
    seat; ``dominant``: the dominant player of the green-dragon hand (East is
    then not doubled); ``dreamer``: the seat sitting out at a table of five.

    Scores are rounded first (``rules.round_to``).  Raises
    :class:`~mahjong_nts.core.errors.InvalidWin` for inconsistent seats or a
    negative score.
    """
    _validate(scores, winner, discarder, east, dominant, dreamer)
    n = len(scores)
    if winner is None:
        return Settlement(scores=(0,) * n, balances=(0,) * n, payments=())
    settled = tuple(round_score(s, rules.round_to) for s in scores)
    doubled: set[int] = set()
    if dominant is not None:
        if rules.dominant_double:
            doubled.add(dominant)
    elif rules.east_double:
        doubled.add(east)
    # owed[payer][payee], gross
    owed = [[0] * n for _ in range(n)]
    players = [s for s in range(n) if s != dreamer]
    for payee in players:
        for payer in players:
            if payer in (payee, winner):
                continue
            factor = 1
            if payer in doubled or payee in doubled:
                factor *= 2
            if payee == winner and payer == discarder and rules.discarder_double:
                factor *= 2
            owed[payer][payee] += factor * settled[payee]
    payments: list[Payment] = []
    balances = [0] * n
    for a in range(n):
        for b in range(a + 1, n):
            net = owed[a][b] - owed[b][a]
            if net > 0:
                payments.append(Payment(a, b, net))
            elif net < 0:
                payments.append(Payment(b, a, -net))
            balances[a] -= net
            balances[b] += net
    payments.sort()
    return Settlement(
        scores=settled,
        balances=tuple(balances),
        payments=tuple(payments),
        gross=tuple(tuple(row) for row in owed),
    )
