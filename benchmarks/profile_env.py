"""Where a step of the environment goes: ``bench_env.py``'s loop over ``raw_env()``, with
each part timed by ``time.process_time_ns`` (issue 12).

Run: ``python benchmarks/profile_env.py [--steps 20000] [--seed 1] [--ruleset nts-2016]``.

The loop does what one ``raw_env()`` step with ``last()`` does, in its parts: the core's
legal actions of the seat asked (``Game.legal_actions``, worked out on first use after a
step), the array read straight from the game (``encode_game``), the mask,
the benchmark's random choice, the core's step (``Game.apply``) and the environment's own
bookkeeping around it (rewards, the agent asked next).  What is left (the loop, the
closing steps of a hand, ``reset``) is printed as "other".  The timer calls cost
something themselves (``process_time_ns`` is a system call: printed as "one timer call";
each part holds about one), so the whole is more than an untimed step.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

import mahjong_nts.env as mj_env
from mahjong_nts.env.encoding import encode_game, legal_mask
from profiling import print_parts


def profile(steps: int, seed: int, ruleset: str) -> tuple[int, dict[str, int]]:
    """Total process time (ns) of ``steps`` steps and each part's share of it."""
    clock = time.process_time_ns
    env = mj_env.raw_env(ruleset=ruleset)
    rng = random.Random(seed)
    env.reset(seed=seed)
    parts = dict.fromkeys(
        ("core legal actions", "encode", "mask", "choose", "core apply", "env"),
        0,
    )
    done = 0
    start = clock()
    while done < steps:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        game = env.game
        assert game is not None
        seat = game.current_seat
        t0 = clock()
        legal = game.legal_actions()
        t2 = clock()
        encode_game(game, seat)
        t3 = clock()
        mask = legal_mask(legal)
        t4 = clock()
        act = int(rng.choice(np.flatnonzero(mask)))
        t5 = clock()
        game.apply(act)
        t6 = clock()
        # the environment's own part of step() (its checks are the core's apply above)
        env._after_apply(agent, game)
        t7 = clock()
        for name, took in zip(
            parts, (t2 - t0, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6), strict=True
        ):
            parts[name] += took
        done += 1
    return clock() - start, parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="nts-2016")
    args = parser.parse_args(argv)
    if not 1 <= args.steps <= 10_000_000:
        print("--steps is 1..10000000", file=sys.stderr)
        return 2
    total, parts = profile(args.steps, args.seed, args.ruleset)
    print(
        f"{args.steps} steps of raw_env(), {total / args.steps / 1000:.1f} us a step (process time)"
    )
    print_parts(parts, total, args.steps, decimals=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
