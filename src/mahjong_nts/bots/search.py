"""Search by sampled draws: which of a few discards wins most, soonest, for the most?

For each candidate discard the hand is played forward alone through sampled futures: the
tiles the seat has not seen (4 of each kind, minus its own tiles, every discard and every
open meld) are shuffled, and each round three of them go by as the opponents' discards
(a discard that completes a ready hand with enough doublings is a win on it) before the
seat draws the next (a draw that completes it is a win self-drawn).  Between draws the
hand discards by a cheap greedy policy that follows one plan: the plan (a tile filter
and its shanten, or seven pairs) that the bot values best after the candidate discard;
a tile the plan does not keep goes first, a draw that brings the plan no nearer goes
straight back, and one that does stays for the held tile whose loss keeps the new
shanten (the least connected of them).  A complete hand is asked of the real scorer
(:func:`~mahjong_nts.core.winvalue.win_value`, each answer remembered for the decision,
as a win later in the hand): a win it does not allow (too few doublings) is no win, and
the hand plays on.

A future may pung an opponent's discard that brings the plan nearer (the win question
then has the pung declared).  A future is worth the win's settlement (capped, so that a
rare limit hand does not outweigh many plain wins), discounted by the chance that an
opponent has ended the hand first (a hazard for each round), and 0 when the hand is not
won in the rounds the wall leaves.  Every candidate meets the same futures (common
random numbers), so the comparison is much less noisy than each worth.  The futures come from a
:class:`random.Random` seeded by the public state and the seat's own tiles, so the
decision is the same every time the same position is met.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Sequence

from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.shanten import (
    EMPTY_GROUP,
    GroupRecord,
    group_record,
    records_shanten,
    seven_pairs_shanten,
)
from mahjong_nts.core.tiles import NUM_KINDS

__all__ = ["Policy", "futures", "rollout_values", "state_seed"]

_NO_TERMINALS = bytes(1)
_GROUP = tuple(3 if t >= 27 else t // 9 for t in range(NUM_KINDS))

Win = Callable[[bytes, int, bool], tuple[bool, int]]
"""``win(key, tile, self_drawn)``: may the 13 concealed tiles ``key`` go mahjong on
``tile``, and the settlement it brings."""


class Policy:
    """The plan a sampled future follows: the tile kinds it keeps and how its shanten is
    measured (the plan's groups, as :class:`~mahjong_nts.bots.heuristic._Plan.slots`, or
    seven pairs)."""

    __slots__ = ("dup", "keep", "n_melds", "sevens", "slots")

    def __init__(
        self,
        keep: Sequence[bool],
        slots: tuple[int, int, int, int],
        sevens: bool,
        n_melds: int,
        dup: bool,
    ) -> None:
        self.keep: tuple[bool, ...] = tuple(keep)
        self.slots = slots
        self.sevens = sevens
        self.n_melds = n_melds
        self.dup = dup

    def record(self, counts: Sequence[int], g: int) -> GroupRecord:
        """The record of the plan's group ``g`` (0-2 the suits, 3 the honours) of the
        hand ``counts``: the empty group when the plan leaves it out."""
        slot = self.slots[g]
        if slot == 7:
            return EMPTY_GROUP
        if g == 3:
            return group_record(3, bytes(counts[27:34]))
        lo = 9 * g
        key = bytes(counts[lo : lo + 9])
        if slot >= 4 and (key[0] or key[8]):
            key = _NO_TERMINALS + key[1:8] + _NO_TERMINALS
        return group_record(g, key)

    def records(self, counts: Sequence[int]) -> list[GroupRecord]:
        """The records of the plan's four groups of the hand ``counts``."""
        return [self.record(counts, g) for g in range(4)]

    def shanten(self, counts: list[int], recs: list[GroupRecord]) -> int:
        """The plan's shanten of the hand ``counts`` (13 or 14 tiles with the melds)
        whose group records are ``recs``."""
        if self.sevens:
            return seven_pairs_shanten(counts, duplicate_pairs=self.dup)
        return records_shanten(recs[0], recs[1], recs[2], recs[3], self.n_melds)

    def changed(self, counts: list[int], recs: list[GroupRecord], t: int) -> int:
        """The plan's shanten once the count of ``t`` has changed (``recs`` updated)."""
        if self.sevens:
            return seven_pairs_shanten(counts, duplicate_pairs=self.dup)
        g = _GROUP[t]
        recs[g] = self.record(counts, g)
        return records_shanten(recs[0], recs[1], recs[2], recs[3], self.n_melds)


def state_seed(seat: int, concealed: Sequence[int], public: Sequence[int]) -> int:
    """A seed from the seat, its tiles and numbers of the public state (the same position
    gives the same seed in every process: no ``hash()``, which is salted for strings)."""
    data = bytes([seat % 256]) + bytes(sorted(int(t) for t in concealed))
    data += b"|" + ",".join(str(int(x)) for x in public).encode()
    return zlib.crc32(data)


def futures(live: Sequence[int], n: int, seed: int) -> list[list[int]]:
    """``n`` shuffles of the unseen tiles (``live[t]`` copies of each kind ``t``)."""
    pool = [t for t in range(NUM_KINDS) for _ in range(live[t])]
    rng = random.Random(seed)
    out: list[list[int]] = []
    for _ in range(n):
        rng.shuffle(pool)
        out.append(list(pool))
    return out


def _connection(counts: Sequence[int], t: int) -> float:
    """How much a held tile works with the rest (lower: the better discard)."""
    score = 2.0 * (counts[t] - 1)
    if t < 27:
        r = t % 9
        if r >= 1 and counts[t - 1]:
            score += 1.0
        if r <= 7 and counts[t + 1]:
            score += 1.0
        if r >= 2 and counts[t - 2]:
            score += 0.5
        if r <= 6 and counts[t + 2]:
            score += 0.5
        if r in (0, 8):
            score -= 0.2
    return score


def _discard(counts: list[int], recs: list[GroupRecord], policy: Policy, target: int) -> int:
    """The tile to let go from the 14 tiles ``counts`` (the plan's shanten after it:
    ``target`` when it can be): a tile the plan does not keep first, else the least
    connected tile whose loss keeps ``target``."""
    keep = policy.keep
    best = -1
    best_conn = math.inf
    for t in range(NUM_KINDS):
        if counts[t] and not keep[t]:
            c = _connection(counts, t)
            if c < best_conn:
                best, best_conn = t, c
    if best >= 0:
        return best
    fallback = -1
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        if fallback < 0:
            fallback = t
        c = _connection(counts, t)
        if c >= best_conn:
            continue
        counts[t] -= 1
        g = _GROUP[t]
        kept = recs[g]
        sh = policy.changed(counts, recs, t)
        counts[t] += 1
        recs[g] = kept
        if sh <= target:
            best, best_conn = t, c
    return best if best >= 0 else fallback


def rollout_values(
    counts: list[int],
    policy: Policy,
    sequences: list[list[int]],
    rounds: int,
    others: int,
    hazard: float,
    win: Win,
    cap: float = math.inf,
    pung: Callable[[tuple[int, ...]], Win] | None = None,
) -> list[float]:
    """The worth of the 13 tiles ``counts`` in each of the sampled ``sequences``: each
    round ``others`` tiles go by as discards, then one is drawn; a win is worth its
    settlement (at most ``cap``: a rare limit hand must not outweigh many plain wins in
    a few dozen futures) times ``(1 - hazard) ** round``, no win in ``rounds`` rounds 0.
    With ``pung`` (the win question of the hand with open pungs of the tiles given
    declared), a discard that the hand holds a pair of is punged when that brings the
    plan nearer; the seat then discards and its draw of the round is skipped."""
    dup = policy.dup
    out: list[float] = []
    base_melds = policy.n_melds
    start_recs = policy.records(counts)
    start_sh = policy.shanten(counts, start_recs)
    may_claim = pung is not None and not policy.sevens
    for seq in sequences:
        hand = list(counts)
        recs = list(start_recs)
        sh = start_sh
        n_melds = policy.n_melds = base_melds
        now = win
        punged: tuple[int, ...] = ()
        waits: frozenset[int] = frozenset()
        if sh == 0:
            waits = frozenset(waiting_tiles(hand, n_melds=n_melds, duplicate_pairs=dup))
        alive = 1.0
        worth = 0.0
        i = 0
        size = len(seq)
        for _ in range(rounds):
            if i + others + 1 > size:
                break
            alive *= 1.0 - hazard
            won = 0.0
            claimed = False
            for j in range(i, i + others):
                t = seq[j]
                if t in waits:
                    ok, bal = now(bytes(hand), t, False)
                    if ok:
                        won = min(float(bal), cap)
                        break
                if may_claim and hand[t] >= 2 and policy.keep[t] and n_melds < 4:
                    # a pung of the discard, when it brings the plan nearer
                    g = _GROUP[t]
                    kept = recs[g]
                    hand[t] -= 2
                    policy.n_melds = n_melds + 1
                    sh_c = policy.changed(hand, recs, t)
                    if 0 <= sh_c < sh:
                        x = _discard(hand, recs, policy, sh_c)
                        hand[x] -= 1
                        sh = policy.changed(hand, recs, x)
                        n_melds += 1
                        punged = (*punged, t)
                        assert pung is not None
                        now = pung(punged)
                        waits = (
                            frozenset(waiting_tiles(hand, n_melds=n_melds, duplicate_pairs=dup))
                            if sh == 0
                            else frozenset()
                        )
                        claimed = True
                        i = j + 1  # the seats after the claimer play on
                        break
                    hand[t] += 2
                    policy.n_melds = n_melds
                    recs[g] = kept
            if won:
                worth = alive * won
                break
            if claimed:
                continue
            t = seq[i + others]
            i += others + 1
            if t in waits:
                ok, bal = now(bytes(hand), t, True)
                if ok:
                    worth = alive * min(float(bal), cap)
                    break
            if not policy.keep[t]:
                continue
            g = _GROUP[t]
            kept = recs[g]
            hand[t] += 1
            sh14 = policy.changed(hand, recs, t)
            if sh14 >= sh or sh14 < 0:  # (complete, but not allowed: stay ready)
                hand[t] -= 1  # no nearer: straight back
                recs[g] = kept
                continue
            x = _discard(hand, recs, policy, sh14)
            hand[x] -= 1
            sh = policy.changed(hand, recs, x)
            if sh == 0:
                waits = frozenset(waiting_tiles(hand, n_melds=n_melds, duplicate_pairs=dup))
            else:
                waits = frozenset()
        out.append(worth)
    policy.n_melds = base_melds
    return out
