"""A small linear policy over the environment's observation, and a bot that plays it.

The policy scores every legal action with a weight vector over a few features of that
action, read from the layout-1 array of :mod:`mahjong_nts.env.encoding` (what the
environment hands a learner): the action's kind, how many tiles from ready
(``core.shanten``) the hand is after it, and a few facts about a discarded tile (a single,
a pair broken, an honour, a terminal, neighbours held, copies already seen, a valuable
honour).  It picks the action with the highest score (training samples from the softmax of
the scores instead).  ``train_policy.py`` learns the weights; this module only reads them.

The bot follows the ``Player`` protocol of :mod:`mahjong_nts.bots` (``Class(seed, rules)``,
``act(obs)``), so it can be named ``policy_bot:PolicyBot`` wherever a bot is loaded as
``module:Class`` (with ``examples/`` on ``PYTHONPATH``).  It loads ``policy.npz`` beside
this file, or the file named by the ``MAHJONG_NTS_POLICY`` environment variable.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mahjong_nts.core.actions import NUM_ACTIONS, Action
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.shanten import shanten
from mahjong_nts.core.tiles import NUM_KINDS
from mahjong_nts.env.encoding import LAYOUT, action_mask, encode

__all__ = ["FEATURES", "PolicyBot", "action_features", "load_weights", "save_weights"]

FEATURES = (
    "pass",
    "mahjong",
    "discard",
    "kong",
    "chow",
    "pung",
    "announce",
    "tiles from ready after it (0 for the best of the legal actions)",
    "discard a single",
    "discard from a pair",
    "discard from three or four",
    "discard an honour",
    "discard a terminal",
    "discarded tile's neighbours held (distance 1)",
    "discarded tile's neighbours held (distance 2)",
    "discarded tile's copies seen (of 4)",
    "discard a valuable honour (dragon, own or round wind)",
    "claim or kong a valuable honour",
    "discard off the main suit (a suit other than the one held most, honours not)",
    "claim off the main suit",
)
"""What each weight multiplies (one row of :func:`action_features` per legal action)."""
DIM = len(FEATURES)
DEFAULT_POLICY = Path(__file__).with_name("policy.npz")

_HAND = LAYOUT["HAND"]
_MELDS = LAYOUT["MELDS"].start
_DISCARDS = LAYOUT["DISCARDS"].start
_SEAT_WIND = LAYOUT["SEAT_WIND"]
_ROUND_WIND = LAYOUT["ROUND_WIND"]
_KIND_OF_ID = np.array(
    [0, 1] + [2 + k for k in range(5) for _ in range(NUM_KINDS)], dtype=np.int64
)  # id -> 0 pass, 1 mahjong, 2 discard, 3 kong, 4 chow, 5 pung, 6 announce


def _tile_of(action_id: int) -> int:
    return -1 if action_id < 2 else (action_id - 2) % NUM_KINDS


def action_features(
    x: npt.NDArray[np.float32], ids: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """One feature row per legal action id of ``ids``, from the layout-1 array ``x``."""
    hand = [int(v) for v in x[_HAND]]
    held = sum(hand)
    melds = (14 - held) // 3  # concealed tiles are 13 or 14 less 3 a meld (a kong too)
    seen = np.zeros(NUM_KINDS)
    for r in range(4):
        seen += x[_MELDS + r * NUM_KINDS : _MELDS + (r + 1) * NUM_KINDS]
        seen += x[_DISCARDS + r * NUM_KINDS : _DISCARDS + (r + 1) * NUM_KINDS]
    valuable = {31, 32, 33, 27 + int(np.argmax(x[_SEAT_WIND]))}
    round_wind = int(np.argmax(x[_ROUND_WIND]))
    if round_wind < 4:
        valuable.add(27 + round_wind)
    own = np.array(hand, dtype=np.float64) + x[_MELDS : _MELDS + NUM_KINDS]
    main = int(np.argmax([own[0:9].sum(), own[9:18].sum(), own[18:27].sum()]))
    rows = np.zeros((len(ids), DIM))
    after: list[int] = []
    for i, a in enumerate(ids.tolist()):
        kind = int(_KIND_OF_ID[a])
        t = _tile_of(a)
        rows[i, kind] = 1
        counts = list(hand)
        n = melds
        if kind in (2, 6):  # a discard (an announcement discards too)
            counts[t] -= 1
            k = hand[t]
            rows[i, 8 + min(k, 3) - 1] = 1
            if t >= 27:
                rows[i, 11] = 1
            else:
                r = t % 9
                rows[i, 12] = r in (0, 8)
                rows[i, 13] = (r > 0 and hand[t - 1] > 0) + (r < 8 and hand[t + 1] > 0)
                rows[i, 14] = (r > 1 and hand[t - 2] > 0) + (r < 7 and hand[t + 2] > 0)
            rows[i, 15] = seen[t] / 4
        elif kind == 5:  # pung: two held go into the meld
            counts[t] -= 2
            n += 1
        elif kind == 3:  # a kong: four held, three held and the discard, or a promotion
            if hand[t] >= 3:
                counts[t] -= hand[t]
                n += 1
            else:
                counts[t] -= 1
        elif kind == 4:  # chow starting at t: the two held of the three
            for u in (t, t + 1, t + 2):
                if counts[u]:
                    counts[u] -= 1
            n += 1
        discard = kind in (2, 6)
        if t in valuable:
            rows[i, 16 if discard else 17] = 1
        if 0 <= t < 27 and t // 9 != main:
            rows[i, 18 if discard else 19] = 1
        after.append(-1 if kind == 1 else shanten(counts, n_melds=min(n, 4)))
    rows[:, 7] = np.array(after) - min(after)
    return rows


def save_weights(path: Path, weights: npt.NDArray[np.float64]) -> None:
    np.savez(path, weights=weights, features=np.array(FEATURES))


def load_weights(path: Path | str) -> npt.NDArray[np.float64]:
    """The weights saved by :func:`save_weights`; ``ValueError`` for another file."""
    with np.load(path) as data:
        if "weights" not in data or tuple(data["features"].tolist()) != FEATURES:
            raise ValueError(f"{path}: not a policy of this policy_bot (other features)")
        weights = np.asarray(data["weights"], dtype=np.float64)
    if weights.shape != (DIM,):
        raise ValueError(f"{path}: {weights.shape[0]} weights, not {DIM}")
    return weights


class PolicyBot:
    """Plays the trained linear policy greedily (ties broken by its seeded RNG)."""

    name = "policy"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None) -> None:
        self._rng = random.Random(seed)
        self.weights = load_weights(os.environ.get("MAHJONG_NTS_POLICY") or DEFAULT_POLICY)

    def act(self, obs: Observation) -> Action:
        ids = np.flatnonzero(action_mask(obs))
        scores = action_features(encode(obs), ids) @ self.weights
        top = np.flatnonzero(scores >= scores.max() - 1e-12)
        return Action.from_id(int(ids[self._rng.choice(top.tolist())]))


assert len(_KIND_OF_ID) == NUM_ACTIONS
