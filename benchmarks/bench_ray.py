"""Ray's overhead on one machine, and its scaling from 1 to 2 cores, against the local backend.

Run: ``python benchmarks/bench_ray.py [--hands 600] [--runs 5] [--seed 1] [--ruleset nts-2016]``
(needs ``pip install -e '.[ray]'``; loopback only: a local Ray of 2 CPUs started here).

Rows (each run times every row once, back to back; rates are medians over the runs, a
ratio is the median of the per-run ratios):

1. ``local, 1 job``: the simulate runner in this process (``run_simulation(..., jobs=1)``).
2. ``local, 2 jobs``: its pool of 2 forked worker processes.
3. ``ray, 1 task at a time``: ``--backend ray --jobs 1`` on the local Ray.
4. ``ray, 2 tasks at a time``: ``--backend ray --jobs 2``.

Each row plays ``--hands`` hands of the default line-up (heuristic against three random
bots), new hands for every row and run (the heuristic bot remembers shanten values, and
Ray's workers live on between runs: replaying the same hands would flatter later rows).
Ray's start (``ray.init(num_cpus=2)``, once) is timed apart: a run on a cluster pays it
once per command.  First, one check that Ray's summary is the local one for the same seed.
Per-process tables are warmed by one untimed pass on each side.  Only meaningful on a
machine with 2 idle cores.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from collections.abc import Callable

import ray

from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.raybackend import RayBackend
from mahjong_nts.sim.simulate import SimulationSpec, run_simulation, summarize

BOTS = ("heuristic", "random", "random", "random")
ROWS = ("local, 1 job", "local, 2 jobs", "ray, 1 task at a time", "ray, 2 tasks at a time")


def _rate(spec: SimulationSpec, hands: int, jobs: int, backend: RayBackend | None) -> float:
    start = time.perf_counter()
    collections.deque(run_simulation(spec, hands, jobs, backend=backend), maxlen=0)
    return hands / (time.perf_counter() - start)


def bench(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, list[float]]:
    rules = load_ruleset(args.ruleset)
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    log(f"ray.init(num_cpus=2): {time.perf_counter() - start:.1f} s")
    rates: dict[str, list[float]] = {row: [] for row in ROWS}
    try:
        backend = RayBackend.start()
        check = SimulationSpec(args.ruleset, BOTS, seed=args.seed)
        here = summarize(check, rules, run_simulation(check, 100, 1, rules=rules))
        there = summarize(check, rules, run_simulation(check, 100, 2, backend=backend))
        if here != there:
            raise SystemExit("Ray's summary differs from the local one: a bug")
        log("check: Ray's summary of 100 hands is the local one")
        warm = SimulationSpec(args.ruleset, BOTS, seed=args.seed + 10**6)
        _rate(warm, 60, 1, None)
        _rate(warm, 60, 2, backend)
        setups = ((1, None), (2, None), (1, backend), (2, backend))
        for run in range(args.runs):
            for r, (row, (jobs, where)) in enumerate(zip(ROWS, setups, strict=True)):
                spec = SimulationSpec(args.ruleset, BOTS, seed=args.seed * 1000 + 10 * run + r)
                rates[row].append(_rate(spec, args.hands, jobs, where))
            log(f"run {run + 1}: " + ", ".join(f"{rates[k][-1]:.0f}" for k in ROWS) + " hands/s")
    finally:
        ray.shutdown()
    return rates


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="nts-2016")
    args = parser.parse_args(argv)
    rates = bench(args, lambda line: print(line, file=sys.stderr))

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(rates[a], rates[b], strict=True))

    line_up = ", ".join(BOTS)
    print(f"{args.hands} hands a row, median of {args.runs} runs ({args.ruleset}, {line_up})")
    for row in ROWS:
        print(f"  {row:24} {statistics.median(rates[row]):7.1f} hands/s")
    print(f"  Ray / local, 1 at a time:  {ratio(ROWS[2], ROWS[0]):.2f}")
    print(f"  Ray / local, 2 at a time:  {ratio(ROWS[3], ROWS[1]):.2f}")
    print(f"  scaling 1 -> 2, local:     {ratio(ROWS[1], ROWS[0]):.2f}x")
    print(f"  scaling 1 -> 2, Ray:       {ratio(ROWS[3], ROWS[2]):.2f}x")


if __name__ == "__main__":
    main()
