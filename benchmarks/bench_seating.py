"""Benchmark: tournament seating against a plain random shuffle and a greedy seater.

For each size (40 players over 7 rounds, 36 over 8, 200 over 10, all present) and each
seater, several runs with seeds 0, 1, ...; the median of the repeat meetings, of the
spread of the East counts (most East seats of a player minus fewest) and of the time.
The lower bound on repeat meetings (``repeat_lower_bound``, docs/tournament.md) is shown
beside each size.

* shuffle: each round the players shuffled and cut into tables (what a hat does);
  East is the first drawn at each table.
* greedy: each round, each seat taken by the first player (in random order) who has met
  nobody at the table yet, else by the one who met them least; East the first seated.
* mahjong-nts plan: ``tournament.plan`` (greedy start or a resolvable design, simulated
  annealing over all rounds, winds balanced along paths of tables).
* round by round: ``tournament.next_round`` one round at a time, as the pages and
  ``tournament seat -t`` seat a tournament (the day's plan kept between the rounds).
* each round alone: ``tournament.seat_round`` one round at a time against the rounds
  before it (what happens once the day has left the plan).

Run: ``python benchmarks/bench_seating.py [--runs 5] [--sizes 80x20 ...] [--seaters ...]``;
``--clicks [K]``: instead, the seconds of each click on *Seat round k* (the first K
rounds) with the day's plan kept between clicks (``DayPlans``, as the store keeps it)
and made afresh at every click, and a check that both seat the same.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable

from mahjong_nts.tournament import (
    DayPlans,
    Round,
    next_round,
    plan,
    repeat_lower_bound,
    repeats,
    seat_round,
    table_sizes,
    wind_counts,
)

Seater = Callable[[int, int, random.Random], tuple[Round, ...]]


def _cut(players: list[int], sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    tables, at = [], 0
    for s in sizes:
        tables.append(tuple(players[at : at + s]))
        at += s
    return tables


def shuffle_seater(n: int, rounds: int, rng: random.Random) -> tuple[Round, ...]:
    """Each round a fresh shuffle, cut into tables."""
    sizes = table_sizes(n)
    out = []
    for r in range(1, rounds + 1):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        out.append(Round(r, tuple(_cut(players, sizes))))
    return tuple(out)


def greedy_seater(n: int, rounds: int, rng: random.Random) -> tuple[Round, ...]:
    """Each seat to the first player (in random order) who met nobody at the table, else
    to the one with the fewest earlier meetings there."""
    sizes = table_sizes(n)
    met = [[0] * (n + 1) for _ in range(n + 1)]
    out = []
    for r in range(1, rounds + 1):
        rest = list(range(1, n + 1))
        rng.shuffle(rest)
        tables = []
        for size in sizes:
            table = [rest.pop()]
            while len(table) < size:
                best, low = 0, -1
                for i, p in enumerate(rest):
                    c = sum(met[p][z] for z in table)
                    if low < 0 or c < low:
                        best, low = i, c
                        if c == 0:
                            break
                p = rest.pop(best)
                for z in table:
                    met[p][z] += 1
                    met[z][p] += 1
                table.append(p)
            tables.append(tuple(table))
        out.append(Round(r, tuple(tables)))
    return tuple(out)


def ours(n: int, rounds: int, rng: random.Random) -> tuple[Round, ...]:
    return plan(n, rounds, rng=rng)


def _clicks(
    n: int, rounds: int, seed: int, plans: DayPlans | None, clicks: int | None = None
) -> tuple[tuple[Round, ...], list[float]]:
    """The first ``clicks`` rounds (all: None) seated one click at a time as the store
    seats them (``next_round``, generators made from one seed as the store makes them
    from the tournament's), the day's plan kept in ``plans`` (as the store keeps it) or
    (None) made afresh at every click; the rounds and the seconds of each click."""
    present = [list(range(1, n + 1))] * rounds
    out: list[Round] = []
    seconds: list[float] = []
    for k in range(1, (clicks or rounds) + 1):
        start = time.perf_counter()
        round_rng = random.Random(f"{seed}:{k}")
        if plans is None:
            plan_rng = random.Random(f"{seed}:plan")
            out.append(next_round(present, out, plan_rng=plan_rng, round_rng=round_rng))
        else:
            day_plan = functools.partial(plans.plan, present, None, f"{seed}:plan", random.Random)
            out.append(next_round(present, out, day_plan=day_plan, round_rng=round_rng))
        seconds.append(time.perf_counter() - start)
    return tuple(out), seconds


def day(n: int, rounds: int, rng: random.Random) -> tuple[Round, ...]:
    """Round by round as the organiser's pages seat (``next_round``, the day's plan kept
    between the clicks in a ``DayPlans`` as the store keeps it)."""
    return _clicks(n, rounds, rng.randrange(2**32), DayPlans())[0]


def alone(n: int, rounds: int, rng: random.Random) -> tuple[Round, ...]:
    """Each round seated alone against the rounds before it (``seat_round``: what the
    pages do once the day has left the plan, after a swap or a late arrival)."""
    out: list[Round] = []
    for _ in range(rounds):
        out.append(seat_round(list(range(1, n + 1)), out, rng=rng))
    return tuple(out)


SEATERS: dict[str, Seater] = {
    "random shuffle": shuffle_seater,
    "greedy": greedy_seater,
    "mahjong-nts plan": ours,
    "round by round": day,
    "each round alone": alone,
}
SIZES = ((40, 7), (36, 8), (200, 10))


def east_spread(rounds: tuple[Round, ...]) -> int:
    east = [c[0] for c in wind_counts(rounds).values()]
    return max(east) - min(east)


def clicks(sizes: list[tuple[int, ...]], runs: int, most: int | None) -> None:
    """Seconds a click on *Seat round k* takes with the day's plan kept between the
    clicks and made afresh at each (as before ``DayPlans``); the seatings must agree."""
    print(f"seconds a click (first click, median of the later ones), {runs} runs, seeds 0..")
    for n, rounds in sizes:
        print(f"\n{n} players, {rounds} rounds, the first {most or rounds} rounds by clicks")
        print(f"    {'the plan':<18} {'first (s)':>10} {'later (ms)':>11}")
        for name, plans in (("made at each click", None), ("kept (DayPlans)", DayPlans())):
            first, later = [], []
            for seed in range(runs):
                seated, seconds = _clicks(n, rounds, seed, plans, most)
                fresh = _clicks(n, rounds, seed, None, most)[0] if plans else seated
                if seated != fresh:
                    raise SystemExit(f"seed {seed}: the kept plan seats otherwise")
                first.append(seconds[0])
                later.extend(seconds[1:])
            ms = 1000 * statistics.median(later) if later else float("nan")
            print(f"    {name:<18} {statistics.median(first):>10.3f} {ms:>11.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per seater and size")
    parser.add_argument(
        "--sizes", nargs="+", metavar="NxR", help="players x rounds (default 40x7 36x8 200x10)"
    )
    parser.add_argument(
        "--seaters", nargs="+", choices=list(SEATERS), help="the seaters to run (default all)"
    )
    parser.add_argument(
        "--clicks",
        nargs="?",
        type=int,
        const=0,
        metavar="K",
        help="time each click of the first K rounds (all: no K) with and without DayPlans",
    )
    args = parser.parse_args()
    sizes: list[tuple[int, ...]] = (
        [tuple(int(v) for v in s.split("x")) for s in args.sizes] if args.sizes else list(SIZES)
    )
    if args.clicks is not None:
        clicks(sizes, args.runs, args.clicks or None)
        return
    seaters = {k: v for k, v in SEATERS.items() if not args.seaters or k in args.seaters}
    print(f"seating, median of {args.runs} runs (seeds 0..{args.runs - 1})")
    for n, rounds in sizes:
        bound = repeat_lower_bound(n, rounds)
        print(f"\n{n} players, {rounds} rounds (lower bound on repeat meetings: {bound})")
        print(f"    {'seater':<18} {'repeats':>8} {'East spread':>12} {'seconds':>9}")
        for name, seater in seaters.items():
            reps, spreads, times = [], [], []
            for seed in range(args.runs):
                rng = random.Random(seed)
                start = time.perf_counter()
                plan_ = seater(n, rounds, rng)
                times.append(time.perf_counter() - start)
                reps.append(repeats(plan_))
                spreads.append(east_spread(plan_))
            print(
                f"    {name:<18} {statistics.median(reps):>8g} "
                f"{statistics.median(spreads):>12g} {statistics.median(times):>9.3f}"
            )


if __name__ == "__main__":
    main()
