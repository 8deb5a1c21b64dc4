"""Benchmark waits and shanten against the riichi ``mahjong`` package (v2.1.0).

Run: ``python benchmarks/bench_analysis.py [--hands N] [--runs R] [--seed S]``.

(b) waits: our ``waiting_tiles`` vs 34 x ``Agari.is_agari`` (tiles of which the hand holds
    all four skipped on both sides).  Theirs knows regular hands, chiitoitsu and kokushi;
    ours additionally the Dutch snakes / Peking garden and duplicate seven pairs.
(c) shanten: our ``shanten`` (regular + seven pairs + orphans + snakes + garden) and a
    like-for-like min(regular, seven distinct pairs, orphans) vs ``calculate_shanten``.

Per-suit memo tables are warmed once (one untimed pass); there is no whole-hand cache.
Figures are the median of ``runs`` timed passes over the same seeded random 13-tile hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

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
    hands = []
    for _ in range(n):
        counts = [0] * 34
        for x in rng.sample(wall, 13):
            counts[x] += 1
        hands.append(counts)
    return hands


def make_ready_hands(n: int, seed: int) -> list[list[int]]:
    """Complete 14-tile hands (4 sets + pair) minus one random tile: all are ready."""
    rng = random.Random(seed)
    hands = []
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


def median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--ready", action="store_true", help="use ready (tenpai) hands instead")
    args = ap.parse_args()
    if args.ready:
        hands = make_ready_hands(args.hands, args.seed)
    else:
        hands = make_hands(args.hands, args.seed)
    rhands = [to_riichi(h) for h in hands]
    n = len(hands)
    calc = Shanten.calculate_shanten

    def ours_waits() -> object:
        return [waiting_tiles(h, duplicate_pairs=False) for h in hands]

    def ours_shanten() -> object:
        return [shanten(h, duplicate_pairs=False) for h in hands]

    def ours_like() -> object:
        return [
            min(
                regular_shanten(h),
                seven_pairs_shanten(h, duplicate_pairs=False),
                orphans_shanten(h),
            )
            for h in hands
        ]

    def theirs_waits() -> object:
        return their_waits(rhands)

    def theirs_shanten() -> object:
        return [calc(h) for h in rhands]

    # warm the per-suit tables once, and sanity-check agreement where the rules coincide
    ours_waits()
    ours_shanten()
    like = ours_like()
    theirs = theirs_shanten()
    agree = sum(1 for a, b in zip(like, theirs, strict=True) if a == b)  # type: ignore[call-overload]
    n_waiting = sum(1 for w in ours_waits() if w)  # type: ignore[attr-defined]

    kind = "ready (complete minus one)" if args.ready else "random"
    print(f"{n} seeded {kind} 13-tile hands (seed {args.seed}), median of {args.runs} runs")
    print(f"hands waiting (ours): {n_waiting}; like-for-like shanten agrees on {agree}/{n}")
    rows = [
        ("(b) waits", ours_waits, theirs_waits, "10x"),
        ("(c) shanten, full NTS", ours_shanten, theirs_shanten, "5x"),
        ("(c) shanten, like-for-like", ours_like, theirs_shanten, "5x"),
    ]
    for name, ours, theirs, target in rows:
        t_ours = median_time(ours, args.runs)
        t_theirs = median_time(theirs, args.runs)
        print(
            f"{name:30s} ours {n / t_ours:>10,.0f} hands/s   mahjong {n / t_theirs:>10,.0f}"
            f" hands/s   ratio {t_theirs / t_ours:5.1f}x  (target {target})"
        )


if __name__ == "__main__":
    main()
