"""Train a small policy on the mahjong-nts environment against random seats (CPU, numpy).

    python examples/train_policy.py [--hands 6000] [--ruleset nts-2016] [--seed 1]
                                    [--out examples/out] [--eval-walls 200]

The learner plays one seat of :class:`mahjong_nts.env.SingleSeatEnv` (the seat moves
round the table from hand to hand), the other seats are the ``random`` bot.  Its policy is
linear over a few features of each legal action (``policy_bot.action_features``, read from
the environment's layout-1 array): a softmax over the legal actions' scores.  Learning is
REINFORCE with a baseline: after each batch of hands every decision's log-probability is
pushed by its advantage, which is the hand's reward (the seat's balance, in thousands of
points, less its running mean) plus a shaping term, how many tiles nearer to ready
(``core.shanten``) the hand was at the learner's next decision.

Written to ``--out``: ``policy.npz`` (the weights, for ``policy_bot.PolicyBot``),
``learning_curve.png`` (the learner's balance per hand against the random seats, moving
mean, by hands trained; it needs matplotlib, ``pip install 'mahjong-nts[report]'``),
``learning_curve.csv`` and ``summary.json``: the trained policy against ``random`` by
``mahjong-nts duel`` (:mod:`mahjong_nts.sim.duel`): every wall of ``--eval-walls`` is
played with two of each seated AABB and rotated, so the luck of the deal cancels; the mean
difference per hand and its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mahjong_nts.core.seeding import derive_seed
from mahjong_nts.core.shanten import shanten
from mahjong_nts.env import SingleSeatEnv
from mahjong_nts.env.encoding import LAYOUT
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import DuelSpec, arrangements, run_duel, summarize_duel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from policy_bot import DIM, FEATURES, action_features, save_weights

MAX_HANDS = 1_000_000
MAX_WALLS = 100_000
SCALE = 1000.0
"""Points per unit of reward (a hand's balance is hundreds to thousands of points)."""
SHAPING = 0.3
"""Reward per tile nearer to ready at the next decision."""

_HAND = LAYOUT["HAND"]


def _shanten_of(x: npt.NDArray[np.float32]) -> int:
    hand = [int(v) for v in x[_HAND]]
    held = sum(hand)
    if held % 3 == 0:  # (no hand: a seat's array once it is over can still hold one)
        return 8
    return shanten(hand, n_melds=min((14 - held) // 3, 4))


def train(
    hands: int, ruleset: str, seed: int, batch: int = 32, lr: float = 0.05, shaping: float = SHAPING
) -> tuple[npt.NDArray[np.float64], list[tuple[int, float, float]]]:
    """The trained weights and the curve: (hands trained, mean balance, win rate) over
    the last 500 hands, every ``batch`` hands."""
    rng = np.random.default_rng(seed)
    weights = np.zeros(DIM)
    baseline = 0.0
    env = SingleSeatEnv(ruleset=ruleset, seat=0, opponents="random")
    balances: list[float] = []
    wins: list[int] = []
    curve: list[tuple[int, float, float]] = []
    grad = np.zeros(DIM)
    for hand in range(hands):
        seat = hand % len(env.aec.possible_agents)
        if seat != env.seat:
            env = SingleSeatEnv(ruleset=ruleset, seat=seat, opponents="random")
        obs, _ = env.reset(seed=derive_seed(seed, "train", hand))
        steps: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int, float]] = []
        done = False
        reward = 0.0
        while not done:
            x = obs["observation"]
            ids = np.flatnonzero(obs["action_mask"])
            feats = action_features(x, ids)
            logits = feats @ weights
            p = np.exp(logits - logits.max())
            p /= p.sum()
            i = int(rng.choice(len(ids), p=p))
            before = _shanten_of(x)
            obs, reward, done, _, _ = env.step(int(ids[i]))
            gain = before - _shanten_of(obs["observation"])
            steps.append((feats, p, i, shaping * max(-1, min(1, gain))))
        game = env.aec.game
        assert game is not None and game.result is not None
        r = reward / SCALE
        for feats, p, i, shaped in steps:
            grad += (shaped + r - baseline) * (feats[i] - p @ feats)
        baseline += 0.01 * (r - baseline)
        balances.append(reward)
        wins.append(game.result.winner == seat)
        if (hand + 1) % batch == 0:
            weights += lr * grad / batch
            grad[:] = 0
            last = slice(-500, None)
            curve.append((hand + 1, statistics.fmean(balances[last]), statistics.fmean(wins[last])))
    return weights, curve


def duplicate(rules_spec: str, walls: int, seed: int) -> dict[str, Any]:
    """The policy against ``random`` by :mod:`mahjong_nts.sim.duel` (``mahjong-nts duel``):
    every wall played with two of each, seated AABB and rotated, so the luck of the deal
    cancels; the summary's ``mean_diff`` is the policy's margin per hand, with its 95% CI."""
    rules = load_ruleset(rules_spec)
    spec = DuelSpec(rules_spec, "policy_bot:PolicyBot", "random", seed)
    hands = walls * len(arrangements(rules.table.players))
    return summarize_duel(spec, rules, run_duel(spec, hands, rules=rules))


def _png(path: Path, curve: list[tuple[int, float, float]], ruleset: str) -> bool:
    """The curve as a PNG (matplotlib: ``pip install 'mahjong-nts[report]'``); False,
    and no file, without it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot([c[0] for c in curve], [c[1] for c in curve], color="tab:blue")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands trained")
    ax.set_ylabel("learner's balance per hand (mean of last 500)")
    ax.set_title(f"Linear policy against random seats ({ruleset})")
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6000, help="hands to train on")
    parser.add_argument("--ruleset", default="nts-2016")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out")
    parser.add_argument("--eval-walls", type=int, default=200, help="walls of the duplicate test")
    args = parser.parse_args(argv)
    if not 1 <= args.hands <= MAX_HANDS or not 1 <= args.eval_walls <= MAX_WALLS:
        print(f"--hands is 1..{MAX_HANDS} and --eval-walls 1..{MAX_WALLS}", file=sys.stderr)
        return 2
    try:
        load_ruleset(args.ruleset)
    except ValueError as e:
        print(f"--ruleset: {e}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    weights, curve = train(args.hands, args.ruleset, args.seed)
    trained = time.perf_counter() - start
    policy = args.out / "policy.npz"
    save_weights(policy, weights)
    with (args.out / "learning_curve.csv").open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["hands_trained", "mean_balance_last_500", "win_rate_last_500"])
        out.writerows(curve)
    if not _png(args.out / "learning_curve.png", curve, args.ruleset):
        print("no learning_curve.png: the plot needs matplotlib (the [report] extra)")
    os.environ["MAHJONG_NTS_POLICY"] = str(policy)  # what policy_bot.PolicyBot loads
    result = duplicate(args.ruleset, args.eval_walls, args.seed)
    summary = {
        "ruleset": args.ruleset,
        "hands_trained": args.hands,
        "seed": args.seed,
        "train_seconds": round(trained, 1),
        "evaluate_seconds": round(time.perf_counter() - start - trained, 1),
        "weights": dict(zip(FEATURES, weights.round(4).tolist(), strict=True)),
        "duel_vs_random": result,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    low, high = result["mean_diff_ci"]
    policy_bot, random_bot = result["bots"]
    print(
        f"trained on {args.hands} hands in {trained:.0f} s; duel against random over "
        f"{result['walls']} walls ({result['hands']} hands): {result['mean_diff']:+.1f} a hand "
        f"(95% CI {low:+.1f} .. {high:+.1f}); "
        f"wins {policy_bot['win_rate']:.1%} against {random_bot['win_rate']:.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
