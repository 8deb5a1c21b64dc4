"""Seating: who sits at which table, in which seat, round by round.

A round seats every present player exactly once, at tables of four; when the number
of players is not a multiple of four some tables take three or five (:func:`table_sizes`).
Within a table the players are listed in seat order East, South, West, North; at a
table of five the fifth is the dreamer of the first hand (he sits it out, then East
becomes the dreamer and the dreamer North, as the rules say), at a table of three
there is no North.

What a good seating is, in order of weight (``docs/tournament.md``):

1. nobody meets anyone twice while that is possible: the search minimises
   ``sum over pairs of C(m, 2)`` where ``m`` is how often the pair met (a pair that
   meets three times weighs three, more than two pairs that meet twice);
2. players of one club are kept apart when asked (each meeting of two club mates
   weighs :data:`CLUB_WEIGHT` repeat meetings);
3. the winds are balanced: everyone East about equally often, then the other seats.

The method: each new round is first built greedily (every seat filled with a player
who has met nobody at the table yet, where there is one), then a tabu search over all
the rounds being planned at once swaps two players of one round, picking the swap
that lowers the cost most among those that move a player of a repeated (or club)
meeting; it stops when no conflict is left or after a budget of steps that depends on
the size, never on the clock, so a seed always gives the same plan.  Last, the seats
within each table are chosen for the wind balance.

Everything here is pure: the random numbers come from the ``rng`` the caller passes
(:class:`Rng`: ``random.Random(seed)`` will do).

>>> import random
>>> rounds = plan(16, 3, rng=random.Random(1))
>>> [len(t) for t in rounds[0].tables]
[4, 4, 4, 4]
>>> repeats(rounds)
0
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Final, Protocol

from mahjong_nts.core.errors import quote
from mahjong_nts.core.text import N_, Text
from mahjong_nts.tournament.errors import (
    InvalidPlayer,
    InvalidSchedule,
    InvalidSeating,
    InvalidSettings,
)
from mahjong_nts.tournament.players import MAX_PLAYERS, MAX_ROUNDS, check_text

__all__ = [
    "CLUB_WEIGHT",
    "DAY_PLANS",
    "MAX_CLUBS_BYTES",
    "MAX_EFFORT",
    "MAX_SCHEDULE_BYTES",
    "SEATS",
    "DayPlans",
    "Rng",
    "Round",
    "SeatingOptions",
    "Swap",
    "club_meetings",
    "meetings",
    "plan",
    "plan_rounds",
    "read_clubs",
    "read_schedule",
    "repeat_lower_bound",
    "repeat_pairs",
    "repeats",
    "seat_round",
    "swap",
    "table_sizes",
    "wind_counts",
]

Table = tuple[int, ...]
"""The player numbers at one table in seat order East, South, West, North (, dreamer)."""

SEATS: Final = ("E", "S", "W", "N", "D")
"""The seats of a table, in order; ``D``: the dreamer at a table of five."""

MIN_TABLE: Final = 3
MAX_TABLE: Final = 5

CLUB_WEIGHT: Final = 4
"""One meeting of two club mates (when clubs are kept apart) weighs this many repeat
meetings in the search's cost."""

MAX_EFFORT: Final = 10
"""``SeatingOptions.effort``: 1 to 10 times the default search budget."""

MAX_CLUBS_BYTES: Final = 64 * 1024
"""A clubs list (``--clubs FILE``): at most 64 KiB."""

MAX_SCHEDULE_BYTES: Final = 256 * 1024
"""A fixed schedule (loopschema): at most 256 KiB."""

DAY_PLANS: Final = 8
""":class:`DayPlans` keeps the whole-day plans of at most this many days (the least
recently used goes first)."""


class Rng(Protocol):
    """What the seating asks of a random number generator (``random.Random`` has it)."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: list[int], /) -> None: ...


# --------------------------------------------------------------------------- rounds


def _number(value: object, what: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidSeating(
            N_("{what}: a number from 1 to {most}, not {value}"),
            what=what,
            most=most,
            value=quote(value),
        )
    return value


@dataclass(frozen=True, slots=True)
class Round:
    """One round's seating: ``tables[k]`` is table ``k + 1``, its players in seat order.

    >>> Round(1, ((1, 2, 3, 4), (5, 6, 7, 8, 9)))
    Round(1, ((1, 2, 3, 4), (5, 6, 7, 8, 9)))
    >>> Round(2, ((1, 2, 3, 4), (4, 5, 6)))
    Traceback (most recent call last):
    ...
    mahjong_nts.tournament.errors.InvalidSeating: round 2: player 4 at table 1 and at table 2
    """

    number: int
    tables: tuple[Table, ...]

    def __post_init__(self) -> None:
        _number(self.number, Text(N_("round")), MAX_ROUNDS)
        tables = tuple(tuple(t) for t in self.tables)
        seen: dict[int, int] = {}
        for k, table in enumerate(tables, 1):
            if not MIN_TABLE <= len(table) <= MAX_TABLE:
                raise InvalidSeating(
                    N_("round {round}, table {table}: {n} players; a table seats 3 to 5"),
                    round=self.number,
                    table=k,
                    n=len(table),
                )
            for p in table:
                _number(
                    p,
                    Text(N_("round {round}, table {table}"), round=self.number, table=k),
                    MAX_PLAYERS,
                )
                if p in seen:
                    raise InvalidSeating(
                        N_("round {round}: player {player} at table {a} and at table {b}"),
                        round=self.number,
                        player=p,
                        a=seen[p],
                        b=k,
                    )
                seen[p] = k
        object.__setattr__(self, "tables", tables)

    def __repr__(self) -> str:
        return f"Round({self.number}, {self.tables!r})"

    @property
    def players(self) -> tuple[int, ...]:
        """Every player seated this round, in order of number."""
        return tuple(sorted(p for t in self.tables for p in t))

    def table_of(self, player: int) -> int:
        """The number (1, 2, ...) of the table ``player`` sits at (0: not seated)."""
        for k, table in enumerate(self.tables, 1):
            if player in table:
                return k
        return 0

    def seat_of(self, player: int) -> str:
        """The seat (one of :data:`SEATS`) of ``player`` ("" if not seated)."""
        for table in self.tables:
            if player in table:
                return SEATS[table.index(player)]
        return ""


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class SeatingOptions:
    """How to seat.

    ``fives``: when the number of players is one more than a multiple of four, seat one
    table of five (with a dreamer) instead of three tables of three (see
    :func:`table_sizes`).  ``clubs``: player number -> club, for the players to keep
    apart from their club mates (empty: no such request).  ``effort``: 1 to
    :data:`MAX_EFFORT` times the default search budget.
    """

    fives: bool = True
    clubs: Mapping[int, str] = field(default_factory=dict)
    effort: int = 1

    def __post_init__(self) -> None:
        e = self.effort
        if isinstance(e, bool) or not isinstance(e, int) or not 1 <= e <= MAX_EFFORT:
            raise InvalidSettings(
                N_("effort: 1 to {most}, not {value}"), most=MAX_EFFORT, value=quote(e)
            )
        clubs = dict(self.clubs)
        for p, club in clubs.items():
            _number(p, Text(N_("clubs")), MAX_PLAYERS)
            if not isinstance(club, str) or not club.strip():
                raise InvalidSettings(N_("clubs: player {player} has no club name"), player=p)
        object.__setattr__(self, "clubs", clubs)


def table_sizes(players: int, fives: bool = True) -> tuple[int, ...]:
    """The sizes of the tables for ``players`` players, the tables of four first.

    As few tables of another size as can be: ``n = 4k`` gives only fours; ``4k + 3`` one
    table of three; ``4k + 2`` two tables of three; ``4k + 1`` one table of five when
    ``fives`` is allowed, else three tables of three.

    >>> table_sizes(17), table_sizes(17, fives=False), table_sizes(18), table_sizes(19)
    ((4, 4, 4, 5), (4, 4, 3, 3, 3), (4, 4, 4, 3, 3), (4, 4, 4, 4, 3))
    """
    n = players
    if isinstance(n, bool) or not isinstance(n, int) or n < MIN_TABLE:
        raise InvalidSeating(
            N_("{value} players cannot be seated: a table seats 3 to 5"), value=quote(n)
        )
    rest = n % 4
    if rest == 0:
        return (4,) * (n // 4)
    if rest == 3:
        return (4,) * (n // 4) + (3,)
    if rest == 2:
        if n < 6:
            raise InvalidSeating(
                N_("{value} players cannot be seated: a table seats 3 to 5"), value=n
            )
        return (4,) * (n // 4 - 1) + (3, 3)
    if fives:
        return (4,) * (n // 4 - 1) + (5,)
    if n < 9:
        raise InvalidSeating(
            N_("{value} players cannot be seated at tables of 3 and 4: allow a table of 5"),
            value=n,
        )
    return (4,) * (n // 4 - 2) + (3, 3, 3)


# --------------------------------------------------------------------------- measures


def meetings(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair ``(a, b)``, ``a < b``, sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for r in rounds:
        for table in r.tables:
            for a, b in itertools.combinations(sorted(table), 2):
                met[a, b] += 1
    return met


def repeats(rounds: Iterable[Round]) -> int:
    """The repeat meetings: for each pair that met ``m > 1`` times, ``m - 1`` (a pair
    meeting three times counts twice)."""
    return sum(m - 1 for m in meetings(rounds).values() if m > 1)


def repeat_pairs(rounds: Iterable[Round]) -> list[tuple[int, int, int]]:
    """``(a, b, m)`` for each pair that met ``m > 1`` times, in order."""
    return sorted((a, b, m) for (a, b), m in meetings(rounds).items() if m > 1)


def club_meetings(rounds: Iterable[Round], clubs: Mapping[int, str]) -> int:
    """How many times two players of one club sat at one table."""
    return sum(
        m
        for (a, b), m in meetings(rounds).items()
        if clubs.get(a) is not None and clubs.get(a) == clubs.get(b)
    )


def wind_counts(rounds: Iterable[Round]) -> dict[int, tuple[int, ...]]:
    """Player -> how often they sat in each seat of :data:`SEATS` (East first)."""
    counts: dict[int, list[int]] = {}
    for r in rounds:
        for table in r.tables:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0] * len(SEATS))[seat] += 1
    return {p: tuple(c) for p, c in sorted(counts.items())}


def repeat_lower_bound(players: int, rounds: int, fives: bool = True) -> int:
    """The fewest repeat meetings any seating of ``players`` (all present) over
    ``rounds`` rounds can have: the larger of two bounds (``docs/tournament.md``
    proves both).

    Counting: each player meets ``m_p`` others over the rounds (three a round at a
    table of four) but only ``players - 1`` distinct ones, so at least
    ``m_p - (players - 1)`` of their meetings are repeats; a repeat meeting of a pair
    is one for each of the two, so the repeats are at least half the sum.  Who sits at
    the tables of three or five is not fixed: a player is counted with the fewest
    meetings a round can give (``smallest table - 1``), and the total with the pairs
    the tables seat (``total - C(players, 2)``).

    Few tables: in every round after the first, a table of ``s`` players drawn from
    the ``t`` tables of round 1 holds at least the pairs of ``s`` spread as evenly as
    possible over ``t`` groups, each of which met in round 1 (with ``s > t`` at least
    one: 10 players at a table of four and two of three can never play two rounds
    without a repeat).

    >>> repeat_lower_bound(40, 7), repeat_lower_bound(36, 8), repeat_lower_bound(16, 6)
    (0, 0, 24)
    >>> repeat_lower_bound(10, 3)
    2
    """
    sizes = table_sizes(players, fives)
    per_round = sum(comb(s, 2) for s in sizes)
    total = per_round * rounds
    global_bound = max(0, total - comb(players, 2))
    fewest = (min(sizes) - 1) * rounds
    player_bound = (players * max(0, fewest - (players - 1)) + 1) // 2
    t = len(sizes)
    crowded = 0
    for s in sizes:
        q, rest = divmod(s, t)
        crowded += rest * comb(q + 1, 2) + (t - rest) * comb(q, 2)
    few_tables_bound = max(0, rounds - 1) * crowded
    return max(global_bound, player_bound, few_tables_bound)


# --------------------------------------------------------------------------- the search


def _budget(players: int, rounds: int, effort: int) -> int:
    """Steps of the tabu search: enough for the quality bars of docs/tournament.md."""
    return effort * max(20_000, 1000 * players * rounds)


class _Search:
    """The state of a plan being searched: players as indexes 0 .. n-1."""

    def __init__(
        self,
        n: int,
        present: list[list[int]],
        sizes: list[tuple[int, ...]],
        met: list[list[int]],
        club: list[int],
        rng: Rng,
    ) -> None:
        self.n = n
        self.present = present
        self.sizes = sizes
        self.met = met  # history and the rounds being planned
        self.club = club  # club id per index, -1: none
        self.rng = rng
        self.new = [[0] * n for _ in range(n)]  # meetings in the rounds being planned
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []
        self.bad: list[int] = []  # conflicting pairs a * n + b (a < b), in any order
        self.bad_at: dict[int, int] = {}  # pair -> its place in bad
        # the players due for East in the first planned round (see due_for_east)
        self.due: list[bool] = [False] * n
        self.due_at: list[int] = []  # due players per table of round 0
        self.lacking = 0  # tables of round 0 without a due player, beyond the fewest possible

    # cost of one pair meeting once more (given what it met before)
    def _cost_add(self, a: int, b: int) -> int:
        c = self.met[a][b]
        if self.club[a] >= 0 and self.club[a] == self.club[b]:
            c += CLUB_WEIGHT
        return c

    def _meet(self, a: int, b: int, d: int) -> None:
        met, new = self.met, self.new
        met[a][b] += d
        met[b][a] += d
        new[a][b] += d
        new[b][a] += d
        key = a * self.n + b if a < b else b * self.n + a
        conflict = new[a][b] and (
            met[a][b] > 1 or (self.club[a] >= 0 and self.club[a] == self.club[b])
        )
        at = self.bad_at.get(key)
        if conflict and at is None:
            self.bad_at[key] = len(self.bad)
            self.bad.append(key)
        elif not conflict and at is not None:
            last = self.bad.pop()
            if last != key:
                self.bad[at] = last
                self.bad_at[last] = at
            del self.bad_at[key]

    def build(self) -> None:
        """Each round greedily: a seat goes to the first player (in random order) who
        adds no cost, else to the cheapest."""
        rng = self.rng
        for r, players in enumerate(self.present):
            rest = list(players)
            rng.shuffle(rest)
            tables: list[list[int]] = []
            where = [-1] * self.n
            for k, size in enumerate(self.sizes[r]):
                table = [rest.pop()]
                while len(table) < size:
                    best_i, best_c = 0, -1
                    for i in range(len(rest) - 1, -1, -1):
                        c = sum(self._cost_add(rest[i], z) for z in table)
                        if best_c < 0 or c < best_c:
                            best_i, best_c = i, c
                            if c == 0:
                                break
                    p = rest.pop(best_i)
                    for z in table:
                        self._meet(p, z, 1)
                    table.append(p)
                for p in table:
                    where[p] = k
                tables.append(table)
            self.tables.append(tables)
            self.where.append(where)

    def install(self, rounds: list[list[list[int]]]) -> None:
        """Start from the given rounds (tables of positions in each round's players)."""
        for r, tables in enumerate(rounds):
            players = self.present[r]
            where = [-1] * self.n
            seated = []
            for k, t in enumerate(tables):
                table = [players[i] for i in t]
                for i, p in enumerate(table):
                    where[p] = k
                    for z in table[:i]:
                        self._meet(p, z, 1)
                seated.append(table)
            self.tables.append(seated)
            self.where.append(where)

    def cost(self) -> int:
        total = 0
        for tables in self.tables:
            for t in tables:
                for a, b in itertools.combinations(t, 2):
                    if self.club[a] >= 0 and self.club[a] == self.club[b]:
                        total += CLUB_WEIGHT
        for a in range(self.n):
            row, new = self.met[a], self.new[a]
            for b in range(a + 1, self.n):
                if new[b]:
                    m, h = row[b], row[b] - new[b]
                    total += comb(m, 2) - comb(h, 2)
        return total

    def _delta(self, r: int, x: int, y: int) -> int:
        """The change of cost if ``x`` and ``y`` swap tables in round ``r``."""
        where = self.where[r]
        a_table = self.tables[r][where[x]]
        b_table = self.tables[r][where[y]]
        mx, my, club = self.met[x], self.met[y], self.club
        cx, cy = club[x], club[y]
        d = 0
        for z in a_table:
            if z != x:
                d += my[z] - mx[z] + 1
                if cx >= 0 or cy >= 0:
                    cz = club[z]
                    if cz >= 0:
                        d += CLUB_WEIGHT * ((cy == cz) - (cx == cz))
        for z in b_table:
            if z != y:
                d += mx[z] - my[z] + 1
                if cx >= 0 or cy >= 0:
                    cz = club[z]
                    if cz >= 0:
                        d += CLUB_WEIGHT * ((cx == cz) - (cy == cz))
        return d

    def due_for_east(self, due: Iterable[int]) -> None:
        """Mark the players due for East in the first planned round (the fewest East
        seats so far): the search then also seats them so that every table has one of
        them (or, with fewer of them than tables, each at a table of their own), as far
        as that costs no repeat meeting and no club meeting.  East of each table goes to
        its player with the fewest East seats, so then nobody gets East while a player
        due for it is left without."""
        for i in due:
            self.due[i] = True
        self._count_due()

    def _count_due(self) -> None:
        if not any(self.due):
            return
        tables = self.tables[0]
        self.due_at = [sum(self.due[p] for p in t) for t in tables]
        fewest = max(0, len(tables) - sum(self.due_at))
        self.lacking = self.due_at.count(0) - fewest

    def _east_delta(self, r: int, x: int, y: int) -> int:
        """The change of the tables lacking a due player if ``x`` and ``y`` swap."""
        if r or self.due[x] == self.due[y]:
            return 0
        where, at = self.where[0], self.due_at
        a, b = (where[x], where[y]) if self.due[x] else (where[y], where[x])
        return (at[a] == 1) - (at[b] == 0)  # a due player leaves table a for b

    def _swap(self, r: int, x: int, y: int) -> None:
        where = self.where[r]
        ta, tb = where[x], where[y]
        if r == 0 and self.due[x] != self.due[y]:
            self.lacking += self._east_delta(r, x, y)
            self.due_at[ta] += self.due[y] - self.due[x]
            self.due_at[tb] += self.due[x] - self.due[y]
        a_table, b_table = self.tables[r][ta], self.tables[r][tb]
        for z in a_table:
            if z != x:
                self._meet(x, z, -1)
                self._meet(y, z, 1)
        for z in b_table:
            if z != y:
                self._meet(y, z, -1)
                self._meet(x, z, 1)
        a_table[a_table.index(x)] = y
        b_table[b_table.index(y)] = x
        where[x], where[y] = tb, ta

    def search(self, budget: int) -> None:
        """Simulated annealing over the planned rounds until no conflict is left or
        ``budget`` steps are done; the best plan seen is kept.

        A step swaps two players of one round: mostly one of a conflicting pair (a
        repeat or club meeting) with a player of another table of a round where they
        meet, sometimes (one step in five) any two.  A swap that does not raise the
        cost is taken; one that raises it by ``d`` with chance ``exp(-d / T)``, the
        temperature ``T`` cooling from 2 to 0.05 over the budget."""
        rng = self.rng
        cost = self.cost()
        best = (cost, self.lacking)
        best_tables = [[list(t) for t in tables] for tables in self.tables]
        rounds = len(self.tables)
        n = self.n
        hot, cold = 2.0, 0.05
        cool = (cold / hot) ** (1.0 / max(budget, 1))
        temp = hot
        exp = math.exp
        for _step in range(budget):
            if not self.bad and not self.lacking:
                break
            temp *= cool
            if rng.randrange(5):
                bad = self.bad
                if bad and not (self.lacking and rng.randrange(2)):
                    i, j = divmod(bad[rng.randrange(len(bad))], n)
                    rs = [
                        r
                        for r in range(rounds)
                        if self.where[r][i] >= 0 and self.where[r][i] == self.where[r][j]
                    ]
                    r = rs[rng.randrange(len(rs))]
                    x = i if rng.randrange(2) else j
                else:  # East (half the time while it is wrong): a due player of a table
                    # with two or more
                    r = 0
                    crowded = [k for k, c in enumerate(self.due_at) if c > 1]
                    k = crowded[rng.randrange(len(crowded))]
                    due = [p for p in self.tables[0][k] if self.due[p]]
                    x = due[rng.randrange(len(due))]
            else:
                r = rng.randrange(rounds)
                x = self.present[r][rng.randrange(len(self.present[r]))]
            if r == 0 and self.lacking and self.due[x]:
                # to a table without a due player, for one who is not due
                empty = [k for k, c in enumerate(self.due_at) if c == 0]
                t = self.tables[0][empty[rng.randrange(len(empty))]]
                y = t[rng.randrange(len(t))]
            else:
                players = self.present[r]
                y = players[rng.randrange(len(players))]
            if self.where[r][y] == self.where[r][x]:
                continue
            d = self._delta(r, x, y)
            # while East is wrong the walk also counts the tables without a due player
            # (one weighs as much as a repeat); the plan kept is the one with the fewest
            # repeats first, then the fewest such tables
            dd = d + self._east_delta(r, x, y) if self.due_at else d
            if dd <= 0 or rng.random() < exp(-dd / temp):
                self._swap(r, x, y)
                cost += d
                if (cost, self.lacking) < best:
                    best = (cost, self.lacking)
                    best_tables = [[list(t) for t in tables] for tables in self.tables]
        if (cost, self.lacking) > best:
            self._restore(best_tables)

    def _restore(self, tables: list[list[list[int]]]) -> None:
        for old in self.tables:
            for t in old:
                for a, b in itertools.combinations(t, 2):
                    self._meet(a, b, -1)
        self.tables = tables
        for r, new in enumerate(tables):
            where = self.where[r]
            for k, t in enumerate(new):
                for p in t:
                    where[p] = k
                for a, b in itertools.combinations(t, 2):
                    self._meet(a, b, 1)
        self._count_due()


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p**k`` and ``p`` prime, or None."""
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


def _field(q: int) -> list[list[int]] | None:
    """The multiplication table of the field with ``q`` elements (elements 0 .. q-1,
    written as polynomials over Z_p in base p; addition digit by digit mod p), or None
    if ``q`` is not a prime power.  The modulus is the first monic polynomial of
    degree k without zero divisors, found by trying them in order."""
    pk = _prime_power(q)
    if pk is None:
        return None
    p, k = pk

    def digits(a: int) -> list[int]:
        return [(a // p**i) % p for i in range(k)]

    def mul(a: int, b: int, f: list[int]) -> int:
        prod = [0] * (2 * k - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                prod[i + j] = (prod[i + j] + x * y) % p
        for d in range(2 * k - 2, k - 1, -1):  # reduce by the monic x^k + f
            c = prod[d]
            if c:
                prod[d] = 0
                for i in range(k):
                    prod[d - k + i] = (prod[d - k + i] - c * f[i]) % p
        return sum(prod[i] * p**i for i in range(k))

    for low in range(p**k):
        f = digits(low)
        table = [[mul(a, b, f) for b in range(q)] for a in range(q)]
        if all(table[a][b] for a in range(1, q) for b in range(1, q)):
            return table
    return None  # pragma: no cover - a field of every prime-power order exists


def _add(a: int, b: int, q: int) -> int:
    """Addition in the field of :func:`_field`: digit by digit modulo p."""
    pk = _prime_power(q)
    assert pk is not None
    p, k = pk
    return sum((((a // p**i) + (b // p**i)) % p) * p**i for i in range(k))


def _design(n: int, rounds: int, rng: Rng) -> list[list[list[int]]] | None:
    """Rounds without a single repeat meeting from a resolvable transversal design,
    when ``n = 4q`` for a prime power ``q >= rounds`` (and ``q >= 4``), else None.

    Player ``(g, x)``, ``g`` in 0..3 and ``x`` in GF(q), sits in round ``a`` at table
    ``b`` when ``x = a * g + b``: for a fixed ``a`` every player has one table; two
    players ``(g, x)``, ``(h, y)`` with ``g != h`` meet only in the round
    ``a = (x - y) / (g - h)``, and players of one group ``g`` never meet.  The players
    are given to the points, and the rounds chosen among the q, at random."""
    q, rest = divmod(n, 4)
    if rest or q < 4 or rounds > q:
        return None
    mul = _field(q)
    if mul is None:
        return None
    label = list(range(n))
    rng.shuffle(label)
    rounds_a = list(range(q))
    rng.shuffle(rounds_a)
    out = []
    for a in rounds_a[:rounds]:
        tables = []
        for b in range(q):
            tables.append([label[g * q + _add(mul[a][g], b, q)] for g in range(4)])
        out.append(tables)
    return out


def _choose_east(rounds: list[list[list[int]]], east: list[int], rng: Rng) -> list[list[int]]:
    """East of each table: the player with the fewest East seats so far (ties at
    random), round by round; ``east`` (per player) is brought up to date."""
    out = []
    for tables in rounds:
        chosen = []
        for t in tables:
            low = min(east[p] for p in t)
            ties = [p for p in t if east[p] == low]
            e = ties[rng.randrange(len(ties))]
            east[e] += 1
            chosen.append(e)
        out.append(chosen)
    return out


def _balance_east(rounds: list[list[list[int]]], chosen: list[list[int]], east: list[int]) -> None:
    """Even out the East counts: while a player ``u`` can hand East over, along a path
    of tables (``u`` East at a table where ``v`` sits, ``v`` East at one where ``w``
    sits, ...), to a player with at least two East seats fewer, do so: ``u`` loses
    one, the last gains one, the others keep theirs.  Ends with counts that differ by
    at most one wherever the tables allow it (no such path is left)."""
    while True:
        # u -> [(v, round, table)] for every table where u is East
        edges: dict[int, list[tuple[int, int, int]]] = {}
        for r, tables in enumerate(rounds):
            for k, t in enumerate(tables):
                e = chosen[r][k]
                edges.setdefault(e, []).extend((v, r, k) for v in t if v != e)
        moved = False
        for u in sorted(edges, key=lambda p: (-east[p], p)):
            back: dict[int, tuple[int, int, int]] = {u: (-1, -1, -1)}
            queue = [u]
            target = -1
            for v in queue:
                if east[v] <= east[u] - 2:
                    target = v
                    break
                for w, r, k in edges.get(v, ()):
                    if w not in back:
                        back[w] = (v, r, k)
                        queue.append(w)
            if target < 0:
                continue
            v = target
            while v != u:
                prev, r, k = back[v]
                chosen[r][k] = v
                v = prev
            east[u] -= 1
            east[target] += 1
            moved = True
            break
        if not moved:
            return


def _seat_others(
    rounds: list[list[list[int]]], chosen: list[list[int]], winds: list[list[int]], rng: Rng
) -> list[list[tuple[int, ...]]]:
    """Each table in seat order: its East first, then the others in the order that
    keeps their counts of the other seats most even (ties at random), round by round;
    ``winds`` (per player, a count per seat) is brought up to date."""
    out = []
    for r, tables in enumerate(rounds):
        seated = []
        for k, t in enumerate(tables):
            e = chosen[r][k]
            others = [p for p in t if p != e]
            best: list[tuple[int, ...]] = []
            low = -1
            for order in itertools.permutations(others):
                c = sum(2 * winds[p][seat] + 1 for seat, p in enumerate(order, 1))
                if low < 0 or c < low:
                    best, low = [order], c
                elif c == low:
                    best.append(order)
            order = (e, *best[rng.randrange(len(best))])
            for seat, p in enumerate(order):
                winds[p][seat] += 1
            seated.append(order)
        out.append(seated)
    return out


def plan_rounds(
    present: Sequence[Sequence[int]],
    history: Sequence[Round] = (),
    options: SeatingOptions | None = None,
    rng: Rng | None = None,
) -> tuple[Round, ...]:
    """Seat the rounds after ``history``: ``present[k]`` are the players of round
    ``len(history) + k + 1``.  The rounds are planned together (a repeat in the last
    round is avoided by choices in the first); the history is kept as it is.

    ``rng`` is required (pass ``random.Random(seed)``): the same seed, players,
    history and options give the same plan."""
    if rng is None:
        raise InvalidSettings(N_("seating needs a random number generator (a seed)"))
    options = options or SeatingOptions()
    start = len(history)
    if start + len(present) > MAX_ROUNDS:
        raise InvalidSettings(
            N_("{n} rounds: at most {most}"), n=start + len(present), most=MAX_ROUNDS
        )
    for k, r in enumerate(history, 1):
        if r.number != k:
            raise InvalidSeating(
                N_("the history's round {k} is numbered {number}"), k=k, number=r.number
            )
    everyone: set[int] = set()
    rounds_present: list[list[int]] = []
    for k, players in enumerate(present, start + 1):
        ps = list(players)
        for p in ps:
            _number(p, Text(N_("round {round}"), round=k), MAX_PLAYERS)
        if len(set(ps)) != len(ps):
            dup = next(p for p in ps if ps.count(p) > 1)
            raise InvalidSeating(N_("round {round}: player {player} twice"), round=k, player=dup)
        rounds_present.append(sorted(ps))
        everyone.update(ps)
    for r in history:
        everyone.update(r.players)
    numbers = sorted(everyone | set(options.clubs))
    index = {p: i for i, p in enumerate(numbers)}
    n = len(numbers)
    sizes = [table_sizes(len(ps), options.fives) for ps in rounds_present]
    met = [[0] * n for _ in range(n)]
    winds = [[0] * len(SEATS) for _ in range(n)]
    for r in history:
        for table in r.tables:
            for seat, p in enumerate(table):
                winds[index[p]][seat] += 1
            for a, b in itertools.combinations(table, 2):
                met[index[a]][index[b]] += 1
                met[index[b]][index[a]] += 1
    names = sorted(set(options.clubs.values()))
    club_id = {c: i for i, c in enumerate(names)}
    club = [-1] * n
    for p, c in options.clubs.items():
        club[index[p]] = club_id[c]
    search = _Search(n, [[index[p] for p in ps] for ps in rounds_present], sizes, met, club, rng)
    design = None
    if not history and all(ps == rounds_present[0] for ps in rounds_present):
        design = _design(len(rounds_present[0]), len(rounds_present), rng)
    if design is not None:
        search.install(design)
    else:
        search.build()
    east = [w[0] for w in winds]
    if history:
        # the first planned round against the East seats of the history (a round seated
        # alone has no later round to even East out in)
        low = min(east[i] for i in search.present[0])
        search.due_for_east(i for i in search.present[0] if east[i] == low)
    steps = _budget(
        max((len(ps) for ps in rounds_present), default=0), len(present), options.effort
    )
    search.search(steps)
    chosen = _choose_east(search.tables, east, rng)
    _balance_east(search.tables, chosen, east)
    seated = _seat_others(search.tables, chosen, winds, rng)
    return tuple(
        Round(start + k + 1, tuple(tuple(numbers[i] for i in t) for t in tables))
        for k, tables in enumerate(seated)
    )


def seat_round(
    present: Sequence[int],
    history: Sequence[Round] = (),
    options: SeatingOptions | None = None,
    rng: Rng | None = None,
) -> Round:
    """Seat the next round (number ``len(history) + 1``) for the ``present`` players,
    given the rounds played so far (see :func:`plan_rounds`)."""
    return plan_rounds([present], history, options, rng)[0]


def next_round(
    present: Sequence[Sequence[int]],
    history: Sequence[Round],
    options: SeatingOptions | None = None,
    *,
    plan_rng: Rng | None = None,
    round_rng: Rng,
    day_plan: Callable[[], Sequence[Round]] | None = None,
) -> Round:
    """Seat round ``len(history) + 1`` of a tournament day as an organiser does, one
    round at a time: ``present[k]`` are the players of round ``k + 1``, for every round
    of the day (those played included), as far as they are known now.

    The whole day is planned (:func:`plan_rounds`, all rounds at once, from ``plan_rng``:
    a generator made afresh from the tournament's seed for every call);
    while the rounds played are that plan's first rounds as it seats them (nobody came,
    left or was swapped against the plan), the next round is the plan's, so the day
    ends as well as a plan made at once: as few repeats, East as even.  Otherwise the
    round is seated alone against the rounds played (:func:`seat_round`, from
    ``round_rng``).  The same seeds, players, history and options give the same round.

    ``day_plan`` instead of ``plan_rng``: a function that gives that whole-day plan,
    ``plan_rounds(present, (), options, plan_rng)``, without making it again
    (:meth:`DayPlans.plan`); it is called only where the plan is needed."""
    if plan_rng is not None and day_plan is not None:
        raise TypeError("next_round: give plan_rng or day_plan, not both")
    if plan_rng is None and day_plan is None:
        raise InvalidSettings(N_("seating needs a random number generator (a seed)"))
    number = len(history) + 1
    if not 1 <= number <= len(present):
        raise InvalidSettings(
            N_("round {round}: the day has {rounds} rounds"), round=number, rounds=len(present)
        )
    fives = (options or SeatingOptions()).fives
    try:  # a later round that cannot be seated (too few left) is no reason to refuse this one
        for players in present[number:]:
            table_sizes(len(players), fives)
    except InvalidSeating:
        pass
    else:
        if day_plan is not None:
            whole = tuple(day_plan())
        else:
            whole = plan_rounds(present, (), options, plan_rng)
        if tuple(history) == whole[: len(history)]:
            return whole[len(history)]
    return seat_round(present[number - 1], history, options, round_rng)


class DayPlans:
    """The whole-day plans of the last few days seated (at most ``size``, by default
    :data:`DAY_PLANS`, the least recently used dropped first), so that seating round
    ``k`` of a day (:func:`next_round`) does not plan the whole day again: a dense day
    (80 players over 20 rounds) takes seconds to plan.

    A plan is kept under everything it depends on: the players of every round (so
    the number of rounds), the options (``fives``, ``clubs``, ``effort``) and the
    generator's seed.  A change to any of them (a late arrival, a drop-out, clubs kept
    apart) finds no plan and plans afresh, exactly as without the cache.  Safe to share
    between threads; two that ask for the same missing plan may both make it."""

    def __init__(self, size: int = DAY_PLANS) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"DayPlans keeps at least 1 plan, not {quote(size)}")
        self.size = size
        self._plans: OrderedDict[Hashable, tuple[Round, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._plans)

    def plan(
        self,
        present: Sequence[Sequence[int]],
        options: SeatingOptions | None,
        seed: str | int,
        make_rng: Callable[[str | int], Rng],
    ) -> tuple[Round, ...]:
        """``plan_rounds(present, (), options, make_rng(seed))``, made once and then
        remembered (``make_rng(seed)`` must give the same numbers for the same seed:
        ``random.Random`` does)."""
        opts = options or SeatingOptions()
        key = (
            tuple(tuple(players) for players in present),
            opts.fives,
            tuple(sorted(opts.clubs.items())),
            opts.effort,
            seed,
        )
        with self._lock:
            found = self._plans.get(key)
            if found is not None:
                self._plans.move_to_end(key)
                return found
        made = plan_rounds(present, (), options, make_rng(seed))
        with self._lock:
            self._plans[key] = made
            self._plans.move_to_end(key)
            while len(self._plans) > self.size:
                self._plans.popitem(last=False)
        return made


def plan(
    players: int,
    rounds: int,
    options: SeatingOptions | None = None,
    rng: Rng | None = None,
) -> tuple[Round, ...]:
    """A whole schedule for players ``1 .. players``, all present in every round."""
    if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= MAX_PLAYERS:
        raise InvalidSettings(
            N_("players: 4 to {most}, not {value}"), most=MAX_PLAYERS, value=quote(players)
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidSettings(
            N_("rounds: 1 to {most}, not {value}"), most=MAX_ROUNDS, value=quote(rounds)
        )
    everyone = list(range(1, players + 1))
    return plan_rounds([everyone] * rounds, (), options, rng)


# --------------------------------------------------------------------------- by hand


@dataclass(frozen=True, slots=True)
class Swap:
    """A round after two players swapped seats, and the repeat meetings it brings:
    ``(a, b, m)`` for each pair of the two tables that now meets ``m > 1`` times."""

    round: Round
    new_repeats: tuple[tuple[int, int, int], ...]


def swap(current: Round, a: int, b: int, history: Sequence[Round] = ()) -> Swap:
    """Swap players ``a`` and ``b`` of ``current`` (their tables and seats), and say
    which meetings at their two tables are repeats given ``history`` (the rounds
    before ``current``)."""
    ta, tb = current.table_of(a), current.table_of(b)
    for p, t in ((a, ta), (b, tb)):
        if not t:
            raise InvalidSeating(
                N_("round {round}: player {player} is not seated"),
                round=current.number,
                player=quote(p),
            )
    if a == b:
        raise InvalidSeating(
            N_("round {round}: a swap needs two players, not player {player} twice"),
            round=current.number,
            player=a,
        )
    tables = [list(t) for t in current.tables]
    ia, ib = tables[ta - 1].index(a), tables[tb - 1].index(b)
    tables[ta - 1][ia], tables[tb - 1][ib] = b, a
    new = Round(current.number, tuple(tuple(t) for t in tables))
    if ta == tb:
        return Swap(new, ())
    met = meetings(history)
    found = []
    for table in (tables[ta - 1], tables[tb - 1]):
        for x, y in itertools.combinations(sorted(table), 2):
            if (x in (a, b) or y in (a, b)) and met[x, y] >= 1:
                found.append((x, y, met[x, y] + 1))
    return Swap(new, tuple(sorted(found)))


# --------------------------------------------------------------------------- files


_CLUBS: Final = Text(N_("clubs list"))
_SCHEDULE: Final = Text(N_("schedule"))


def _lines(text: str, what: str, most: int) -> Iterable[tuple[int, list[str]]]:
    if len(text.encode("utf-8", "surrogatepass")) > most:
        raise InvalidSchedule(N_("{what}: larger than {most} bytes"), what=what, most=most)
    for k, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        sep = ";" if ";" in line else ","
        yield k, [cell.strip() for cell in line.split(sep)]


def _int_cell(cell: str, what: str, line: int, most: int) -> int:
    if not cell.isdigit() or len(cell) > 6 or not 1 <= int(cell) <= most:
        raise InvalidSchedule(
            N_("{what}, line {line}: {value} is not a number from 1 to {most}"),
            what=what,
            line=line,
            value=quote(cell),
            most=most,
        )
    return int(cell)


def read_clubs(text: str, what: str = _CLUBS) -> dict[int, str]:
    """A clubs list: one line per player, ``number,club`` (or with ``;``); ``#`` starts
    a comment; a first line ``player,club`` (any words that are not a number) is a
    header.  At most :data:`MAX_CLUBS_BYTES`.

    >>> read_clubs("player,club\\n1,Hilversum\\n2, De Draak # new\\n")
    {1: 'Hilversum', 2: 'De Draak'}
    """
    out: dict[int, str] = {}
    first = True
    for line, cells in _lines(text, what, MAX_CLUBS_BYTES):
        if first and not cells[0].isdigit():
            first = False
            continue
        first = False
        if len(cells) != 2:
            raise InvalidSchedule(
                N_("{what}, line {line}: give a player number and a club, not {n} fields"),
                what=what,
                line=line,
                n=len(cells),
            )
        p = _int_cell(cells[0], what, line, MAX_PLAYERS)
        if p in out:
            raise InvalidSchedule(
                N_("{what}, line {line}: player {player} twice"), what=what, line=line, player=p
            )
        try:
            where = Text(N_("{what}, line {line}"), what=what, line=line)
            out[p] = check_text(cells[1], where, required=True)
        except InvalidPlayer as exc:
            raise InvalidSchedule(exc.text) from None
    return out


def read_schedule(text: str, what: str = _SCHEDULE) -> tuple[Round, ...]:
    """A fixed schedule (a loopschema): one line per table,
    ``round,table,east,south,west,north`` (a fifth player at a table of five, none
    for North at a table of three); ``#`` starts a comment, a first line that does not
    start with a number is a header.  Rounds 1, 2, ... and tables 1, 2, ... each
    round, without gaps; at most :data:`MAX_SCHEDULE_BYTES`.

    >>> read_schedule("1,1,1,2,3,4\\n1,2,5,6,7,8\\n2,1,1,5,3,7\\n2,2,2,6,4,8")[1]
    Round(2, ((1, 5, 3, 7), (2, 6, 4, 8)))
    """
    rows: dict[int, dict[int, Table]] = {}
    first = True
    for line, cells in _lines(text, what, MAX_SCHEDULE_BYTES):
        if first and not cells[0].isdigit():
            first = False
            continue
        first = False
        if not 2 + MIN_TABLE <= len(cells) <= 2 + MAX_TABLE:
            raise InvalidSchedule(
                N_("{what}, line {line}: give round, table and 3 to 5 players, not {n} fields"),
                what=what,
                line=line,
                n=len(cells),
            )
        r = _int_cell(cells[0], what, line, MAX_ROUNDS)
        t = _int_cell(cells[1], what, line, MAX_PLAYERS)
        if t in rows.setdefault(r, {}):
            raise InvalidSchedule(
                N_("{what}, line {line}: round {round}, table {table} twice"),
                what=what,
                line=line,
                round=r,
                table=t,
            )
        rows[r][t] = tuple(_int_cell(c, what, line, MAX_PLAYERS) for c in cells[2:])
    out = []
    for r in range(1, len(rows) + 1):
        if r not in rows:
            raise InvalidSchedule(N_("{what}: no tables for round {round}"), what=what, round=r)
        tables = rows[r]
        for t in range(1, len(tables) + 1):
            if t not in tables:
                raise InvalidSchedule(
                    N_("{what}: round {round} has no table {table}"), what=what, round=r, table=t
                )
        try:
            out.append(Round(r, tuple(tables[t] for t in range(1, len(tables) + 1))))
        except InvalidSeating as exc:
            raise InvalidSchedule(N_("{what}: {problem}"), what=what, problem=exc.text) from None
    return tuple(out)
