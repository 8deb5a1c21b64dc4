"""Benchmark waits and shanten against the riichi ``mahjong`` package (v2.1.0).

Run: ``python benchmarks/bench_analysis.py [--set all|random|ready|near] [--hands N]
[--runs R] [--seed S] [--warm-hands W]`` (``--ready`` = ``--set ready``).

(b) waits: our ``waiting_tiles`` vs 34 x ``Agari.is_agari`` (tiles of which the hand holds
    all four skipped on both sides).  Theirs knows regular hands, chiitoitsu and kokushi;
    ours additionally the Dutch snakes / Peking garden and duplicate seven pairs.
(c) shanten: our ``shanten`` (regular + seven pairs + orphans + snakes + garden) and a
    like-for-like min(regular, seven distinct pairs, orphans) vs ``calculate_shanten``.

Hand sets (13 tiles, seeded): ``random`` (13 tiles drawn from a shuffled wall: mostly
3-5 shanten, almost never waiting), ``ready`` (a complete 4 sets + pair hand minus one
tile: all waiting), ``near`` (a ready hand then 0-3 random discard-and-draw exchanges,
a quarter each: a game in progress near ready).

Like for like: both sides read the same 34-count arrays (ours in our tile order, theirs
in theirs), built before the timer.  Our per-group tables are filled by one untimed pass
over a separate set of hands (a process that has read hands before has them); each run
then draws a new set of hands and times, back to back with the riichi package on the same
hands, the first pass over them ("unseen", the headline) and a second one ("warm", same
hands again: labelled, not what new hands meet).  There is no whole-hand cache on either
side.  Ratios are the medians of the per-run ratios, rates the medians of each side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import cast

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.shanten import regular_shanten, seven_pairs_shanten, shanten
from mahjong_nts.core.shanten import thirteen_orphans_shanten as orphans_shanten

GREEN, RED, WHITE = 31, 32, 33


def to_riichi(c: list[int]) -> list[int]:
    """Ours (bamboo, circles, characters, E S W N, green red white) -> man pin sou, winds,
    haku hatsu chun.  Suits are interchangeable, so any suit mapping is fair."""
    return c[18:27] + c[9:18] + c[0:9] + c[27:31] + [c[WHITE], c[GREEN], c[RED]]


def make_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    wall = [x for x in range(34) for _ in range(4)]
    hands: list[list[int]] = []
    for _ in range(n):
        counts = [0] * 34
        for x in rng.sample(wall, 13):
            counts[x] += 1
        hands.append(counts)
    return hands


def make_ready_hands(n: int, seed: int) -> list[list[int]]:
    """Complete 14-tile hands (4 sets + pair) minus one random tile: all are ready."""
    rng = random.Random(seed)
    hands: list[list[int]] = []
    while len(hands) < n:
        counts = [0] * 34
        sets = 0
        while sets < 4:
            x = rng.randrange(34)
            blk = [x, x + 1, x + 2] if x < 27 and x % 9 < 7 and rng.random() < 0.6 else [x] * 3
            if all(counts[y] + blk.count(y) <= 4 for y in blk):
                for y in blk:
                    counts[y] += 1
                sets += 1
        x = rng.choice([y for y in range(34) if counts[y] <= 2])
        counts[x] += 2
        counts[rng.choice([y for y in range(34) if counts[y]])] -= 1
        hands.append(counts)
    return hands


_NEAR_SEEDS = 7 * 10**6
"""Added to a run's seed for the near-ready set's ready hands (runs and the warm-up
pass use seed + run and seed + 10**6: far from these)."""


def make_near_hands(n: int, seed: int) -> list[list[int]]:
    """Ready hands (as above) then k = 0, 1, 2, 3 random exchanges (k = index % 4).

    An exchange discards a random held tile and draws a random tile from the rest of the
    wall (weighted by copies left), so the hands look like a game in progress near ready.
    The ready hands are drawn from a seed of their own, not the ready set's: with the
    ready set's hands, a run of all sets found the near set's suit contents in the tables
    the ready set had just filled, and "unseen" near-ready hands were timed warm.
    """
    rng = random.Random(seed + 1)
    hands = make_ready_hands(n, seed + _NEAR_SEEDS)
    for i, counts in enumerate(hands):
        for _ in range(i % 4):
            out = rng.choice([y for y in range(34) if counts[y]])
            counts[out] -= 1
            wall = [y for y in range(34) if y != out for _ in range(4 - counts[y])]
            counts[rng.choice(wall)] += 1
    return hands


HAND_SETS: dict[str, tuple[str, Callable[[int, int], list[list[int]]]]] = {
    "random": ("random (13 tiles from a shuffled wall)", make_hands),
    "ready": ("ready (complete 4 sets + pair minus one tile)", make_ready_hands),
    "near": ("near-ready (ready, then 0-3 random exchanges)", make_near_hands),
}


def their_waits(hands: list[list[int]]) -> list[tuple[int, ...]]:
    is_agari = Agari.is_agari
    out = []
    for h in hands:
        waits = []
        for x in range(34):
            if h[x] < 4:
                h[x] += 1
                if is_agari(h):
                    waits.append(x)
                h[x] -= 1
        out.append(tuple(waits))
    return out


def _time(fn: Callable[[], object]) -> float:
    """CPU seconds of the process: other work on a shared machine disturbs them far less
    than the wall clock."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


Side = Callable[[list[list[int]], list[list[int]]], Callable[[], object]]


def bench(set_name: str, n_hands: int, seed: int, runs: int, warm_hands: int) -> None:
    label, maker = HAND_SETS[set_name]
    calc = Shanten.calculate_shanten

    def ours_waits(hands: list[list[int]], _: list[list[int]]) -> Callable[[], object]:
        return lambda: [waiting_tiles(h, duplicate_pairs=False) for h in hands]

    def ours_shanten(hands: list[list[int]], _: list[list[int]]) -> Callable[[], object]:
        return lambda: [shanten(h, duplicate_pairs=False) for h in hands]

    def ours_like(hands: list[list[int]], _: list[list[int]]) -> Callable[[], object]:
        return lambda: [
            min(
                regular_shanten(h),
                seven_pairs_shanten(h, duplicate_pairs=False),
                orphans_shanten(h),
            )
            for h in hands
        ]

    def theirs_waits(_: list[list[int]], rhands: list[list[int]]) -> Callable[[], object]:
        return lambda: their_waits(rhands)

    def theirs_shanten(_: list[list[int]], rhands: list[list[int]]) -> Callable[[], object]:
        return lambda: [calc(h) for h in rhands]

    rows: list[tuple[str, Side, Side, str]] = [
        ("(b) waits", ours_waits, theirs_waits, "10x"),
        ("(c) shanten, full NTS", ours_shanten, theirs_shanten, "5x"),
        ("(c) shanten, like-for-like", ours_like, theirs_shanten, "5x"),
    ]
    # Our per-group tables filled by one untimed pass over other hands (as a process that
    # has read hands before has them); every run then times new hands ("unseen": the
    # first pass over them) and the same hands again ("warm"), each back to back with
    # the riichi package (which keeps no tables) on the same hands.
    warm = maker(warm_hands, seed + 10**6)
    for _, ours, _, _ in rows:
        ours(warm, [])()
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    hands: list[list[int]] = []
    for run in range(runs):
        hands = maker(n_hands, seed + run)
        rhands = [to_riichi(h) for h in hands]
        for name, ours, theirs, _ in rows:
            fo, ft = ours(hands, rhands), theirs(hands, rhands)
            for kind in ("unseen", "warm"):  # the first pass is unseen, the second warm
                times.setdefault((name, kind), []).append((_time(fo), _time(ft)))
    # agreement where the rules coincide, on the last run's hands
    rhands = [to_riichi(h) for h in hands]
    like = cast(list[int], ours_like(hands, rhands)())
    theirs_s = cast(list[int], theirs_shanten(hands, rhands)())
    agree = sum(1 for a, b in zip(like, theirs_s, strict=True) if a == b)
    ours_w: list[tuple[int, ...]] = ours_waits(hands, rhands)()  # type: ignore[assignment]
    n_waiting = sum(1 for w in ours_w if w)
    back = to_riichi(list(range(34)))  # riichi index -> our tile
    waits_agree = sum(
        1
        for w, tw in zip(ours_w, their_waits(rhands), strict=True)
        if set(w) == {back[x] for x in tw}
    )
    dist: dict[int, int] = {}
    for v in like:
        dist[v] = dist.get(v, 0) + 1
    spread = " ".join(f"{k}:{dist[k]}" for k in sorted(dist))
    n = n_hands
    print(
        f"{label}: {n} new seeded hands a run (seeds {seed}..{seed + runs - 1}), "
        f"median of {runs} paired runs"
    )
    print(
        f"  last run: waiting (ours) {n_waiting}; wait sets agree on {waits_agree}/{n}; "
        f"like-for-like shanten agrees on {agree}/{n}; shanten spread {spread}"
    )
    for (name, kind), pairs in times.items():
        t_ours = statistics.median(o for o, _ in pairs)
        t_theirs = statistics.median(t for _, t in pairs)
        ratio = statistics.median(t / o for o, t in pairs)
        target = next(t for r, _, _, t in rows if r == name)
        shown = f"{name}, {kind}" + (" (same hands again)" if kind == "warm" else "")
        print(
            f"  {shown:48s} ours {n / t_ours:>10,.0f} hands/s   mahjong {n / t_theirs:>9,.0f}"
            f" hands/s   ratio {ratio:5.1f}x  (target {target})"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--warm-hands", type=int, default=20000, help="untimed pass, other hands")
    ap.add_argument("--set", choices=["all", *HAND_SETS], default="all", help="hand set(s) to time")
    ap.add_argument("--ready", action="store_true", help="same as --set ready")
    args = ap.parse_args()
    names = ["ready"] if args.ready else list(HAND_SETS) if args.set == "all" else [args.set]
    for name in names:
        bench(name, args.hands, args.seed, args.runs, args.warm_hands)


if __name__ == "__main__":
    main()
