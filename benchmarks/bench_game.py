"""Game speed: full hands per second, our engine and bots vs RLCard's mahjong environment.

Run: ``python benchmarks/bench_game.py [--hands 300] [--heuristic-hands 150]
[--scaling-hands 2000] [--runs 5] [--seed 1] [--ruleset nts-2016] [--no-rlcard]
[--no-riichienv] [--clock wall|cpu]``.

Rows (each run times every row once, back to back; rates are medians over the runs and a
ratio is the median of the per-run ratios):

1. random bots, one core: ``--hands`` hands of four random-legal bots played by the
   simulate runner in this process (``run_simulation(..., jobs=1)``: deal, every decision
   through :func:`observe` and ``Player.act``, claims, scoring and settlement), against
   RLCard 1.2.0's mahjong env with four ``RandomAgent`` s on the same number of hands
   (:func:`rlcard_hands_per_second`, one repeat per run, seeded the same every run).
   Target (issue 13): ours >= 20x RLCard's hands/s.
1b. the same row against riichienv 0.4.11's game env (Rust) driven from Python with
   random legal actions, the same number of hands (:func:`riichienv_hands_per_second`,
   ``riichienv_mahjong.py`` says what its hands are).  Target (issue 13): ours >= 1x.
2. heuristic bots, one core: ``--heuristic-hands`` hands of four heuristic bots (the
   slowest table: every decision weighs plans), new hands every run (the core remembers
   each group's shanten record, so replaying the same hands would flatter it).  Target
   (issue 13): at least 250 hands/s.
3. ``--jobs 2`` scaling: the simulate runner on ``--scaling-hands`` hands of the default
   line-up (heuristic against three random bots), 2 worker processes vs this process
   alone, the same hands both times (the summary is identical; new hands every run, the
   2-process side first so that neither side finds them remembered); ratio = time with
   ``jobs=1`` / time with ``jobs=2``, process start-up and result transfer included.
   Target: >= 1.7x.  Only meaningful on a machine with 2 idle cores.

Per-process tables (shanten, waits) are warmed by one untimed pass first.  RLCard is
optional (``pip install -e '.[bench]'``), riichienv too (the ``dev`` extra); without one
its row or column is left out.  ``--clock cpu`` times with ``time.process_time`` (this
process's CPU time) instead of the wall clock: on a machine shared with other jobs the
wall clock counts the time the process waited for a core.  The ``--jobs 2`` row is always
timed by the wall clock (its work is in other processes).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from mahjong_nts.sim.simulate import SimulationSpec, run_simulation
from riichienv_mahjong import riichienv_available, riichienv_hands_per_second, riichienv_version
from rlcard_mahjong import rlcard_available, rlcard_hands_per_second, rlcard_version

TARGET_RLCARD = 20.0
TARGET_RIICHIENV = 1.0
TARGET_HEURISTIC = 250.0
TARGET_SCALING = 1.7


def _play(spec: SimulationSpec, hands: int, jobs: int = 1) -> None:
    """Play the hands (the runner streams its outcomes: drain them)."""
    collections.deque(run_simulation(spec, hands, jobs), maxlen=0)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter


def _rate(spec: SimulationSpec, hands: int, jobs: int = 1) -> float:
    """Hands per second for ``hands`` hands of ``spec`` (this call only; the wall clock
    for more than one process)."""
    timer = clock if jobs == 1 else time.perf_counter
    start = timer()
    _play(spec, hands, jobs)
    return hands / (timer() - start)


def _median_ratio(a: Sequence[float], b: Sequence[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


def bench(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, list[float]]:
    """Every row once per run; the per-run rates by row name."""
    rs = args.ruleset
    random_spec = SimulationSpec(rs, ("random",) * 4, seed=args.seed)
    with_rlcard = args.rlcard and rlcard_available()
    with_riichienv = args.riichienv and riichienv_available()

    def heuristic_spec(run: int) -> SimulationSpec:
        # new hands every run: the core remembers the shanten records of the groups it
        # has seen, and replaying the same hands would find them all remembered
        return SimulationSpec(rs, ("heuristic",) * 4, seed=args.seed * 1000 + run)

    def mixed_spec(run: int) -> SimulationSpec:
        bots = ("heuristic", "random", "random", "random")
        return SimulationSpec(rs, bots, seed=args.seed * 1000 + 500 + run)

    # warm the per-process tables (forked workers inherit them) on other hands
    _play(random_spec, 50)
    _play(heuristic_spec(-1), 20)
    if args.scaling_hands:
        _play(mixed_spec(-1), min(args.scaling_hands, 200))
    rates: dict[str, list[float]] = {
        "random": [],
        "rlcard": [],
        "riichienv": [],
        "heuristic": [],
        "jobs1": [],
        "jobs2": [],
    }
    for run in range(args.runs):
        rates["random"].append(_rate(random_spec, args.hands))
        if with_rlcard:
            rates["rlcard"].append(
                rlcard_hands_per_second(args.hands, args.seed, repeats=1, clock=clock)
            )
        if with_riichienv:
            rates["riichienv"].append(
                riichienv_hands_per_second(args.hands, args.seed, repeats=1, clock=clock)
            )
        rates["heuristic"].append(_rate(heuristic_spec(run), args.heuristic_hands))
        if args.scaling_hands:
            # jobs=2 first: its workers fork from this process before it has seen these
            # hands, and what they learn stays in them, so neither side meets them twice
            rates["jobs2"].append(_rate(mixed_spec(run), args.scaling_hands, jobs=2))
            rates["jobs1"].append(_rate(mixed_spec(run), args.scaling_hands, jobs=1))
        done = ", ".join(f"{k} {v[-1]:.0f}" for k, v in rates.items() if v)
        log(f"  run {run + 1}/{args.runs}: {done} hands/s")
    return rates


def report(args: argparse.Namespace, rates: dict[str, list[float]]) -> None:
    med = {k: statistics.median(v) for k, v in rates.items() if v}
    print(
        f"Game speed, {args.ruleset}, full hands (deal to mahjong or remise), "
        f"median of {args.runs} runs, seed {args.seed}, {args.clock} clock"
    )
    print(f"{'row':44} {'ours':>10} {'peer':>10} {'ratio':>7}  target")
    peer = f"{med['rlcard']:10.1f}" if "rlcard" in med else f"{'-':>10}"
    ratio = (
        f"{_median_ratio(rates['random'], rates['rlcard']):6.1f}x"
        if "rlcard" in med
        else f"{'-':>7}"
    )
    print(
        f"{f'random bots, 1 core, {args.hands} hands (hands/s)':44} "
        f"{med['random']:10.1f} {peer} {ratio}  >= {TARGET_RLCARD:.0f}x RLCard"
    )
    if "riichienv" in med:
        print(
            f"{f'random bots, 1 core, {args.hands} hands, vs riichienv':44} "
            f"{med['random']:10.1f} {med['riichienv']:10.1f} "
            f"{_median_ratio(rates['random'], rates['riichienv']):6.2f}x  "
            f">= {TARGET_RIICHIENV:.0f}x riichienv"
        )
    print(
        f"{f'heuristic bots, 1 core, {args.heuristic_hands} hands (hands/s)':44} "
        f"{med['heuristic']:10.1f} {'-':>10} {'-':>7}  >= {TARGET_HEURISTIC:.0f} hands/s"
    )
    if "jobs2" in med:
        scaling = _median_ratio(rates["jobs2"], rates["jobs1"])
        print(
            f"{f'simulate --jobs 2 vs 1, {args.scaling_hands} hands (hands/s)':44} "
            f"{med['jobs2']:10.1f} {med['jobs1']:10.1f} {scaling:6.2f}x  "
            f">= {TARGET_SCALING}x"
        )
    if "rlcard" in med:
        print(f"(peer: RLCard {rlcard_version()} mahjong env, four RandomAgents; for --jobs 2")
        print(" the peer column is our own --jobs 1 rate, and the clock is the wall clock)")
    elif args.rlcard:
        print("(RLCard not installed: pip install -e '.[bench]' for the peer column)")
    if "riichienv" in med:
        print(
            f"(riichienv {riichienv_version()}: its game env (Rust), one hand of 4 players, "
            "driven from Python by random legal actions)"
        )
    elif args.riichienv:
        print("(riichienv not installed: pip install -e '.[dev]' for its row)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--heuristic-hands", type=int, default=150)
    parser.add_argument("--scaling-hands", type=int, default=2000, help="0: skip the row")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="nts-2016")
    parser.add_argument("--no-rlcard", dest="rlcard", action="store_false")
    parser.add_argument("--no-riichienv", dest="riichienv", action="store_false")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if min(args.hands, args.heuristic_hands, args.runs) < 1 or args.scaling_hands < 0:
        parser.error("--hands, --heuristic-hands and --runs must be >= 1")
    rates = bench(args, lambda line: print(line, file=sys.stderr, flush=True))
    report(args, rates)
    return 0


if __name__ == "__main__":
    sys.exit(main())
