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

from typing import Final

import numpy as np
import numpy.typing as npt

from mahjong_nts.core.actions import NUM_ACTIONS
from mahjong_nts.core.game import Discard
from mahjong_nts.core.hand import MeldKind
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.tiles import NUM_KINDS, Tile

__all__ = [
    "LAYOUT",
    "LAYOUT_VERSION",
    "MAX_HISTORY",
    "MAX_SEATS",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "action_mask",
    "encode",
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


def action_mask(obs: Observation) -> npt.NDArray[np.int8]:
    """1 at the id of every legal action of ``obs`` (none when it is not asked)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[a.id for a in obs.legal]] = 1
    return mask
