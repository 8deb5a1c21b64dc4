"""Before and after: this tree against another revision, in the same run.

Each measurement runs in a fresh process, alternating between the two trees, so the
machine's noise falls on both alike; the report gives each side's median and the
median of the per-round ratios (this tree / the other).

* scoring: ``score_hand`` under nts-2016 on ``--hands`` generated winning hands
  (four sets and a pair, concealed, self-drawn), built before the timer.  "unseen":
  the first pass in a fresh process (the hands are new to every cache); "again": a
  second pass over the same hands.
* simulate: ``mahjong-nts simulate --hands N --seed 1 --json`` (a heuristic bot and
  three random ones) as a user runs it, start-up included; hands per second.

Only the core's ``Hand``/``Situation``/``score_hand`` and the ``simulate`` command are
used, which every revision since the engine has, so any two can be compared.

``--clock wall`` (the default) times with the wall clock; ``--clock cpu`` with the CPU
time of the measuring process (scoring) or of the command (simulate: user + system time
of the child), which other work on a busy machine disturbs much less.

Run: ``python benchmarks/bench_revisions.py OTHER [--rounds 5] [--hands 2000]
[--sim-hands 300] [--clock wall|cpu]``, where OTHER is a git revision (checked out into a
temporary worktree) or the path of another checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

SCORING = r"""
import json, random, sys, time
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
try:
    from mahjong_nts.formats.rulefiles import load_ruleset
except ImportError:
    from mahjong_nts.rulefiles import load_ruleset

def winning_hand(rng):
    counts = [0] * 34
    tiles = []
    def take(ts):
        if all(counts[t] + ts.count(t) <= 4 for t in set(ts)):
            for t in ts:
                counts[t] += 1
            tiles.extend(ts)
            return True
        return False
    while len(tiles) < 12:
        if rng.random() < 0.5:
            s = rng.randrange(3) * 9 + rng.randrange(7)
            take([s, s + 1, s + 2])
        else:
            t = rng.randrange(34)
            take([t, t, t])
    while not take([t := rng.randrange(34)] * 2):
        pass
    return tiles, rng.choice(tiles)

rng = random.Random(int(sys.argv[1]))
rules = load_ruleset("nts-2016")
hands = []
for _ in range(int(sys.argv[2])):
    tiles, win = winning_hand(rng)
    hands.append(Hand(tuple(Tile(t) for t in tiles), (), (), Tile(win)))
situation = Situation(Tile.SOUTH, Tile.EAST, Win(WinSource.WALL))
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter
out = {}
for name in ("unseen", "again"):
    start = clock()
    for hand in hands:
        score_hand(hand, situation, rules)
    out[name] = len(hands) / (clock() - start)
print(json.dumps(out))
"""


def scoring(tree: Path, hands: int, seed: int, clock: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    out = subprocess.run(
        [sys.executable, "-c", SCORING, str(seed), str(hands), clock],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(tree: Path, hands: int, clock: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    args = ["simulate", "--hands", str(hands), "--seed", "1", "--json"]
    now = _children_cpu if clock == "cpu" else time.perf_counter
    start = now()
    subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", *args],
        env=env,
        capture_output=True,
        check=True,
    )
    return hands / (now() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="a git revision or the path of another checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--sim-hands", type=int, default=300)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(args.other)
        if not other.is_dir():
            other = Path(tmp) / "other"
            git = ["git", "-C", str(HERE), "worktree"]
            subprocess.run([*git, "add", "-q", "--detach", str(other), args.other], check=True)
        try:
            run(other, args)
        finally:
            if other.parent == Path(tmp):
                subprocess.run(
                    ["git", "-C", str(HERE), "worktree", "remove", "--force", str(other)],
                    check=False,
                )


def run(other: Path, args: argparse.Namespace) -> None:
    rows: dict[str, dict[str, list[float]]] = {}
    for r in range(args.rounds):
        # a new hand set every round, the same for both trees; alternate who goes first
        order = [("this", HERE), ("other", other)]
        if r % 2:
            order.reverse()
        for side, tree in order:
            s = scoring(tree, args.hands, seed=100 + r, clock=args.clock)
            rows.setdefault("scoring, unseen hands", {}).setdefault(side, []).append(s["unseen"])
            rows.setdefault("scoring, again", {}).setdefault(side, []).append(s["again"])
        if args.sim_hands:
            for side, tree in order:
                rate = simulate(tree, args.sim_hands, args.clock)
                rows.setdefault("simulate", {}).setdefault(side, []).append(rate)
    print(f"this tree: {HERE}\nother: {args.other}\n{args.rounds} rounds, alternating")
    print(f"clock: {'CPU time' if args.clock == 'cpu' else 'wall clock'}\n")
    print(f"{'':24} {'this':>10} {'other':>10} {'ratio':>7}  (per-round ratios)")
    for name, sides in rows.items():
        ratios = [a / b for a, b in zip(sides["this"], sides["other"], strict=True)]
        this, other_ = statistics.median(sides["this"]), statistics.median(sides["other"])
        shown = " ".join(f"{x:.2f}" for x in ratios)
        print(f"{name:24} {this:10.0f} {other_:10.0f} {statistics.median(ratios):6.2f}x  ({shown})")
    print("\nhands per second; ratio: this tree / the other (median of the rounds)")


if __name__ == "__main__":
    main()
