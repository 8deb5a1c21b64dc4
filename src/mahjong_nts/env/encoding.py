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


def encode(obs: Observation) -> npt.NDArray[np.float32]:
    """The layout-1 array of ``obs`` (float32, :data:`OBS_SIZE` values)."""
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    me, n = obs.seat, len(obs.seats)
    for t in obs.concealed:
        x[_HAND + t] += 1
    if obs.drawn is not None:
        x[_DRAWN + obs.drawn] = 1
    if obs.offered is not None:
        x[_OFFERED + obs.offered] = 1
    for view in obs.seats:
        r = (view.seat - me) % n
        base = _MELDS + r * NUM_KINDS
        for m in view.melds:
            if m is None:
                x[_FACE_DOWN + r] += 1
            elif m.kind is MeldKind.CHOW:
                x[base + m.tile : base + m.tile + 3] += 1
            else:
                x[base + m.tile] += 4 if m.kind is MeldKind.KONG else 3
        base = _DISCARDS + r * NUM_KINDS
        for t in view.discards:
            x[base + t] += 1
        for t in view.bonus:
            x[_BONUS + r * NUM_BONUS + (t - NUM_KINDS)] = 1
        x[_O["CONCEALED_COUNT"] + r] = view.concealed_count
        x[_O["SEATS_IN_PLAY"] + r] = 1
        x[_O["DEAD"] + r] = view.dead
        x[_O["ANNOUNCED"] + r] = view.announced
    for i, d in enumerate(obs.history[:MAX_HISTORY]):
        at = _HISTORY + 3 * i
        x[at] = d.tile + 1
        x[at + 1] = (d.seat - me) % n + 1
        if d.claimed_by is not None:
            x[at + 2] = (d.claimed_by - me) % n + 1
    wall = _O["WALL"]
    x[wall], x[wall + 1], x[wall + 2] = obs.live_left, obs.dead_left, obs.kongs
    x[_O["ROUND_WIND"] + _ROUND_WINDS[obs.round_wind]] = 1
    x[_O["SEAT_WIND"] + me] = 1
    x[_O["PHASE"] + int(obs.phase)] = 1
    if obs.dominant is not None:
        x[_O["DOMINANT"] + (obs.dominant - me) % n] = 1
    if obs.result is not None:
        for s, balance in enumerate(obs.result.settlement.balances):
            x[_O["SCORES"] + (s - me) % n] = balance
    return x


def action_mask(obs: Observation) -> npt.NDArray[np.int8]:
    """1 at the id of every legal action of ``obs`` (none when it is not asked)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in obs.legal:
        mask[a.id] = 1
    return mask
