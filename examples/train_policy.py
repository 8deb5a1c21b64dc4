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
mean, by hands trained; matplotlib when installed, ``pip install matplotlib``, else a
plain PNG drawn here), ``learning_curve.csv`` and ``summary.json``: the duplicate
evaluation of the trained policy against ``random``: every wall of ``--eval-walls`` is
played four times with the policy at seat 0, 1, 2, 3 and ``random`` at the others, and
four times with ``random`` at that seat instead (same walls, same opponents with the same
seeds), so the luck of the deal cancels; the mean difference per hand and its 95%
confidence interval.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import struct
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mahjong_nts.bots import make_bot
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng, derive_seed
from mahjong_nts.core.shanten import shanten
from mahjong_nts.env import SingleSeatEnv
from mahjong_nts.env.encoding import LAYOUT
from mahjong_nts.formats.rulefiles import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from policy_bot import DIM, FEATURES, PolicyBot, action_features, save_weights

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


def duplicate(rules_spec: str, walls: int, seed: int) -> dict[str, float]:
    """The policy against ``random``, duplicate: each wall with the policy at every seat in
    turn and ``random`` at the others, then ``random`` at that seat instead (the same
    opponents, seeded the same): mean difference of the seat's balance per hand, 95% CI."""
    rules = load_ruleset(rules_spec)
    n = rules.table.players
    diffs: list[float] = []
    wins = [0, 0]
    for wall in range(walls):
        wall_seed = derive_seed(seed, "evaluate", wall)
        for seat in range(n):
            got = []
            for side in (0, 1):
                game = Game(rules, SeedRng(wall_seed))
                players = [
                    make_bot("random", derive_seed(wall_seed, "bot", s), rules) for s in range(n)
                ]
                if side == 0:
                    players[seat] = PolicyBot(derive_seed(wall_seed, "policy"), rules)
                while not game.is_over:
                    s = game.current_seat
                    game.apply(players[s].act(observe(game, s)))
                assert game.result is not None
                got.append(game.result.settlement.balances[seat])
                wins[side] += game.result.winner == seat
            diffs.append(got[0] - got[1])
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {
        "hands_each_side": len(diffs),
        "mean_difference": mean,
        "ci95_low": mean - half,
        "ci95_high": mean + half,
        "policy_win_rate": wins[0] / len(diffs),
        "random_win_rate": wins[1] / len(diffs),
    }


def _png(path: Path, curve: list[tuple[int, float, float]], ruleset: str) -> None:
    """The curve as a PNG: matplotlib when it is installed, else a plain line drawn here."""
    xs = [c[0] for c in curve]
    ys = [c[1] for c in curve]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        _plain_png(path, ys)
        return
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(xs, ys, color="tab:blue")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands trained")
    ax.set_ylabel("learner's balance per hand (mean of last 500)")
    ax.set_title(f"Linear policy against random seats ({ruleset})")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _plain_png(path: Path, ys: list[float], width: int = 600, height: int = 300) -> None:
    """A line chart of ``ys`` as a grey-scale PNG (zlib and struct only)."""
    img = np.full((height, width), 255, dtype=np.uint8)
    lo, hi = min([*ys, 0.0]), max([*ys, 1.0])

    def row(v: float) -> int:
        return int((hi - v) / (hi - lo) * (height - 1))

    img[row(0.0), :] = 180
    for k in range(1, len(ys)):
        x0, x1 = (
            (k - 1) * (width - 1) // max(1, len(ys) - 1),
            k * (width - 1) // max(1, len(ys) - 1),
        )
        for xx in range(x0, x1 + 1):
            f = (xx - x0) / max(1, x1 - x0)
            img[row(ys[k - 1] + f * (ys[k] - ys[k - 1])), xx] = 0
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    head = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


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
    _png(args.out / "learning_curve.png", curve, args.ruleset)
    import os

    os.environ["MAHJONG_NTS_POLICY"] = str(policy)
    result = duplicate(args.ruleset, args.eval_walls, args.seed)
    summary = {
        "ruleset": args.ruleset,
        "hands_trained": args.hands,
        "seed": args.seed,
        "train_seconds": round(trained, 1),
        "evaluate_seconds": round(time.perf_counter() - start - trained, 1),
        "weights": dict(zip(FEATURES, weights.round(4).tolist(), strict=True)),
        "duplicate_vs_random": result,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(
        f"trained on {args.hands} hands in {trained:.0f} s; duplicate against random over "
        f"{result['hands_each_side']} hands a side: {result['mean_difference']:+.1f} a hand "
        f"(95% CI {result['ci95_low']:+.1f} .. {result['ci95_high']:+.1f}); "
        f"wins {result['policy_win_rate']:.1%} against {result['random_win_rate']:.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
