"""The counterfactual play-outs of benchmarks/train_strong_choice.py: a branch replays the
same wall (the main line's own choice played out as a branch ends exactly as the main
line does), the advantage fit recovers a known relation and finds nothing in noise, and
bad arguments are one error line (exit 2)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cli_helpers import run_script

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
        ["--ruleset", "no-such-rules"],
    ],
)
def test_bad_arguments_are_one_error_line(args: list[str]) -> None:
    done = run_script(SCRIPT, *args, timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "error:" in done.stderr and "Traceback" not in done.stderr
