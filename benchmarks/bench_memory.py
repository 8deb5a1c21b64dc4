"""Memory of a simulation: peak RSS of ``mahjong-nts simulate`` by the number of hands, and
what each per-process cache holds.

Run: ``python benchmarks/bench_memory.py [--hands 1000,2000,4000,8000] [--seed 1]
[--bots heuristic,random,random,random] [--ruleset nts-2016] [--save DIR]
[--caches N] [--caches-only]``.

1. **Peak RSS** (the headline): for each N of ``--hands`` a fresh process runs
   ``python -m mahjong_nts.cli simulate --hands N --seed S --jobs 1 --json`` (this
   interpreter, this tree's package), and its peak resident set size is read from the
   kernel's accounting of that child alone (``os.wait4``: ``ru_maxrss``, KiB on Linux).
   Printed with the wall time and the ratio to the first N.  ``--save DIR`` keeps each
   run's JSON summary as ``DIR/simulate-N.json`` (to compare two trees: they must be
   byte for byte the same).
2. **Caches** (``--caches N``, in this process): the same run of N hands, with each known
   per-process cache replaced by a dict that counts its look-ups and fills; then, for each,
   its entries, its size (the dict and everything only it reaches, ``sys.getsizeof``
   summed, each object once), look-ups, fills and hit rate (1 - fills / look-ups).  The
   counting dicts slow the run; only the counts and sizes are meant, not the speed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

# (label, module, attribute): a dict, or a tuple of dicts (one per group or meld count)
CACHES: tuple[tuple[str, str, str], ...] = (
    ("shanten: group records", "mahjong_nts.core.shanten", "_RECORDS"),
    ("shanten: group shapes", "mahjong_nts.core.shanten", "_SHAPES"),
    ("shanten: suffix fronts", "mahjong_nts.core.shanten", "_SUFFIX"),
    ("analysis: wait records", "mahjong_nts.core.analysis", "_INFO"),
    ("analysis: group statuses", "mahjong_nts.core.analysis", "_STATUS"),
    ("analysis: group decompositions", "mahjong_nts.core.analysis", "_DECOMPS"),
    ("analysis: splits", "mahjong_nts.core.analysis", "_SPLITS"),
    ("scoring tables: group facts", "mahjong_nts.core.scoring_tables", "_GROUP_CODES"),
    ("scoring tables: profiles", "mahjong_nts.core.scoring_tables", "_PROFILES"),
    ("scoring: detailed items", "mahjong_nts.core.scoring", "_DETAILED"),
    ("scoring: listed texts", "mahjong_nts.core.scoring", "_LISTED"),
    ("notation: remembered words", "mahjong_nts.core.notation", "_remembered"),
    ("scoring tables of the rule sets", "mahjong_nts.core.scoring_tables", "_TABLES"),
    ("scoring: explainers of the rule sets", "mahjong_nts.core.scoring", "_EXPLAINERS"),
)


class CountingDict(dict[Any, Any]):
    """A dict that counts its look-ups (``get``, ``[]``) and fills (``[] =``)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.lookups = 0
        self.fills = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.lookups += 1
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.lookups += 1
        return super().__getitem__(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.fills += 1
        super().__setitem__(key, value)


def _deep_size(root: object) -> int:
    """Bytes of ``root`` and of every container, str, bytes or number inside it, once."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            stack.extend(obj)
        elif type(obj).__module__.startswith("mahjong_nts"):  # our objects: their fields
            stack.extend(getattr(obj, "__dict__", {}).values())
            for name in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, name):
                    stack.append(getattr(obj, name))
    return total


def _install(module: str, attr: str) -> list[CountingDict]:
    """Replace the cache ``module.attr`` by counting dicts (in place of each dict)."""
    mod = importlib.import_module(module)
    value = getattr(mod, attr)
    if isinstance(value, dict):
        new: Any = CountingDict(value)
        setattr(mod, attr, new)
        return [new]
    dicts = [CountingDict(d) for d in value]
    setattr(mod, attr, tuple(dicts))
    return dicts


def caches(hands: int, seed: int, bots: Sequence[str], ruleset: str) -> None:
    from mahjong_nts.sim.simulate import SimulationSpec, run_simulation

    installed = [(label, _install(module, attr)) for label, module, attr in CACHES]
    spec = SimulationSpec(ruleset, tuple(bots), seed=seed)
    start = time.perf_counter()
    deque(run_simulation(spec, hands, 1), maxlen=0)
    took = time.perf_counter() - start
    print(f"caches after {hands} hands (seed {seed}, {', '.join(bots)}; {took:.1f} s counted)")
    print(f"{'cache':34} {'entries':>9} {'MiB':>7} {'look-ups':>11} {'fills':>9} {'hit rate':>9}")
    total = 0
    for label, dicts in installed:
        entries = sum(len(d) for d in dicts)
        size = _deep_size(tuple(dicts))
        total += size
        lookups = sum(d.lookups for d in dicts)
        fills = sum(d.fills for d in dicts)
        rate = f"{1 - fills / lookups:9.4f}" if lookups else f"{'-':>9}"
        print(f"{label:34} {entries:9,} {size / 2**20:7.2f} {lookups:11,} {fills:9,} {rate}")
    print(f"{'all of them':34} {'':9} {total / 2**20:7.2f}")


def peak_rss(
    hands: int, seed: int, bots: Sequence[str], ruleset: str, save: Path | None
) -> tuple[int, float]:
    """Peak RSS (KiB) and wall time of a fresh ``simulate`` process of ``hands`` hands."""
    cmd = [
        sys.executable, "-m", "mahjong_nts.cli", "simulate", "--hands", str(hands),
        "--seed", str(seed), "--jobs", "1", "--bots", ",".join(bots),
        "--ruleset", ruleset, "--json",
    ]  # fmt: skip
    out = (save / f"simulate-{hands}.json").open("wb") if save else subprocess.DEVNULL
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        if save:
            out.close()  # type: ignore[union-attr]
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} exited {proc.returncode}")
    return usage.ru_maxrss, took


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=_ints, default=[1000, 2000, 4000, 8000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--ruleset", default="nts-2016")
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--caches", type=int, default=0, metavar="N")
    parser.add_argument("--caches-only", action="store_true")
    args = parser.parse_args(None if argv is None else list(argv))
    bots = args.bots.split(",")
    if not args.caches_only:
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
        print(
            f"peak RSS of `simulate --hands N --seed {args.seed} --jobs 1 --json`, fresh processes"
        )
        print(f"{'hands':>7} {'peak RSS MiB':>13} {'x first':>8} {'seconds':>8}")
        first = None
        for n in args.hands:
            kib, took = peak_rss(n, args.seed, bots, args.ruleset, args.save)
            first = first or kib
            print(f"{n:7} {kib / 1024:13.1f} {kib / first:8.2f} {took:8.1f}", flush=True)
    if args.caches:
        caches(args.caches, args.seed, bots, args.ruleset)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
