"""Benchmark (a): scoring throughput of the core vs the riichi ``mahjong`` package.

Both sides score the same >= 1000 seeded, generated, concealed, self-drawn winning
hands (four sets and a pair), in process, in the same run; each run times both sides
back to back; the medians and the median of the per-run ratios are reported.

* ours: ``score_hand`` under nts-2016 (every arrangement, waits for "only possible
  tile", limit hands, the cap, the explained result).  Per-suit analysis tables and the
  rule set's per-set scoring tables are memoised (built once, the fair way); no
  whole-hand result is cached.
* theirs: ``HandCalculator.estimate_hand_value`` (tsumo, so every closed hand has a
  yaku and is valued in full), with its hand-split cache
  (``HandDivider._divide_hand_impl``) cleared before each call.

Run: ``python benchmarks/bench_scoring.py [--hands 2000] [--runs 7] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset

# Our tile index -> the riichi package's 34-index (man, pin, sou, winds, haku hatsu chun).
_THEIRS = (
    [18 + i for i in range(9)]  # bamboo -> sou
    + [9 + i for i in range(9)]  # circles -> pin
    + [i for i in range(9)]  # characters -> man
    + [27, 28, 29, 30]  # winds
    + [32, 33, 31]  # green -> hatsu, red -> chun, white -> haku
)


def random_winning_hand(rng: random.Random) -> tuple[list[int], int]:
    """Four random sets and a pair, respecting four copies; a random winning tile."""
    while True:
        counts = [0] * 34
        tiles: list[int] = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.55:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                need = [start, start + 1, start + 2]
            else:
                t = rng.randrange(34)
                need = [t, t, t]
            for t in need:
                counts[t] += 1
            tiles.extend(need)
        pair = rng.randrange(34)
        counts[pair] += 2
        tiles.extend([pair, pair])
        if any(c > 4 for c in counts):
            ok = False
        if ok:
            return sorted(tiles), rng.choice(tiles)


def _rate(fn: Callable[[], None], n: int) -> float:
    start = time.perf_counter()
    fn()
    return n / (time.perf_counter() - start)


def bench(
    hands: Sequence[tuple[list[int], int]], runs: int
) -> tuple[float, float | None, float | None]:
    """Median hands/s of each side and the median of the per-run ratios; each run times
    ours and theirs back to back on the same hands, so load changes hit both."""
    rules = load_ruleset("nts-2016")
    ours_inputs = [
        (
            Hand(concealed=tuple(Tile(t) for t in tiles), winning_tile=Tile(w)),
            Situation(Tile.SOUTH, Tile.EAST, Win(WinSource.WALL)),
        )
        for tiles, w in hands
    ]

    def ours() -> None:
        for hand, situation in ours_inputs:
            score_hand(hand, situation, rules)

    ours()  # warm the per-suit tables once
    try:
        from mahjong.hand_calculating.divider import HandDivider
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        return statistics.median(_rate(ours, len(hands)) for _ in range(runs)), None, None
    config = HandConfig(is_tsumo=True)
    theirs_inputs = []
    for tiles, w in hands:
        seen: dict[int, int] = {}
        t136 = []
        for t in tiles:
            k = _THEIRS[t]
            t136.append(k * 4 + seen.get(k, 0))
            seen[k] = seen.get(k, 0) + 1
        theirs_inputs.append((t136, _THEIRS[w] * 4))
    clear = HandDivider._divide_hand_impl.cache_clear

    def theirs() -> None:
        for t136, w136 in theirs_inputs:
            clear()
            HandCalculator.estimate_hand_value(t136, w136, config=config)

    ours_rates, theirs_rates, ratios = [], [], []
    for _ in range(runs):
        o, t = _rate(ours, len(hands)), _rate(theirs, len(hands))
        ours_rates.append(o)
        theirs_rates.append(t)
        ratios.append(o / t)
    return (
        statistics.median(ours_rates),
        statistics.median(theirs_rates),
        statistics.median(ratios),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    hands = [random_winning_hand(rng) for _ in range(args.hands)]
    ours, theirs, ratio = bench(hands, args.runs)
    print(f"(a) scoring, {len(hands)} winning hands, median of {args.runs} runs")
    print(f"    mahjong-nts score_hand              {ours:10.0f} hands/s")
    if theirs is None or ratio is None:
        print("    riichi `mahjong` package not installed: pip install mahjong==2.1.0")
        return 0
    print(f"    mahjong HandCalculator (no cache)   {theirs:10.0f} hands/s")
    print(f"    ratio (median of per-run ratios)    {ratio:10.1f}x  (target >= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
