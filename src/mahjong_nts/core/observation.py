"""What one seat may see of a hand in play.

An :class:`Observation` holds the seat's own tiles and everything that lies
open on the table: melds (another seat's concealed kong is laid face down, so
only its existence shows), flowers and seasons, discards, how many tiles each
seat holds, the walls' sizes and the tile on offer.  Never another seat's
concealed tiles, the wall's order or another seat's pending claim.  Once the
hand is over every hand is shown, as at the table when the score is counted.

A claim or rob window opens only when some seat can use the tile, so seeing one
would tell a seat that another holds a matching pair or can rob the kong.  Only
the seat asked now sees the window (``phase`` CLAIM or ROB, ``offered``, its
options).  Every other seat (the discarder, the seats that answered, those
still waiting to be asked) sees the neutral view: the table as it stands right
after the discard or the promoted kong, before anyone else moves, which is the
same whether or not a window opened.  In it ``phase`` is TURN, ``turn`` the seat
that discarded (or promoted), ``to_act`` is false, ``drawn`` and ``offered``
are ``None``; the discard lies on its discards (the promoted kong among its
melds), and ``seq`` counts the public events so far.

:func:A server that asks every seat of a window at once (the online tables) passes
``simultaneous=True``: then every seat still to answer sees the window with its own
options, and the others the neutral view.

:func:`observe_public` is what someone who sits at no seat sees (a spectator): every
seat's open side only, concealed kongs face down, no concealed tile of anyone until
the hand is over, when every hand is shown.

:func:`visible_events` is the same rule for the events: the one place, beside
:func:`observe`, that decides what of the hand's history a seat may see.
"""

from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mahjong_nts.core.actions import Action
from mahjong_nts.core.build import COMPILED
from mahjong_nts.core.errors import InvalidSeat, quote
from mahjong_nts.core.game import Discard, Event, Game, HandResult, Phase
from mahjong_nts.core.hand import Hand, Meld, MeldKind
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.text import N_
from mahjong_nts.core.tiles import NUM_KINDS, WINDS, Tile

_TURN: Final = Phase.TURN  # (module constants: an enum member read off its class is slow)
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER

_PENDING_PRUNE: Final = 16
"""Observations handed out without a change of the game between them, beyond which the
game's list of pending observations (:attr:`Game.view_pending`) is cleared of those
nobody holds any more: the list holds at most this many more than are held."""

__all__ = ["Observation", "PublicView", "SeatView", "observe", "observe_public", "visible_events"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """The open side of one seat."""

    seat: int
    wind: Tile
    melds: tuple[Meld | None, ...]
    """Declared melds in order; ``None`` is another seat's concealed kong (face down)."""
    claimed_from: tuple[int | None, ...]
    """Beside :attr:`melds`: the seat whose discard each meld took (``None``: a concealed
    kong); a promoted kong keeps its pung's."""
    bonus: tuple[Tile, ...]
    discards: tuple[Tile, ...]
    """Its discards still on the table (claimed ones went into a meld)."""
    concealed_count: int
    dead: bool
    """Declared dead by a false mahjong claim (public: it was called out)."""
    announced: bool
    """Announced the lucky thirteen (public): its hand stays as it was dealt."""


_FIELDS: Final = (
    "seat",
    "rules",
    "round_wind",
    "dominant",
    "phase",
    "seq",
    "turn",
    "to_act",
    "legal",
    "concealed",
    "drawn",
    "offered",
    "seats",
    "live_left",
    "dead_left",
    "kongs",
    "discard_count",
    "history",
    "result",
    "revealed",
)


_TYPES: Final = {
    "seat": "int",
    "rules": "RuleSet",
    "round_wind": "Tile",
    "dominant": "int | None",
    "phase": "Phase",
    "seq": "int",
    "turn": "int",
    "to_act": "bool",
    "legal": "tuple[Action, ...]",
    "concealed": "tuple[Tile, ...]",
    "drawn": "Tile | None",
    "offered": "Tile | None",
    "seats": "tuple[SeatView, ...]",
    "live_left": "int",
    "dead_left": "int",
    "kongs": "int",
    "discard_count": "int",
    "history": "tuple[Discard, ...]",
    "result": "HandResult | None",
    "revealed": "tuple[Hand, ...]",
}
_DATACLASS_FIELDS: Final[dict[str, Any]] = {
    f.name: f
    for f in dataclasses.fields(
        dataclasses.make_dataclass("Observation", [(name, _TYPES[name]) for name in _FIELDS])
    )
}
"""The fields of :class:`Observation` as a dataclass of the same fields describes them:
``dataclasses.fields``, ``replace`` and ``asdict`` take an observation as they took it
when it was one."""


class _Pending:
    """The parts of an observation that :func:`observe` leaves to be worked out when
    first read (the seat's sorted tiles, every seat's view, the discards' history), from
    the game as it stood when observed, each when first read.

    The game keeps the pending parts of the observations handed out
    (:attr:`Game.view_pending`) and has them all worked out before it changes
    (:meth:`Game.apply`, :meth:`Game.close_window`), for every observation still held by
    someone: so they read the same whenever they are read, and cost nothing when nobody
    reads them (a random player reads only the legal actions).  So while a part is not
    worked out, the game is as it was when observed."""

    __slots__ = ("concealed", "game", "history", "over", "seat", "seats")

    def __init__(self, game: Game, seat: int, over: bool) -> None:
        self.game = game
        self.seat = seat
        self.over = over
        self.concealed: tuple[Tile, ...] | None = None
        self.seats: tuple[SeatView, ...] | None = None
        self.history: tuple[Discard, ...] | None = None

    def get_concealed(self) -> tuple[Tile, ...]:
        part = self.concealed
        if part is None:
            part = self.concealed = _concealed(self.game, self.seat)
        return part

    def get_seats(self) -> tuple[SeatView, ...]:
        part = self.seats
        if part is None:
            part = self.seats = _seat_views(self.game, self.seat, self.over)
        return part

    def get_history(self) -> tuple[Discard, ...]:
        part = self.history
        if part is None:
            part = self.history = _history(self.game)
        return part

    def counts(self) -> tuple[int, ...]:
        """The seat's concealed tiles by kind: from the game while it is as observed (the
        sorted tiles not worked out yet), else from the sorted tiles."""
        if self.concealed is None:
            return tuple(self.game.hands[self.seat])
        return _count_tiles(self.concealed)

    def fill(self) -> tuple[tuple[Tile, ...], tuple[SeatView, ...], tuple[Discard, ...]]:
        return self.get_concealed(), self.get_seats(), self.get_history()


def _count_tiles(tiles: tuple[Tile, ...]) -> tuple[int, ...]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return tuple(counts)


class Observation:
    """What one seat sees now (:func:`observe`).

    ``Observation(seat, rules, round_wind, dominant, phase, seq, turn, to_act, legal,
    concealed, drawn, offered, seats, live_left, dead_left, kongs, discard_count, history,
    result, revealed)`` builds one from every field (by position or keyword); it is
    equal to another built from the same values, shown (``repr``) as its fields and
    pickled as them; ``dataclasses.fields``, ``replace`` and ``asdict`` take it as the
    dataclass it was.

    Built afresh for every call and owned by whoever asked for it.  :func:`observe`
    leaves ``concealed``, ``seats`` and ``history`` to be worked out when first read
    (from the game as it stood when observed: the game works them out before it changes
    while the observation is held), so an observation whose reader needs only the legal
    actions costs little more than them.  Its values are immutable and may be shared
    with other observations (tuples, the frozen seat views, the rule set).  A part left
    to be read is worked out from the game: read it where the game is safe to read (a
    server whose tables change under a lock reads it under that lock, as it observed).
    """

    __slots__ = (
        "_alive",
        "_concealed",
        "_history",
        "_pending",
        "_seats",
        "dead_left",
        "discard_count",
        "dominant",
        "drawn",
        "kongs",
        "legal",
        "live_left",
        "offered",
        "phase",
        "result",
        "revealed",
        "round_wind",
        "rules",
        "seat",
        "seq",
        "to_act",
        "turn",
    )
    __match_args__: ClassVar[tuple[str, ...]] = _FIELDS
    """(A class variable: compiled by mypyc, a plain assignment would be an attribute.)"""
    __dataclass_fields__: ClassVar[dict[str, Any]] = _DATACLASS_FIELDS

    seat: int
    rules: RuleSet
    """The rule set of the hand: always given, as a player at the table knows it."""
    round_wind: Tile
    """A wind, or the green dragon (``Tile.GREEN``) in a green-dragon hand."""
    dominant: int | None
    phase: Phase
    """CLAIM or ROB only for the seat asked now; every other seat sees TURN then."""
    seq: int
    """The sequence number of the decision asked now (:attr:`Game.seq`): an action sent
    to an authority (``Game.apply(act, seat=..., seq=...)``) answers this number.  It is
    worked out from public events only, so it is the same for every seat."""
    turn: int
    """The seat on turn; in a claim or rob window (or its neutral view), the seat that
    offered the tile."""
    to_act: bool
    """This seat must decide now; :attr:`legal` lists its options."""
    legal: tuple[Action, ...]
    drawn: Tile | None
    """On this seat's own turn: the tile it just drew (``None`` after a claim)."""
    offered: Tile | None
    """To the seat asked in a claim window the discard; in a rob window the promoted
    kong's tile (``None`` for every other seat)."""
    live_left: int
    dead_left: int
    kongs: int
    discard_count: int
    result: HandResult | None
    revealed: tuple[Hand, ...]
    """Every seat's hand, once the hand is over (else empty)."""

    def __init__(
        self,
        seat: int,
        rules: RuleSet,
        round_wind: Tile,
        dominant: int | None,
        phase: Phase,
        seq: int,
        turn: int,
        to_act: bool,
        legal: tuple[Action, ...],
        concealed: tuple[Tile, ...],
        drawn: Tile | None,
        offered: Tile | None,
        seats: tuple[SeatView, ...],
        live_left: int,
        dead_left: int,
        kongs: int,
        discard_count: int,
        history: tuple[Discard, ...],
        result: HandResult | None,
        revealed: tuple[Hand, ...],
    ) -> None:
        self.seat = seat
        self.rules = rules
        self.round_wind = round_wind
        self.dominant = dominant
        self.phase = phase
        self.seq = seq
        self.turn = turn
        self.to_act = to_act
        self.legal = legal
        self._concealed = concealed
        self.drawn = drawn
        self.offered = offered
        self._seats = seats
        self.live_left = live_left
        self.dead_left = dead_left
        self.kongs = kongs
        self.discard_count = discard_count
        self._history = history
        self.result = result
        self.revealed = revealed
        self._pending: _Pending | None = None
        self._alive: set[int] | None = None
        """Held only by this observation: the game's weak reference to it tells whether
        anyone still holds the observation (a ``set``, as it takes weak references)."""

    def _take(self) -> None:
        """Take the pending parts (worked out now, or before the game changed)."""
        pending = self._pending
        if pending is not None:
            self._concealed, self._seats, self._history = pending.fill()
            self._pending = None

    @property
    def concealed(self) -> tuple[Tile, ...]:
        """The seat's own concealed tiles, sorted."""
        pending = self._pending
        if pending is not None:
            return pending.get_concealed()
        return self._concealed

    @property
    def concealed_counts(self) -> tuple[int, ...]:
        """:attr:`concealed` counted by tile kind (34 counts, ``Tile`` order): what a bot
        that weighs the hand by counts reads, without the sorted tiles being built."""
        pending = self._pending
        if pending is not None:
            return pending.counts()
        return _count_tiles(self._concealed)

    @property
    def seats(self) -> tuple[SeatView, ...]:
        """Every seat's open side (:class:`SeatView`), by seat."""
        pending = self._pending
        if pending is not None:
            return pending.get_seats()
        return self._seats

    @property
    def history(self) -> tuple[Discard, ...]:
        """Every discard of the hand in order, each with the seat that claimed it
        (``None``: every other seat let it go), as the whole table saw it."""
        pending = self._pending
        if pending is not None:
            return pending.get_history()
        return self._history

    @property
    def me(self) -> SeatView:
        return self.seats[self.seat]

    def _values(self) -> tuple[Any, ...]:
        if self._pending is not None:
            self._take()
        return (
            self.seat,
            self.rules,
            self.round_wind,
            self.dominant,
            self.phase,
            self.seq,
            self.turn,
            self.to_act,
            self.legal,
            self._concealed,
            self.drawn,
            self.offered,
            self._seats,
            self.live_left,
            self.dead_left,
            self.kongs,
            self.discard_count,
            self._history,
            self.result,
            self.revealed,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        raise TypeError("unhashable type: 'Observation'")

    def __repr__(self) -> str:
        values = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._values(), strict=True))
        return f"Observation({values})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Observation, self._values())


@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone sees who sits at no seat (a spectator): the table's open side."""

    round_wind: Tile
    dominant: int | None
    phase: Phase
    """TURN or OVER: a claim or rob window shows as its neutral view (TURN)."""
    seq: int
    turn: int
    seats: tuple[SeatView, ...]
    """Every concealed kong face down (``None``) until the hand is over."""
    live_left: int
    dead_left: int
    kongs: int
    discard_count: int
    history: tuple[Discard, ...]
    """Every discard of the hand in order, with the seat that claimed it."""
    result: HandResult | None
    revealed: tuple[Hand, ...]
    """Every seat's hand, once the hand is over (else empty)."""


_NEW: Final = object.__new__
_VIEW_SLOTS: Final = (
    () if COMPILED else tuple(vars(SeatView)[f.name].__set__ for f in dataclasses.fields(SeatView))
)


def _seat_view(game: Game, s: int, shown: bool) -> SeatView:
    """Seat ``s``'s open side; ``shown``: its concealed kongs face up (seen by itself,
    or once the hand is over), else face down."""
    held = game.melds[s]
    melds: tuple[Meld | None, ...] = tuple(held)
    if not shown:
        for m in held:
            if not m.open:  # a concealed kong, face down
                melds = tuple(m if m.open else None for m in held)
                break
    if COMPILED:  # a native class: its own constructor is the fast one
        # (by position, in the order of the fields: about a tenth faster than by keyword)
        return SeatView(
            s,
            WINDS[s],
            melds,
            tuple(game.claimed_from[s]),
            tuple(game.bonus[s]),
            tuple(game.discards[s]),
            sum(game.hands[s]),
            game.dead[s],
            game.announced[s],
        )
    # A frozen dataclass's __init__ sets each field through object.__setattr__ (1.5 us
    # for these nine); their slots' descriptors set the same values in about half that.
    s_seat, s_wind, s_melds, s_from, s_bonus, s_discards, s_count, s_dead, s_announced = _VIEW_SLOTS
    view = _NEW(SeatView)
    s_seat(view, s)
    s_wind(view, WINDS[s])
    s_melds(view, melds)
    s_from(view, tuple(game.claimed_from[s]))
    s_bonus(view, tuple(game.bonus[s]))
    s_discards(view, tuple(game.discards[s]))
    s_count(view, sum(game.hands[s]))
    s_dead(view, game.dead[s])
    s_announced(view, game.announced[s])
    return view


def _seat_views(game: Game, seat: int | None, over: bool) -> tuple[SeatView, ...]:
    """Every seat's open side as ``seat`` sees it (``None``: a spectator): another
    seat's concealed kong face down until the hand is over.

    A seat's view is rebuilt only when it changed (:attr:`Game.view_version`): the
    views built are kept in :attr:`Game.view_cache` (under ``"view"``, by seat and
    whether its concealed kongs show), so an unchanged seat's view is the same object as
    before (and the whole tuple, when no seat changed); a seat without a concealed kong
    shows every seat the same view (one object)."""
    cache = game.view_cache
    versions = game.view_version
    key = ("views", seat, over)
    hit = cache.get(key)
    if hit is not None and hit[0] == versions:
        kept: tuple[SeatView, ...] = hit[1]
        return kept
    n = game.n
    built: list[tuple[int, SeatView] | None] | None = cache.get("view")
    if built is None:
        built = cache["view"] = [None] * (2 * n)
    views = []
    melds = game.melds
    for s in range(n):
        shown = over or s == seat
        if not shown:
            # without a concealed kong the seat shows the same to everyone: one view
            for m in melds[s]:
                if not m.open:
                    break
            else:
                shown = True
        i = 2 * s + shown
        one = built[i]
        version = versions[s]
        if one is None or one[0] != version:
            one = built[i] = (version, _seat_view(game, s, shown))
        views.append(one[1])
    out = tuple(views)
    cache[key] = (list(versions), out)
    return out


def _concealed(game: Game, seat: int) -> tuple[Tile, ...]:
    """``game.concealed(seat)``, kept while the seat's view is unchanged."""
    cache = game.view_cache
    key = ("concealed", seat)
    version = game.view_version[seat]
    hit = cache.get(key)
    if hit is None or hit[0] != version:
        hit = cache[key] = (version, game.concealed(seat))
    return hit[1]


def _history(game: Game) -> tuple[Discard, ...]:
    """``tuple(game.discard_log)``, kept while the log is unchanged: the log only grows
    at its end, and a claim replaces its last entry."""
    log = game.discard_log
    last = log[-1] if log else None
    hit = game.view_cache.get("history")
    if hit is not None and hit[0] == len(log) and hit[1] is last:
        kept: tuple[Discard, ...] = hit[2]
        return kept
    out = tuple(log)
    game.view_cache["history"] = (len(log), last, out)
    return out


def observe(game: Game, seat: object, *, simultaneous: bool = False) -> Observation:
    """The observation of ``seat`` (0 = East) in ``game``: in a claim or rob window the
    window itself for the seat asked now, the neutral view for every other seat.

    ``simultaneous``: every seat still to answer in the window counts as asked now
    (:meth:`Game.window_seats`), each with its own options (a server that asks them
    all at once, then feeds their answers in order)."""
    if type(seat) is not int or not 0 <= seat < game.n:  # (a bool is no seat)
        raise InvalidSeat(
            N_("seat {seat} is not at this table (0..{last})"), seat=quote(seat), last=game.n - 1
        )
    phase = game.phase
    over = phase is _OVER
    window = phase is _CLAIM or phase is _ROB
    if simultaneous and window:
        legal = game.window_options(seat)
        to_act = bool(legal)
    else:
        to_act = not over and game.current_seat == seat
        legal = game.legal_actions() if to_act else ()
    if window and not to_act:
        phase = _TURN  # the neutral view: nothing tells whether a window opened
    tile = game.tile
    wall = game.wall
    # (by position, in the order of the fields: about a tenth faster than by keyword)
    obs = Observation(
        seat,  # seat
        game.rules,  # rules
        game.round_wind,  # round_wind
        game.dominant,  # dominant
        phase,  # phase
        game.seq,  # seq
        game.turn,  # turn
        to_act,  # to_act
        legal,  # legal
        (),  # concealed: pending
        tile if game.phase is _TURN and game.turn == seat else None,  # drawn
        tile if window and to_act else None,  # offered
        (),  # seats: pending
        wall.live_left,  # live_left
        wall.dead_left,  # dead_left
        game.kongs,  # kongs
        game.discard_count,  # discard_count
        (),  # history: pending
        game.result,  # result
        _revealed(game) if over else (),  # revealed
    )
    pending = _Pending(game, seat, over)
    obs._pending = pending
    if not over:  # (a hand that is over changes no more: nothing to keep for it)
        alive: set[int] = set()
        obs._alive = alive
        held = game.view_pending
        if len(held) >= _PENDING_PRUNE:  # observed again and again, nothing played
            held[:] = [entry for entry in held if entry[0]() is not None]
        held.append((weakref.ref(alive), pending.fill))
    return obs


def _revealed(game: Game) -> tuple[Hand, ...]:
    """Every seat's hand, once the hand is over (built once: nothing changes after)."""
    kept: tuple[Hand, ...] | None = game.view_cache.get("revealed")
    if kept is None:
        kept = game.view_cache["revealed"] = tuple(game.hand_of(s) for s in range(game.n))
    return kept


def observe_public(game: Game) -> PublicView:
    """What a spectator sees of ``game``: the open side of every seat, no concealed
    tile of anyone (concealed kongs face down) and no window, until the hand is over;
    then every hand, as at the table when the score is counted."""
    over = game.phase is _OVER
    return PublicView(
        round_wind=game.round_wind,
        dominant=game.dominant,
        phase=_OVER if over else _TURN,
        seq=game.seq,
        turn=game.turn,
        seats=_seat_views(game, None, over),
        live_left=game.wall.live_left,
        dead_left=game.wall.dead_left,
        kongs=game.kongs,
        discard_count=game.discard_count,
        history=_history(game),
        result=game.result,
        revealed=_revealed(game) if over else (),
    )


def visible_events(game: Game, seat: int | None, start: int = 0) -> tuple[Event, ...]:
    """The events of ``game`` from index ``start`` on, as ``seat`` sees them at the table
    (``None``: a spectator, to whom every seat is another seat).

    Its own events as they are.  Of another seat: its deal not at all; its draws and
    loose tiles without the tile; its concealed kong without the tile (note
    ``"concealed"``); its answers in a claim or rob window (a pass, or a claim before it
    is resolved) not at all: the claim that wins shows as its meld, and an answer would
    tell that a window opened.  Everything else (discards, flowers, melds, a false
    mahjong and its dead hand, the end of the hand) as it is.

    A window's answers are the decided events that follow a decided event: a turn's
    decision always follows an event nobody decided (a draw, a loose tile, a meld, the
    deal, a dead hand), while a window opens on a decision (a discard, an announcement, a
    promoted kong) and its answers follow one another.
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n):  # (bool: no)
        raise ValueError(f"seat {quote(seat)} is not at this table (0..{game.n - 1})")
    events = game.events
    out: list[Event] = []
    for i in range(max(0, start), len(events)):
        e = events[i]
        if e.seat == seat:
            out.append(e)
            continue
        kind = e.kind
        if kind == "deal" or (e.decided and i and events[i - 1].decided):
            continue
        if kind == "draw" or kind == "loose":
            out.append(Event(kind, e.seat, (), e.decided, e.note))
        elif (
            kind == "kong"
            and e.decided
            and Meld(MeldKind.KONG, e.tiles[0], open=False) in game.melds[e.seat]
        ):
            out.append(Event(kind, e.seat, (), e.decided, "concealed"))
        else:
            out.append(e)
    return tuple(out)
