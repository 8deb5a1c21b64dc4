"""The observation of one seat as a fixed-size numpy array, and the action mask.

Layout version 1 (docs/env.md has the table).  Everything is read from the core's
:class:`~mahjong_nts.core.observation.Observation` of the seat, the one place that decides
what a seat may see, so the array never holds a tile the seat cannot see.  Seats are
*relative*: row 0 is the observing seat, row 1 the seat after it (the next to play), and
so on; a table of three leaves row 3 empty (``SEATS_IN_PLAY`` says which rows play).

The action table is the core's: an action's index is :attr:`Action.id`
(:data:`~mahjong_nts.core.actions.NUM_ACTIONS` of them), so the mask of a decision is
exactly the ids of the core's legal actions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from mahjong_nts.core.actions import NUM_ACTIONS, Action
from mahjong_nts.core.errors import InvalidAction
from mahjong_nts.core.game import (
    PUBLIC_BONUS,
    PUBLIC_COUNT,
    PUBLIC_DEAD,
    PUBLIC_DISCARD,
    PUBLIC_MELD,
    PUBLIC_TAKEN,
    Discard,
    Game,
    Phase,
)
from mahjong_nts.core.hand import Meld, MeldKind
from mahjong_nts.core.observation import Observation, SeatView
from mahjong_nts.core.tiles import NUM_KINDS, Tile

__all__ = [
    "LAYOUT",
    "LAYOUT_VERSION",
    "MATCH_LAYOUT",
    "MATCH_LAYOUT_VERSION",
    "MATCH_OBS_HIGH",
    "MATCH_OBS_LOW",
    "MATCH_OBS_SIZE",
    "MAX_HISTORY",
    "MAX_SEATS",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "Encoder",
    "action_mask",
    "encode",
    "encode_game",
    "encode_seat",
    "legal_mask",
    "match_section",
]

LAYOUT_VERSION: Final = 1
MAX_SEATS: Final = 4
"""Seats a hand is played by (a table of five seats four and a dreamer)."""
MAX_HISTORY: Final = 136
"""Discards one hand can have: every tile that is no flower or season, at most."""
NUM_BONUS: Final = 8

_SECTIONS: Final = (
    ("HAND", NUM_KINDS),
    ("DRAWN", NUM_KINDS),
    ("OFFERED", NUM_KINDS),
    ("MELDS", MAX_SEATS * NUM_KINDS),
    ("FACE_DOWN_KONGS", MAX_SEATS),
    ("DISCARDS", MAX_SEATS * NUM_KINDS),
    ("HISTORY", MAX_HISTORY * 3),
    ("BONUS", MAX_SEATS * NUM_BONUS),
    ("CONCEALED_COUNT", MAX_SEATS),
    ("WALL", 3),
    ("ROUND_WIND", 5),
    ("SEAT_WIND", 4),
    ("PHASE", 4),
    ("SEATS_IN_PLAY", MAX_SEATS),
    ("DEAD", MAX_SEATS),
    ("ANNOUNCED", MAX_SEATS),
    ("DOMINANT", MAX_SEATS),
    ("SCORES", MAX_SEATS),
)


def _offsets() -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, size in _SECTIONS:
        out[name] = slice(at, at + size)
        at += size
    return out


LAYOUT: Final = _offsets()
"""Each section's slice of the array (version 1)."""
OBS_SIZE: Final = LAYOUT["SCORES"].stop


def _bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    for name in ("HAND", "MELDS", "DISCARDS"):
        high[LAYOUT[name]] = 4
    high[LAYOUT["FACE_DOWN_KONGS"]] = 4
    history = high[LAYOUT["HISTORY"]].reshape(MAX_HISTORY, 3)
    history[:, 0] = NUM_KINDS
    history[:, 1:] = MAX_SEATS
    high[LAYOUT["CONCEALED_COUNT"]] = 14
    high[LAYOUT["WALL"]] = 144
    low[LAYOUT["SCORES"]] = -np.inf
    high[LAYOUT["SCORES"]] = np.inf
    return low, high


OBS_LOW, OBS_HIGH = _bounds()

MATCH_LAYOUT_VERSION: Final = 2
"""Layout 2 (episodes of a whole match): layout 1, then :data:`MATCH_LAYOUT`'s section."""
MAX_MATCH_HANDS: Final = 500
"""Hands after which a match episode is cut (truncated): a match is 12 to 25 hands or
more (East may keep the deal), as ``simulate``'s cut."""
_MATCH_SECTIONS: Final = (
    ("MATCH_BALANCES", MAX_SEATS + 1),
    ("MATCH_PROGRESS", 4),
    ("SITTING_OUT", 1),
)


def _match_offsets() -> dict[str, slice]:
    out = dict(LAYOUT)
    at = OBS_SIZE
    for name, size in _MATCH_SECTIONS:
        out[name] = slice(at, at + size)
        at += size
    return out


MATCH_LAYOUT: Final = _match_offsets()
"""Each section's slice of the layout-2 array: layout 1's, then the match's."""
MATCH_OBS_SIZE: Final = MATCH_LAYOUT["SITTING_OUT"].stop
MATCH_OBS_LOW: Final = np.concatenate(
    [OBS_LOW, np.full(MAX_SEATS + 1, -np.inf, np.float32), np.zeros(5, np.float32)]
)
MATCH_OBS_HIGH: Final = np.concatenate(
    [
        OBS_HIGH,
        np.full(MAX_SEATS + 1, np.inf, np.float32),
        np.array([MAX_MATCH_HANDS, 100, 5, 100, 1], np.float32),
    ]
)


def match_section(
    balances: Sequence[int],
    players: Sequence[int],
    dreamer: int | None,
    me: int | None,
    progress: tuple[int, int, int, int],
) -> npt.NDArray[np.float32]:
    """The match section of layout 2 (the :data:`MATCH_OBS_SIZE` - :data:`OBS_SIZE`
    values after layout 1) for the player at seat ``me`` of the hand (``None``: the
    dreamer, sitting the hand out).

    ``balances``: each player's balance in the match before this hand; ``players``:
    the player at each seat (0 = East); ``progress``: hands played before this one, the
    round (0-based), times East moved on in it, rounds to play.  MATCH_BALANCES holds
    the balances by relative seat (row 0 the observer; the dreamer's rows by seat from
    East), the dreamer's in the fifth value (0 when nobody sits out); SITTING_OUT is 1
    for the dreamer (its layout-1 part is all 0: it sees no hand)."""
    n = len(players)
    out = np.zeros(MATCH_OBS_SIZE - OBS_SIZE, dtype=np.float32)
    base = 0 if me is None else me
    for r in range(n):
        out[r] = balances[players[(base + r) % n]]
    if dreamer is not None:
        out[MAX_SEATS] = balances[dreamer]
    out[MAX_SEATS + 1 : MAX_SEATS + 5] = progress
    out[-1] = me is None
    return out


_ROUND_WINDS: Final = {Tile.EAST: 0, Tile.SOUTH: 1, Tile.WEST: 2, Tile.NORTH: 3, Tile.GREEN: 4}
_O = {name: s.start for name, s in LAYOUT.items()}
_HAND, _DRAWN, _OFFERED, _MELDS = _O["HAND"], _O["DRAWN"], _O["OFFERED"], _O["MELDS"]
_FACE_DOWN, _DISCARDS, _HISTORY, _BONUS = (
    _O["FACE_DOWN_KONGS"],
    _O["DISCARDS"],
    _O["HISTORY"],
    _O["BONUS"],
)
_SEATS_IN_PLAY, _DEAD, _ANNOUNCED, _CONCEALED_COUNT = (
    _O["SEATS_IN_PLAY"],
    _O["DEAD"],
    _O["ANNOUNCED"],
    _O["CONCEALED_COUNT"],
)
_WALL, _ROUND_WIND, _SEAT_WIND, _PHASE, _DOMINANT, _SCORES = (
    _O["WALL"],
    _O["ROUND_WIND"],
    _O["SEAT_WIND"],
    _O["PHASE"],
    _O["DOMINANT"],
    _O["SCORES"],
)


def _history_entries(n: int, me: int) -> dict[Discard, tuple[int, int, int]]:
    """Every discard a table of ``n`` can make, as its three HISTORY values seen by
    ``me`` (built once: a lookup is faster than the arithmetic on every step)."""
    out: dict[Discard, tuple[int, int, int]] = {}
    for t in range(NUM_KINDS):
        for s in range(n):
            for c in (None, *(c for c in range(n) if c != s)):
                claimed = 0 if c is None else (c - me) % n + 1
                out[Discard(s, Tile(t), c)] = (t + 1, (s - me) % n + 1, claimed)
    return out


_ENTRIES: Final = {n: [_history_entries(n, me) for me in range(n)] for n in (3, 4)}
_ENTRY_BYTES: Final = {
    n: [{d: np.array(v, np.float32).tobytes() for d, v in e.items()} for e in entries]
    for n, entries in _ENTRIES.items()
}
""":data:`_ENTRIES` as the bytes of their three float32 values: a run of entries is
joined and written into an array's bytes at once."""


def encode(obs: Observation) -> npt.NDArray[np.float32]:
    """The layout-1 array of ``obs`` (float32, :data:`OBS_SIZE` values).

    Counts and one-hot entries are gathered as indices (one per unit) and counted with
    one ``bincount``; the few other values are set after it: a numpy array is slow to
    write one element at a time."""
    me, n = obs.seat, len(obs.seats)
    ones = [_HAND + t for t in obs.concealed]
    add = ones.append
    if obs.drawn is not None:
        add(_DRAWN + obs.drawn)
    if obs.offered is not None:
        add(_OFFERED + obs.offered)
    at: list[int] = []
    values: list[float] = []
    for view in obs.seats:
        r = (view.seat - me) % n
        base = _MELDS + r * NUM_KINDS
        for m in view.melds:
            if m is None:
                add(_FACE_DOWN + r)
            elif m.kind is MeldKind.CHOW:
                ones += (base + m.tile, base + m.tile + 1, base + m.tile + 2)
            else:
                ones += (base + m.tile,) * (4 if m.kind is MeldKind.KONG else 3)
        base = _DISCARDS + r * NUM_KINDS
        ones += [base + t for t in view.discards]
        base = _BONUS + r * NUM_BONUS - NUM_KINDS
        ones += [base + t for t in view.bonus]
        add(_SEATS_IN_PLAY + r)
        if view.dead:
            add(_DEAD + r)
        if view.announced:
            add(_ANNOUNCED + r)
        at.append(_CONCEALED_COUNT + r)
        values.append(view.concealed_count)
    history = obs.history[:MAX_HISTORY]
    entries = _ENTRIES[n][me]
    flat: list[int] = []
    for d in history:
        flat += entries[d]
    at += (_WALL, _WALL + 1, _WALL + 2)
    values += (obs.live_left, obs.dead_left, obs.kongs)
    add(_ROUND_WIND + _ROUND_WINDS[obs.round_wind])
    add(_SEAT_WIND + me)
    add(_PHASE + int(obs.phase))
    if obs.dominant is not None:
        add(_DOMINANT + (obs.dominant - me) % n)
    if obs.result is not None:
        for s, balance in enumerate(obs.result.settlement.balances):
            at.append(_SCORES + (s - me) % n)
            values.append(balance)
    x = np.bincount(ones, minlength=OBS_SIZE).astype(np.float32)
    x[at] = values
    x[_HISTORY : _HISTORY + len(flat)] = flat
    return x


def _meld_units(m: Meld | None) -> tuple[tuple[int, int], ...]:
    """A meld's MELDS units as (tile, count) pairs (a face-down kong has none there)."""
    if m is None:
        return ()
    t = m.tile
    if m.kind is MeldKind.CHOW:
        return ((t, 1), (t + 1, 1), (t + 2, 1))
    return ((t, 4 if m.kind is MeldKind.KONG else 3),)


def _changed_from(old: Sequence[object], new: Sequence[object]) -> int:
    """The index from which ``new`` differs from ``old``: the core only appends to a
    seat's discards, flowers and melds, takes back the last discard (a claim) and turns
    a pung into a kong in place (or back, robbed), so the two share a prefix."""
    k = min(len(old), len(new))
    if old[:k] == new[:k]:
        return k
    i = 0
    while old[i] is new[i] or old[i] == new[i]:
        i += 1
    return i


class Encoder:
    """:func:`encode` for one seat along a hand, step after step: it keeps the seat's
    array and rewrites only what changed since the last observation it encoded, and
    returns a copy (equal to ``encode(obs)``; a test checks it at every step of random
    hands).

    What changed is told by identity: the core keeps a seat's view, its concealed tiles
    and the history as the same objects while they do not change
    (:attr:`Game.view_cache <mahjong_nts.core.game.Game.view_cache>`), so an unchanged
    seat costs one ``is``; the history is encoded from its last known entry on (a claim
    rewrites the last).  Observations of another seat, table size or hand (a shorter
    history, or a first entry that is not the one seen) start the array afresh."""

    __slots__ = (
        "_concealed",
        "_drawn",
        "_history",
        "_n",
        "_offered",
        "_phase",
        "_result",
        "_seat",
        "_views",
        "_x",
    )

    def __init__(self) -> None:
        self._x: npt.NDArray[np.float32] | None = None
        self._seat = self._n = 0
        self._concealed: tuple[Tile, ...] | None = None
        self._drawn = self._offered = -1
        self._phase = _PHASE
        self._views: list[SeatView] = []
        self._history: tuple[Discard, ...] = ()
        self._result: object = None

    def reset(self) -> None:
        """Forget the hand: the next observation is encoded afresh (a new hand)."""
        self._x = None

    def encode(self, obs: Observation) -> npt.NDArray[np.float32]:
        me, n = obs.seat, len(obs.seats)
        x = self._x
        history = obs.history
        if (
            x is None
            or me != self._seat
            or n != self._n
            or len(history) < len(self._history)
            or (self._history and history[:1] != self._history[:1])
        ):
            x = self._start(obs)
        if obs.concealed is not self._concealed:
            counts = [0] * NUM_KINDS
            for t in obs.concealed:
                counts[t] += 1
            x[_HAND : _HAND + NUM_KINDS] = counts
            self._concealed = obs.concealed
        drawn = -1 if obs.drawn is None else _DRAWN + obs.drawn
        if drawn != self._drawn:
            if self._drawn >= 0:
                x[self._drawn] = 0
            if drawn >= 0:
                x[drawn] = 1
            self._drawn = drawn
        offered = -1 if obs.offered is None else _OFFERED + obs.offered
        if offered != self._offered:
            if self._offered >= 0:
                x[self._offered] = 0
            if offered >= 0:
                x[offered] = 1
            self._offered = offered
        views = self._views
        for view in obs.seats:
            s = view.seat
            old = views[s]
            if view is old:
                continue
            views[s] = view
            r = (s - me) % n
            self._update_seat(x, r, old, view)
        if history is not self._history:
            done = len(self._history)
            start = max(0, done - 1)  # a claim rewrites the last entry
            new = history[start:MAX_HISTORY]
            if new:
                entries = _ENTRIES[n][me]
                flat: list[int] = []
                for d in new:
                    flat += entries[d]
                at = _HISTORY + 3 * start
                x[at : at + len(flat)] = flat
            self._history = history
        x[_WALL] = obs.live_left
        x[_WALL + 1] = obs.dead_left
        x[_WALL + 2] = obs.kongs
        phase = _PHASE + obs.phase
        if phase != self._phase:
            x[self._phase] = 0
            x[phase] = 1
            self._phase = phase
        if obs.result is not self._result:
            self._result = obs.result
            if obs.result is not None:
                for s, balance in enumerate(obs.result.settlement.balances):
                    x[_SCORES + (s - me) % n] = balance
        return x.copy()

    @staticmethod
    def _update_seat(x: npt.NDArray[np.float32], r: int, old: SeatView, view: SeatView) -> None:
        """Rewrite relative seat ``r``'s units for what changed from ``old`` to ``view``."""
        if view.melds != old.melds:
            base = _MELDS + r * NUM_KINDS
            i = _changed_from(old.melds, view.melds)
            for m in old.melds[i:]:
                for t, k in _meld_units(m):
                    x[base + t] -= k
            for m in view.melds[i:]:
                for t, k in _meld_units(m):
                    x[base + t] += k
            x[_FACE_DOWN + r] = view.melds.count(None)
        if view.discards != old.discards:
            base = _DISCARDS + r * NUM_KINDS
            i = _changed_from(old.discards, view.discards)
            for t in old.discards[i:]:
                x[base + t] -= 1
            for t in view.discards[i:]:
                x[base + t] += 1
        if len(view.bonus) != len(old.bonus):
            base = _BONUS + r * NUM_BONUS - NUM_KINDS
            for t in view.bonus[len(old.bonus) :]:
                x[base + t] = 1
        if view.concealed_count != old.concealed_count:
            x[_CONCEALED_COUNT + r] = view.concealed_count
        if view.dead is not old.dead:
            x[_DEAD + r] = view.dead
        if view.announced is not old.announced:
            x[_ANNOUNCED + r] = view.announced

    def _start(self, obs: Observation) -> npt.NDArray[np.float32]:
        """A fresh array with what stays the same along a hand (winds, seats in play,
        the dominant seat), and nothing encoded yet."""
        me, n = obs.seat, len(obs.seats)
        x = np.zeros(OBS_SIZE, dtype=np.float32)
        x[_ROUND_WIND + _ROUND_WINDS[obs.round_wind]] = 1
        x[_SEAT_WIND + me] = 1
        x[_SEATS_IN_PLAY : _SEATS_IN_PLAY + n] = 1
        if obs.dominant is not None:
            x[_DOMINANT + (obs.dominant - me) % n] = 1
        x[_PHASE] = 1
        self._x = x
        self._seat, self._n = me, n
        self._concealed = None
        self._drawn = self._offered = -1
        self._phase = _PHASE
        self._views = [SeatView(s, Tile(27 + s), (), (), (), (), 0, False, False) for s in range(n)]
        self._history = ()
        self._result = None
        return x


_TURN: Final = Phase.TURN
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER

_SELF_MELDS: Final = OBS_SIZE
"""In the table's public values: after layout 1's, each seat's MELDS row as the seat
itself sees it (its concealed kongs face up), ``MAX_SEATS * NUM_KINDS`` values."""
_PUBLIC_SIZE: Final = _SELF_MELDS + MAX_SEATS * NUM_KINDS
_SCRATCH: Final = OBS_SIZE
"""The cell after a seat's array: where its public values that are not its to see go."""


def _placements() -> dict[tuple[int, int], list[int]]:
    """Per table size ``n`` and observing seat ``me``: for each index of the table's
    public values (layout 1 by absolute seat, as seat 0 would see it with every
    concealed kong face down, then :data:`_SELF_MELDS`), the index in ``me``'s array
    (its relative row ``r`` is absolute seat ``(me + r) % n``), or :data:`_SCRATCH` for
    a value it does not see: its own MELDS row and FACE_DOWN_KONGS count as the others
    see them (it sees its own row of :data:`_SELF_MELDS`, and no face-down kong of its
    own), and the others' rows of :data:`_SELF_MELDS`."""
    rows = (
        (_MELDS, NUM_KINDS),
        (_DISCARDS, NUM_KINDS),
        (_BONUS, NUM_BONUS),
        (_FACE_DOWN, 1),
        (_CONCEALED_COUNT, 1),
        (_SEATS_IN_PLAY, 1),
        (_DEAD, 1),
        (_ANNOUNCED, 1),
        (_DOMINANT, 1),
        (_SCORES, 1),
    )
    out: dict[tuple[int, int], list[int]] = {}
    for n in (3, 4):
        for me in range(n):
            place = list(range(_PUBLIC_SIZE))
            for i in range(_SELF_MELDS, _PUBLIC_SIZE):
                place[i] = _SCRATCH
            for start, width in rows:
                for a in range(MAX_SEATS):
                    r = (a - me) % n if a < n else a  # (rows past the table stay empty)
                    for j in range(width):
                        place[start + a * width + j] = start + r * width + j
            for j in range(NUM_KINDS):
                place[_MELDS + me * NUM_KINDS + j] = _SCRATCH
                place[_SELF_MELDS + me * NUM_KINDS + j] = _MELDS + j
            place[_FACE_DOWN + me] = _SCRATCH
            out[n, me] = place
    return out


_PLACE: Final = _placements()


class _Table:
    """What every seat of one game sees alike, as the public values (a list, by absolute
    seat: :func:`_placements`), kept once per game in :attr:`Game.view_cache` (under a
    key of this module's own) and brought up to date once per step, whichever seat asks
    first, from the game's :attr:`~mahjong_nts.core.game.Game.public_log`: the entries
    since it last looked say what changed (a discard and its tile, a seat's concealed
    count, its melds...), so nothing is compared but a changed seat's melds.  The log
    runs from the deal, so the first look reads it all; the end of the hand shows the
    concealed kongs.  Each
    value written is logged by its index (``events``, in order), so a seat's kept array
    catches up by writing the values logged since it last looked, wherever its own order
    puts them."""

    __slots__ = (
        "cursor",
        "events",
        "k_melds",
        "k_public",
        "over",
        "pub",
        "result",
        "seats",
    )

    def __init__(self, game: Game) -> None:
        n = game.n
        self.pub = [0] * _PUBLIC_SIZE
        self.events: list[int] = []
        self.over = False
        self.k_melds: list[list[Meld]] = [[] for _ in range(n)]
        """Each seat's melds, as last written."""
        self.k_public: list[list[Meld | None]] = [[] for _ in range(n)]
        """Each seat's melds as the others see them (a concealed kong ``None`` until the
        hand is over), as last written."""
        self.result: object = None
        self.seats: list[_SeatArray | None] = [None] * n
        """Each seat's kept array (made on its first observation)."""
        self._set(_ROUND_WIND + _ROUND_WINDS[game.round_wind], 1)
        for s in range(n):
            self._set(_SEATS_IN_PLAY + s, 1)
        if game.dominant is not None:
            self._set(_DOMINANT + game.dominant, 1)
        self.cursor = 0
        """The entries of the game's public log written so far (the log runs from the
        deal, so the first :meth:`update` reads the whole table from it)."""

    def _set(self, i: int, value: int) -> None:
        self.pub[i] = value
        self.events.append(i)

    def update(self, game: Game) -> None:
        log = game.public_log
        k = self.cursor
        if k != len(log):
            pub = self.pub
            ev = self.events.append
            for change, s, v in log[k:]:
                if change == PUBLIC_DISCARD:
                    i = _DISCARDS + s * NUM_KINDS + v
                    pub[i] += 1
                    ev(i)
                    i = _CONCEALED_COUNT + s
                    pub[i] -= 1
                    ev(i)
                elif change == PUBLIC_COUNT:
                    i = _CONCEALED_COUNT + s
                    pub[i] += v
                    ev(i)
                elif change == PUBLIC_TAKEN:
                    i = _DISCARDS + s * NUM_KINDS + v
                    pub[i] -= 1
                    ev(i)
                elif change == PUBLIC_MELD:
                    self._update_melds(s, game.melds[s], False)
                    i = _CONCEALED_COUNT + s
                    pub[i] += v
                    ev(i)
                elif change == PUBLIC_BONUS:
                    i = _BONUS + s * NUM_BONUS - NUM_KINDS + v
                    pub[i] = 1
                    ev(i)
                elif change == PUBLIC_DEAD:
                    i = _DEAD + s
                    pub[i] = 1
                    ev(i)
                else:  # announced
                    i = _ANNOUNCED + s
                    pub[i] = 1
                    ev(i)
            self.cursor = len(log)
        result = game.result
        if result is not self.result:
            self.result = result
            if result is not None:
                if game.phase is _OVER and not self.over:  # the concealed kongs shown
                    self.over = True
                    for s in range(game.n):
                        self._update_melds(s, game.melds[s], True)
                for s, balance in enumerate(result.settlement.balances):
                    self._set(_SCORES + s, balance)

    def _update_melds(self, s: int, melds: list[Meld], over: bool) -> None:
        """Rewrite seat ``s``'s MELDS rows (its own, and as the others see it: a
        concealed kong face down until the hand is over) from what was written."""
        old_melds = self.k_melds[s]
        old_public = self.k_public[s]
        public: Sequence[Meld | None] = melds
        if not over:
            for m in melds:
                if not m.open:
                    public = [m if m.open else None for m in melds]
                    break
        if melds != old_melds:
            self._melds(_SELF_MELDS + s * NUM_KINDS, old_melds, melds)
            self.k_melds[s] = list(melds)
        if public != old_public:
            self._melds(_MELDS + s * NUM_KINDS, old_public, public)
            self.pub[_FACE_DOWN + s] = public.count(None)
            self.events.append(_FACE_DOWN + s)
            self.k_public[s] = list(public)

    def _melds(self, base: int, old: Sequence[Meld | None], new: Sequence[Meld | None]) -> None:
        """Rewrite a MELDS row at ``base`` from melds ``old`` to ``new``."""
        pub = self.pub
        ev = self.events.append
        i = _changed_from(old, new)
        for m in old[i:]:
            for t, k in _meld_units(m):
                pub[base + t] -= k
                ev(base + t)
        for m in new[i:]:
            for t, k in _meld_units(m):
                pub[base + t] += k
                ev(base + t)


class _SeatArray:
    """One seat's layout-1 array along a game, kept between its observations: the
    table's values logged since it last looked are written where its order puts them,
    the history from its last known entry (a claim rewrites the last), and its own
    part (its hand where it changed, the drawn or offered tile, the phase, the walls)."""

    __slots__ = (
        "buf",
        "bytes",
        "cursor",
        "entries",
        "hand",
        "log_last",
        "log_len",
        "marks",
        "mv",
        "place",
        "seat",
        "x",
    )

    def __init__(self, n: int, seat: int) -> None:
        self.buf = np.zeros(OBS_SIZE + 1, dtype=np.float32)  # (+ the scratch cell)
        self.x = self.buf[:OBS_SIZE]
        self.mv = self.buf.data  # (a memoryview: a cell written without numpy)
        self.mv[_SEAT_WIND + seat] = 1
        self.seat = seat
        self.place = _PLACE[n, seat]
        self.bytes = self.mv.cast("B")
        self.entries = _ENTRY_BYTES[n][seat]
        self.cursor = 0
        self.log_len = 0
        self.log_last: Discard | None = None
        self.hand = [0] * NUM_KINDS
        self.marks = [_SCRATCH, _SCRATCH]
        """The cells of the phase and of the drawn or offered tile now set to 1."""

    def encode(self, game: Game, table: _Table) -> npt.NDArray[np.float32]:
        mv = self.mv
        events = table.events
        k = self.cursor
        if k != len(events):
            pub = table.pub
            place = self.place
            for i in events[k:]:
                mv[place[i]] = pub[i]
            self.cursor = len(events)
        seat = self.seat
        hand = game.hands[seat]
        kept = self.hand
        log = game.discard_log
        done = self.log_len
        if done != len(log) or (done and log[done - 1] is not self.log_last):
            if done and log[done - 1] is not self.log_last:
                done -= 1  # a claim rewrote the last entry
            entries = self.entries
            run = b"".join([entries[d] for d in log[done:MAX_HISTORY]])
            at = 4 * (_HISTORY + 3 * done)
            self.bytes[at : at + len(run)] = run
            self.log_len = len(log)
            self.log_last = log[-1] if log else None
        tile = game.tile
        if hand != kept:
            # the kinds a step changes most: the drawn or offered tile, the last discard
            if tile is not None and hand[tile] != kept[tile]:
                kept[tile] = hand[tile]
                mv[_HAND + tile] = hand[tile]
            discards = game.discards[seat]
            if discards:
                t = discards[-1]
                if hand[t] != kept[t]:
                    kept[t] = hand[t]
                    mv[_HAND + t] = hand[t]
            if hand != kept:
                self.x[_HAND : _HAND + NUM_KINDS] = hand
                kept[:] = hand
        wall = game.wall
        mv[_WALL] = wall.live_left
        mv[_WALL + 1] = wall.dead_left
        mv[_WALL + 2] = game.kongs
        phase = game.phase
        mark = _SCRATCH
        if phase is _OVER:
            cell = _PHASE + _OVER
        elif game.current_seat == seat:
            if phase is _TURN:
                cell = _PHASE
                if tile is not None and game.turn == seat:
                    mark = _DRAWN + tile
            else:  # the window, to the seat asked in it
                cell = _PHASE + phase
                if tile is not None:
                    mark = _OFFERED + tile
        else:
            cell = _PHASE  # TURN, or a window's neutral view
            if phase is _TURN and tile is not None and game.turn == seat:
                mark = _DRAWN + tile
        marks = self.marks
        if marks[0] != cell:
            mv[marks[0]] = 0
            mv[cell] = 1
            marks[0] = cell
        if marks[1] != mark:
            mv[marks[1]] = 0
            mv[mark] = 1
            marks[1] = mark
        return self.x.copy()


_TABLE_KEY: Final = "mahjong_nts.env.encoding.table"
"""The key of a game's ``_Table`` in its view cache (a str: its hash is kept)."""


def encode_game(game: Game, seat: object) -> npt.NDArray[np.float32]:
    """The layout-1 array of ``seat`` in ``game`` now, equal to ``encode(observe(game,
    seat))`` but read straight from the game: no :class:`Observation` is built (nor the
    seats' views, nor the sorted concealed tiles).  A new array each call (a copy of
    the seat's kept array: nothing handed out changes later).

    What every seat sees alike is kept once per game (``_Table``, in
    :attr:`Game.view_cache`), brought up to date once per step from the entries of
    :attr:`Game.public_log <mahjong_nts.core.game.Game.public_log>` since it last
    looked (a discard, a claimed discard taken back, a concealed count, melds, a
    flower, a dead or announced hand); each value it writes is logged.  Each seat's
    array is kept there too, between its observations, and catches up by the values
    logged since it last looked (placed in its own order: its rows relative to it), the
    history entries since (a claim rewrites the last), its hand where it changed (first
    the kinds of the discards since and of the drawn or offered tile, then the whole
    hand if that was not all), the walls, the phase and the drawn or offered tile.  It
    reads what :func:`~mahjong_nts.core.observation.observe` reads, under the same rule
    of what a seat may see (another seat's concealed kong face down until the hand is
    over; the window only for the seat asked now); a test checks it equals
    ``encode(observe(game, seat))`` at every step of random hands of every shipped rule
    set."""
    # (a bool is no seat; ``seat`` is typed ``object``: compiled, an ``int`` parameter
    # would take True as 1 and refuse a float with a TypeError before this check)
    if type(seat) is not int or not 0 <= seat < game.n:
        raise ValueError(f"seat {seat!r} is not at this table (0..{game.n - 1})")
    return encode_seat(game, seat)


def encode_seat(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """:func:`encode_game` of a seat known to be at the table (``0 <= seat < game.n``,
    an ``int``): the environment's own seats, not checked again on every step."""
    cache = game.view_cache
    table = cache.get(_TABLE_KEY)
    if table is None:
        table = cache[_TABLE_KEY] = _Table(game)
    table.update(game)
    kept = table.seats[seat]
    if kept is None:
        kept = table.seats[seat] = _SeatArray(game.n, seat)
    return kept.encode(game, table)


def _ids() -> dict[Action, int]:
    """Every action of the table and its id."""
    out: dict[Action, int] = {}
    for i in range(NUM_ACTIONS):
        with contextlib.suppress(InvalidAction):  # a chow slot no chow starts in
            out[Action.from_id(i)] = i
    return out


_ID_OF: Final = _ids()


def action_mask(obs: Observation) -> npt.NDArray[np.int8]:
    """1 at the id of every legal action of ``obs`` (none when it is not asked)."""
    mask = bytearray(NUM_ACTIONS)
    ids = _ID_OF
    for a in obs.legal:
        mask[ids[a]] = 1
    return np.frombuffer(mask, np.int8)


_ID_BY_IDENTITY: Final = {id(a): i for a, i in _ID_OF.items()}
"""The id of each interned action (:func:`~mahjong_nts.core.actions.action`), by the
object's identity: no hashing of an ``Action`` (a dataclass: its hash is Python code).
An action that is not the interned object (none of the core's are) falls back to
:attr:`Action.id`; the interned ones live as long as the module, so no other object
can have their identity."""


def legal_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """1 at the id of each action of ``legal`` (:func:`action_mask` of an observation
    whose legal actions these are)."""
    mask = bytearray(NUM_ACTIONS)
    get = _ID_BY_IDENTITY.get
    for a in legal:
        i = get(id(a))
        mask[a.id if i is None else i] = 1
    return np.frombuffer(mask, np.int8)
