"""Game speed, the peer's side: full hands per second of RLCard's mahjong env, random agents.

The other half of the game-speed benchmark (issue 3): our engine's random-legal bots are
timed against this, in the same process and the same run.

What is timed is exactly ``env.run(is_training=False)`` once per hand, ``hands`` times, with
four ``RandomAgent``s; the env is built and seeded outside the timed region.  One ``run`` is
one hand from deal to win or exhausted wall (checked in rlcard 1.2.0):
``Env.run`` calls ``reset()`` -> ``MahjongGame.init_game()`` (a fresh 136-tile shuffled
deck, 13 tiles each, a 14th to the dealer) and loops ``step`` until ``game.is_over()``,
i.e. ``MahjongJudger.judge_game``: some player's hand counts as complete, or the deck is
empty.  Nothing carries over between runs but the env's random generator.

Each repeat builds a fresh env with ``config={'seed': seed}`` (the deck shuffles) and
seeds numpy's global generator with ``seed`` (``RandomAgent`` draws from ``np.random``),
so every repeat plays the same hands; the caller's global numpy state is restored after.

The peer's hand, for a fair comparison (rlcard 1.2.0, numpy 2.4.6, Python 3.11; counted
with ``rlcard_hand_stats``, 1000 hands each at seeds 1 and 2):

* about 94.6 agent decisions per hand (each ``env.step`` = one ``eval_step``): 86.8
  discards and 7.8 claim decisions (pong/chow/gong offered, taken or "stand"), of which
  3.9 claims are taken;
* about 99% of hands end in a draw (98.9% and 99.3%): random discards almost never
  complete a hand, so nearly every hand plays out the whole wall (83 draws after the deal);
* the ruleset is much simpler than ours: no scoring at all (payoffs are +1/-1/0), no win
  on a discard (only a complete hand after a draw or a claim), no concealed or added kongs
  and no replacement tile after a kong, no flowers or dead wall, one claimer per discard
  (the first found in seat order), a chow (nearly) only as (x-2, x-1) + x, and win detection is a
  greedy set count (``judge_hu``/``cal_set``), not an exact decomposition.
* its per-decision cost includes RL bookkeeping our bots do not do: a 6x34x4 numpy
  observation built for every state (``_extract_state``/``encode_cards``), the legal
  actions recomputed for it, a probabilities dict in ``RandomAgent.eval_step``, and
  trajectories kept for all four players.  Its time goes (cProfile, 200 hands) about
  70% to win checks (``is_over`` -> ``judge_game`` -> ``judge_hu``/``cal_set`` for all
  four players, twice per step), 17% to building observations, 8% to the game step
  itself (claims via ``judge_pong_gong``), 4% to the random agent.

Run: ``python benchmarks/rlcard_mahjong.py [--hands 200] [--repeats 5] [--seed 1]
[--profile]``.  Needs ``pip install rlcard`` (or ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from peers import available, installed_version

MISSING_MESSAGE = (
    "rlcard is not installed; the RLCard side of the game-speed benchmark needs it:\n"
    "    pip install rlcard        (or: pip install -e '.[bench]')"
)


def rlcard_available() -> bool:
    """Whether rlcard can be imported (without importing it at module import time)."""
    return available("rlcard")


def rlcard_version() -> str:
    """The installed rlcard version ("" when it is missing)."""
    return installed_version("rlcard")


def _make_env(seed: int) -> Any:
    """A seeded mahjong env with four random agents; seeds numpy's global generator too."""
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        raise ImportError(MISSING_MESSAGE) from exc
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * 4)
    np.random.seed(seed)  # RandomAgent draws from the global generator
    return env


def _time_hands(hands: int, seed: int, clock: Callable[[], float]) -> float:
    """Seconds (of ``clock``) for ``hands`` full hands (``env.run``), env built outside
    the timing."""
    env = _make_env(seed)
    run = env.run
    start = clock()
    for _ in range(hands):
        run(is_training=False)
    return clock() - start


def rlcard_hands_per_second(
    hands: int, seed: int, repeats: int = 5, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Full RLCard mahjong hands per second, four random agents, median of ``repeats``.

    Every repeat plays the same ``hands`` seeded hands in a fresh env; the global numpy
    random state is saved and restored around the measurement.
    """
    if hands < 1 or repeats < 1:
        raise ValueError("hands and repeats must be >= 1")
    import numpy as np

    saved = np.random.get_state()
    try:
        rates = [hands / _time_hands(hands, seed, clock) for _ in range(repeats)]
    finally:
        np.random.set_state(saved)
    return statistics.median(rates)


@dataclass(frozen=True)
class RLCardHandStats:
    """What RLCard's hands consist of (counted in an untimed pass over the same hands)."""

    hands: int
    decisions_per_hand: float  # env.step calls = agent decisions
    discards_per_hand: float
    claim_decisions_per_hand: float  # pong/chow/gong offered: the agent takes it or stands
    claims_taken_per_hand: float
    draw_rate: float  # wall exhausted, nobody complete


def rlcard_hand_stats(hands: int, seed: int) -> RLCardHandStats:
    """Counts decisions and draws over the same hands ``rlcard_hands_per_second`` plays."""
    import numpy as np

    saved = np.random.get_state()
    try:
        env = _make_env(seed)
        claims = {"pong", "chow", "gong"}
        decisions = discards = claim_decisions = taken = draws = 0
        for _ in range(hands):
            _, payoffs = env.run(is_training=False)
            for _, action in env.action_recorder:  # (player, decoded action) per step
                decisions += 1
                if isinstance(action, str) and action in claims:
                    claim_decisions += 1
                    taken += 1
                elif action == "stand":
                    claim_decisions += 1
                else:
                    discards += 1
            if not any(payoffs):  # [0, 0, 0, 0]: judge_game found no winner
                draws += 1
    finally:
        np.random.set_state(saved)
    return RLCardHandStats(
        hands=hands,
        decisions_per_hand=decisions / hands,
        discards_per_hand=discards / hands,
        claim_decisions_per_hand=claim_decisions / hands,
        claims_taken_per_hand=taken / hands,
        draw_rate=draws / hands,
    )


def _profile(hands: int, seed: int, top: int = 15) -> None:
    import cProfile
    import pstats

    import numpy as np

    saved = np.random.get_state()
    env = _make_env(seed)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(hands):
        env.run(is_training=False)
    profiler.disable()
    np.random.set_state(saved)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile top 15 (tottime)")
    args = parser.parse_args(argv)
    if not rlcard_available():
        print(MISSING_MESSAGE, file=sys.stderr)
        return 2

    rate = rlcard_hands_per_second(args.hands, args.seed, args.repeats)
    stats = rlcard_hand_stats(args.hands, args.seed)
    per_decision_us = 1e6 / (rate * stats.decisions_per_hand)
    print(
        f"RLCard {rlcard_version()} mahjong, random agents, {args.hands} hands, "
        f"median of {args.repeats}, seed {args.seed}"
    )
    print(f"    hands/s                 {rate:10.1f}")
    print(
        f"    decisions/hand          {stats.decisions_per_hand:10.1f}"
        f"  ({stats.discards_per_hand:.1f} discards, "
        f"{stats.claim_decisions_per_hand:.1f} claim decisions, "
        f"{stats.claims_taken_per_hand:.1f} taken)"
    )
    print(f"    draw rate               {stats.draw_rate:10.1%}")
    print(f"    us/decision             {per_decision_us:10.1f}")
    if args.profile:
        _profile(args.hands, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
