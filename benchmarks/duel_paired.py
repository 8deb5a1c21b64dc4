"""Paired duels: is bot V better than bot A, both measured against the same opponent B?

Run: ``python benchmarks/duel_paired.py A V [V2 ...] [--against heuristic] [--walls 250]
[--seed 3] [--ruleset nts-2016] [--jobs 2]``.

Plays ``duel A B`` and ``duel V B`` on the same walls (:func:`mahjong_nts.sim.duel.
play_wall`, the walls and bot seeds of ``mahjong-nts duel --seed S``) and prints each
one's margin over B with its 95% interval, and the mean of the per-wall difference
``(V - B) - (A - B)`` with its own 95% interval.  When V changes few decisions of A (a
variant of a bot), most walls are played identically and the difference's interval is
far narrower than either margin's: a change worth +4 a hand shows against the +-35 of a
1000-hand duel.  The margins are exactly ``mahjong-nts duel X B --hands 4*walls --seed
S``'s.  Bots are named as for ``duel`` (``strong``, ``module:Class``, ...).
"""

from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from mahjong_nts.bots.loader import BotLoadError, check_bot
from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import DuelSpec, play_wall

MOST_WALLS = 100_000


def _diff(ruleset: str, a: str, b: str, seed: int, index: int) -> float:
    """A's margin over B on wall ``index`` (points a hand)."""
    return float(play_wall(DuelSpec(ruleset, a, b, seed), load_ruleset(ruleset), index).diff)


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="bot A, the one the variants are compared with")
    ap.add_argument("variants", nargs="+", help="bots V")
    ap.add_argument("--against", default="heuristic", help="bot B, the common opponent")
    ap.add_argument("--walls", type=int, default=250, help=f"2 to {MOST_WALLS}")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--ruleset", default="nts-2016")
    ap.add_argument("--jobs", type=int, default=1, help="processes, 1 to 64")
    args = ap.parse_args()
    if not 2 <= args.walls <= MOST_WALLS or not 1 <= args.jobs <= 64:
        ap.error(f"--walls 2 to {MOST_WALLS}, --jobs 1 to 64")
    try:
        rules = load_ruleset(args.ruleset)
        for bot in (args.base, args.against, *args.variants):
            check_bot(bot, rules)
    except (InvalidRuleSet, BotLoadError) as exc:
        ap.error(str(exc))
    walls = range(args.walls)

    def margins(bot: str) -> list[float]:
        play = partial(_diff, args.ruleset, bot, args.against, args.seed)
        with ProcessPoolExecutor(args.jobs) as pool:
            return list(pool.map(play, walls, chunksize=4))

    base = margins(args.base)
    m, h = _mean_ci(base)
    print(
        f"{args.base} - {args.against}: {m:+.1f} +-{h:.1f} a hand ({args.ruleset}, "
        f"seed {args.seed}, {args.walls} walls)",
        flush=True,
    )
    for v in args.variants:
        mine = margins(v)
        m, h = _mean_ci(mine)
        d, dh = _mean_ci([x - y for x, y in zip(mine, base, strict=True)])
        print(
            f"{v} - {args.against}: {m:+.1f} +-{h:.1f};  {v} - {args.base}, paired: "
            f"{d:+.1f} +-{dh:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
