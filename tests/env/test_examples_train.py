"""examples/train_policy.py on a tiny budget: it writes the policy, the learning curve
(a PNG and its CSV) and the duel against random; the trained bot loads as
``policy_bot:PolicyBot`` and only ever plays legal actions."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.formats.rulefiles import load_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("train")
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_policy.py"),
            "--hands",
            "64",
            "--eval-walls",
            "2",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "duel against random over 2 walls (8 hands)" in done.stdout
    return out


def test_the_script_writes_policy_curve_and_evaluation(trained: Path) -> None:
    png = (trained / "learning_curve.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    rows = (trained / "learning_curve.csv").read_text().splitlines()
    assert rows[0] == "hands_trained,mean_balance_last_500,win_rate_last_500"
    assert [int(r.split(",")[0]) for r in rows[1:]] == [32, 64]  # a point per batch of 32
    summary = json.loads((trained / "summary.json").read_text())
    duel = summary["duel_vs_random"]
    assert summary["hands_trained"] == 64 and (duel["walls"], duel["hands"]) == (2, 8)
    assert [bot["bot"] for bot in duel["bots"]] == ["policy_bot:PolicyBot", "random"]
    low, high = duel["mean_diff_ci"]
    assert low <= duel["mean_diff"] <= high
    with np.load(trained / "policy.npz") as data:
        assert data["weights"].shape == (len(data["features"]),)
        assert np.isfinite(data["weights"]).all() and data["weights"].any()


def test_the_trained_bot_plays_legal_actions(
    trained: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.setenv("MAHJONG_NTS_POLICY", str(trained / "policy.npz"))
    policy_bot = importlib.import_module("policy_bot")
    for spec in ("nts-2016", "nmb-2009+three-players"):
        rules = load_ruleset(spec)
        for seed in range(3):
            game = Game(rules, SeedRng(seed))
            bots = [policy_bot.PolicyBot(seed + s, rules) for s in range(game.n)]
            rng = random.Random(seed)
            while not game.is_over:
                s = game.current_seat
                act = bots[s].act(observe(game, s))
                assert act in game.legal_actions()
                game.apply(act if rng.random() < 0.8 else rng.choice(game.legal_actions()))


def test_the_shipped_policy_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/policy.npz, the policy the README's figures are of, is a policy of this
    bot (the features it was trained on are the bot's)."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.delenv("MAHJONG_NTS_POLICY", raising=False)
    policy_bot = importlib.import_module("policy_bot")
    bot = policy_bot.PolicyBot(0, load_ruleset("nts-2016"))
    assert bot.weights.shape == (len(policy_bot.FEATURES),)


def test_a_bad_budget_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "--hands", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "--hands is 1.." in done.stderr
