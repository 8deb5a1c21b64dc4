"""Environment speed: agent steps per second with random legal actions, our PettingZoo
environment beside RLCard's mahjong environment, in the same run (issue 12).

Run: ``python benchmarks/bench_env.py [--steps 20000] [--runs 5] [--seed 1]
[--ruleset nts-2016]``.  Needs the ``[env]`` extra and rlcard (``pip install -e
'.[env,bench]'``); without rlcard only our rows are printed.

What one step is, on each side (each loop builds the observation the agent acts on, picks
uniformly among the legal actions with ``random.Random``, and steps):

* ours (``mahjong_nts.env.env()``, PettingZoo's order-enforcing wrapper included):
  ``env.last()`` (the layout-1 array and the action mask of the agent asked), a random id
  of the mask, ``env.step(id)``.  Every decision of the hand is a step: turns and each
  seat asked in a claim window.  When the hand ends, the agents' closing ``step(None)``
  calls (PettingZoo's protocol) are made but not counted, then ``reset()`` deals the next
  hand (new seed), inside the timing.
* the core alone (``Game``, no environment and no observation): a random legal action
  of ``Game.legal_actions()`` applied, a new ``Game`` when the hand ends; what any
  environment over this core can reach at most.
* RLCard 1.2.0 (``rlcard.make("mahjong")``): ``env.step(action)`` returns the next
  state (its 6x34x4 observation and legal actions) and the player; a random key of
  ``state["legal_actions"]``; ``env.reset()`` when ``env.is_over()``, inside the timing.
  Its rules are far simpler than ours (see ``rlcard_mahjong.py``): no scoring, no win on
  a discard, no kongs of one's own, no flowers, one claimer per discard.

Each run times ``--steps`` steps of each side, back to back; the figures are the medians
over ``--runs`` runs, and the ratio is the median of the per-run ratios.  Goal: ours at
least 10x RLCard's steps/s.  ``--clock cpu`` times with ``time.process_time`` (this
process's CPU time) instead of the wall clock: on a machine shared with other jobs the
wall clock counts the time the process waited for a core, which swings from run to run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

import mahjong_nts.env as mj_env
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng, derive_seed
from rlcard_mahjong import rlcard_available, rlcard_version

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter


def ours_steps_per_second(steps: int, seed: int, ruleset: str, wrapped: bool = True) -> float:
    """Agent steps per second of our AEC env with random legal actions."""
    env: Any = mj_env.env(ruleset=ruleset) if wrapped else mj_env.raw_env(ruleset=ruleset)
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero
    env.reset(seed=seed)
    done = 0
    start = clock()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(int(rng.choice(flatnonzero(obs["action_mask"]))))
        done += 1
    return steps / (clock() - start)


def core_steps_per_second(steps: int, seed: int, ruleset: str) -> float:
    """Decisions per second of the core game alone, with random legal actions and no
    observation at all (``Game.legal_actions``, ``random.choice``, ``Game.apply``, a new
    ``Game`` when a hand ends): the ceiling of any environment over this core."""
    rules = mj_env.raw_env(ruleset=ruleset).rules
    rng = random.Random(seed)
    hand = 0
    game = Game(rules, SeedRng(derive_seed(seed, "core", hand)))
    start = clock()
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            hand += 1
            game = Game(rules, SeedRng(derive_seed(seed, "core", hand)))
    return steps / (clock() - start)


def rlcard_steps_per_second(steps: int, seed: int) -> float:
    """Agent steps per second of RLCard's mahjong env with random legal actions."""
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    state, _ = env.reset()
    start = clock()
    for _ in range(steps):
        state, _ = env.step(rng.choice(list(state["legal_actions"])))
        if env.is_over():
            state, _ = env.reset()
    return steps / (clock() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="nts-2016")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if not 1 <= args.steps <= 10_000_000 or not 1 <= args.runs <= 100:
        print("--steps is 1..10000000 and --runs 1..100", file=sys.stderr)
        return 2
    peer = rlcard_available()
    ours_runs: list[float] = []
    raw_runs: list[float] = []
    core_runs: list[float] = []
    core_ratios: list[float] = []
    peer_runs: list[float] = []
    ratios: list[float] = []
    ours_steps_per_second(200, args.seed, args.ruleset)  # warm the core's tables
    for run in range(args.runs):
        seed = args.seed + run
        ours = ours_steps_per_second(args.steps, seed, args.ruleset)
        ours_runs.append(ours)
        raw_runs.append(ours_steps_per_second(args.steps, seed, args.ruleset, wrapped=False))
        core_runs.append(core_steps_per_second(args.steps, seed, args.ruleset))
        if peer:
            theirs = rlcard_steps_per_second(args.steps, seed)
            peer_runs.append(theirs)
            ratios.append(ours / theirs)
            core_ratios.append(core_runs[-1] / theirs)
    med = statistics.median
    print(
        f"env steps/s, random legal actions, {args.steps} steps a side, {args.runs} runs, "
        f"{args.clock} clock"
    )
    print(f"  mahjong-nts env() ({args.ruleset})      {med(ours_runs):10.0f}")
    print(f"  mahjong-nts raw_env() (no wrapper)  {med(raw_runs):10.0f}")
    print(f"  core Game alone (no observation)    {med(core_runs):10.0f}")
    if peer:
        print(f"  RLCard {rlcard_version()} mahjong              {med(peer_runs):10.0f}")
        print(f"  ratio env()/RLCard (median of runs) {med(ratios):10.2f}x  (goal: 10x)")
        print(f"  ratio core alone/RLCard             {med(core_ratios):10.2f}x")
    else:
        print("  RLCard: not installed (pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
