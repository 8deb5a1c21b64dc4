"""Results per table, table points, penalties, standings and the EMA results rows.

A table's result is the players in seat order and their final scores, which must sum
to the table's total (``start`` times the players: 0 when scores are the balances
of the settlements, as at an NTS table).  A player's score for the table is their
final score minus ``start``.

Table points (:class:`TablePoints`): by place at the table, ``4/2/1/0`` by default,
or ``4/2/1/0.5``; players with equal final scores either *split* the points of the
places they hold (two first with 4/2/1/0: 3 each) or *share* the best of them (4
each).  Penalty points (:class:`Penalty`: a false mahjong, lateness) are kept apart:
they come off the score, never off the table points.

Standings (:func:`standings`): by table points, then total score, then the
tie-breaks in order (most mahjongs, fewest deal-ins, head-to-head); or by total
score alone (``method="score"``), then the tie-breaks.  Players still equal share a
place.

>>> points = TablePoints()
>>> [str(p) for p in points.award((30, 30, -10, -50))]
['3', '3', '1', '0']
>>> [str(p) for p in TablePoints(ties="share").award((30, 30, -10, -50))]
['4', '4', '1', '0']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from mahjong_nts.core.errors import quote
from mahjong_nts.core.rules import MAX_SCORE
from mahjong_nts.core.text import N_, Text
from mahjong_nts.tournament.errors import InvalidResult, InvalidSettings
from mahjong_nts.tournament.players import MAX_PLAYERS, MAX_ROUNDS, Roster, check_text
from mahjong_nts.tournament.seating import MAX_TABLE, MIN_TABLE, Round

__all__ = [
    "EMA_HEADER",
    "MAX_COUNT",
    "MAX_POINTS",
    "MAX_REASON_CHARS",
    "TIE_BREAKS",
    "Penalty",
    "Ranking",
    "Standing",
    "TablePoints",
    "TableResult",
    "check_results",
    "ema_rows",
    "format_points",
    "standings",
]

MAX_POINTS: Final = 100
"""Table points for one place: 0 to 100."""

MAX_COUNT: Final = 1000
"""Mahjongs or deal-ins of one player at one table: 0 to 1000."""

MAX_REASON_CHARS: Final = 200
"""Characters of a penalty's reason."""

TIE_BREAKS: Final = ("mahjongs", "deal_ins", "head_to_head")
"""The tie-breaks there are: most mahjongs, fewest deal-ins, head-to-head."""

EMA_HEADER: Final = (
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "Country/club",
)

Points = Fraction

_WORDS: Final = {
    "finals": Text(N_("scores")),
    "mahjongs": Text(N_("mahjongs")),
    "deal_ins": Text(N_("deal-ins")),
}


def _points(values: Iterable[object], what: str) -> tuple[Fraction, ...]:
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float | Fraction | str):
            raise InvalidSettings(N_("{what}: {value} is not a number"), what=what, value=quote(v))
        try:
            f = Fraction(v)
        except (ValueError, ZeroDivisionError, OverflowError):
            raise InvalidSettings(
                N_("{what}: {value} is not a number"), what=what, value=quote(v)
            ) from None
        if not 0 <= f <= MAX_POINTS or 100 % f.denominator:
            raise InvalidSettings(
                N_("{what}: {value}: table points are 0 to {most}, in hundredths at the finest"),
                what=what,
                value=quote(v),
                most=MAX_POINTS,
            )
        out.append(f)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TablePoints:
    """Points by place at a table of four, three and five, and what ties get:
    ``"split"`` (the tied players split the points of the places they hold) or
    ``"share"`` (each gets the best of those places)."""

    four: tuple[Fraction, ...] = (Fraction(4), Fraction(2), Fraction(1), Fraction(0))
    three: tuple[Fraction, ...] = (Fraction(4), Fraction(2), Fraction(0))
    five: tuple[Fraction, ...] = (Fraction(4), Fraction(2), Fraction(1), Fraction(0), Fraction(0))
    ties: Literal["split", "share"] = "split"

    def __post_init__(self) -> None:
        for name, size in (("three", 3), ("four", 4), ("five", 5)):
            values = _points(getattr(self, name), Text(N_("table points for {size}"), size=size))
            if len(values) != size:
                raise InvalidSettings(
                    N_("table points for {size}: give {size} values, not {n}"),
                    size=size,
                    n=len(values),
                )
            if any(a < b for a, b in itertools.pairwise(values)):
                raise InvalidSettings(
                    N_("table points for {size}: a higher place never gets fewer points"),
                    size=size,
                )
            object.__setattr__(self, name, values)
        if self.ties not in ("split", "share"):
            raise InvalidSettings(N_("ties: split or share, not {value}"), value=quote(self.ties))

    @classmethod
    def parse(cls, text: str, ties: str = "split") -> TablePoints:
        """``"4/2/1/0.5"``: the points for a table of four (three and five keep their
        defaults).

        >>> [str(p) for p in TablePoints.parse("4/2/1/0.5").four]
        ['4', '2', '1', '1/2']
        """
        parts = text.split("/") if isinstance(text, str) and len(text) <= 100 else []
        if len(parts) != 4:
            raise InvalidSettings(
                N_("table points {value}: give four numbers like 4/2/1/0"), value=quote(text)
            )
        return cls(four=_points((p.strip() for p in parts), Text(N_("table points"))), ties=ties)  # type: ignore[arg-type]

    def for_size(self, size: int) -> tuple[Fraction, ...]:
        """The points by place at a table of ``size``."""
        return {3: self.three, 4: self.four, 5: self.five}[size]

    def award(self, finals: Sequence[int]) -> tuple[Fraction, ...]:
        """The table points of each seat, from the seats' final scores."""
        places = self.for_size(len(finals))
        order = sorted(range(len(finals)), key=lambda i: -finals[i])
        out = [Fraction(0)] * len(finals)
        at = 0
        for _score, group in itertools.groupby(order, key=lambda i: finals[i]):
            seats = list(group)
            held = places[at : at + len(seats)]
            value = held[0] if self.ties == "share" else sum(held, Fraction(0)) / len(held)
            for i in seats:
                out[i] = value
            at += len(seats)
        return tuple(out)


def _count(value: object, what: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise InvalidResult(
            N_("{what}: a whole number from 0 to {most}, not {value}"),
            what=what,
            most=most,
            value=quote(value),
        )
    return value


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one table in one round: players in seat order, their final
    scores, and (optionally) each one's mahjongs and deal-ins for the tie-breaks."""

    round: int
    table: int
    players: tuple[int, ...]
    finals: tuple[int, ...]
    mahjongs: tuple[int, ...] = ()
    deal_ins: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _count(self.round, Text(N_("round")), MAX_ROUNDS)
        where = Text(N_("round {round}, table {table}"), round=self.round, table=self.table)
        _count(self.table, where, MAX_PLAYERS)
        players = tuple(self.players)
        if not MIN_TABLE <= len(players) <= MAX_TABLE:
            raise InvalidResult(
                N_("{where}: {n} players; a table seats 3 to 5"), where=where, n=len(players)
            )
        for p in players:
            if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MAX_PLAYERS:
                raise InvalidResult(
                    N_("{where}: {value} is not a player number"), where=where, value=quote(p)
                )
        if len(set(players)) != len(players):
            dup = next(p for p in players if players.count(p) > 1)
            raise InvalidResult(N_("{where}: player {player} twice"), where=where, player=dup)
        for name in ("finals", "mahjongs", "deal_ins"):
            values = tuple(getattr(self, name))
            if name != "finals" and not values:
                values = (0,) * len(players)
            if len(values) != len(players):
                raise InvalidResult(
                    N_("{where}: {n} {what} for {players} players"),
                    where=where,
                    n=len(values),
                    what=_WORDS[name],
                    players=len(players),
                )
            for p, v in zip(players, values, strict=True):
                if name == "finals":
                    if isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_SCORE:
                        raise InvalidResult(
                            N_(
                                "{where}: player {player}'s score {value} is not a whole "
                                "number from -2^48 to 2^48"
                            ),
                            where=where,
                            player=p,
                            value=quote(v),
                        )
                else:
                    what = Text(
                        N_("{where}, player {player}: {what}"),
                        where=where,
                        player=p,
                        what=_WORDS[name],
                    )
                    _count(v, what, MAX_COUNT)
            object.__setattr__(self, name, values)
        object.__setattr__(self, "players", players)

    def check_sum(self, start: int = 0) -> None:
        """The zero-sum check: the final scores sum to ``start`` times the players."""
        total = start * len(self.players)
        got = sum(self.finals)
        if got > total:
            message = N_(
                "round {round}, table {table}: the scores sum to {got}, not {total} "
                "({diff} too many): a table's scores sum to its total"
            )
        elif got < total:
            message = N_(
                "round {round}, table {table}: the scores sum to {got}, not {total} "
                "({diff} too few): a table's scores sum to its total"
            )
        else:
            return
        raise InvalidResult(
            message,
            round=self.round,
            table=self.table,
            got=got,
            total=total,
            diff=abs(got - total),
        )


@dataclass(frozen=True, slots=True)
class Penalty:
    """Penalty points for a player in a round, with the reason: they come off the
    score (never off the table points)."""

    player: int
    round: int
    points: int
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.player, int) or isinstance(self.player, bool):
            raise InvalidResult(
                N_("penalty: {value} is not a player number"), value=quote(self.player)
            )
        _count(self.player, Text(N_("penalty: player")), MAX_PLAYERS)
        _count(
            self.round,
            Text(N_("penalty for player {player}: round"), player=self.player),
            MAX_ROUNDS,
        )
        if (
            isinstance(self.points, bool)
            or not isinstance(self.points, int)
            or not 1 <= self.points <= MAX_SCORE
        ):
            raise InvalidResult(
                N_("penalty for player {player}: {value} points; give 1 to 2^48"),
                player=self.player,
                value=quote(self.points),
            )
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise InvalidResult(
                N_("penalty for player {player}: give the reason"), player=self.player
            )
        reason = self.reason.strip()
        if len(reason) > MAX_REASON_CHARS or any(ord(c) < 32 for c in reason):
            raise InvalidResult(
                N_(
                    "penalty for player {player}: a reason is one line of at most {most} characters"
                ),
                player=self.player,
                most=MAX_REASON_CHARS,
            )
        object.__setattr__(self, "reason", reason)


@dataclass(frozen=True, slots=True)
class Ranking:
    """How standings are ranked: ``method`` ``"table_points"`` (then total score) or
    ``"score"``; then ``tie_breaks`` in order (of :data:`TIE_BREAKS`).  ``start``: each
    player's starting score (a table's scores sum to ``start`` times its players)."""

    method: Literal["table_points", "score"] = "table_points"
    points: TablePoints = TablePoints()
    tie_breaks: tuple[str, ...] = TIE_BREAKS
    start: int = 0

    def __post_init__(self) -> None:
        if self.method not in ("table_points", "score"):
            raise InvalidSettings(
                N_("ranking: table_points or score, not {value}"), value=quote(self.method)
            )
        breaks = tuple(self.tie_breaks)
        for b in breaks:
            if b not in TIE_BREAKS:
                raise InvalidSettings(
                    N_("tie-break {value}: one of mahjongs, deal_ins, head_to_head"),
                    value=quote(b),
                )
        if len(set(breaks)) != len(breaks):
            raise InvalidSettings(N_("a tie-break given twice"))
        if (
            isinstance(self.start, bool)
            or not isinstance(self.start, int)
            or abs(self.start) > MAX_SCORE
        ):
            raise InvalidSettings(N_("start: {value} is not a score"), value=quote(self.start))
        object.__setattr__(self, "tie_breaks", breaks)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    place: int
    shared: bool
    """Whether another player has the same place."""
    player: int
    table_points: Fraction
    score: int
    """The sum of the table scores (final minus start), penalties not counted."""
    penalty: int
    mahjongs: int
    deal_ins: int
    rounds: int
    """Tables played."""

    @property
    def total(self) -> int:
        """The score minus the penalty points."""
        return self.score - self.penalty


def check_results(
    results: Sequence[TableResult],
    rounds: Sequence[Round] = (),
    roster: Roster | None = None,
    start: int = 0,
) -> None:
    """Check the results as a whole: every table's scores sum to its total; no table
    entered twice; nobody at two tables of one round; with the seating (``rounds``),
    each result's players are those seated at that table (in any seat order: a table
    may have changed seats); with the ``roster``, every player is registered."""
    seen: dict[tuple[int, int], TableResult] = {}
    seated: dict[tuple[int, int], int] = {}
    by_round = {r.number: r for r in rounds}
    known = {p.number for p in roster} if roster is not None else None
    for res in results:
        res.check_sum(start)
        key = (res.round, res.table)
        if key in seen:
            raise InvalidResult(
                N_("round {round}, table {table}: entered twice"), round=res.round, table=res.table
            )
        seen[key] = res
        for p in res.players:
            if known is not None and p not in known:
                raise InvalidResult(
                    N_("round {round}, table {table}: no player number {player}"),
                    round=res.round,
                    table=res.table,
                    player=p,
                )
            other = seated.get((res.round, p))
            if other is not None:
                raise InvalidResult(
                    N_("round {round}: player {player} at table {a} and at table {b}"),
                    round=res.round,
                    player=p,
                    a=other,
                    b=res.table,
                )
            seated[res.round, p] = res.table
        seating = by_round.get(res.round)
        if seating is not None:
            if not 1 <= res.table <= len(seating.tables):
                raise InvalidResult(
                    N_("round {round} has no table {table}"), round=res.round, table=res.table
                )
            expected = seating.tables[res.table - 1]
            if sorted(expected) != sorted(res.players):
                raise InvalidResult(
                    N_("round {round}, table {table}: players {got}, but {seated} were seated"),
                    round=res.round,
                    table=res.table,
                    got=", ".join(map(str, res.players)),
                    seated=", ".join(map(str, expected)),
                )


def _head_to_head(group: Sequence[int], results: Sequence[TableResult]) -> dict[int, int]:
    """For players tied so far: at each table where two of them sat together, +1 for
    the one with the higher final score, -1 for the other."""
    inside = set(group)
    out = dict.fromkeys(group, 0)
    for res in results:
        here = [(p, f) for p, f in zip(res.players, res.finals, strict=True) if p in inside]
        for (p, fp), (q, fq) in itertools.combinations(here, 2):
            if fp > fq:
                out[p] += 1
                out[q] -= 1
            elif fq > fp:
                out[q] += 1
                out[p] -= 1
    return out


def standings(
    results: Sequence[TableResult],
    penalties: Sequence[Penalty] = (),
    ranking: Ranking | None = None,
    players: Iterable[int] = (),
) -> tuple[Standing, ...]:
    """The standings after ``results`` (checked: :func:`check_results`) and
    ``penalties``; ``players`` adds registered players without results yet (they
    stand last, with nothing).  Players equal on every key share a place and are
    listed by number."""
    ranking = ranking or Ranking()
    check_results(results, start=ranking.start)
    tp: dict[int, Fraction] = {}
    score: dict[int, int] = {}
    mj: dict[int, int] = {}
    di: dict[int, int] = {}
    played: dict[int, int] = {}
    pen: dict[int, int] = {}
    for p in players:
        tp.setdefault(p, Fraction(0))
    for res in results:
        award = ranking.points.award(res.finals)
        for i, p in enumerate(res.players):
            tp[p] = tp.get(p, Fraction(0)) + award[i]
            score[p] = score.get(p, 0) + res.finals[i] - ranking.start
            mj[p] = mj.get(p, 0) + res.mahjongs[i]
            di[p] = di.get(p, 0) + res.deal_ins[i]
            played[p] = played.get(p, 0) + 1
    for pe in penalties:
        pen[pe.player] = pen.get(pe.player, 0) + pe.points
        tp.setdefault(pe.player, Fraction(0))
    everyone = sorted(tp)

    def key(p: int) -> tuple[object, ...]:
        total = score.get(p, 0) - pen.get(p, 0)
        k: list[object] = [-tp[p], -total] if ranking.method == "table_points" else [-total]
        for b in ranking.tie_breaks:
            if b == "mahjongs":
                k.append(-mj.get(p, 0))
            elif b == "deal_ins":
                k.append(di.get(p, 0))
            else:
                break  # head-to-head is decided within a tied group, below
        return tuple(k)

    # keys before head-to-head, then head-to-head within each group of equals, then the
    # tie-breaks after it
    h2h_at = (
        ranking.tie_breaks.index("head_to_head") if "head_to_head" in ranking.tie_breaks else None
    )
    after = ranking.tie_breaks[h2h_at + 1 :] if h2h_at is not None else ()

    def rest_key(p: int) -> tuple[int, ...]:
        return tuple(-mj.get(p, 0) if b == "mahjongs" else di.get(p, 0) for b in after)

    ordered: list[tuple[tuple[object, ...], int]] = []
    for k, grp in itertools.groupby(sorted(everyone, key=lambda p: (key(p), p)), key=key):
        group = list(grp)
        if h2h_at is not None and len(group) > 1:
            h2h = _head_to_head(group, results)
            for p in group:
                ordered.append(((*k, -h2h[p], *rest_key(p)), p))
        else:
            for p in group:
                ordered.append(((*k,), p))
    ordered.sort()
    out = []
    place = 0
    for i, (k, p) in enumerate(ordered):
        if i == 0 or k != ordered[i - 1][0]:
            place = i + 1
        shared = (i > 0 and ordered[i - 1][0] == k) or (
            i + 1 < len(ordered) and ordered[i + 1][0] == k
        )
        out.append(
            Standing(
                place=place,
                shared=shared,
                player=p,
                table_points=tp[p],
                score=score.get(p, 0),
                penalty=pen.get(p, 0),
                mahjongs=mj.get(p, 0),
                deal_ins=di.get(p, 0),
                rounds=played.get(p, 0),
            )
        )
    return tuple(out)


def format_points(points: Fraction) -> str:
    """Table points as a decimal: ``3``, ``2.5``, ``2.33`` (two decimals at most).

    >>> format_points(Fraction(5, 2)), format_points(Fraction(7, 3)), format_points(Fraction(4))
    ('2.5', '2.33', '4')
    """
    if points.denominator == 1:
        return str(points.numerator)
    text = f"{float(points):.2f}".rstrip("0").rstrip(".")
    return text


def ema_rows(
    table: Sequence[Standing], roster: Roster, country: Mapping[int, str] | None = None
) -> list[tuple[str, ...]]:
    """The EMA results rows: the header (:data:`EMA_HEADER`), then one row per player
    in the order of the standings.  ``Country/club``: ``country[player]`` if given,
    else the player's club.  The score is the total (penalties taken off)."""
    rows: list[tuple[str, ...]] = [EMA_HEADER]
    for s in table:
        p = roster.get(s.player)
        where = (country or {}).get(s.player, p.club)
        rows.append(
            (
                str(s.place),
                p.first_name,
                p.last_name,
                p.ema,
                format_points(s.table_points),
                str(s.total),
                check_text(where, Text(N_("country or club"))),
            )
        )
    return rows
