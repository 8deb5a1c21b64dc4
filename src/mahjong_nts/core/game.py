"""One hand of play, from the shuffle to the settlement, as a state machine.

OpenSpiel-style: :attr:`Game.current_seat` is the seat that must decide,
:meth:`Game.legal_actions` lists what it may do, :meth:`Game.apply` does it.
Everything that needs no decision (drawing, flowers and their replacements,
loose tiles, resolving claims, scoring and settling) happens inside ``apply``.

Chance is the wall alone, shuffled by the injected RNG.  A game is dealt with
``Game(rules, SeedRng(seed))`` (:mod:`mahjong_nts.core.seeding`: a SHAKE-256
stream of the seed, a published function), so a hand is its rule set, its seed
and its actions, and anyone given the seed can deal the same wall again.

The server is the authority: ``apply(act, seat=s, seq=q)`` also checks that the
action comes from the seat asked (:class:`NotYourTurn` otherwise) and answers
the decision asked now, numbered by :attr:`Game.seq` (:class:`StaleAction`
otherwise), before the game checks its legality.

A server that asks every seat of a claim window at once (the online tables) reads
:meth:`Game.window_seats` and :meth:`Game.window_options`, checks each answer as it
comes with :meth:`Game.check`, and feeds the answers to ``apply`` in
:meth:`Game.window_seats` order.  With :attr:`Game.hold_windows` a window opens after
every discard and promoted kong, also when nobody can use the tile; nobody is asked
in such a window and :meth:`Game.close_window` ends it.  The events are the same
either way.

Seats are numbered by wind: 0 is East, 1 South, 2 West, 3 North (a 3-player
table has seats 0-2).  The match (:mod:`mahjong_nts.core.match`) maps players
to seats.  Decisions the books leave open are listed in ``docs/engine.md``.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import compress
from typing import Any, Final, NamedTuple, cast

from mahjong_nts.core.actions import Action, ActionKind, action, among, interned, parse_action
from mahjong_nts.core.analysis import (
    BlockKind,
    arrangements,
    irregular_shapes,
    is_complete,
    waiting_tiles,
)
from mahjong_nts.core.build import COMPILED
from mahjong_nts.core.errors import (
    IllegalAction,
    InvalidAction,
    InvalidHand,
    InvalidSetup,
    NotYourTurn,
    StaleAction,
    quote,
)
from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
from mahjong_nts.core.items import LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import ScoreResult, Situation, score_hand
from mahjong_nts.core.settlement import Settlement, settle
from mahjong_nts.core.text import N_, Text
from mahjong_nts.core.tiles import NUM_KINDS, WINDS, Tile
from mahjong_nts.core.wall import Rng, Wall

__all__ = [
    "MAX_SEQ",
    "PUBLIC_ANNOUNCED",
    "PUBLIC_BONUS",
    "PUBLIC_COUNT",
    "PUBLIC_DEAD",
    "PUBLIC_DISCARD",
    "PUBLIC_MELD",
    "PUBLIC_TAKEN",
    "Discard",
    "Event",
    "Game",
    "HandResult",
    "Phase",
    "Source",
]

MAX_SEQ: Final = 2**31 - 1
"""The largest sequence number :meth:`Game.apply` accepts (a hand has a few hundred
events; anything larger is refused as malformed, not compared)."""

_PASS: Final = action(ActionKind.PASS)
_MAHJONG: Final = action(ActionKind.MAHJONG)
_DISCARD: Final = tuple(action(ActionKind.DISCARD, t) for t in range(NUM_KINDS))
_KONG: Final = tuple(action(ActionKind.KONG, t) for t in range(NUM_KINDS))
_PUNG: Final = tuple(action(ActionKind.PUNG, t) for t in range(NUM_KINDS))
_CHOW: Final = {t: action(ActionKind.CHOW, t) for t in range(27) if t % 9 <= 6}
_ANNOUNCE: Final = tuple(action(ActionKind.ANNOUNCE, t) for t in range(NUM_KINDS))
_TILES: Final = tuple(Tile(t) for t in range(42))
_WORDS: Final = tuple(kind.word for kind in ActionKind)
"""``ActionKind.word`` by kind (the property reads the enum's name: Python code)."""

# What :attr:`Game.public_log` records: each entry is ``(change, seat, value)``.
PUBLIC_DISCARD: Final = 0
"""``value``, a tile, joins the seat's discards; its concealed tiles are one fewer."""
PUBLIC_TAKEN: Final = 1
"""``value``, the seat's last discard, leaves its discards (claimed)."""
PUBLIC_COUNT: Final = 2
"""The seat's concealed tiles change in number by ``value`` (a draw, a loose tile, the
tile claimed for mahjong)."""
PUBLIC_MELD: Final = 3
"""The seat's melds change (one more, or a pung promoted to a kong or robbed back);
its concealed tiles change in number by ``value``."""
PUBLIC_BONUS: Final = 4
"""``value``, a flower or season, joins the seat's bonus tiles."""
PUBLIC_DEAD: Final = 5
"""The seat's hand is dead (a false mahjong); ``value`` 0."""
PUBLIC_ANNOUNCED: Final = 6
"""The seat announced the lucky thirteen; ``value`` 0."""


class Phase(IntEnum):
    TURN = 0
    """The seat holding an extra tile discards, declares a kong, or goes mahjong."""
    CLAIM = 1
    """Seats that can use the last discard decide, one after another, in turn order."""
    ROB = 2
    """Seats that can go mahjong on a promoted kong's tile decide whether to rob it."""
    OVER = 3

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Source(IntEnum):
    """How the seat on turn came by its extra tile."""

    DEAL = 0
    """East's fourteenth dealt tile (his first turn)."""
    WALL = 1
    LOOSE = 2
    """A loose tile from the dead wall after a kong."""
    REPLACED = 3
    """A replacement for a drawn flower or season (self-drawn, but not a loose-tile win)."""
    CLAIM = 4
    """A claimed discard (chow or pung): the seat only discards or declares a kong."""


# The members used on hot paths, as module constants: reading a member off its enum class
# is an attribute look-up through the enum's metaclass (about 0.1 us each in Python 3.11).
_TURN: Final = Phase.TURN
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER
_FROM_DEAL: Final = Source.DEAL
_FROM_WALL: Final = Source.WALL
_FROM_LOOSE: Final = Source.LOOSE
_FROM_REPLACED: Final = Source.REPLACED
_FROM_CLAIM: Final = Source.CLAIM
_K_PASS: Final = ActionKind.PASS
_K_MAHJONG: Final = ActionKind.MAHJONG
_K_DISCARD: Final = ActionKind.DISCARD
_K_KONG: Final = ActionKind.KONG
_K_CHOW: Final = ActionKind.CHOW
_K_PUNG: Final = ActionKind.PUNG
_K_ANNOUNCE: Final = ActionKind.ANNOUNCE
_M_CHOW: Final = MeldKind.CHOW
_M_PUNG: Final = MeldKind.PUNG
_M_KONG: Final = MeldKind.KONG


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.  ``decided`` events are the seats' actions (a
    replay re-applies them); the others follow from them and the wall."""

    kind: str
    seat: int
    tiles: tuple[Tile, ...] = ()
    decided: bool = False
    note: str = ""


_NEW: Final = object.__new__
_NO_RNG: Final = cast(Rng, None)
"""The ``rng`` of a game not dealt from one (:meth:`Game.from_deal`, :meth:`Game.clone`)."""
_EVENT_SLOTS: Final = (
    () if COMPILED else tuple(vars(Event)[f.name].__set__ for f in dataclasses.fields(Event))
)


def _event(kind: str, seat: int, tiles: tuple[Tile, ...], decided: bool = False) -> Event:
    """``Event(kind, seat, tiles, decided)``, built faster (every draw, discard and claim
    makes one): a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``; this sets the slots through their descriptors, the same value.
    """
    if COMPILED:  # a native class: its own constructor is the fast one
        return Event(kind, seat, tiles, decided)
    s_kind, s_seat, s_tiles, s_decided, s_note = _EVENT_SLOTS
    event = _NEW(Event)
    s_kind(event, kind)
    s_seat(event, seat)
    s_tiles(event, tiles)
    s_decided(event, decided)
    s_note(event, "")
    return event


class Discard(NamedTuple):
    """One discard of the hand, in the order they were made (public): who let it go,
    the tile, and the seat that claimed it (``None``: nobody did, so every other seat
    let it go; a mahjong claim counts).  An announcement's discard is one too."""

    seat: int
    tile: Tile
    claimed_by: int | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    winner: int | None
    """The seat that went mahjong; ``None`` for a remise."""
    discarder: int | None
    """The seat whose discard (or promoted kong) gave the winning tile."""
    win: Win | None
    winning_tile: Tile | None
    scores: tuple[ScoreResult, ...]
    """Each seat's scored hand (empty for a remise: nothing is scored)."""
    settlement: Settlement
    reason: str
    """``"mahjong"``, or why the hand is a remise."""

    @property
    def remise(self) -> bool:
        return self.winner is None


_REPEATS: Final = tuple(tuple((_TILES[t],) * k for k in range(5)) for t in range(NUM_KINDS))
"""``_REPEATS[t][k]``: ``k`` copies of tile ``t``."""
_KINDS: Final = range(NUM_KINDS)


def _counts_tuple(counts: Sequence[int]) -> tuple[Tile, ...]:
    """The tiles of a count vector, sorted (observations build it on every decision)."""
    out: list[Tile] = []
    extend = out.extend
    for t in compress(_KINDS, counts):  # the kinds held (a hand holds 14 of 34 at most)
        extend(_REPEATS[t][counts[t]])
    return tuple(out)


class Game:
    """A hand being played.  Mutable; :meth:`clone` copies it."""

    def __init__(
        self,
        rules: RuleSet,
        rng: Rng,
        *,
        round_wind: object = Tile.EAST,
        dominant: object = None,
        _wall: Wall | None = None,
        _copy_of: Game | None = None,
    ) -> None:
        """Deal a hand of ``rules`` from ``rng`` (``SeedRng(seed)``).

        ``round_wind`` is a wind the table plays (East only where every round is
        East's), or the green dragon where the rule set has green-dragon hands;
        ``dominant`` is the dominant seat, given exactly in a green-dragon hand.
        Anything else raises :class:`InvalidSetup` before a tile is dealt.

        ``_wall`` (:meth:`from_deal`: a stacked wall, ``rng`` unused) and ``_copy_of``
        (:meth:`clone`) are the class's own: its other constructors go through here,
        as a compiled (mypyc) class must be made by its ``__init__``.
        """
        if _copy_of is not None:
            self._copy(_copy_of)
            return
        wind, dominant = _check_setup(rules, round_wind, dominant)
        self._start(rules, Wall(rules.table, rng) if _wall is None else _wall, wind, dominant)

    @classmethod
    def from_deal(
        cls,
        rules: RuleSet,
        dealt: Sequence[Sequence[int]],
        live: Sequence[int],
        dead: Sequence[int],
        *,
        round_wind: object = Tile.EAST,
        dominant: object = None,
    ) -> Game:
        """A hand dealt as given, for tests, puzzles and positions to study.

        ``dealt[s]`` is what seat ``s`` takes in the deal, in dealing order: 13
        tiles, East 14 (his last one is the tile he starts his turn with).
        ``live`` is the live wall after the deal, in drawing order; ``dead`` the
        dead wall in loose-tile order.  Together they must be the table's tile set.
        The deal then goes as always (flowers dealt are laid out and replaced).
        ``round_wind`` and ``dominant`` are checked as in :class:`Game`.
        """
        round_wind, dominant = _check_setup(rules, round_wind, dominant)
        n = rules.table.players
        if len(dealt) != n or any(len(d) != (14 if s == 0 else 13) for s, d in enumerate(dealt)):
            sizes = ", ".join(str(len(d)) for d in dealt)
            raise InvalidHand(
                N_("a deal is {n} hands of 13 tiles, East's of 14 (dealing order), not [{sizes}]"),
                n=n,
                sizes=sizes,
            )
        order: list[int] = []
        for r in range(3):
            for d in dealt:
                order.extend(d[4 * r : 4 * r + 4])
        order.extend(d[12] for d in dealt)
        order.append(dealt[0][13])
        wall = Wall.stacked(rules.table, [*order, *live], dead)
        return cls(rules, _NO_RNG, round_wind=round_wind, dominant=dominant, _wall=wall)

    def _start(self, rules: RuleSet, wall: Wall, round_wind: Tile, dominant: int | None) -> None:
        table = rules.table
        self.rules = rules
        self.n = table.players
        self.round_wind = Tile(round_wind)
        self.dominant = dominant
        self.wall = wall
        n = self.n
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(n)]
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.bonus: list[list[Tile]] = [[] for _ in range(n)]
        self.discards: list[list[Tile]] = [[] for _ in range(n)]
        self.discard_log: list[Discard] = []
        """Every discard of the hand in order, with who claimed it (:class:`Discard`)."""
        self.public_log: list[tuple[int, int, int]] = []
        """What the table sees change, in order, as it changes: ``(change, seat,
        value)``, a ``PUBLIC_*`` change of this module (a discard and the tile, a
        claimed discard taken back, a seat's concealed tile count moving, its melds, a
        flower, a dead or announced hand), from the deal on.  The wall's counts and
        the result are read from :attr:`wall` and :attr:`result`.  An observer that
        keeps what it last read (the environment's public array) catches up by the
        entries after it, without comparing the seats' melds and discards.  Bounded by
        the wall: each tile drawn makes at most three entries (drawn or its flower, a
        discard, taken), each kong one more."""
        self.claimed_from: list[list[int | None]] = [[] for _ in range(n)]
        """Beside :attr:`melds`: the seat whose discard each meld took (``None`` for a
        concealed kong); a promoted kong keeps its pung's."""
        self.dead: list[bool] = [False] * n
        self.events: list[Event] = []
        self.phase = _TURN
        self.turn = 0
        """The seat whose turn it is (in a claim window: the discarder)."""
        self.current_seat = 0
        """The seat that must decide now (meaningless once :attr:`phase` is OVER)."""
        self.tile: Tile | None = None
        """On turn: the tile just drawn (``None`` after a claim); in a claim or
        rob window: the tile on offer."""
        self.source = _FROM_DEAL
        self.kongs = 0
        self.turn_kongs = 0
        self.discard_count = 0
        self.result: HandResult | None = None
        self._waits: list[tuple[int, ...] | None] = [None] * n
        self._drawn_waits: tuple[int, ...] | None = None
        """On turn: the waits of the seat's tiles without the tile just drawn, when they
        were known before the draw (else ``None``): a self-drawn win needs the tile among
        them, so most turns need no completeness check."""
        self._pending: list[int] = []
        self._options: dict[int, tuple[Action, ...]] = {}
        self._claims: dict[int, Action] = {}
        self._legal: tuple[Action, ...] | None = None
        self._drawn_win: ScoreResult | None = None
        """On turn: the self-drawn win offered with the legal actions (scored once)."""
        self._claim_wins: dict[int, ScoreResult] = {}
        """In a claim or rob window: each seat's win offered on the tile (scored once)."""
        self._secret = 0
        """Events that are answers in claim or rob windows (not public; see :attr:`seq`)."""
        self._seq = 0
        self._lucky = rules.doublings("lucky_thirteen") > 0
        """The rule set scores the lucky thirteen, so it can be announced."""
        self.announced: list[bool] = [False] * n
        """The seat announced the lucky thirteen (public): its hand stays as it is."""
        self._fresh: list[bool] = [True] * n
        """The seat has not discarded, declared or claimed yet (its first turn is ahead)."""
        self.view_version: list[int] = [0] * n
        """Per seat, a number that grows whenever what the table sees of it changes (its
        melds, flowers, discards, concealed tile count, dead or announced hand), so an
        observer may keep a seat's view until it does (:mod:`core.observation` caches)."""
        self.view_cache: dict[object, Any] = {}
        """Kept for :mod:`core.observation` (views already built, by the numbers above),
        and for other read-only observers under keys of their own (the environment's
        public array); :meth:`clone` starts it empty."""
        self.view_pending: list[tuple[weakref.ref[Any], Callable[[], object]]] = []
        """The observations handed out since the last change, whose parts were left to be
        worked out when first read (:func:`~mahjong_nts.core.observation.observe`): each
        as a weak reference to something only the observation holds, and the call that
        works its parts out.  Before the game changes, it has the parts of every one still
        held worked out (:meth:`_settle_views`), so they show the game as observed."""
        self.recorded_by = 0
        """The number of the :class:`~mahjong_nts.core.match.Match` that recorded this
        hand (0: none; a clone is not recorded)."""
        self.hold_windows = False
        """Open a claim (or rob) window after every discard (promoted kong), also when no
        seat can use the tile: nobody is asked in it (:attr:`current_seat` is -1) and
        :meth:`close_window` ends it.  A server sets this so that every window looks the
        same; the events and :attr:`seq` are the same as without it."""
        self._deal()

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def seq(self) -> int:
        """The sequence number of the decision asked now: the number of public events
        logged when the current turn, or the current claim or rob window, opened.

        Every seat asked in one window answers the window's number; each turn has its
        own (a false mahjong on the own turn, which leaves the seat on turn, opens a new
        decision).  It only grows from one decision to the next, so an answer to any
        earlier decision is stale.  Public events are all of :attr:`events` except the
        answers given in claim and rob windows: those stay secret (the winning claim
        shows as its meld), and counting them would tell the next seat on turn that
        someone could use the discard.  So the number is the same for every seat and
        is worked out from what every seat sees.
        """
        return self._seq

    def clone(self) -> Game:
        """An independent copy of the hand in play (for search, what-ifs, tests)."""
        return type(self)(self.rules, _NO_RNG, _copy_of=self)

    def _copy(self, game: Game) -> None:
        """Become an independent copy of ``game`` (:meth:`clone`).  Every attribute
        :meth:`_start` sets is copied here (tests/core/test_game_invariants.py checks it)."""
        self.rules = game.rules
        self.n = game.n
        self.round_wind = game.round_wind
        self.dominant = game.dominant
        self.phase = game.phase
        self.turn = game.turn
        self.current_seat = game.current_seat
        self.tile = game.tile
        self.source = game.source
        self.kongs = game.kongs
        self.turn_kongs = game.turn_kongs
        self.discard_count = game.discard_count
        self.result = game.result
        self._legal = game._legal
        self._drawn_win = game._drawn_win
        self._secret = game._secret
        self._seq = game._seq
        self._lucky = game._lucky
        self.hold_windows = game.hold_windows
        self.recorded_by = 0
        self.wall = game.wall.copy()
        self.hands = [list(h) for h in game.hands]
        self.melds = [list(m) for m in game.melds]
        self.bonus = [list(b) for b in game.bonus]
        self.discards = [list(d) for d in game.discards]
        self.discard_log = list(game.discard_log)
        self.public_log = list(game.public_log)
        self.claimed_from = [list(c) for c in game.claimed_from]
        self.dead = list(game.dead)
        self.events = list(game.events)
        self._waits = list(game._waits)
        self._drawn_waits = game._drawn_waits
        self._pending = list(game._pending)
        self._options = dict(game._options)
        self._claims = dict(game._claims)
        self._claim_wins = dict(game._claim_wins)
        self.announced = list(game.announced)
        self._fresh = list(game._fresh)
        self.view_version = list(game.view_version)
        self.view_cache = {}
        self.view_pending = []

    def _settle_views(self) -> None:
        """Before a change: work out the pending parts of the observations still held
        (:attr:`view_pending`); those nobody holds any more are dropped."""
        pending = self.view_pending
        self.view_pending = []
        for alive, fill in pending:
            if alive() is not None:
                fill()

    def seat_wind(self, seat: int) -> Tile:
        return WINDS[seat]

    def concealed(self, seat: int) -> tuple[Tile, ...]:
        """A seat's concealed tiles, sorted."""
        return _counts_tuple(self.hands[seat])

    def hand_of(self, seat: int, winning_tile: Tile | None = None) -> Hand:
        """The seat's tiles as a core :class:`Hand` (for scoring and display)."""
        return Hand(
            self.concealed(seat), tuple(self.melds[seat]), tuple(self.bonus[seat]), winning_tile
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """What :attr:`current_seat` may do now (empty once the hand is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def window_seats(self) -> tuple[int, ...]:
        """In a claim or rob window, the seats still to answer, in the order
        :meth:`apply` takes their answers (the first is :attr:`current_seat`); else ()."""
        if self.phase is _CLAIM or self.phase is _ROB:
            return tuple(self._pending)
        return ()

    def window_options(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may answer in the claim or rob window open now, if it is still
        to answer (else ()): for a server that asks every seat of a window at once.
        Nobody but the server may see another seat's options."""
        if (self.phase is _CLAIM or self.phase is _ROB) and seat in self._pending:
            return self._options[seat]
        return ()

    @property
    def held(self) -> bool:
        """A window is open in which nobody is asked (:attr:`hold_windows`):
        :meth:`close_window` ends it."""
        return (self.phase is _CLAIM or self.phase is _ROB) and not self._pending

    def close_window(self) -> None:
        """End a held window (one nobody is asked in, :attr:`hold_windows`): the next
        seat draws, or the kong's owner takes his loose tile.  :class:`IllegalAction`
        when no such window is open (a window with seats asked ends with their last
        answer)."""
        if self.view_pending:
            self._settle_views()
        if not self.held:
            if self.phase is _CLAIM or self.phase is _ROB:
                raise IllegalAction(
                    N_("seats are still to answer in this window: it ends with their last answer")
                )
            raise IllegalAction(N_("no claim or rob window is open"))
        self._legal = None
        self._resolve_claims()

    def check(self, act: object, *, seat: object, seq: object = None) -> Action:
        """The action ``apply(act, seat=seat, seq=seq)`` would take, checked and read
        but not applied: the same errors as :meth:`apply` for a malformed, foreign,
        stale or illegal action.  In a claim or rob window every seat still to answer
        counts as asked (not only :attr:`current_seat`), with its own options: a
        server that asks them all at once checks each answer as it comes and later
        feeds the answers to :meth:`apply` in :meth:`window_seats` order."""
        window = self.phase is _CLAIM or self.phase is _ROB
        asked = tuple(self._pending) if window else (self.current_seat,)
        self._check_authority(seat, seq, asked)
        who = cast(int, seat)  # a seat of ``asked`` now
        act = self._read(act)
        legal = self._options[who] if window else self.legal_actions()
        if not among(act, legal) and not (act is _MAHJONG and self._false_mahjong_allowed(who)):
            raise IllegalAction(self._why_illegal(act, legal, who))
        return act

    # ------------------------------------------------------------------ apply

    def apply(self, act: object, *, seat: object = None, seq: object = None) -> None:
        """Apply the current seat's action.

        Raises :class:`InvalidAction` for a malformed action and
        :class:`IllegalAction` for one not allowed now; either way the state is
        left exactly as it was.  A mahjong that is not one is, under the book's
        rule (``false_mahjong = "dead_hand"``), accepted and makes the hand dead.

        The authority form, for a server that takes actions from the seats: ``seat``
        is the seat the action comes from, ``seq`` the :attr:`seq` of the decision it
        answers (either may be given alone).  They are checked first: a seat that is
        not a seat of this table or a seq that is not a whole number
        ``0..MAX_SEQ`` (booleans neither) raises :class:`InvalidAction`; a seat not
        asked now :class:`NotYourTurn`; an answer to another decision
        :class:`StaleAction`.  Then the action is read and its legality checked.
        """
        if self.view_pending:
            self._settle_views()
        if seat is not None or seq is not None:
            self._check_authority(seat, seq, (self.current_seat,))
        act = self._read(act)
        phase = self.phase
        if phase is not _TURN:
            if phase is _OVER:
                raise IllegalAction(N_("the hand is over"))
            if not self._pending:  # a held window
                raise IllegalAction(N_("nobody is asked in this window: close_window() ends it"))
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        is_legal = among(act, legal)  # (``act`` is interned, as are the legal actions)
        if not is_legal and not (
            act is _MAHJONG and self._false_mahjong_allowed(self.current_seat)
        ):
            raise IllegalAction(self._why_illegal(act, legal, self.current_seat))
        self._legal = None
        seat = self.current_seat  # (the acting seat; checked above when given)
        if phase is _TURN:
            self._apply_turn(seat, act, is_legal)
        else:
            self.events.append(_event(_WORDS[act.kind], seat, _tile_of(act), True))
            self._secret += 1
            self._claims[seat] = act
            self._pending.pop(0)
            if self._pending:
                self.current_seat = self._pending[0]
            else:
                self._resolve_claims()

    @staticmethod
    def _read(act: object) -> Action:
        """An action given as an Action, its text or its id, as the interned value."""
        if type(act) is Action:
            return interned(act)
        if isinstance(act, str):
            return parse_action(act)
        if isinstance(act, int) and not isinstance(act, bool):
            return Action.from_id(act)
        if not isinstance(act, Action):
            raise InvalidAction(
                N_("an action is an Action, its text or its id, not a {type}"),
                type=type(act).__name__,
            )
        return interned(act)  # the interned value: compared by identity

    def _check_authority(self, seat: object, seq: object, asked: Sequence[int]) -> None:
        """The authority checks of :meth:`apply` (``asked``: the seats asked now);
        they change nothing."""
        n = self.n
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise InvalidAction(
                N_("seat {seat} is not a seat of this table (0..{last})"),
                seat=quote(seat),
                last=n - 1,
            )
        if seq is not None and (
            isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ
        ):
            raise InvalidAction(
                N_("seq {seq} is not a sequence number (a whole number 0..{most})"),
                seq=quote(seq),
                most=MAX_SEQ,
            )
        if self.phase is _OVER:
            raise IllegalAction(N_("the hand is over"))
        if seat is not None and seat not in asked:
            raise NotYourTurn(N_("seat {seat} is not asked to decide now"), seat, seat=seat)
        if seq is not None and seq != self._seq:
            assert isinstance(seq, int)
            raise StaleAction(
                N_(
                    "stale action: it answers decision {seq}, an earlier one than the "
                    "decision asked now ({now})"
                )
                if seq < self._seq
                else N_(
                    "stale action: it answers decision {seq}, a later one than the "
                    "decision asked now ({now})"
                ),
                self._seq,
                seq,
                seq=seq,
                now=self._seq,
            )

    def _false_mahjong_allowed(self, seat: int) -> bool:
        return self.rules.table.false_mahjong == "dead_hand" and not self.dead[seat]

    def _why_illegal(self, act: Action, legal: Sequence[Action], seat: int) -> Text:
        if act is _MAHJONG:
            if self.dead[seat]:
                return Text(N_("a dead hand cannot go mahjong"))
            return Text(N_("this is no mahjong (and the table refuses false claims)"))
        if act.kind is _K_ANNOUNCE:
            why = self._why_no_announcement(seat)
            if why:
                return why
        elif self.announced[seat] and act.kind is not _K_PASS:
            if self.phase is _TURN and self.tile is not None:
                return Text(
                    N_(
                        "seat {seat} announced the lucky thirteen: the hand stays as it is "
                        "(discard the tile just drawn, {tile}, or go mahjong)"
                    ),
                    seat=seat,
                    tile=self.tile.token,
                )
            return Text(
                N_(
                    "seat {seat} announced the lucky thirteen: the hand stays as it is "
                    "(on a discard it may only go mahjong)"
                ),
                seat=seat,
            )
        shown = ", ".join(str(a) for a in legal)
        if self.phase is _TURN:
            template = N_("'{action}' is not allowed on your turn (seat {seat}); allowed: {legal}")
        elif self.phase is _CLAIM:
            template = N_(
                "'{action}' is not allowed on the discard {tile} (seat {seat}); allowed: {legal}"
            )
        elif self.phase is _ROB:
            template = N_(
                "'{action}' is not allowed on the promoted kong (seat {seat}); allowed: {legal}"
            )
        else:
            template = N_("'{action}' is not allowed  (seat {seat}); allowed: {legal}")
        tile = self.tile.token if self.tile is not None else ""
        return Text(template, action=str(act), tile=tile, seat=seat, legal=shown)

    def _why_no_announcement(self, seat: int) -> Text | None:
        """Why ``seat`` may not announce the lucky thirteen now (None if it may, with
        some tile)."""
        if not self._lucky:
            return Text(
                N_("{rules} does not score the lucky thirteen: nothing to announce"),
                rules=self.rules.name,
            )
        if self.phase is not _TURN:
            return Text(N_("the lucky thirteen is announced on the own turn, with its discard"))
        if self.announced[seat]:
            return Text(N_("seat {seat} announced the lucky thirteen already"), seat=seat)
        if self.dead[seat]:
            return Text(N_("a dead hand cannot announce the lucky thirteen"))
        if not self._fresh[seat]:
            return Text(
                N_(
                    "the lucky thirteen is announced on the seat's first turn only, "
                    "waiting with the tiles dealt"
                )
            )
        if not self._announcements(seat):
            return Text(
                N_("the tiles dealt are not waiting: there is no lucky thirteen to announce")
            )
        return None

    # ------------------------------------------------------------------ deal and draws

    def _deal(self) -> None:
        wall, n = self.wall, self.n
        dealt: list[list[int]] = [[] for _ in range(n)]
        for _ in range(3):
            for s in range(n):
                dealt[s].extend(wall.draw() for _ in range(4))
        for s in range(n):
            dealt[s].append(wall.draw())
        dealt[0].append(wall.draw())
        for s in range(n):
            self.events.append(Event("deal", s, tuple(_TILES[t] for t in dealt[s])))
            hand = self.hands[s]
            for t in dealt[s]:
                if t >= NUM_KINDS:
                    self.bonus[s].append(_TILES[t])
                    self.events.append(Event("flower", s, (_TILES[t],)))
                    self.public_log.append((PUBLIC_BONUS, s, t))
                else:
                    hand[t] += 1
            self.public_log.append((PUBLIC_COUNT, s, sum(hand)))
        # East's "drawn" tile on his first turn: his last dealt tile, or its replacement
        # when that is a flower (East's flowers are replaced in dealing order)
        last = dealt[0][-1]
        east_tile = _TILES[last] if last < NUM_KINDS else None
        for s in range(n):
            for _ in range(len(self.bonus[s])):
                if not self._replace(s):
                    return
                if s == 0 and last >= NUM_KINDS:
                    east_tile = self.tile
        self.tile = east_tile
        self._turn(0, _FROM_DEAL)

    def _replace(self, seat: int) -> bool:
        """Give ``seat`` a loose tile (replacing flowers it brings); False on remise."""
        wall = self.wall
        while True:
            if not wall.dead_left:
                self._remise(Text(N_("no loose tile left in the dead wall")))
                return False
            t = wall.draw_loose()
            self.view_version[seat] += 1
            self.events.append(Event("loose", seat, (t,)))
            if t < NUM_KINDS:
                self.hands[seat][t] += 1
                self.public_log.append((PUBLIC_COUNT, seat, 1))
                self.tile = t
                return True
            self.bonus[seat].append(t)
            self.events.append(Event("flower", seat, (t,)))
            self.public_log.append((PUBLIC_BONUS, seat, t))

    def _draw(self, seat: int) -> None:
        wall = self.wall
        if not wall.live_left:
            self._remise(Text(N_("the live wall is exhausted")))
            return
        t = wall.draw()
        self.view_version[seat] += 1
        self.events.append(_event("draw", seat, (t,)))
        source = _FROM_WALL
        if t >= NUM_KINDS:
            self.bonus[seat].append(t)
            self.events.append(Event("flower", seat, (t,)))
            self.public_log.append((PUBLIC_BONUS, seat, t))
            if not self._replace(seat):
                return
            source = _FROM_REPLACED
        else:
            self.hands[seat][t] += 1
            self.public_log.append((PUBLIC_COUNT, seat, 1))
            self.tile = t
        self.turn_kongs = 0
        self._turn(seat, source)

    def _loose(self, seat: int) -> None:
        if self._replace(seat):
            self._turn(seat, _FROM_LOOSE)

    def _turn(self, seat: int, source: Source) -> None:
        self.phase = _TURN
        self.turn = self.current_seat = seat
        self.source = source
        waits = self._waits
        # the seat's waits, when known, were worked out before this turn's tile came:
        # every other change of its tiles (a discard, kong or claim) forgets them
        self._drawn_waits = (
            waits[seat] if source is _FROM_WALL or source is _FROM_REPLACED else None
        )
        waits[seat] = None
        self._seq = len(self.events) - self._secret

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is _OVER:
            return ()
        if phase is not _TURN:
            return self._options.get(self.current_seat, ())  # () in a held window
        seat = self.turn
        hand = self.hands[seat]
        out: list[Action] = []
        win = None
        if self.source is not _FROM_CLAIM and not self.dead[seat]:
            before = self._drawn_waits
            t = self.tile
            if before is None or t is None or t in before or hand[t] > 4:
                win = self._self_drawn_win(seat)
            # (else the tiles before the draw did not wait for it: no win, see there)
        self._drawn_win = win
        if win is not None:
            out.append(_MAHJONG)
        if self.announced[seat]:  # the hand stays as it is: only the drawn tile goes
            assert self.tile is not None
            out.append(_DISCARD[self.tile])
            return tuple(out)
        for m in self.melds[seat]:
            if m.kind is _M_PUNG and m.open and hand[m.tile]:
                out.append(_KONG[m.tile])
        if 4 in hand:
            out.extend(_KONG[t] for t in range(NUM_KINDS) if hand[t] == 4)
        out.extend(compress(_DISCARD, hand))
        if self._lucky and self._fresh[seat] and not self.dead[seat]:
            out.extend(self._announcements(seat))
        return tuple(out)

    def _announcements(self, seat: int) -> list[Action]:
        """The lucky thirteen's announcements open to ``seat`` on its first turn: East
        (14 tiles dealt) with any discard that leaves his tiles waiting; any other seat
        with the tile just drawn, when the 13 it was dealt are waiting."""
        if seat == 0:
            if self.source is not _FROM_DEAL:
                return []
            hand = self.hands[0]
            candidates = [t for t in range(NUM_KINDS) if hand[t]]
        elif self.source in (_FROM_WALL, _FROM_REPLACED) and self.tile is not None:
            candidates = [int(self.tile)]
        else:
            return []
        hand = self.hands[seat]
        dup = self.rules.scoring.seven_pairs_duplicate
        out: list[Action] = []
        for t in candidates:
            hand[t] -= 1
            try:
                if waiting_tiles(hand, n_melds=len(self.melds[seat]), duplicate_pairs=dup):
                    out.append(_ANNOUNCE[t])
            finally:
                hand[t] += 1
        return out

    def _waits_of(self, seat: int) -> tuple[int, ...]:
        w = self._waits[seat]
        if w is None:
            w = self._waits[seat] = waiting_tiles(
                self.hands[seat],
                n_melds=len(self.melds[seat]),
                duplicate_pairs=self.rules.scoring.seven_pairs_duplicate,
            )
        return w

    def _claim_options(
        self, seat: int, t: int, rob: bool, melds: bool, chow: bool
    ) -> tuple[Action, ...]:
        """What ``seat`` may do with the tile ``t`` on offer (``rob``: a promoted kong's):
        ``melds``, a pung or kong may be claimed (a discard, and the live wall not
        empty); ``chow``, a chow too (the seat after the discarder, where chows are
        claimed)."""
        out: list[Action] = []
        if not self.dead[seat]:
            waits = self._waits[seat]
            if waits is None:
                waits = self._waits_of(seat)
            if t in waits:
                win = self._claimed_win(seat, t, rob)
                if win is not None:
                    self._claim_wins[seat] = win
                    out.append(_MAHJONG)
        if melds and not self.announced[seat]:
            hand = self.hands[seat]
            k = hand[t]
            if k >= 2:
                out.append(_PUNG[t])
                if k == 3:
                    out.append(_KONG[t])
            if chow:
                r = t % 9
                if r >= 2 and hand[t - 2] and hand[t - 1]:
                    out.append(_CHOW[t - 2])
                if 1 <= r <= 7 and hand[t - 1] and hand[t + 1]:
                    out.append(_CHOW[t - 1])
                if r <= 6 and hand[t + 1] and hand[t + 2]:
                    out.append(_CHOW[t])
        if out:
            out.append(_PASS)
            return tuple(out)
        return ()

    # ------------------------------------------------------------------ wins

    def _situation(self, seat: int, win: Win | None) -> Situation:
        return Situation(WINDS[seat], self.round_wind, win, self.dead[seat])

    def _score_win(self, seat: int, t: int, win: Win) -> ScoreResult | None:
        """The winner's scored hand if it is a legal mahjong, else None."""
        hand = Hand(
            _counts_tuple(self.hands[seat]),
            tuple(self.melds[seat]),
            tuple(self.bonus[seat]),
            _TILES[t],
        )
        res = score_hand(hand, self._situation(seat, win), self.rules)
        return res if res.mahjong_allowed else None

    def _self_drawn_win(self, seat: int) -> ScoreResult | None:
        t = self.tile
        hand = self.hands[seat]
        if t is None:
            return None
        before = self._drawn_waits
        if before is not None and t not in before and hand[t] <= 4:
            return None  # the tiles before the draw did not wait for it: not complete
        if not is_complete(
            hand,
            n_melds=len(self.melds[seat]),
            duplicate_pairs=self.rules.scoring.seven_pairs_duplicate,
        ):
            return None
        return self._score_win(seat, t, self._self_drawn_flags(seat))

    def _self_drawn_flags(self, seat: int) -> Win:
        src = self.source
        lucky = self.announced[seat]
        if src is _FROM_LOOSE:
            return Win(
                WinSource.LOOSE_TILE, kong_on_kong=self.turn_kongs >= 2, lucky_thirteen=lucky
            )
        return Win(
            WinSource.WALL,
            last_tile=src is _FROM_WALL and not self.wall.live_left,
            heaven=src is _FROM_DEAL and seat == 0,
            lucky_thirteen=lucky,
        )

    def _claimed_flags(self, seat: int, rob: bool) -> Win:
        lucky = self.announced[seat]
        if rob:
            return Win(WinSource.ROBBED_KONG, lucky_thirteen=lucky)
        return Win(
            WinSource.DISCARD,
            last_discard=not self.wall.live_left,
            first_discard=self.discard_count == 1 and self.turn == 0,
            lucky_thirteen=lucky,
        )

    def _claimed_win(self, seat: int, t: int, rob: bool) -> ScoreResult | None:
        self.hands[seat][t] += 1
        try:
            return self._score_win(seat, t, self._claimed_flags(seat, rob))
        finally:
            self.hands[seat][t] -= 1

    def _claim_rank(self, seat: int, t: int, res: ScoreResult) -> int:
        """Rank of a mahjong claim in the rule set's priority (lower goes first)."""
        order = self.rules.table.mahjong_priority
        kinds: set[str] = set()
        if res.limit_hand is not None and (
            self.rules.table.priority_limit == "any" or LIMIT_HANDS[res.limit_hand].irregular
        ):
            kinds.add("limit")
        counts = list(self.hands[seat])
        counts[t] += 1
        for arr in arrangements(counts):
            for blk in arr:
                if blk.kind is BlockKind.PAIR and blk.tile == t:
                    kinds.add("pair")
                elif blk.kind is BlockKind.PUNG and blk.tile == t:
                    kinds.add("pung")
                elif blk.kind is BlockKind.CHOW and blk.tile <= t <= blk.tile + 2:
                    kinds.add("chow")
        if not self.melds[seat] and irregular_shapes(
            counts, duplicate_pairs=self.rules.scoring.seven_pairs_duplicate
        ):
            kinds.add("pair" if counts[t] == 2 else "limit")
        ranks = [order.index(k) for k in kinds if k in order]
        return min(ranks) if ranks else len(order)

    # ------------------------------------------------------------------ turn actions

    def _apply_turn(self, seat: int, act: Action, legal: bool) -> None:
        kind = act.kind
        if kind is _K_MAHJONG:
            self.events.append(Event("mahjong", seat, (), True))
            if not legal:
                self._false_mahjong(seat)
                self._seq = len(self.events) - self._secret  # the turn goes on: a new decision
                return
            t = self.tile
            res = self._drawn_win  # scored when the mahjong was offered, in this state
            assert t is not None and res is not None
            self._finish(seat, None, self._self_drawn_flags(seat), t, res)
            return
        tile = act.tile
        assert tile is not None
        hand = self.hands[seat]
        self.view_version[seat] += 1
        if kind is _K_DISCARD or kind is _K_ANNOUNCE:
            word = "discard"
            if kind is _K_ANNOUNCE:
                self.announced[seat] = True
                word = "announce"
            self.events.append(_event(word, seat, (tile,), True))
            hand[tile] -= 1
            self._waits[seat] = None
            self._fresh[seat] = False
            self.discards[seat].append(tile)
            self.discard_log.append(Discard(seat, tile))
            self.public_log.append((PUBLIC_DISCARD, seat, tile))
            if kind is _K_ANNOUNCE:
                self.public_log.append((PUBLIC_ANNOUNCED, seat, 0))
            self.discard_count += 1
            self._offer(seat, tile, rob=False)
            return
        # a kong: concealed (four held) or promoted (an open pung and the fourth)
        self.events.append(Event("kong", seat, (tile,), True))
        self._waits[seat] = None
        self._fresh[seat] = False
        if hand[tile] == 4:
            hand[tile] = 0
            self.melds[seat].append(Meld(_M_KONG, tile, open=False))
            self.claimed_from[seat].append(None)
            self.public_log.append((PUBLIC_MELD, seat, -4))
            self._count_kong(seat, promoted=None)
            return
        hand[tile] -= 1
        melds = self.melds[seat]
        i = melds.index(Meld(_M_PUNG, tile, True))
        melds[i] = Meld(_M_KONG, tile, True)
        self.public_log.append((PUBLIC_MELD, seat, -1))
        self._count_kong(seat, promoted=tile)

    def _count_kong(self, seat: int, promoted: Tile | None) -> None:
        self.kongs += 1
        self.turn_kongs += 1
        if self.kongs > self.rules.table.max_kongs:
            self._remise(Text(N_("kong number {n} in one hand"), n=self.kongs))
            return
        if promoted is not None:
            self.tile = promoted
            self._offer(seat, promoted, rob=True)
        else:
            self._loose(seat)

    def _false_mahjong(self, seat: int) -> None:
        self.dead[seat] = True
        self.public_log.append((PUBLIC_DEAD, seat, 0))
        self.view_version[seat] += 1
        self.events.append(Event("dead", seat, (), False, Text(N_("false mahjong"))))

    # ------------------------------------------------------------------ claims

    def _offer(self, seat: int, tile: Tile, rob: bool) -> None:
        """Open a claim window on ``tile`` (a discard, or a promoted kong's tile)."""
        n = self.n
        self.turn = seat
        self.tile = tile
        options: dict[int, tuple[Action, ...]] = {}
        pending: list[int] = []
        self._claim_wins = {}
        melds = not rob and self.wall.live_left > 0
        chow = melds and tile < 27 and self.rules.table.open_chows
        for k in range(1, n):
            other = (seat + k) % n
            opts = self._claim_options(other, tile, rob, melds, chow and k == 1)
            if opts:
                options[other] = opts
                pending.append(other)
        if not pending and not self.hold_windows:
            if rob:
                self._loose(seat)
            else:
                self._draw((seat + 1) % n)
            return
        self.phase = _ROB if rob else _CLAIM
        self._options = options
        self._pending = pending
        self._claims = {}
        self.current_seat = pending[0] if pending else -1
        self._seq = len(self.events) - self._secret

    def _resolve_claims(self) -> None:
        seat, tile = self.turn, self.tile
        assert tile is not None
        rob = self.phase is _ROB
        n = self.n
        claims = self._claims
        order = [(seat + k) % n for k in range(1, n)]
        winners: list[tuple[int, int, int, ScoreResult]] = []
        for i, s in enumerate(order):
            if claims.get(s) is _MAHJONG:
                res = self._claim_wins.get(s)  # scored when the window opened, in this state
                if res is None:
                    self._false_mahjong(s)
                else:
                    winners.append((self._claim_rank(s, tile, res), i, s, res))
        self._options, self._claims, self._pending, self._claim_wins = {}, {}, [], {}
        if winners:
            _, _, s, res = min(winners, key=lambda w: (w[0], w[1]))
            win = self._claimed_flags(s, rob)
            self.view_version[seat] += 1
            self.view_version[s] += 1
            if rob:
                self._rob(seat, tile)
            else:
                self.discards[seat].pop()
                self.discard_log[-1] = Discard(seat, tile, s)
                self.public_log.append((PUBLIC_TAKEN, seat, tile))
            self.hands[s][tile] += 1
            self.public_log.append((PUBLIC_COUNT, s, 1))
            self._finish(s, seat, win, tile, res)
            return
        if rob:
            self._loose(seat)
            return
        for s in order:
            act = claims.get(s)
            if act is None or act.kind not in (_K_PUNG, _K_KONG):
                continue
            self._take(seat, s, tile)
            hand = self.hands[s]
            if act.kind is _K_KONG:
                hand[tile] -= 3
                self.melds[s].append(Meld(_M_KONG, tile, True))
                self.claimed_from[s].append(seat)
                self.public_log.append((PUBLIC_MELD, s, -3))
                self.events.append(Event("meld", s, (tile,) * 4))
                self.turn_kongs = 0
                self._turn(s, _FROM_CLAIM)
                self._count_kong(s, promoted=None)
            else:
                hand[tile] -= 2
                self.melds[s].append(Meld(_M_PUNG, tile, True))
                self.claimed_from[s].append(seat)
                self.public_log.append((PUBLIC_MELD, s, -2))
                self.events.append(Event("meld", s, (tile,) * 3))
                self._claimed_turn(s)
            return
        nxt = (seat + 1) % n
        act = claims.get(nxt)
        if act is not None and act.kind is _K_CHOW:
            start = act.tile
            assert start is not None
            self._take(seat, nxt, tile)
            hand = self.hands[nxt]
            for t in (start, start + 1, start + 2):
                if t != tile:
                    hand[t] -= 1
            self.melds[nxt].append(Meld(_M_CHOW, start, True))
            self.claimed_from[nxt].append(seat)
            self.public_log.append((PUBLIC_MELD, nxt, -2))
            self.events.append(Event("meld", nxt, (start, _TILES[start + 1], _TILES[start + 2])))
            self._claimed_turn(nxt)
            return
        self._draw(nxt)

    def _take(self, discarder: int, seat: int, tile: Tile) -> None:
        """The claimed discard leaves the table (the caller melds it)."""
        self.discards[discarder].pop()
        self.view_version[discarder] += 1
        self.view_version[seat] += 1
        self.discard_log[-1] = Discard(discarder, tile, seat)
        self.public_log.append((PUBLIC_TAKEN, discarder, tile))
        self._waits[seat] = None
        self._fresh[seat] = False

    def _claimed_turn(self, seat: int) -> None:
        self.turn_kongs = 0
        self.tile = None
        self._turn(seat, _FROM_CLAIM)

    def _rob(self, robbed: int, tile: Tile) -> None:
        """Take the fourth tile back off the robbed player's promoted kong."""
        melds = self.melds[robbed]
        i = melds.index(Meld(_M_KONG, tile, True))
        melds[i] = Meld(_M_PUNG, tile, True)
        self.public_log.append((PUBLIC_MELD, robbed, 0))
        self.kongs -= 1
        self.events.append(Event("robbed", robbed, (tile,)))

    # ------------------------------------------------------------------ end

    def _finish(
        self, winner: int, discarder: int | None, win: Win, tile: Tile, res: ScoreResult
    ) -> None:
        scores: list[ScoreResult] = []
        for s in range(self.n):
            if s == winner:
                scores.append(res)
            else:
                scores.append(score_hand(self.hand_of(s), self._situation(s, None), self.rules))
        settlement = settle(
            [r.score for r in scores],
            winner=winner,
            discarder=discarder,
            east=0,
            rules=self.rules.settlement,
            dominant=self.dominant,
        )
        self.events.append(Event("mahjong_won", winner, (tile,)))
        self._end(HandResult(winner, discarder, win, tile, tuple(scores), settlement, "mahjong"))

    def _remise(self, reason: str) -> None:
        zeros = (0,) * self.n
        self.events.append(Event("remise", -1, (), False, reason))
        self._end(HandResult(None, None, None, None, (), Settlement(zeros, zeros, ()), reason))

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = _OVER
        self._legal = ()
        self._seq = len(self.events) - self._secret


_ROUND_WINDS: Final = {"rotating": WINDS, "east": (Tile.EAST,)}


def _check_setup(rules: RuleSet, round_wind: object, dominant: object) -> tuple[Tile, int | None]:
    """The round wind and dominant seat of a hand, checked against the rule set's table;
    raises :class:`InvalidSetup` for a hand that cannot be set up."""
    table = rules.table
    n = table.players
    if isinstance(round_wind, bool) or not isinstance(round_wind, int):
        raise InvalidSetup(
            N_("round_wind is a tile (a wind, or the green dragon), not {value}"),
            value=quote(round_wind),
        )
    try:
        wind = Tile(round_wind)
    except ValueError:
        raise InvalidSetup(
            N_("round_wind {value} is not a tile"), value=quote(round_wind)
        ) from None
    if wind is Tile.GREEN:
        if table.green_dragon == "none":
            raise InvalidSetup(
                N_("round wind F (the green dragon): {rules} plays no green-dragon hands"),
                rules=rules.name,
            )
        if isinstance(dominant, bool) or not isinstance(dominant, int) or not 0 <= dominant < n:
            if dominant is None:
                raise InvalidSetup(
                    N_("a green-dragon hand has a dominant player, a seat 0..{last} (none given)"),
                    last=n - 1,
                )
            raise InvalidSetup(
                N_("a green-dragon hand has a dominant player, a seat 0..{last} (not {value})"),
                last=n - 1,
                value=quote(dominant),
            )
        return wind, dominant
    winds = _ROUND_WINDS[table.round_wind][: len(table.winds)]
    if wind not in winds:
        tokens = " ".join(w.token for w in winds)
        raise InvalidSetup(
            N_(
                "round wind {wind}: the round winds of {rules} are {winds}, or F in a "
                "green-dragon hand"
            )
            if table.green_dragon != "none"
            else N_("round wind {wind}: the round winds of {rules} are {winds}"),
            wind=wind.token,
            rules=rules.name,
            winds=tokens,
        )
    if dominant is not None:
        raise InvalidSetup(
            N_(
                "dominant {value}: only a green-dragon hand has a dominant player "
                "(this hand's round wind is {wind})"
            ),
            value=quote(dominant),
            wind=wind.token,
        )
    return wind, None


def _tile_of(act: Action) -> tuple[Tile, ...]:
    return () if act.tile is None else (act.tile,)
