"""Duplicate evaluation: two bots play the same walls from every seat, so that the luck of
the deal cancels (no CLI code here; ``mahjong-nts duel`` is :mod:`mahjong_nts.cli.duel`).

**Walls.**  Wall ``w`` of a duel with seed ``S`` is the wall of hand ``w`` of a ``simulate``
run with that seed: ``SeedRng(hand_seed(S, w))``, with the round wind of that hand
(:func:`~mahjong_nts.sim.simulate.round_wind_of`).  Each wall is dealt once per
*arrangement* of the two bots round the table (:func:`arrangements`), the same tiles every
time:

* 4 seats (and a 5-player rule set, which plays 4 seats a hand): two of each bot, seated
  ``AABB`` and rotated: ``AABB``, ``BAAB``, ``BBAA``, ``ABBA`` (seat 0 is East).  Each bot
  sits at every seat twice, and every hand has its mirror (``AABB`` and ``BBAA``) in which
  the other bot holds the same tiles.
* 3 seats: each bot alone against two of the other, at each seat: ``ABB``, ``BAB``,
  ``BBA``, then ``BAA``, ``ABA``, ``AAB`` (six hands a wall); each bot sits at every seat
  three times.

**The difference.**  In one hand, a bot's points are its settlement balance averaged over
the seats it holds (two, or one and two at a 3-seat table); the hand's difference is A's
minus B's.  A wall's difference :attr:`WallOutcome.diff` is the mean over its hands.  The
duel's result is the mean of the walls' differences, points a hand, with a 95% interval
by the normal approximation over the walls: mean +- 1.96 x sample standard deviation /
sqrt(walls).  **The wall is the unit of independence**: the hands of one wall share its
tiles and are not independent of each other, the walls are (each from its own seed).

**Seeds of the bots.**  A bot's own seed (its random choices) is derived from the wall and
the *seat*, ``derive_seed(S, "duel", w, "seat", s)``, not from which bot sits there.  So a
bot against itself plays the same game in every arrangement of a wall, and the difference
is exactly 0 on every wall (the interval is [0, 0]); with seeds by bot it would not be,
for a bot that draws random numbers.

Work is streamed in chunks of walls as ``simulate`` does (:mod:`mahjong_nts.sim.runner`,
the same pool and backends): the same seed gives the same summary whatever the number of
processes and the backend.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, NamedTuple

from mahjong_nts.bots import Player
from mahjong_nts.bots.loader import check_bot, make_named_bot
from mahjong_nts.core.game import Game
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import SeedRng, check_seed, derive_seed
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.runner import Backend, available_cpus, chunk_size, run_chunks
from mahjong_nts.sim.simulate import (
    MAX_HANDS,
    _Moments,
    _play_game,
    _wilson,
    hand_seed,
    round_wind_of,
)

__all__ = [
    "MAX_HANDS",
    "MIN_WALLS",
    "DuelSpec",
    "DuelSummary",
    "WallOutcome",
    "arrangement_names",
    "arrangements",
    "duel_bot_seed",
    "play_wall",
    "run_duel",
    "summarize_duel",
    "validate_duel",
    "walls_for",
]

MIN_WALLS: Final = 2
"""Fewest walls a duel plays (an interval needs two)."""


def arrangements(seats: int) -> tuple[tuple[bool, ...], ...]:
    """The seatings of a wall: for each hand, ``True`` at the seats of bot A (seat 0 is
    East).  4 seats: ``AABB`` rotated; 3 seats: each bot alone at each seat."""
    if seats == 4:
        return tuple(tuple((s - r) % 4 < 2 for s in range(4)) for r in range(4))
    if seats == 3:
        alone_a = tuple(tuple(s == r for s in range(3)) for r in range(3))
        alone_b = tuple(tuple(s != r for s in range(3)) for r in range(3))
        return alone_a + alone_b
    raise ValueError(f"a duel is played at 3 or 4 seats, not {seats}")


def arrangement_names(seats: int) -> list[str]:
    """``["AABB", "BAAB", ...]``: the seatings of :func:`arrangements` as letters."""
    return ["".join("A" if a else "B" for a in row) for row in arrangements(seats)]


def walls_for(hands: int, seats: int) -> int:
    """Walls to play for ``hands`` hands: whole walls, at least :data:`MIN_WALLS`."""
    return max(MIN_WALLS, math.ceil(hands / len(arrangements(seats))))


def duel_bot_seed(seed: int, wall: int, seat: int) -> int:
    """The seed of the bot at ``seat`` on wall ``wall`` (whichever bot sits there)."""
    return derive_seed(seed, "duel", wall, "seat", seat)


@dataclass(frozen=True, slots=True)
class DuelSpec:
    """What to play; plain values, so it travels to worker processes."""

    ruleset: str
    a: str
    """Bot A: a name :func:`~mahjong_nts.bots.loader.load_bot` takes."""
    b: str
    seed: int = 0

    def __post_init__(self) -> None:
        check_seed(self.seed, "seed")

    def play_unit(self, rules: RuleSet, index: int) -> WallOutcome:
        """Wall ``index`` (:func:`play_wall`)."""
        return play_wall(self, rules, index)


class Seating(NamedTuple):
    """One deal of a duel's wall (:func:`seatings`)."""

    row: tuple[bool, ...]
    """Each seat's bot: ``True`` for A."""
    names: tuple[str, ...]
    players: tuple[Player, ...]
    game: Game


@dataclass(frozen=True, slots=True)
class WallOutcome:
    """One wall, dealt once per arrangement."""

    index: int
    diff: Fraction
    """Mean over the wall's hands of A's points a seat minus B's, in points."""
    a_balance: int
    """A's balance over the wall's hands, all its seats together (B's is minus this)."""
    hands: int
    a_wins: int
    b_wins: int
    self_drawn: int
    decisions: int
    reasons: tuple[str, ...]
    """Why each hand that was not won ended (a remise), in hand order."""


def seatings(spec: DuelSpec, rules: RuleSet, index: int) -> Iterator[Seating]:
    """Wall ``index`` of ``spec`` dealt once per arrangement (:func:`arrangements`, in
    order): each a game before its first move, with the bots made for it."""
    wall = hand_seed(spec.seed, index)
    wind = round_wind_of(index, rules)
    for row in arrangements(rules.table.players):
        names = tuple(spec.a if a else spec.b for a in row)
        players = tuple(
            make_named_bot(name, duel_bot_seed(spec.seed, index, s), rules)
            for s, name in enumerate(names)
        )
        yield Seating(row, names, players, Game(rules, SeedRng(wall), round_wind=wind))


def play_wall(spec: DuelSpec, rules: RuleSet, index: int) -> WallOutcome:
    """Deal wall ``index`` of ``spec`` once per arrangement and play each hand out."""
    seats = rules.table.players
    diff = Fraction(0)
    a_balance = a_wins = b_wins = self_drawn = decisions = 0
    reasons: list[str] = []
    rows = arrangements(seats)
    for r, (row, names, players, game) in enumerate(seatings(spec, rules, index)):
        decisions += _play_game(game, players, names, f"wall {index}, seating {r}")
        result = game.result
        assert result is not None
        balances = result.settlement.balances
        a_sum = sum(balances[s] for s in range(seats) if row[s])
        b_sum = sum(balances[s] for s in range(seats) if not row[s])
        k = sum(row)
        diff += Fraction(a_sum, k) - Fraction(b_sum, seats - k)
        a_balance += a_sum
        if result.winner is None:
            reasons.append(result.reason)
            continue
        if row[result.winner]:
            a_wins += 1
        else:
            b_wins += 1
        self_drawn += result.discarder is None
    return WallOutcome(
        index=index,
        diff=diff / len(rows),
        a_balance=a_balance,
        hands=len(rows),
        a_wins=a_wins,
        b_wins=b_wins,
        self_drawn=self_drawn,
        decisions=decisions,
        reasons=tuple(reasons),
    )


def validate_duel(spec: DuelSpec, rules: RuleSet) -> None:
    """Both bots made under ``rules`` (:class:`~mahjong_nts.bots.loader.BotLoadError`, a
    ValueError, saying what is wrong) at a table of 3 or 4 seats."""
    arrangements(rules.table.players)
    check_bot(spec.a, rules)
    check_bot(spec.b, rules)


def run_duel(
    spec: DuelSpec,
    hands: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    rules: RuleSet | None = None,
    backend: Backend | None = None,
) -> Iterator[WallOutcome]:
    """Play the walls of ``hands`` hands (:func:`walls_for`); yields them in order,
    whatever ``jobs`` and ``backend`` are (as :func:`~mahjong_nts.sim.simulate.run_simulation`
    does).  ``progress(k)`` is called as each chunk of ``k`` walls is done.  Arguments are
    checked at once (ValueError)."""
    if not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"hands must be from 1 to {MAX_HANDS}, not {hands}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if rules is None:
        rules = load_ruleset(spec.ruleset)
    validate_duel(spec, rules)
    walls = walls_for(hands, rules.table.players)
    if backend is None:
        jobs = min(jobs, available_cpus())
    size = chunk_size(walls, jobs, 3, 25)
    workers = min(jobs, math.ceil(walls / size))
    return run_chunks(spec, rules, walls, size, workers, progress, backend)


class DuelSummary:
    """The summary of a duel, built one wall at a time (a few numbers, never the walls)."""

    def __init__(self, spec: DuelSpec, rules: RuleSet) -> None:
        self.spec = spec
        self.rules = rules
        self.seats = rules.table.players
        self.rows = arrangements(self.seats)
        self.diff = _Moments()
        self.walls = 0
        self.hands = 0
        self.a_balance = 0
        self.a_wins = 0
        self.b_wins = 0
        self.self_drawn = 0
        self.decisions = 0
        self.reasons: Counter[str] = Counter()

    def add(self, wall: WallOutcome) -> None:
        """Count one wall."""
        self.walls += 1
        self.hands += wall.hands
        self.diff.add(wall.diff)
        self.a_balance += wall.a_balance
        self.a_wins += wall.a_wins
        self.b_wins += wall.b_wins
        self.self_drawn += wall.self_drawn
        self.decisions += wall.decisions
        self.reasons.update(wall.reasons)

    def result(self) -> dict[str, Any]:
        """The summary: a JSON-ready dict (fields in ``docs/simulate.md``)."""
        if self.walls == 0:
            raise ValueError("nothing to summarise: no wall was played")
        mean, ci = self.diff.mean_ci()
        sd = 0.0
        if self.walls > 1:
            n = self.walls
            var = (Fraction(self.diff.q) - Fraction(self.diff.s) ** 2 / n) / (n - 1)
            sd = math.sqrt(float(var))
        a_seats = sum(sum(row) for row in self.rows) * self.walls
        b_seats = self.hands * self.seats - a_seats
        won = self.a_wins + self.b_wins
        remises = self.hands - won

        def bot(name: str, wins: int, seat_hands: int, balance: int) -> dict[str, Any]:
            return {
                "bot": name,
                "seat_hands": seat_hands,
                "wins": wins,
                "win_rate": wins / seat_hands,
                "win_rate_ci": _wilson(wins, seat_hands),
                "mean_balance": balance / seat_hands,
            }

        spec = self.spec
        return {
            "unit": "wall",
            "walls": self.walls,
            "hands": self.hands,
            "hands_per_wall": len(self.rows),
            "seed": spec.seed,
            "ruleset": spec.ruleset,
            "ruleset_name": self.rules.name,
            "seats": self.seats,
            "a": spec.a,
            "b": spec.b,
            "scheme": "two against two" if self.seats == 4 else "one against two",
            "arrangements": arrangement_names(self.seats),
            "confidence": 0.95,
            "mean_diff": mean,
            "mean_diff_ci": ci,
            "wall_sd": sd,
            "bots": [
                bot(spec.a, self.a_wins, a_seats, self.a_balance),
                bot(spec.b, self.b_wins, b_seats, -self.a_balance),
            ],
            "remise": {
                "count": remises,
                "rate": remises / self.hands,
                "reasons": dict(sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            },
            "wins": {"count": won, "self_drawn": self.self_drawn, "claimed": won - self.self_drawn},
            "decisions_per_hand": self.decisions / self.hands,
        }


def summarize_duel(spec: DuelSpec, rules: RuleSet, walls: Iterable[WallOutcome]) -> dict[str, Any]:
    """The summary of a duel's walls (consumed one at a time): a JSON-ready dict."""
    acc = DuelSummary(spec, rules)
    for w in walls:
        acc.add(w)
    return acc.result()
