"""Game speed, the second peer: full hands per second of riichienv's game env driven from
Python by random legal actions (issue 13).

riichienv (0.4.11, a Rust engine for Riichi mahjong with Python bindings, installed with the
``dev`` extra) is driven exactly as its README's "Gym-style API" example drives it with
its ``RandomAgent``: ``obs = env.reset()``, then while not ``env.done()``, every player
with an observation picks ``random.choice(obs.legal_actions())`` and ``env.step(actions)``
returns the next observations.  The game itself (wall, legal actions, claims, scoring)
runs in Rust; Python builds the dict of actions, picks among the legal ``Action`` objects
and makes the calls, as a Python bot or trainer would.

What is timed is ``hands`` such hands, one after another, in one env built outside the
timing with ``RiichiEnv(game_mode="4p-red-single", skip_mjai_logging=True, seed=seed)``:
four players, a single hand (kyoku) from the deal to a win or the exhausted wall, red
fives, no MJAI event log kept (the log is JSON strings of every event, which our engine
does not write either; with it riichienv is about 15% slower).  ``env.reset()`` deals the
next hand.  The seed fixes the walls (``reset(seed=...)`` does not: the walls come from
the env's generator) and the actions' ``random.Random(seed)``, so every repeat plays the
same hands.

Its hands, for a fair comparison (riichienv 0.4.11, Python 3.11, 300 hands at seed 1,
counted with :func:`riichienv_hand_stats`): about 88 decisions a hand (each player with
an observation at a step is one: about 76 discards, 2 pungs, 4.5 chows and 5.5 passes);
random actions almost never win (a Riichi hand needs a yaku: 0 of 300 hands), so nearly
every hand runs the wall out; the rules are Riichi mahjong (no flowers, a
dead wall of 14, riichi and dora, scoring with han and fu at a win), not ours, and a
step asks every player who may claim a discard at once (ours asks them one after another,
each a decision).  Per decision it builds an ``Observation`` for each player asked (in
Rust) and a list of ``Action`` objects for Python.

Run: ``python benchmarks/riichienv_mahjong.py [--hands 300] [--repeats 5] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from peers import available, installed_version

MISSING_MESSAGE = (
    "riichienv is not installed; the riichienv row of the game-speed benchmark needs it:\n"
    "    pip install riichienv==0.4.11        (or: pip install -e '.[dev]')"
)
GAME_MODE = "4p-red-single"


def riichienv_available() -> bool:
    """Whether riichienv can be imported (without importing it at module import time)."""
    return available("riichienv")


def riichienv_version() -> str:
    """The installed riichienv version ("" when it is missing)."""
    return installed_version("riichienv")


def _make_env(seed: int) -> Any:
    try:
        from riichienv import RiichiEnv
    except ImportError as exc:
        raise ImportError(MISSING_MESSAGE) from exc
    return RiichiEnv(game_mode=GAME_MODE, skip_mjai_logging=True, seed=seed)


def _play(env: Any, choose: Callable[[Any], Any]) -> int:
    """One hand, from ``reset`` to ``done``; the number of decisions (players asked)."""
    obs = env.reset()
    decisions = 0
    while not env.done():
        actions = {p: choose(o.legal_actions()) for p, o in obs.items()}
        decisions += len(actions)
        obs = env.step(actions)
    return decisions


def _time_hands(hands: int, seed: int, clock: Callable[[], float]) -> float:
    """Seconds (of ``clock``) for ``hands`` full hands, the env built outside the timing."""
    env = _make_env(seed)
    choose = random.Random(seed).choice
    start = clock()
    for _ in range(hands):
        _play(env, choose)
    return clock() - start


def riichienv_hands_per_second(
    hands: int, seed: int, repeats: int = 5, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Full riichienv hands per second, random legal actions, median of ``repeats``
    (every repeat plays the same hands in a fresh env)."""
    if hands < 1 or repeats < 1:
        raise ValueError("hands and repeats must be >= 1")
    return statistics.median(hands / _time_hands(hands, seed, clock) for _ in range(repeats))


@dataclass(frozen=True)
class RiichiEnvHandStats:
    """What riichienv's hands consist of (an untimed pass over the same hands)."""

    hands: int
    decisions_per_hand: float
    actions_per_hand: dict[str, float]
    wins: int


def riichienv_hand_stats(hands: int, seed: int) -> RiichiEnvHandStats:
    """Counts the decisions, actions, wins and draws of the hands the timing plays."""
    env = _make_env(seed)
    rng = random.Random(seed)
    kinds: collections.Counter[str] = collections.Counter()
    decisions = wins = 0
    for _ in range(hands):
        obs = env.reset()
        while not env.done():
            actions = {p: rng.choice(o.legal_actions()) for p, o in obs.items()}
            decisions += len(actions)
            kinds.update(str(a.action_type).rsplit(".", 1)[-1] for a in actions.values())
            obs = env.step(actions)
        wins += bool(env.win_results)
    return RiichiEnvHandStats(
        hands=hands,
        decisions_per_hand=decisions / hands,
        actions_per_hand={k: v / hands for k, v in kinds.most_common()},
        wins=wins,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args(argv)
    if not riichienv_available():
        print(MISSING_MESSAGE, file=sys.stderr)
        return 2
    if not 1 <= args.hands <= 100_000 or not 1 <= args.repeats <= 100:
        print("--hands is 1..100000 and --repeats 1..100", file=sys.stderr)
        return 2
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rate = riichienv_hands_per_second(args.hands, args.seed, args.repeats, clock)
    stats = riichienv_hand_stats(args.hands, args.seed)
    print(
        f"riichienv {riichienv_version()} ({GAME_MODE}), random legal actions, "
        f"{args.hands} hands, median of {args.repeats}, seed {args.seed}, {args.clock} clock"
    )
    print(f"    hands/s                 {rate:10.1f}")
    print(f"    decisions/hand          {stats.decisions_per_hand:10.1f}")
    shown = ", ".join(f"{k.lower()} {v:.2f}" for k, v in stats.actions_per_hand.items())
    print(f"    actions/hand            {shown}")
    print(f"    hands won               {stats.wins:10d} of {stats.hands}")
    print(f"    us/decision             {1e6 / (rate * stats.decisions_per_hand):10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
