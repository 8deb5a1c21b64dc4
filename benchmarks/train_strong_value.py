"""Learn the value of a position after a discard, for the strong bot (``Level.learned``).

Run: ``python benchmarks/train_strong_value.py --hands N --seed S [--jobs J]
[--explore 0.2] [--ridge 1.0] [--clip 3000] [--data FILE.npz] [--out FILE.py]``.

1. **Data.** Plays ``N`` hands of the walls of ``--seed`` (``hand_seed(S, i)``, the
   walls ``mahjong-nts duel --seed S`` deals: train on seeds the duels you measure with
   do not use), two ``strong`` bots against two ``heuristic`` ones, seated as the duel
   seats them (AABB and its rotations, one a hand).  At every own-turn discard each
   ``strong`` bot records the features of the position its discard leaves
   (:func:`mahjong_nts.bots.strong.discard_features`, from its observation alone); with
   ``--explore`` of its discards it takes one of its best few at random, so the data
   also shows what the other choices lead to.  Each record is labelled with the seat's
   settlement balance at the hand's end (points), clipped to +-``--clip`` (a limit
   hand's few thousand would outweigh many hands).  ``--data`` keeps the records (an
   ``.npz``; given an existing file, it is read instead of playing).
2. **Fit.** Ridge regression of the balance on the features (standardized; the last
   fifth of the hands held out), its held-out mean squared error printed beside a
   constant predictor's (the training mean).
3. **Out.** ``--out`` writes the weights as a Python module of plain floats (the bot needs
   no numpy), its header saying the command (one that plays the records again: with
   ``--learned`` they depend on the weights module the bots then read), seed, hands and
   date that made it:
   ``src/mahjong_nts/bots/strong_value.py`` is the one the bot reads.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np

from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.strong import FEATURES, STRONG, StrongBot
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import arrangements, duel_bot_seed
from mahjong_nts.sim.simulate import _play_game, hand_seed, round_wind_of

MOST_HANDS = 2_000_000
TARGETS = {
    "balance": "points of the seat's balance at the hand's end",
    "win": "points the seat receives when it wins the hand (0 when it does not)",
}
CHUNK = 50

Rows = tuple[list[tuple[float, ...]], list[float], list[int], list[int], list[int]]


def play_hands(ruleset: str, seed: int, explore: float, learned: bool, start: int) -> Rows:
    """Hands ``start`` to ``start + CHUNK - 1``: of every recorded discard of the
    ``strong`` seats, in the order they were made, its features, the seat's balance at
    the hand's end, the hand, the seat and whether the seat won (1) or not (0)."""
    rules = load_ruleset(ruleset)
    level = replace(STRONG, explore=explore, learned=learned)
    rows = arrangements(rules.table.players)
    feats: list[tuple[float, ...]] = []
    labels: list[float] = []
    hands: list[int] = []
    seats: list[int] = []
    won: list[int] = []
    for index in range(start, start + CHUNK):
        row = rows[index % len(rows)]
        records: dict[int, list[tuple[float, ...]]] = {}
        players: list[StrongBot | HeuristicBot] = []
        for s, a in enumerate(row):
            bot_seed = duel_bot_seed(seed, index, s)
            if a:
                bot = StrongBot(bot_seed, rules, level=level)
                bot.record = records[s] = []
                players.append(bot)
            else:
                players.append(HeuristicBot(bot_seed, rules))
        game = Game(rules, SeedRng(hand_seed(seed, index)), round_wind=round_wind_of(index, rules))
        _play_game(game, players, ["strong" if a else "heuristic" for a in row], f"hand {index}")
        result = game.result
        assert result is not None
        for s, recs in records.items():
            n = len(recs)
            feats.extend(recs)
            labels.extend([float(result.settlement.balances[s])] * n)
            hands.extend([index] * n)
            seats.extend([s] * n)
            won.extend([int(result.winner == s)] * n)
    return feats, labels, hands, seats, won


Data = dict[str, np.ndarray]
"""The records as arrays: ``x`` (features), ``y`` (balances), ``hand``, ``seat``, ``won``."""


PLAYED = ("hands", "seed", "ruleset", "explore", "learned")
"""The arguments that say how the records were played (kept with them in ``--data``)."""


def gather(args: argparse.Namespace) -> Data:
    """The records: read from ``--data`` when it exists (``args`` then takes the way they
    were played from the file), else played (and kept there)."""
    if args.data and Path(args.data).exists():
        with np.load(args.data) as z:
            played = json.loads(str(z["played"]))
            for k in PLAYED:
                setattr(args, k, played[k])
            return {k: z[k] for k in ("x", "y", "hand", "seat", "won")}
    starts = range(0, args.hands, CHUNK)
    play = partial(play_hands, args.ruleset, args.seed, args.explore, args.learned)
    t0 = time.perf_counter()
    cols: tuple[list[object], ...] = ([], [], [], [], [])
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(play, starts):
            for col, got in zip(cols, part, strict=True):
                col.extend(cast(list[object], got))
    took = time.perf_counter() - t0
    hands = len(starts) * CHUNK
    rate = hands / took
    print(f"played {hands} hands, {len(cols[1])} decisions in {took:.0f} s ({rate:.0f} hands/s)")
    data = {k: np.array(c) for k, c in zip(("x", "y", "hand", "seat", "won"), cols, strict=True)}
    if args.data:
        played = json.dumps({k: getattr(args, k) for k in PLAYED})
        np.savez_compressed(args.data, played=np.array(played), **cast(dict[str, Any], data))
    return data


def fit_ridge(x: np.ndarray, y: np.ndarray, ridge: float) -> tuple[float, np.ndarray]:
    """Ridge regression of ``y`` on ``x`` (columns standardized, the penalty ``ridge``
    times a thousandth of the rows on each standardized coefficient), back in the raw
    features' units: ``(intercept, coefficients)``."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    ym = y.mean()
    a = z.T @ z + ridge * len(y) * 1e-3 * np.eye(z.shape[1])
    beta = np.linalg.solve(a, z.T @ (y - ym))
    coef = beta / scale
    return float(ym - coef @ mean), coef


def td_targets(pred: np.ndarray, outcome: np.ndarray, last: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) targets of decisions in order: ``G = outcome`` at a seat's last decision
    of a hand (``last``), else ``(1 - lam) * pred[next] + lam * G[next]``."""
    g = np.empty_like(outcome)
    for i in range(len(outcome) - 1, -1, -1):
        if last[i]:
            g[i] = outcome[i]
        else:
            g[i] = (1.0 - lam) * pred[i + 1] + lam * g[i + 1]
    return g


def fit(
    data: Data, y: np.ndarray, rows: np.ndarray, ridge: float, lam: float
) -> tuple[float, np.ndarray]:
    """The fit on ``rows`` (a mask): of the outcome ``y`` itself (``lam`` 1), or of
    TD(lambda) targets, refitted five times from the outcome's fit."""
    x = data["x"]
    b0, coef = fit_ridge(x[rows], y[rows], ridge)
    if lam >= 1.0:
        return b0, coef
    key = data["hand"] * 8 + data["seat"]
    last = np.append(key[1:] != key[:-1], True)
    for _ in range(5):
        g = td_targets(b0 + x @ coef, y, last, lam)
        b0, coef = fit_ridge(x[rows], g[rows], ridge)
    return b0, coef


def held_out(data: Data, y: np.ndarray, ridge: float, lam: float) -> tuple[float, float]:
    """Held-out mean squared error against the outcome ``y`` of the fit and of a constant
    predictor (the training mean), the last fifth of the hands held out."""
    hand = data["hand"]
    cut = np.quantile(hand, 0.8)
    train, test = hand <= cut, hand > cut
    b0, coef = fit(data, y, train, ridge, lam)
    pred = b0 + data["x"][test] @ coef
    return float(np.mean((y[test] - pred) ** 2)), float(np.mean((y[test] - y[train].mean()) ** 2))


def module_text(b0: float, coef: np.ndarray, command: str, args: argparse.Namespace, n: int) -> str:
    """The weights as a Python module of plain floats."""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        '"""The learned value of a position after a discard (``Level.learned`` of',
        ":mod:`mahjong_nts.bots.strong`), ``INTERCEPT + sum(COEF[i] * features[i])`` over",
        ":func:`~mahjong_nts.bots.strong.discard_features`:",
        f"{TARGETS[args.target]}.",
        "",
        "Generated, do not edit: made by",
        *textwrap.wrap(command, 88, initial_indent="    ", subsequent_indent="    "),
        f"({args.hands} hands of seed {args.seed}, {n} decisions, {args.ruleset}, "
        f"TD lambda {args.lam}, {when}).",
        '"""',
        "",
        "FEATURES: tuple[str, ...] = (",
        *(f'    "{name}",' for name in FEATURES),
        ")",
        f"INTERCEPT: float = {b0!r}",
        "COEF: tuple[float, ...] = (",
        *(f"    {float(c)!r},  # {name}" for c, name in zip(coef, FEATURES, strict=True)),
        ")",
        "",
    ]
    return "\n".join(lines)


def replay(args: argparse.Namespace) -> list[str]:
    """The arguments that play the records again and make the same fit (no ``--data``)."""
    out = [
        *("--hands", str(args.hands), "--seed", str(args.seed), "--ruleset", args.ruleset),
        *("--explore", str(args.explore), "--target", args.target, "--lam", str(args.lam)),
        *("--ridge", str(args.ridge), "--clip", str(args.clip)),
    ]
    if args.learned:
        out.append("--learned")
    return [*out, "--out", args.out]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help=f"{CHUNK} to {MOST_HANDS}")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--ruleset", default="nts-2016")
    ap.add_argument("--jobs", type=int, default=1, help="processes, 1 to 64")
    ap.add_argument("--explore", type=float, default=0.2, help="0 to 1")
    ap.add_argument("--learned", action="store_true", help="the strong bots play learned")
    ap.add_argument("--ridge", type=float, default=1.0, help="0 or more")
    ap.add_argument(
        "--lam", type=float, default=1.0, help="TD(lambda), 0 to 1 (1: the outcome itself)"
    )
    ap.add_argument("--clip", type=float, default=3000.0, help="points, more than 0")
    ap.add_argument(
        "--target",
        choices=tuple(TARGETS),
        default="balance",
        help="what is learned: " + "; ".join(f"{k}: {v}" for k, v in TARGETS.items()),
    )
    ap.add_argument("--data", default="", help="an .npz of the records (read or written)")
    ap.add_argument("--out", default="", help="the weights module to write")
    args = ap.parse_args()
    if not CHUNK <= args.hands <= MOST_HANDS or not 1 <= args.jobs <= 64:
        ap.error(f"--hands {CHUNK} to {MOST_HANDS}, --jobs 1 to 64")
    if not 0.0 <= args.explore <= 1.0 or not 0.0 <= args.lam <= 1.0:
        ap.error("--explore and --lam 0 to 1")
    if args.ridge < 0.0 or args.clip <= 0.0:
        ap.error("--ridge 0 or more, --clip more than 0")
    data = gather(args)
    x = data["x"]
    if x.ndim != 2 or x.shape[1] != len(FEATURES):
        ap.error(f"the records have {x.shape[-1]} features, the bot {len(FEATURES)}")
    y = np.clip(data["y"], -args.clip, args.clip)
    if args.target == "win":
        y = np.where(data["won"] > 0, y, 0.0)
    mse, const = held_out(data, y, args.ridge, args.lam)
    print(
        f"held-out MSE {mse:.0f} vs constant {const:.0f} (R^2 {1 - mse / const:.4f}; "
        f"{len(y)} decisions, {len(np.unique(data['hand']))} hands)"
    )
    b0, coef = fit(data, y, np.ones(len(y), dtype=bool), args.ridge, args.lam)
    for name, c in zip(FEATURES, coef, strict=True):
        print(f"  {name:16s} {c:+10.2f}")
    print(f"  {'intercept':16s} {b0:+10.2f}")
    if args.out:
        command = "python benchmarks/train_strong_value.py " + shlex.join(replay(args))
        Path(args.out).write_text(module_text(b0, coef, command, args, len(y)))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
