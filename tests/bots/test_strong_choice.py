"""The strong bot's learned choices (``Level.choice``, ``Level.choice_claims``) and the
counterfactual play-outs they are fitted on (benchmarks/train_strong_choice.py): a branch
replays the same wall (the main line's own choice played out as a branch ends exactly as
the main line does), the candidates are the ordering's best few with the bot's own choice
first, the advantage fit recovers a known relation and finds nothing in noise, a bot with
the learned choices picks among the candidates only, and bad arguments are one error line
(exit 2)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from bot_helpers import play

from cli_helpers import run_script
from mahjong_nts.bots import strong_choice
from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.strong import (
    CHOICE_FEATURES,
    FEATURES,
    STRONG,
    StrongBot,
    _most_advantage,
    choice_features,
)
from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.game import Phase
from mahjong_nts.core.observation import Observation
from mahjong_nts.formats.rulefiles import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "train_strong_choice.py"
np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_strong_choice", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_strong_choice"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def played(script: ModuleType) -> tuple[dict[str, dict[str, list[object]]], dict[str, int]]:
    # 4 hands of training walls, every claim window and half the discards branched, the
    # main line's own choice played out as a branch too (--check)
    out: tuple[dict[str, dict[str, list[object]]], dict[str, int]] = script.play_chunk(
        "nts-2016", 2000, 0.5, 1.0, True, 0, 4
    )
    return out


def test_a_branch_of_the_main_line_s_own_choice_ends_as_the_main_line(
    played: tuple[dict[str, dict[str, list[object]]], dict[str, int]],
) -> None:
    _, counts = played
    assert counts["replays"] >= 20
    assert counts["replay_differs"] == 0


def test_branches_hold_every_candidate_and_other_choices_change_outcomes(
    played: tuple[dict[str, dict[str, list[object]]], dict[str, int]],
) -> None:
    rows, counts = played
    changed = 0
    for what in ("discard", "claim"):
        r = rows[what]
        decisions: dict[object, list[tuple[object, object]]] = {}
        for d, rank, y in zip(r["decision"], r["rank"], r["y"], strict=True):
            decisions.setdefault(d, []).append((rank, y))
        assert decisions, what
        for cands in decisions.values():
            ranks = [rank for rank, _ in cands]
            assert ranks == list(range(len(cands))) and len(cands) >= 2
            own = cands[0][1]
            changed += any(y != own for _, y in cands[1:])
    assert changed >= 5  # another discard or claim really plays another hand
    # half the discards (and every claim window) with candidates were branched
    n_discards = len(set(rows["discard"]["decision"]))
    assert 0 < n_discards < counts["discard"]
    assert len(set(rows["claim"]["decision"])) == counts["claim"]


def test_candidates_are_the_ordering_s_best_few_the_own_choice_first(
    played: tuple[dict[str, dict[str, list[object]]], dict[str, int]],
) -> None:
    rows, _ = played
    gap, value_gap, rank, claim = (
        CHOICE_FEATURES.index(n) for n in ("score_gap", "value_gap", "rank", "claim")
    )
    for what in ("discard", "claim"):
        r = rows[what]
        by: dict[object, list[tuple[float, ...]]] = {}
        for d, x in zip(r["decision"], r["x"], strict=True):
            by.setdefault(d, []).append(x)  # type: ignore[arg-type]
        for cands in by.values():
            assert [c[rank] for c in cands] == list(range(len(cands)))
            assert cands[0][gap] == 0.0 and cands[0][value_gap] == 0.0
            if what == "discard":
                # the bot's own choice first (the least score, or near ready the discard
                # of more expected points: Level.exact), the least score among them, and
                # the others within a step of it
                assert len(cands) <= STRONG.learned_most
                least = min(c[gap] for c in cands)
                assert least <= 0.0
                assert all(0.0 <= c[gap] - least <= STRONG.learned_near for c in cands)
                assert all(c[claim] == 0.0 for c in cands)
            else:  # passing and each pung or chow: exactly one candidate passes
                assert sum(c[claim] == 0.0 for c in cands) == 1


def test_choice_features_and_the_weights_module() -> None:
    # a discard of danger 0.5 under a top threat of 0.8, a quarter of the wall gone,
    # leaving a ready hand (shanten 0) that scores 200 as a non-winner
    known = {"danger": 0.5, "threat": 0.8, "gone": 0.25, "ready": 1.0, "loser": 2.0}
    base = tuple(known.get(name, 0.0) for name in FEATURES)
    extra = dict(
        zip(
            CHOICE_FEATURES[len(FEATURES) :],
            choice_features(base, 0.5, -1.0, 2, ActionKind.DISCARD)[len(FEATURES) :],
            strict=True,
        )
    )
    assert extra == {
        **dict.fromkeys(CHOICE_FEATURES[len(FEATURES) :], 0.0),
        "score_gap": 0.5,
        "value_gap": -1.0,
        "rank": 2.0,
        "danger_x_threat": 0.4,
        "danger_x_gone": 0.125,
    }
    pung = choice_features(base, 0.0, 0.0, 1, ActionKind.PUNG)[len(FEATURES) + 3 :]
    # claim, chow, danger x threat, danger x gone, claim x (gone, ready, shanten, loser),
    # chow x gone
    assert pung == (1.0, 0.0, 0.4, 0.125, 0.25, 1.0, 0.0, 2.0, 0.0)
    chow = choice_features(base, 0.0, 0.0, 1, ActionKind.CHOW)[len(FEATURES) + 3 :]
    assert chow == (1.0, 1.0, 0.4, 0.125, 0.25, 1.0, 0.0, 2.0, 0.25)
    assert choice_features(base, 0.0, 0.0, 0, ActionKind.PASS) == (
        choice_features(base, 0.0, 0.0, 0, ActionKind.DISCARD)
    )
    assert strong_choice.FEATURES == CHOICE_FEATURES
    for coef in (strong_choice.DISCARD, strong_choice.CLAIM):
        assert len(coef) == len(CHOICE_FEATURES)
        assert all(isinstance(c, float) for c in coef)


def test_the_most_advantage_is_picked_the_own_choice_on_a_tie() -> None:
    coef = (2.0, -1.0)
    assert _most_advantage(coef, [(1.0, 1.0), (3.0, 1.0), (2.0, 0.0)]) == 1  # 1, 5, 4
    assert _most_advantage(coef, [(1.0, 0.0), (1.0, 0.0), (0.0, -2.0)]) == 0  # 2, 2, 2


def test_a_bot_with_learned_choices_picks_among_the_candidates(script: ModuleType) -> None:
    rules = load_ruleset("nts-2016")
    level = replace(STRONG, choice=True, choice_claims=True)
    seen = {"discard": 0, "claim": 0, "other": 0}

    def run(seed: int) -> list[str]:
        players = [
            StrongBot(seed, rules, level=level),
            HeuristicBot(seed + 1, rules),
            StrongBot(seed + 2, rules, level=level),
            HeuristicBot(seed + 3, rules),
        ]
        log: list[str] = []

        def check(obs: Observation, act: Action) -> None:
            log.append(str(act))
            if obs.seat % 2:
                return
            own = script.Brancher(seed + obs.seat, rules)
            plain = own.act(obs)
            if own.pending is None:
                seen["other"] += 1
                assert act == plain  # no choice: strong's own answer
                return
            if own.pending[0][0] != plain:  # a kong or an announcement instead
                seen["other"] += 1
                return
            seen["claim" if obs.phase is Phase.CLAIM else "discard"] += 1
            assert act in own.pending[0]

        game = play(rules, players, seed, check)
        assert game.result is not None
        return log

    first = [run(seed) for seed in (11, 12, 13)]
    assert seen["discard"] >= 20 and seen["claim"] >= 3
    assert [run(seed) for seed in (11, 12, 13)] == first  # the same every time


def _synthetic(
    rng: np.random.Generator, decisions: int, coef: tuple[float, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    k = 3
    x = rng.normal(size=(decisions * k, len(coef)))
    luck = np.repeat(rng.normal(scale=500.0, size=decisions), k)  # the wall: shared
    y = luck + x @ np.array(coef) + rng.normal(scale=100.0, size=decisions * k)
    decision = np.repeat(np.arange(decisions), k)
    rank = np.tile(np.arange(k), decisions)
    return x, y, decision, rank


def test_the_fit_recovers_a_known_advantage(script: ModuleType) -> None:
    rng = np.random.default_rng(7)
    truth = (40.0, -25.0, 0.0, 10.0)
    x, y, d, _ = _synthetic(rng, 3000, truth)
    coef = script.fit_advantage(x, y, d, 0.0)
    assert np.allclose(coef, truth, atol=5.0)
    # held out: picking by the fit gains on the own choice (rank 0), by about the
    # expected best of three draws of the true advantage's spread
    xt, yt, dt, rt = _synthetic(rng, 2000, truth)
    (name, n, mean, half, share), *_ = script.screen(xt, yt, dt, rt, {"model": xt @ coef})
    assert (name, n) == ("model", 2000)
    assert mean - half > 30.0 and share > 0.5


def test_the_fit_finds_nothing_in_noise(script: ModuleType) -> None:
    rng = np.random.default_rng(8)
    x, y, d, _ = _synthetic(rng, 3000, (0.0, 0.0, 0.0, 0.0))
    coef = script.fit_advantage(x, y, d, 1.0)
    xt, yt, dt, rt = _synthetic(rng, 3000, (0.0, 0.0, 0.0, 0.0))
    (_, _, mean, half, _), *_ = script.screen(xt, yt, dt, rt, {"model": xt @ coef})
    assert mean - half < 0.0 < mean + half + 1e-9 or abs(mean) < half


@pytest.mark.parametrize(
    "args",
    [
        ["--hands", "0"],
        ["--share", "2"],
        ["--clip", "0"],
        ["--seed", "3"],
        ["--seed", "2000", "--test-seed", "2000"],
        ["--seed", "2000", "--also", "2000"],
        ["--also", "two"],
        ["--ruleset", "no-such-rules"],
    ],
)
def test_bad_arguments_are_one_error_line(args: list[str]) -> None:
    done = run_script(SCRIPT, *args, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "error:" in done.stderr and "Traceback" not in done.stderr
