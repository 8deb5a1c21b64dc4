"""Learn what a choice of the strong bot changes, from counterfactual play-outs.

Run: ``python benchmarks/train_strong_choice.py --hands N --seed S [--jobs J]
[--share 0.25] [--claim-share 1.0] [--data FILE.npz] [--ridge 1.0] [--clip 3000]
[--test-seed S2 --test-data FILE2.npz]``.

1. **Data (counterfactual, common random numbers).**  Plays ``N`` hands of the walls of
   ``--seed`` (the walls ``mahjong-nts duel --seed S`` deals: train on seeds the duels you
   measure with do not use), two ``strong`` bots against two ``heuristic`` ones, seated as
   the duel seats them (AABB and its rotations, one a hand).  At a share (``--share``) of
   a ``strong`` seat's own-turn discards whose ordering has two or more candidates (the
   best ``learned_most`` within ``learned_near`` steps, those ``Level.learned`` ranks) the
   hand is *branched*: for each candidate other than the bot's own choice the game is
   cloned (:meth:`~mahjong_nts.core.game.Game.clone`), that discard made, and the hand
   played to its end by the same four bots on the same remaining wall; the main line then
   goes on with the bot's own choice, whose outcome is the main line's.  The bots hold no
   state from one decision to the next (each decision is a function of the seat's seed
   and observation: the test that a branch repeating the main line's choice ends in the
   main line's outcome checks it), so the play-outs use fresh bots of the same seeds.
   The same at a share (``--claim-share``) of the claim windows where a ``strong`` seat is
   offered a pung or chow (and no mahjong): passing and each pung or chow (the claim
   followed by the bot's own discard).  Each candidate is recorded with its features
   (:func:`~mahjong_nts.bots.strong.choice_features`) and the seat's balance at the
   hand's end and whether the seat won.  Because everything else is the same, the
   difference between a decision's candidates' outcomes is what the choice changed,
   with ``strong`` playing on.
2. **Fit.**  Ridge regression, no intercept, of a candidate's outcome (clipped to
   +-``--clip``) less the mean of its decision's candidates on its features less their
   mean over the decision (:func:`fit_advantage`); discards and claims apart.
3. **Offline screen.**  On held-out decisions (the last fifth of the hands, or the
   records of ``--test-seed``): the mean realized advantage of the model's pick over
   ``strong``'s own pick, with a 95% interval over decisions, the share of decisions
   where they differ, and the same for trivial policies (the second candidate; always
   pass; always the first claim).
4. **Out.**  ``--out`` writes the weights fitted on all the records of ``--seed`` as a
   Python module of plain floats (the bot needs no numpy), its header saying the command
   that made it: ``src/mahjong_nts/bots/strong_choice.py`` is the one the bot reads
   (``Level.choice``, ``Level.choice_claims``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import shlex
import textwrap
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np

from mahjong_nts.bots import Player
from mahjong_nts.bots.heuristic import HeuristicBot, _Context
from mahjong_nts.bots.strong import (
    CHOICE_FEATURES,
    FEATURES,
    STRONG,
    StrongBot,
    choice_features,
)
from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.observation import Observation, observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.seeding import SeedRng, derive_seed
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import arrangements, duel_bot_seed
from mahjong_nts.sim.simulate import _play_game, hand_seed, round_wind_of

MOST_HANDS = 1_000_000
CHUNK = 20
NAMES = CHOICE_FEATURES
COLUMNS = ("x", "y", "won", "decision", "rank", "hand", "seat")
COUNTS = ("discard", "claim", "seat_hands", "main_balance", "replays", "replay_differs")
"""What :func:`play_hand` counts: the decisions that could have been branched, the
``strong`` seat-hands and their balance, the main line's choices replayed as branches
(``--check``) and how many of those ended otherwise than the main line."""

Pending = tuple[list[Action], list[tuple[float, ...]]]
"""Candidates of a decision (the bot's own choice first) and their features."""


class Brancher(StrongBot):
    """``strong``, unchanged in play, that leaves the candidates of its last decision in
    :attr:`pending` (own-turn discards with two or more near ones:
    :meth:`~mahjong_nts.bots.strong.StrongBot.discard_candidates`; claim windows with a
    pung or chow on offer: :meth:`~mahjong_nts.bots.strong.StrongBot.claim_candidates`)."""

    def __init__(self, seed: int = 0, rules: RuleSet | None = None) -> None:
        super().__init__(seed, rules, level=STRONG)
        self.pending: Pending | None = None
        self.record = []  # (takes every own-turn discard through _learned_pick)
        self._legal: Sequence[Action] = ()

    def act(self, obs: Observation) -> Action:
        self.pending = None
        self._legal = obs.legal
        return super().act(obs)

    def _learned_pick(
        self,
        ctx: _Context,
        counts: list[int],
        choices: list[int],
        scores: list[float],
        values: list[float],
        dangers: tuple[float, Sequence[float]],
    ) -> tuple[float, int]:
        got = super()._learned_pick(ctx, counts, choices, scores, values, dangers)
        self.record = []
        near, feats = self.discard_candidates(ctx, counts, choices, scores, values, dangers)
        if len(near) > 1 and choices[near[0]] == got[1]:
            by_tile = {
                int(a.tile): a
                for a in self._legal
                if a.kind is ActionKind.DISCARD and a.tile is not None
            }
            self.pending = ([by_tile[choices[i]] for i in near], feats)
        return got

    def _claim(self, obs: Observation, ctx: _Context, counts: list[int]) -> Action:
        choice = super()._claim(obs, ctx, counts)
        acts, feats = self.claim_candidates(obs, ctx, counts, choice)
        if acts:
            self.pending = (acts, feats)
        return choice


Rows = dict[str, list[object]]


def play_hand(
    rules: RuleSet,
    seed: int,
    index: int,
    share: float,
    claim_share: float,
    check: bool,
    out: dict[str, Rows],
    counts: dict[str, int],
) -> None:
    """Hand ``index``: the main line, branched at the sampled decisions; the records
    appended to ``out["discard"]`` and ``out["claim"]``, the decisions that could have
    been branched counted in ``counts``."""
    row = arrangements(rules.table.players)[index % len(arrangements(rules.table.players))]
    seeds = [duel_bot_seed(seed, index, s) for s in range(len(row))]
    main: list[object] = [
        Brancher(b, rules) if a else HeuristicBot(b, rules) for a, b in zip(row, seeds, strict=True)
    ]
    fresh: list[Player] = [
        StrongBot(b, rules, level=STRONG) if a else HeuristicBot(b, rules)
        for a, b in zip(row, seeds, strict=True)
    ]
    names = ["strong" if a else "heuristic" for a in row]
    rng = random.Random(derive_seed(seed, "branch", index))
    game = Game(rules, SeedRng(hand_seed(seed, index)), round_wind=round_wind_of(index, rules))
    # decisions of this hand: (what, seat, candidates' features, outcomes; None: main line)
    made: list[tuple[str, int, list[tuple[float, ...]], list[tuple[int, int] | None]]] = []
    replays: list[tuple[int, tuple[int, int] | None]] = []
    while not game.is_over:
        seat = game.current_seat
        bot = main[seat]
        act = bot.act(observe(game, seat))  # type: ignore[attr-defined]
        pending = bot.pending if isinstance(bot, Brancher) else None
        if pending is not None:
            what = "claim" if game.phase is not Phase.TURN else "discard"
            counts[what] += 1
            p = claim_share if what == "claim" else share
            acts, feats = pending
            if acts[0] == act and rng.random() < p:
                outcomes: list[tuple[int, int] | None] = [None]
                for other in acts[0 if check else 1 :]:
                    g = game.clone()
                    g.apply(other)
                    _play_game(g, fresh, names, f"a branch of hand {index}")
                    res = g.result
                    assert res is not None
                    outcomes.append((res.settlement.balances[seat], int(res.winner == seat)))
                if check:  # the main line's choice played out as a branch: kept apart
                    replays.append((seat, outcomes[1]))
                    outcomes = [None, *outcomes[2:]]
                made.append((what, seat, feats, outcomes))
        game.apply(act)
    result = game.result
    assert result is not None
    for seat, o in replays:
        if o != (result.settlement.balances[seat], int(result.winner == seat)):
            counts["replay_differs"] += 1
    counts["replays"] += len(replays)
    for k, (what, seat, feats, outcomes) in enumerate(made):
        rows = out[what]
        decision = index * 1000 + k
        for rank, (f, o) in enumerate(zip(feats, outcomes, strict=True)):
            if o is None:
                o = (result.settlement.balances[seat], int(result.winner == seat))
            rows["x"].append(f)
            rows["y"].append(float(o[0]))
            rows["won"].append(o[1])
            rows["decision"].append(decision)
            rows["rank"].append(rank)
            rows["hand"].append(index)
            rows["seat"].append(seat)
    counts["seat_hands"] += sum(row)
    counts["main_balance"] += sum(result.settlement.balances[s] for s in range(len(row)) if row[s])


def play_chunk(
    ruleset: str, seed: int, share: float, claim_share: float, check: bool, start: int, n: int
) -> tuple[dict[str, Rows], dict[str, int]]:
    """Hands ``start`` to ``start + n - 1`` (:func:`play_hand`)."""
    rules = load_ruleset(ruleset)
    out: dict[str, Rows] = {w: {c: [] for c in COLUMNS} for w in ("discard", "claim")}
    counts = dict.fromkeys(COUNTS, 0)
    for index in range(start, start + n):
        play_hand(rules, seed, index, share, claim_share, check, out, counts)
    return out, counts


Data = dict[str, dict[str, np.ndarray]]
"""The records of discards and of claims: ``x`` (features), ``y`` (balance), ``won``,
``decision``, ``rank`` (0: the bot's own choice), ``hand``, ``seat``."""

PLAYED = ("hands", "seed", "ruleset", "share", "claim_share")
"""The arguments that say how the records were played (kept with them in ``--data``)."""


def gather(args: argparse.Namespace, seed: int, path: str) -> tuple[Data, dict[str, int]]:
    """The records of the walls of ``seed``: read from ``path`` when it exists, else
    played (and kept there when ``path`` is given)."""
    if path and Path(path).exists():
        with np.load(path) as z:
            played = json.loads(str(z["played"]))
            data = {w: {c: z[f"{w}_{c}"] for c in COLUMNS} for w in ("discard", "claim")}
            if seed == args.seed:  # the training records: how they were played
                for k in PLAYED:
                    setattr(args, k, played[k])
            return data, played["counts"]
    starts = range(0, args.hands, CHUNK)
    play = partial(play_chunk, args.ruleset, seed, args.share, args.claim_share, args.check)
    t0 = time.perf_counter()
    cols: dict[str, Rows] = {w: {c: [] for c in COLUMNS} for w in ("discard", "claim")}
    counts = dict.fromkeys(COUNTS, 0)
    with ProcessPoolExecutor(args.jobs) as pool:
        for part, got in pool.map(play, starts, [min(CHUNK, args.hands - s) for s in starts]):
            for w in cols:
                for c in COLUMNS:
                    cols[w][c].extend(part[w][c])
            for k in counts:
                counts[k] += got[k]
    took = time.perf_counter() - t0
    counts["seconds"] = round(took)
    n_d = len(set(cols["discard"]["decision"]))
    n_c = len(set(cols["claim"]["decision"]))
    print(
        f"seed {seed}: played {args.hands} hands in {took:.0f} s; branched {n_d} of "
        f"{counts['discard']} discards, {n_c} of {counts['claim']} claim windows "
        f"({counts['seat_hands']} strong seat-hands)",
        flush=True,
    )
    if args.check:
        print(
            f"main line replayed as a branch: {counts['replays']} times, "
            f"{counts['replay_differs']} ended otherwise",
            flush=True,
        )
    data = {
        w: {c: np.array(cols[w][c], dtype=float if c in ("x", "y") else np.int64) for c in COLUMNS}
        for w in cols
    }
    for w in data:
        if data[w]["x"].size == 0:
            data[w]["x"] = np.zeros((0, len(NAMES)))
    if path:
        played = {k: getattr(args, k) for k in PLAYED}
        played["seed"] = seed
        played["counts"] = counts
        flat = {f"{w}_{c}": data[w][c] for w in data for c in COLUMNS}
        np.savez_compressed(path, played=np.array(json.dumps(played)), **flat)
    return data, counts


def _centred(v: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """``v`` (rows, or rows x columns) less its mean over each decision's rows."""
    _, inv = np.unique(decision, return_inverse=True)
    n = np.bincount(inv).astype(float)
    if v.ndim == 1:
        return np.asarray(v - (np.bincount(inv, weights=v) / n)[inv])
    means = np.stack([np.bincount(inv, weights=v[:, j]) / n for j in range(v.shape[1])], 1)
    return np.asarray(v - means[inv])


def fit_advantage(x: np.ndarray, y: np.ndarray, decision: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression, no intercept, of each candidate's outcome less its decision's
    mean on its features less their decision's mean (columns scaled to unit spread; the
    penalty ``ridge`` times a thousandth of the rows on each scaled coefficient): the
    coefficients in the raw features' units.  A candidate's predicted advantage is
    ``x @ coef`` up to a constant of its decision."""
    xc = _centred(x, decision)
    yc = _centred(y, decision)
    scale = xc.std(axis=0)
    scale[scale == 0] = 1.0
    z = xc / scale
    a = z.T @ z + ridge * len(y) * 1e-3 * np.eye(z.shape[1])
    beta = np.linalg.solve(a, z.T @ yc)
    return np.asarray(beta / scale)


def _mean_ci(v: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    if len(v) < 2:
        return (float(v.mean()) if len(v) else 0.0), math.inf
    return float(v.mean()), 1.96 * float(v.std(ddof=1)) / math.sqrt(len(v))


def screen(
    x: np.ndarray,
    y: np.ndarray,
    decision: np.ndarray,
    rank: np.ndarray,
    policies: dict[str, np.ndarray],
) -> list[tuple[str, int, float, float, float]]:
    """For each policy (a score for every row: the decision's row of the highest score is
    its pick), over the decisions: ``(name, decisions, mean realized advantage of the pick
    over the bot's own choice (rank 0), the 95% half-width, share of decisions where the
    pick differs)``."""
    order = np.lexsort((rank, decision))
    d, yy, rk = decision[order], y[order], rank[order]
    starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])
    ends = np.r_[starts[1:], len(d)]
    out = []
    for name, score in policies.items():
        sc = score[order]
        adv = np.empty(len(starts))
        differs = 0
        for k, (s, e) in enumerate(zip(starts, ends, strict=True)):
            pick = s + int(np.argmax(sc[s:e]))
            own = s + int(np.argmin(rk[s:e]))
            adv[k] = yy[pick] - yy[own]
            differs += pick != own
        m, h = _mean_ci(adv)
        out.append((name, len(starts), m, h, differs / max(len(starts), 1)))
    return out


def _policies(
    what: str, x: np.ndarray, rank: np.ndarray, coef: np.ndarray
) -> dict[str, np.ndarray]:
    """The model's and the trivial policies' scores of every row."""
    model = x @ coef
    own = -rank.astype(float)
    out = {"model": model, "strong's own": own}
    if what == "discard":
        out["always the 2nd candidate"] = np.where(rank == 1, 1.0, own)
    else:
        claim = x[:, NAMES.index("claim")]
        out["always pass"] = 1.0 - claim
        out["always the first claim"] = np.where(claim > 0, 10.0 - rank, -10.0 - rank)
    return out


def report(
    what: str,
    train: dict[str, np.ndarray],
    test: dict[str, np.ndarray],
    args: argparse.Namespace,
    per_seat_hand: float,
) -> np.ndarray:
    """Fit on ``train`` (outcomes clipped to +-``--clip``), screen on ``test`` (the
    balances as they came: the duel does not clip them either); print the table, each
    policy's mean advantage also times ``per_seat_hand`` (decisions of the kind that
    could be branched, per ``strong`` seat-hand); the coefficients."""
    clip = args.clip
    y_tr = np.clip(train["y"], -clip, clip)
    y_te = test["y"]
    if args.target == "win":
        y_tr = np.where(train["won"] > 0, y_tr, 0.0)
    coef = fit_advantage(train["x"], y_tr, train["decision"], args.ridge)
    pol = _policies(what, test["x"], test["rank"], coef)
    pol["oracle (best realized)"] = _centred(y_te, test["decision"])
    rows = screen(test["x"], y_te, test["decision"], test["rank"], pol)
    n_tr = len(np.unique(train["decision"]))
    print(
        f"{what}s: fitted on {n_tr} decisions ({len(y_tr)} candidates); held out, the pick "
        f"less strong's own, points a decision and x {per_seat_hand:.2f} a seat-hand:"
    )
    for name, n, m, h, share in rows:
        print(
            f"  {name:26s} {n:6d} decisions {m:+8.2f} +-{h:6.2f}; a seat-hand "
            f"{m * per_seat_hand:+8.1f} +-{h * per_seat_hand:6.1f}; differs {share:6.1%}"
        )
    return coef


def module_text(
    coefs: dict[str, np.ndarray], args: argparse.Namespace, sizes: dict[str, int]
) -> str:
    """The weights as a Python module of plain floats."""
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    replay = [
        *("--hands", str(args.hands), "--seed", str(args.seed), "--ruleset", args.ruleset),
        *("--share", str(args.share), "--claim-share", str(args.claim_share)),
        *("--target", args.target, "--ridge", str(args.ridge), "--clip", str(args.clip)),
        *(x for seed in args.also for x in ("--also", seed.partition(":")[0])),
        *("--out", args.out),
    ]
    command = "python benchmarks/train_strong_choice.py " + shlex.join(replay)
    lines = [
        '"""The learned advantage of a candidate of the strong bot\'s decisions',
        "(``Level.choice``, ``Level.choice_claims`` of :mod:`mahjong_nts.bots.strong`):",
        "``sum(COEF[i] * features[i])`` over :func:`~mahjong_nts.bots.strong.choice_features`,",
        "``DISCARD`` among the best few own-turn discards, ``CLAIM`` between passing and",
        "each pung or chow on offer; fitted on the differences between a decision's",
        "candidates played out on the same wall (benchmarks/train_strong_choice.py).",
        "",
        "Generated, do not edit: made by",
        *textwrap.wrap(command, 84, initial_indent="    ", subsequent_indent="    "),
        *textwrap.wrap(
            f"({args.hands} hands of each seed, {sizes['discard']} discard and "
            f"{sizes['claim']} claim decisions, {args.ruleset}, {when}).",
            88,
        ),
        '"""',
        "",
        "FEATURES: tuple[str, ...] = (",
        *(f'    "{name}",' for name in NAMES),
        ")",
    ]
    for what, coef in coefs.items():
        lines.append(f"{what.upper()}: tuple[float, ...] = (")
        lines.extend(f"    {float(c)!r},  # {name}" for c, name in zip(coef, NAMES, strict=True))
        lines.append(")")
    return "\n".join([*lines, ""])


def rebuild(x: np.ndarray) -> np.ndarray:
    """Records of an earlier :data:`NAMES` (those of :func:`discard_features` and the
    first five of the others) made over into the present ones by
    :func:`~mahjong_nts.bots.strong.choice_features`."""
    if x.ndim == 2 and x.shape[1] == len(NAMES):
        return x
    head = len(FEATURES) + 5
    if x.ndim != 2 or x.shape[1] < head:
        raise ValueError(f"the records have {x.shape[-1]} features, not {len(NAMES)}")
    kinds = {(0.0, 0.0): ActionKind.DISCARD, (1.0, 0.0): ActionKind.PUNG}
    kinds[1.0, 1.0] = ActionKind.CHOW
    out = [
        choice_features(
            tuple(r[: len(FEATURES)]),
            float(r[len(FEATURES)]),
            float(r[len(FEATURES) + 1]),
            int(r[len(FEATURES) + 2]),
            kinds[float(r[head - 2]), float(r[head - 1])],
        )
        for r in x
    ]
    return np.array(out, dtype=float).reshape(len(x), len(NAMES))


def _split(data: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, np.ndarray]:
    return {c: v[mask] for c, v in data.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help=f"1 to {MOST_HANDS}")
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--ruleset", default="nts-2016")
    ap.add_argument("--jobs", type=int, default=1, help="processes, 1 to 64")
    ap.add_argument("--share", type=float, default=0.25, help="of discards branched, 0 to 1")
    ap.add_argument("--claim-share", type=float, default=1.0, help="of claim windows, 0 to 1")
    ap.add_argument("--check", action="store_true", help="also replay the main line's choice")
    ap.add_argument("--ridge", type=float, default=1.0, help="0 or more")
    ap.add_argument("--clip", type=float, default=3000.0, help="points, more than 0")
    ap.add_argument("--target", choices=("balance", "win"), default="balance")
    ap.add_argument("--data", default="", help="an .npz of the records (read or written)")
    ap.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="SEED[:FILE]",
        help="more training walls: another seed (its records read from or kept in FILE)",
    )
    ap.add_argument("--test-seed", type=int, default=None, help="held-out walls' seed")
    ap.add_argument("--test-data", default="", help="an .npz of the held-out records")
    ap.add_argument("--out", default="", help="the weights module to write")
    args = ap.parse_args()
    if not 1 <= args.hands <= MOST_HANDS or not 1 <= args.jobs <= 64:
        ap.error(f"--hands 1 to {MOST_HANDS}, --jobs 1 to 64")
    if not 0.0 <= args.share <= 1.0 or not 0.0 <= args.claim_share <= 1.0:
        ap.error("--share and --claim-share 0 to 1")
    if args.ridge < 0.0 or args.clip <= 0.0:
        ap.error("--ridge 0 or more, --clip more than 0")
    also: list[tuple[int, str]] = []
    for item in args.also:
        head, _, path = item.partition(":")
        try:
            also.append((int(head), path))
        except ValueError:
            ap.error(f"--also takes SEED or SEED:FILE, not {item!r}")
    seeds = [args.seed, *(a for a, _ in also)]
    if len(set(seeds)) < len(seeds) or args.test_seed in seeds:
        ap.error("the training seeds must differ from each other and from --test-seed")
    if min(seeds) < 2000 or (args.test_seed is not None and args.test_seed < 2000):
        ap.error("train and test on seeds 2000 and above (the duels measure on 1 to 4)")
    try:
        arrangements(load_ruleset(args.ruleset).table.players)
    except (InvalidRuleSet, ValueError) as exc:
        ap.error(str(exc))
    data, counts = gather(args, args.seed, args.data)
    for k, (seed, path) in enumerate(also, 1):  # decisions told apart by seed
        more, more_counts = gather(args, seed, path)
        for w in data:
            more[w]["decision"] = more[w]["decision"] + k * 10**12
            more[w]["hand"] = more[w]["hand"] + k * 10**9
            data[w] = {c: np.concatenate([data[w][c], more[w][c]]) for c in COLUMNS}
        for key in COUNTS:
            counts[key] += more_counts[key]
    if args.test_seed is not None:
        test, _ = gather(args, args.test_seed, args.test_data)
    for records in (data, test) if args.test_seed is not None else (data,):
        for d in records.values():
            try:
                d["x"] = rebuild(d["x"])
            except ValueError as exc:
                ap.error(str(exc))
    coefs: dict[str, np.ndarray] = {}
    sizes: dict[str, int] = {}
    for what in ("discard", "claim"):
        d = data[what]
        if len(np.unique(d["decision"])) < 10:
            print(f"{what}s: too few decisions to fit")
            continue
        if args.test_seed is not None:
            train, held = d, test[what]
        else:
            cut = np.quantile(d["hand"], 0.8)
            train, held = _split(d, d["hand"] <= cut), _split(d, d["hand"] > cut)
        if len(np.unique(held["decision"])) < 2:
            print(f"{what}s: no held-out decisions to screen")
            continue
        rate = counts[what] / max(counts["seat_hands"], 1)
        coef = report(what, train, held, args, rate)
        for name, c in zip(NAMES, coef, strict=True):
            print(f"    {name:16s} {c:+10.3f}")
        y = np.clip(d["y"], -args.clip, args.clip)
        if args.target == "win":
            y = np.where(d["won"] > 0, y, 0.0)
        coefs[what] = fit_advantage(d["x"], y, d["decision"], args.ridge)
        sizes[what] = len(np.unique(d["decision"]))
    if args.out:
        if len(coefs) < 2:
            ap.error("too few decisions to write weights")
        Path(args.out).write_text(module_text(coefs, args, sizes))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
