"""The tournaments in the store: create one, register players (one by one or from a
players file), seat a round, enter and correct table results, give penalties, read
the tournament back with its standings.

The logic is :mod:`mahjong_nts.tournament`'s (the checks of players, seatings and
results, the seating itself, table points and standings); this module keeps rows.
Each function is one transaction, and every write to a tournament first raises its
``version`` (``UPDATE tournaments SET version = version + 1``): that takes the
tournament's row lock on PostgreSQL and the write lock on SQLite, so two writes to
one tournament run one after the other and each checks against what the other
stored.  Bad input raises a :class:`~mahjong_nts.tournament.TournamentError` (a
:class:`~mahjong_nts.core.errors.MahjongError`) and stores nothing; an unknown
tournament :class:`~mahjong_nts.store.db.NotFound`; a result entered or corrected by
someone else since the version the caller saw :class:`~mahjong_nts.store.db.Conflict`.

A tournament is named by its ``id`` (the command line), its organiser's ``token`` (a
write link) or its ``public_id`` (read only: the players' pages, the big screen).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mahjong_nts.core.errors import MahjongError, quote
from mahjong_nts.core.text import N_, Text
from mahjong_nts.formats import wire
from mahjong_nts.store.db import Conflict, NotFound, Store, StoreError
from mahjong_nts.store.models import (
    TABLE_ID_CHARS,
    TOKEN_CHARS,
    Tournament,
    TournamentPenalty,
    TournamentPlayer,
    TournamentResult,
    TournamentResultChange,
    TournamentRound,
)
from mahjong_nts.tournament import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    DayPlans,
    InvalidPlayer,
    InvalidResult,
    InvalidSeating,
    InvalidSettings,
    Penalty,
    Player,
    Ranking,
    Roster,
    Round,
    SeatingOptions,
    Standing,
    Swap,
    TablePoints,
    TableResult,
    check_results,
    next_round,
    standings,
    swap,
)
from mahjong_nts.tournament.players import check_round, check_text
from mahjong_nts.tournament.registration import PlayerRow, check_new_players, read_players

__all__ = [
    "MAX_WHO_CHARS",
    "EnteredAlready",
    "ResultChange",
    "ResultView",
    "TournamentInfo",
    "TournamentView",
    "add_penalty",
    "add_player",
    "create_tournament",
    "edit_player",
    "enter_result",
    "get_tournament",
    "import_players",
    "ranking_from_json",
    "ranking_to_json",
    "remove_player",
    "result_changes",
    "seat_next_round",
    "set_round",
    "set_rounds",
    "swap_players",
    "tournament_standings",
    "tournament_version",
]

MAX_WHO_CHARS: Final = 60
"""Characters of the name of an official who enters a result or a penalty (as a
player's name: :data:`mahjong_nts.tournament.players.MAX_NAME_CHARS`)."""

SEED_BITS: Final = 64
"""Bits of a tournament's seating seed chosen at random."""

MAX_SEED_DIGITS: Final = 40
"""Decimal digits of a seating seed given (the column holds 40)."""

_ALPHABET: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


# --------------------------------------------------------------------------- values


class EnteredAlready(Conflict):
    """A table entered (``version=None``) that has a result already: someone entered
    it first.  Its message tells a page's reader to reload and correct; the command
    line says ``--correct`` with :attr:`version` instead."""

    def __init__(self, round_number: int, table: int, who: str, version: int) -> None:
        self.round = round_number
        self.table = table
        self.who = who
        self.version = version
        super().__init__(
            Text(
                N_(
                    "round {round}, table {table} was entered already (by {who}, "
                    "version {version}): reload it and correct it if it is wrong"
                ),
                round=round_number,
                table=table,
                who=quote(who),
                version=version,
            )
        )


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: int
    token: str
    """The organiser's link: whoever has it changes the tournament."""
    public_id: str
    """The players' and the big screen's link."""
    name: str
    day: date
    ruleset_name: str
    rounds: int
    fives: bool
    clubs_apart: bool
    ranking: Ranking
    seed: str
    version: int
    created: datetime


@dataclass(frozen=True, slots=True)
class ResultView:
    result: TableResult
    version: int
    """1 when entered, one more with each correction: a correction names it."""
    entered_by: str
    created: datetime
    updated: datetime


@dataclass(frozen=True, slots=True)
class ResultChange:
    round: int
    table: int
    version: int
    """The result's version this change made."""
    changed_by: str
    old: dict[str, Any]
    new: dict[str, Any]
    changed: datetime


@dataclass(frozen=True, slots=True)
class TournamentView:
    info: TournamentInfo
    roster: Roster
    substitutes: Mapping[int, int]
    """Substitute's number -> the number of the player they replace."""
    rounds: tuple[Round, ...]
    results: tuple[ResultView, ...]
    penalties: tuple[Penalty, ...]

    @property
    def table_results(self) -> tuple[TableResult, ...]:
        return tuple(r.result for r in self.results)

    def standings(self) -> tuple[Standing, ...]:
        """The standings now (:func:`mahjong_nts.tournament.standings`)."""
        return standings(
            self.table_results,
            self.penalties,
            self.info.ranking,
            players=[p.number for p in self.roster],
        )

    def result(self, round_number: int, table: int) -> ResultView | None:
        for r in self.results:
            if r.result.round == round_number and r.result.table == table:
                return r
        return None


# --------------------------------------------------------------------------- ranking


def ranking_to_json(ranking: Ranking) -> dict[str, Any]:
    """The ranking settings as the store keeps them (points as exact fractions)."""
    pts = ranking.points
    return {
        "method": ranking.method,
        "points": {
            size: [str(v) for v in getattr(pts, size)] for size in ("three", "four", "five")
        },
        "ties": pts.ties,
        "tie_breaks": list(ranking.tie_breaks),
        "start": ranking.start,
    }


def ranking_from_json(data: object) -> Ranking:
    """Ranking settings from their JSON object: every key optional (the defaults:
    table points 4/2/1/0, ties split, then score, mahjongs, deal-ins, head-to-head)."""
    if data is None:
        return Ranking()
    if not isinstance(data, Mapping):
        raise InvalidSettings(N_("ranking: an object, not {type}"), type=type(data).__name__)
    unknown = sorted(set(data) - {"method", "points", "ties", "tie_breaks", "start"})
    if unknown:
        raise InvalidSettings(N_("ranking: unknown setting {value}"), value=quote(unknown[0]))
    points_data = data.get("points", {})
    if isinstance(points_data, str):
        points = TablePoints.parse(points_data, data.get("ties", "split"))
    else:
        if not isinstance(points_data, Mapping) or set(points_data) - {"three", "four", "five"}:
            raise InvalidSettings(N_("ranking: points are three, four and five"))
        kwargs: dict[str, Any] = {}
        for size in ("three", "four", "five"):
            if size in points_data:
                values = points_data[size]
                if not isinstance(values, list | tuple) or len(values) > 5:
                    raise InvalidSettings(N_("ranking: points for {size}: a list"), size=size)
                kwargs[size] = tuple(Fraction(v) if isinstance(v, str) else v for v in values)
        try:
            points = TablePoints(ties=data.get("ties", "split"), **kwargs)
        except (ValueError, ZeroDivisionError) as exc:
            if isinstance(exc, MahjongError):
                raise
            raise InvalidSettings(N_("ranking: points are numbers")) from None
    breaks = data.get("tie_breaks", Ranking().tie_breaks)
    if not isinstance(breaks, list | tuple) or len(breaks) > 3:
        raise InvalidSettings(N_("ranking: tie_breaks is a list of at most three"))
    return Ranking(
        method=data.get("method", "table_points"),
        points=points,
        tie_breaks=tuple(breaks),
        start=data.get("start", 0),
    )


# --------------------------------------------------------------------------- helpers


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _not_found() -> NotFound:
    return NotFound(Text(N_("no tournament has this number or link")))


def _where(ref: object, *, write: bool) -> Any:
    if isinstance(ref, int) and not isinstance(ref, bool):
        if not 1 <= ref <= 2**31 - 1:
            raise _not_found()
        return Tournament.id == ref
    if isinstance(ref, str) and ref and set(ref) <= _ALPHABET:
        if len(ref) == TOKEN_CHARS:
            return Tournament.token == ref
        if len(ref) == TABLE_ID_CHARS:
            if write:
                raise NotFound(Text(N_("this link shows the tournament; it cannot change it")))
            return Tournament.public_id == ref
    raise _not_found()


def _read(session: Session, ref: object, *, write: bool = False) -> Tournament:
    """The tournament (``write``: by a reference that may change it, not changed yet)."""
    row = session.scalars(select(Tournament).where(_where(ref, write=write))).one_or_none()
    if row is None:
        raise _not_found()
    return row


def _write(session: Session, ref: object) -> Tournament:
    """The tournament, its version raised first (which serialises the writers)."""
    done = session.execute(
        update(Tournament)
        .where(_where(ref, write=True))
        .values(version=Tournament.version + 1, updated=_now())
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 0) != 1:
        raise _not_found()
    row = session.scalars(
        select(Tournament).where(_where(ref, write=True)).execution_options(populate_existing=True)
    ).one()
    return row


def _info(row: Tournament) -> TournamentInfo:
    try:
        ranking = ranking_from_json(row.ranking)
    except MahjongError as exc:
        raise StoreError(f"this tournament's stored ranking is no longer valid: {exc}") from None
    return TournamentInfo(
        id=row.id,
        token=row.token,
        public_id=row.public_id,
        name=row.name,
        day=row.day,
        ruleset_name=row.ruleset_name,
        rounds=row.rounds,
        fives=row.fives,
        clubs_apart=row.clubs_apart,
        ranking=ranking,
        seed=row.seed,
        version=row.version,
        created=_aware(row.created),
    )


def _player(row: TournamentPlayer) -> Player:
    return Player(
        row.number,
        row.first_name,
        row.last_name,
        club=row.club,
        ema=row.ema,
        nmb=row.nmb,
        first_round=row.first_round,
        last_round=row.last_round,
        absent=frozenset(row.absent),
    )


def _player_rows(session: Session, tid: int) -> list[TournamentPlayer]:
    return list(
        session.scalars(
            select(TournamentPlayer)
            .where(TournamentPlayer.tournament_id == tid)
            .order_by(TournamentPlayer.number)
        )
    )


def _roster(rows: Sequence[TournamentPlayer]) -> Roster:
    return Roster(tuple(_player(r) for r in rows))


def _rounds(session: Session, tid: int) -> tuple[Round, ...]:
    rows = session.scalars(
        select(TournamentRound)
        .where(TournamentRound.tournament_id == tid)
        .order_by(TournamentRound.number)
    )
    return tuple(Round(r.number, tuple(tuple(t) for t in r.tables)) for r in rows)


def _result(row: TournamentResult) -> TableResult:
    return TableResult(
        row.round,
        row.table_number,
        tuple(row.players),
        tuple(row.finals),
        tuple(row.mahjongs),
        tuple(row.deal_ins),
    )


def _result_rows(session: Session, tid: int) -> list[TournamentResult]:
    return list(
        session.scalars(
            select(TournamentResult)
            .where(TournamentResult.tournament_id == tid)
            .order_by(TournamentResult.round, TournamentResult.table_number)
        )
    )


def _penalties(session: Session, tid: int) -> tuple[Penalty, ...]:
    rows = session.scalars(
        select(TournamentPenalty)
        .where(TournamentPenalty.tournament_id == tid)
        .order_by(TournamentPenalty.id)
    )
    return tuple(Penalty(r.player, r.round, r.points, r.reason) for r in rows)


def _who(value: object) -> str:
    return check_text(value, Text(N_("who")), required=False)


def _seated_or_played(session: Session, tid: int, number: int) -> bool:
    return any(number in r.players for r in _rounds(session, tid)) or any(
        number in r.players for r in _result_rows(session, tid)
    )


# --------------------------------------------------------------------------- tournaments


def create_tournament(
    store: Store,
    *,
    name: object,
    day: object,
    rounds: object,
    ruleset: object = wire.DEFAULT_RULESET_NAME,
    fives: bool = True,
    clubs_apart: bool = False,
    ranking: object = None,
    seed: object = None,
) -> TournamentInfo:
    """Start a tournament: its name, the date (``date`` or ``YYYY-MM-DD``), the
    number of rounds (1 to 20), the rule set as a shipped name with overlays or house
    rules inline (never a file), the table-size policy (``fives``: a table of five
    rather than three of three when the count is one more than a multiple of four),
    club mates kept apart or not, the ranking settings (:func:`ranking_from_json`),
    the seating seed (a whole number; default a random one)."""
    try:
        title = check_text(name, Text(N_("tournament name")), required=True)
    except InvalidPlayer as exc:
        raise InvalidSettings(exc.text) from None
    if isinstance(day, str):
        try:
            day = date.fromisoformat(day.strip()) if len(day) <= 20 else None
        except ValueError:
            day = None
    if not isinstance(day, date) or isinstance(day, datetime):
        raise InvalidSettings(N_("date: give a day as YYYY-MM-DD, e.g. 2026-11-28"))
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidSettings(
            N_("rounds: 1 to {most}, not {value}"), most=MAX_ROUNDS, value=quote(rounds)
        )
    try:
        rules = wire.load_rules(ruleset)
    except MahjongError as exc:
        raise InvalidSettings(
            N_("rule set: {problem}"), problem=wire.short_text(exc.text)
        ) from None
    if not isinstance(fives, bool) or not isinstance(clubs_apart, bool):
        raise InvalidSettings(N_("fives and clubs apart are yes or no"))
    ranked = ranking if isinstance(ranking, Ranking) else ranking_from_json(ranking)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 10**MAX_SEED_DIGITS:
        raise InvalidSettings(
            N_("seed: a whole number of at most {most} digits"), most=MAX_SEED_DIGITS
        )
    now = _now()
    row = Tournament(
        token=secrets.token_urlsafe(24),
        public_id=secrets.token_urlsafe(16),
        name=title,
        day=day,
        ruleset_name=rules.name,
        ruleset=rules.to_mapping(),
        rounds=rounds,
        fives=fives,
        clubs_apart=clubs_apart,
        ranking=ranking_to_json(ranked),
        seed=str(seed),
        version=1,
        created=now,
        updated=now,
    )
    with store.transaction() as session:
        session.add(row)
        session.flush()
        return _info(row)


def get_tournament(store: Store, ref: int | str) -> TournamentView:
    """A tournament with its players, rounds, results and penalties."""
    with store.transaction() as session:
        row = _read(session, ref)
        players = _player_rows(session, row.id)
        return TournamentView(
            info=_info(row),
            roster=_roster(players),
            substitutes={
                p.number: p.substitute_for for p in players if p.substitute_for is not None
            },
            rounds=_rounds(session, row.id),
            results=tuple(
                ResultView(
                    _result(r), r.version, r.entered_by, _aware(r.created), _aware(r.updated)
                )
                for r in _result_rows(session, row.id)
            ),
            penalties=_penalties(session, row.id),
        )


def tournament_version(store: Store, ref: int | str) -> int:
    """How often the tournament was written (one small query: the big screen's and
    the live standings' polling)."""
    with store.transaction() as session:
        found = session.scalar(select(Tournament.version).where(_where(ref, write=False)))
        if found is None:
            raise _not_found()
        return int(found)


def tournament_standings(store: Store, ref: int | str) -> tuple[Standing, ...]:
    """The standings now."""
    return get_tournament(store, ref).standings()


# --------------------------------------------------------------------------- players


def _new_rows(
    session: Session,
    row: Tournament,
    new: Sequence[PlayerRow],
    *,
    first_round: int = 1,
    substitute_for: int | None = None,
) -> tuple[Player, ...]:
    existing = _player_rows(session, row.id)
    roster = _roster(existing)
    check_new_players(roster, new)
    if len(existing) + len(new) > MAX_PLAYERS:
        raise InvalidPlayer(
            N_("{n} players: a tournament has at most {most}"),
            n=len(existing) + len(new),
            most=MAX_PLAYERS,
        )
    if first_round > row.rounds:
        raise InvalidPlayer(
            N_("first round {value}: the tournament has {rounds} rounds"),
            value=first_round,
            rounds=row.rounds,
        )
    if substitute_for is not None:
        replaced = roster.get(substitute_for)
        if replaced.last_round is None or replaced.last_round >= first_round:
            raise InvalidPlayer(
                N_(
                    "a substitute for player {number} comes in round {round}: mark player "
                    "{number} as dropped after round {before} first"
                ),
                number=substitute_for,
                round=first_round,
                before=first_round - 1,
            )
    number = max((p.number for p in existing), default=0)
    players = []
    for r in new:
        number += 1
        players.append(
            Player(
                number,
                r.first_name,
                r.last_name,
                club=r.club,
                ema=r.ema,
                nmb=r.nmb,
                first_round=first_round,
            )
        )
    Roster((*roster.players, *players))  # checked as a whole (numbers, EMA numbers)
    now = _now()
    for p in players:
        session.add(
            TournamentPlayer(
                tournament_id=row.id,
                number=p.number,
                first_name=p.first_name,
                last_name=p.last_name,
                club=p.club,
                ema=p.ema,
                nmb=p.nmb,
                first_round=p.first_round,
                last_round=None,
                absent=[],
                substitute_for=substitute_for,
                version=1,
                created=now,
                updated=now,
            )
        )
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(
            Text(N_("players were registered at the same moment by someone else: try again"))
        ) from None
    return tuple(players)


def add_player(
    store: Store,
    ref: int | str,
    *,
    first_name: object,
    last_name: object = "",
    club: object = "",
    ema: object = "",
    nmb: object = "",
    first_round: object = 1,
    substitute_for: object = None,
) -> Player:
    """Register a player (the next number).  A late arrival comes in ``first_round``;
    a substitute replaces ``substitute_for`` (who must have dropped before it).  The
    same name, EMA or NMB number twice is refused."""
    what = Text(N_("the new player"))
    row_in = PlayerRow(
        line=0,
        first_name=check_text(first_name, Text(N_("{what}, first name"), what=what), required=True),
        last_name=check_text(last_name, Text(N_("{what}, last name"), what=what)),
        club=check_text(club, Text(N_("{what}, club"), what=what)),
        ema=check_text(ema, Text(N_("{what}, EMA number"), what=what)),
        nmb=check_text(nmb, Text(N_("{what}, NMB number"), what=what)),
    )
    first = check_round(first_round, Text(N_("first round")))
    sub = None if substitute_for is None else _player_number(substitute_for)
    with store.transaction() as session:
        row = _write(session, ref)
        return _new_rows(session, row, [row_in], first_round=first, substitute_for=sub)[0]


def import_players(store: Store, ref: int | str, text: str) -> tuple[Player, ...]:
    """Register every player of a players file
    (:func:`~mahjong_nts.tournament.registration.read_players`): all of them, or (at
    the first line that is wrong, or a duplicate) none."""
    rows = read_players(text)
    if not rows:
        raise InvalidPlayer(N_("players file: no players below the header"))
    with store.transaction() as session:
        row = _write(session, ref)
        return _new_rows(session, row, rows)


def _player_number(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PLAYERS:
        raise InvalidPlayer(N_("no player number {number}"), number=quote(value))
    return value


_UNSET: Final = object()


def edit_player(
    store: Store,
    ref: int | str,
    number: int,
    *,
    first_name: object = _UNSET,
    last_name: object = _UNSET,
    club: object = _UNSET,
    ema: object = _UNSET,
    nmb: object = _UNSET,
    first_round: object = _UNSET,
    last_round: object = _UNSET,
    absent: object = _UNSET,
) -> Player:
    """Change a player: names and numbers, or the rounds they play (``first_round``
    for a late arrival, ``last_round`` for a drop-out, ``absent`` rounds).  A round
    already seated keeps its seating: a change for it is refused."""
    number = _player_number(number)
    with store.transaction() as session:
        row = _write(session, ref)
        players = _player_rows(session, row.id)
        target = next((p for p in players if p.number == number), None)
        if target is None:
            raise InvalidPlayer(N_("no player number {number}"), number=number)
        old = _player(target)
        changes: dict[str, Any] = {}
        for key, value in (
            ("first_name", first_name),
            ("last_name", last_name),
            ("club", club),
            ("ema", ema),
            ("nmb", nmb),
            ("first_round", first_round),
            ("last_round", last_round),
        ):
            if value is not _UNSET:
                changes[key] = value
        if absent is not _UNSET:
            if not isinstance(absent, list | tuple | set | frozenset) or len(absent) > MAX_ROUNDS:
                raise InvalidPlayer(N_("absent: a list of rounds"))
            changes["absent"] = frozenset(absent)
        fields: dict[str, Any] = {
            "first_name": old.first_name,
            "last_name": old.last_name,
            "club": old.club,
            "ema": old.ema,
            "nmb": old.nmb,
            "first_round": old.first_round,
            "last_round": old.last_round,
            "absent": old.absent,
        }
        fields.update(changes)
        new = Player(number, **fields)
        for limit in (new.first_round, new.last_round, *new.absent):
            if limit is not None and limit > row.rounds:
                raise InvalidPlayer(
                    N_("player {number}: round {value}, but the tournament has {rounds}"),
                    number=number,
                    value=limit,
                    rounds=row.rounds,
                )
        others = [_player(p) for p in players if p.number != number]
        check_new_players(
            others,
            [PlayerRow(0, new.first_name, new.last_name, new.club, new.ema, new.nmb)],
        )
        for r in _rounds(session, row.id):
            if old.present_in(r.number) != new.present_in(r.number):
                raise InvalidPlayer(
                    N_(
                        "player {number}: round {round} is seated already; who plays in it "
                        "cannot change now"
                    ),
                    number=number,
                    round=r.number,
                )
        target.first_name = new.first_name
        target.last_name = new.last_name
        target.club = new.club
        target.ema = new.ema
        target.nmb = new.nmb
        target.first_round = new.first_round
        target.last_round = new.last_round
        target.absent = sorted(new.absent)
        target.version += 1
        target.updated = _now()
        return new


def remove_player(store: Store, ref: int | str, number: int) -> None:
    """Take a player off the list, as long as they were never seated (a player who
    played is marked dropped instead: :func:`edit_player` with ``last_round``)."""
    number = _player_number(number)
    with store.transaction() as session:
        row = _write(session, ref)
        if _seated_or_played(session, row.id, number):
            raise InvalidPlayer(
                N_(
                    "player {number} was seated already: mark them as dropped (last round) "
                    "instead of removing them"
                ),
                number=number,
            )
        done = session.execute(
            delete(TournamentPlayer).where(
                TournamentPlayer.tournament_id == row.id, TournamentPlayer.number == number
            )
        )
        if getattr(done, "rowcount", 0) != 1:
            raise InvalidPlayer(N_("no player number {number}"), number=number)


# --------------------------------------------------------------------------- rounds


_DAY_PLANS: Final = DayPlans()
"""The whole-day plans of the last few tournaments seated in this process, so that
*Seat round k* does not plan the day again (:class:`mahjong_nts.tournament.DayPlans`:
kept under the rounds' players, the options and the seed, so a changed roster plans
afresh)."""


def seat_next_round(store: Store, ref: int | str) -> Round:
    """Seat the next round for the players present in it
    (:func:`mahjong_nts.tournament.next_round`: the round of the whole day's plan while
    the rounds seated are that plan's, else the round alone given the rounds before it;
    the same tournament seed seats the same way).  The day's plan is made at the first
    round and remembered (:data:`_DAY_PLANS`) for the next ones.

    Planning a day takes seconds, so it is done outside the transactions: the tournament
    is read, the round planned, and stored in a second transaction if what it was planned
    from (the players, the rounds seated, the settings) is still the same; otherwise it is
    refused, nothing stored (a result entered meanwhile changes nothing of it).  The other
    writers of the tournament (the results of the round before) never wait for a plan."""
    with store.transaction() as session:
        asked = _seating_inputs(session, _read(session, ref, write=True))
    row_rounds, roster, history, options, seed = asked
    number = len(history) + 1
    if number > row_rounds:
        raise InvalidSeating(N_("all {rounds} rounds are seated already"), rounds=row_rounds)
    present = roster.present(number)
    if len(present) < 3:
        raise InvalidSeating(
            N_("round {round}: {n} players present; a table needs at least 3"),
            round=number,
            n=len(present),
        )
    day = [roster.present(k) for k in range(1, row_rounds + 1)]
    seated = next_round(
        day,
        history,
        options,
        day_plan=lambda: _DAY_PLANS.plan(day, options, f"{seed}:plan", random.Random),
        round_rng=random.Random(f"{seed}:{number}"),
    )
    with store.transaction() as session:
        row = _write(session, ref)
        if _seating_inputs(session, row) != asked:
            raise InvalidSeating(
                N_("round {round}: the players or the rounds changed while it was being "
                   "seated; nothing was stored: seat it again"),
                round=number,
            )  # fmt: skip
        _store_round(session, row, seated)
    return seated


def _seating_inputs(
    session: Session, row: Tournament
) -> tuple[int, Roster, tuple[Round, ...], SeatingOptions, str]:
    """Everything a round's seating depends on: the number of rounds, the players, the
    rounds seated, the options, the seed."""
    roster = _roster(_player_rows(session, row.id))
    options = SeatingOptions(fives=row.fives, clubs=roster.clubs() if row.clubs_apart else {})
    return row.rounds, roster, _rounds(session, row.id), options, row.seed


def _check_round(roster: Roster, seating: Round) -> None:
    present = set(roster.present(seating.number))
    seated = set(seating.players)
    for p in sorted(seated - present):
        if p not in {q.number for q in roster}:
            raise InvalidSeating(
                N_("round {round}: no player number {player}"), round=seating.number, player=p
            )
        raise InvalidSeating(
            N_("round {round}: player {player} does not play this round"),
            round=seating.number,
            player=p,
        )
    missing = sorted(present - seated)
    if missing:
        raise InvalidSeating(
            N_("round {round}: player {player} plays but is not seated"),
            round=seating.number,
            player=missing[0],
        )


def _store_round(session: Session, row: Tournament, seating: Round) -> None:
    session.add(
        TournamentRound(
            tournament_id=row.id,
            number=seating.number,
            tables=[list(t) for t in seating.tables],
            created=_now(),
        )
    )
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(
            Text(
                N_("round {round} was seated by someone else at the same moment: reload"),
                round=seating.number,
            )
        ) from None


def set_round(store: Store, ref: int | str, number: int, tables: Sequence[Sequence[int]]) -> Round:
    """Store a round's seating as given (by hand, or a fixed schedule's round): every
    player present in the round exactly once, nobody else.  The next round only, or
    a round already seated whose tables have no results yet (it is replaced)."""
    seating = Round(number, tuple(tuple(t) for t in tables))
    return set_rounds(store, ref, [seating])[0]


def set_rounds(store: Store, ref: int | str, rounds: Sequence[Round]) -> tuple[Round, ...]:
    """Store several rounds as given, in order (a fixed schedule, a "loopschema"), in
    one transaction: all of them, or (at the first that does not fit, as
    :func:`set_round` checks it) none."""
    with store.transaction() as session:
        row = _write(session, ref)
        roster = _roster(_player_rows(session, row.id))
        with_results = {r.round for r in _result_rows(session, row.id)}
        seated = len(_rounds(session, row.id))
        for seating in rounds:
            number = seating.number
            if number > row.rounds:
                raise InvalidSeating(
                    N_("round {round}: the tournament has {rounds} rounds"),
                    round=number,
                    rounds=row.rounds,
                )
            if number > seated + 1:
                raise InvalidSeating(
                    N_("round {round}: seat round {next} first"), round=number, next=seated + 1
                )
            _check_round(roster, seating)
            if number <= seated:
                if number in with_results:
                    raise InvalidSeating(
                        N_("round {round} has results already: its seating stays"), round=number
                    )
                session.execute(
                    delete(TournamentRound).where(
                        TournamentRound.tournament_id == row.id, TournamentRound.number == number
                    )
                )
            else:
                seated += 1
            _store_round(session, row, seating)
        return tuple(rounds)


def swap_players(store: Store, ref: int | str, number: int, a: int, b: int) -> Swap:
    """Swap two players of a seated round without results (their tables and seats);
    the answer names the repeat meetings the swap brings."""
    with store.transaction() as session:
        row = _write(session, ref)
        history = _rounds(session, row.id)
        if (
            isinstance(number, bool)
            or not isinstance(number, int)
            or not 1 <= number <= len(history)
        ):
            raise InvalidSeating(N_("round {round} is not seated"), round=quote(number))
        if any(r.round == number for r in _result_rows(session, row.id)):
            raise InvalidSeating(
                N_("round {round} has results already: its seating stays"), round=number
            )
        done = swap(history[number - 1], a, b, history[: number - 1])
        session.execute(
            update(TournamentRound)
            .where(TournamentRound.tournament_id == row.id, TournamentRound.number == number)
            .values(tables=[list(t) for t in done.round.tables])
        )
        return done


# --------------------------------------------------------------------------- results


def _as_json(res: TableResult) -> dict[str, Any]:
    return {
        "players": list(res.players),
        "finals": list(res.finals),
        "mahjongs": list(res.mahjongs),
        "deal_ins": list(res.deal_ins),
    }


def enter_result(
    store: Store,
    ref: int | str,
    round_number: int,
    table: int,
    finals: Sequence[int],
    *,
    players: Sequence[int] | None = None,
    mahjongs: Sequence[int] = (),
    deal_ins: Sequence[int] = (),
    by: object = "",
    version: int | None = None,
) -> ResultView:
    """Enter a table's result: the final scores in seat order of the round's seating
    (or of ``players``, who must be the players seated at that table), which must sum
    to the table's total; optionally each player's mahjongs and deal-ins.

    ``version=None`` enters a table that has no result yet (one already there is a
    :class:`Conflict`: someone entered it first); ``version=v`` corrects the result
    the caller saw at version ``v`` and keeps the old one in its history (a stale
    ``v`` is a :class:`Conflict`)."""
    who = _who(by)
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version < 1
    ):
        raise InvalidResult(N_("version: a whole number from 1"))
    with store.transaction() as session:
        row = _write(session, ref)
        rounds = _rounds(session, row.id)
        if (
            isinstance(round_number, bool)
            or not isinstance(round_number, int)
            or not 1 <= round_number <= len(rounds)
        ):
            raise InvalidResult(N_("round {round} is not seated"), round=quote(round_number))
        seating = rounds[round_number - 1]
        if (
            isinstance(table, bool)
            or not isinstance(table, int)
            or not 1 <= table <= len(seating.tables)
        ):
            raise InvalidResult(
                N_("round {round} has no table {table}"), round=round_number, table=quote(table)
            )
        seated = seating.tables[table - 1] if players is None else tuple(players)
        new = TableResult(
            round_number, table, tuple(seated), tuple(finals), tuple(mahjongs), tuple(deal_ins)
        )
        new.check_sum(ranking_from_json(row.ranking).start)
        result_rows = _result_rows(session, row.id)
        current = next(
            (r for r in result_rows if r.round == round_number and r.table_number == table), None
        )
        others = [_result(r) for r in result_rows if r is not current]
        check_results(
            [*others, new],
            rounds,
            _roster(_player_rows(session, row.id)),
            ranking_from_json(row.ranking).start,
        )
        now = _now()
        data = _as_json(new)
        if version is None:
            if current is not None:
                raise EnteredAlready(
                    round_number, table, current.entered_by or "-", current.version
                )
            added = TournamentResult(
                tournament_id=row.id,
                round=round_number,
                table_number=table,
                version=1,
                entered_by=who,
                created=now,
                updated=now,
                **data,
            )
            session.add(added)
            try:
                session.flush()
            except IntegrityError:
                raise Conflict(
                    Text(
                        N_(
                            "round {round}, table {table} was entered by someone else at the "
                            "same moment: reload it"
                        ),
                        round=round_number,
                        table=table,
                    )
                ) from None
            return ResultView(new, 1, who, now, now)
        if current is None:
            raise InvalidResult(
                N_("round {round}, table {table} has no result to correct yet"),
                round=round_number,
                table=table,
            )
        if current.version != version:
            raise Conflict(_stale(round_number, table, version, current.version))
        old = _as_json(_result(current))
        done = session.execute(
            update(TournamentResult)
            .where(TournamentResult.id == current.id, TournamentResult.version == version)
            .values(version=version + 1, updated=now, **data)
            .execution_options(synchronize_session=False)
        )
        if getattr(done, "rowcount", 0) != 1:
            raise Conflict(_stale(round_number, table, version, None))
        session.add(
            TournamentResultChange(
                result_id=current.id,
                version=version + 1,
                changed_by=who,
                old=old,
                new=data,
                changed=now,
            )
        )
        return ResultView(new, version + 1, current.entered_by, _aware(current.created), now)


def _stale(round_number: int, table: int, seen: int, current: int | None) -> Conflict:
    if current is None:
        return Conflict(
            Text(
                N_(
                    "round {round}, table {table} was corrected by someone else since version "
                    "{seen}: reload it and correct it again"
                ),
                round=round_number,
                table=table,
                seen=seen,
            )
        )
    return Conflict(
        Text(
            N_(
                "round {round}, table {table} was corrected by someone else since version "
                "{seen} (it is at version {current}): reload it and correct it again"
            ),
            round=round_number,
            table=table,
            seen=seen,
            current=current,
        )
    )


def result_changes(
    store: Store, ref: int | str, round_number: int | None = None, table: int | None = None
) -> tuple[ResultChange, ...]:
    """The history of corrections, oldest first: of one table, one round, or all."""
    with store.transaction() as session:
        row = _read(session, ref)
        query = (
            select(TournamentResultChange, TournamentResult.round, TournamentResult.table_number)
            .join(TournamentResult, TournamentResultChange.result_id == TournamentResult.id)
            .where(TournamentResult.tournament_id == row.id)
            .order_by(TournamentResultChange.id)
        )
        if round_number is not None:
            query = query.where(TournamentResult.round == round_number)
        if table is not None:
            query = query.where(TournamentResult.table_number == table)
        return tuple(
            ResultChange(r, t, ch.version, ch.changed_by, ch.old, ch.new, _aware(ch.changed))
            for ch, r, t in session.execute(query).all()
        )


def add_penalty(
    store: Store,
    ref: int | str,
    *,
    player: int,
    round_number: int,
    points: int,
    reason: object,
    by: object = "",
) -> Penalty:
    """Penalty points for a player in a round, with the reason (a false mahjong,
    lateness): they come off the player's total, never off the table score."""
    who = _who(by)
    penalty = Penalty(player, round_number, points, reason)  # type: ignore[arg-type]
    with store.transaction() as session:
        row = _write(session, ref)
        if penalty.round > row.rounds:
            raise InvalidResult(
                N_("penalty: round {round}, but the tournament has {rounds}"),
                round=penalty.round,
                rounds=row.rounds,
            )
        roster = _roster(_player_rows(session, row.id))
        roster.get(penalty.player)
        count = session.scalar(
            select(func.count())
            .select_from(TournamentPenalty)
            .where(TournamentPenalty.tournament_id == row.id)
        )
        if (count or 0) >= MAX_PENALTIES:
            raise InvalidResult(N_("a tournament has at most {most} penalties"), most=MAX_PENALTIES)
        session.add(
            TournamentPenalty(
                tournament_id=row.id,
                player=penalty.player,
                round=penalty.round,
                points=penalty.points,
                reason=penalty.reason,
                given_by=who,
                created=_now(),
            )
        )
        return penalty


MAX_PENALTIES: Final = 2000
"""Penalties in one tournament."""
