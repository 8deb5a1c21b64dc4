"""The strong bot's learned value (``Level.learned``): its features come from the
observation alone and are deterministic, the weights module matches them, and the
training script (benchmarks/train_strong_value.py) learns a known relation and writes a
module the bot can read."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from bot_helpers import discards_of, make_obs, play

from cli_helpers import run_script
from mahjong_nts.bots import strong_value
from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.strong import FEATURES, STRONG, StrongBot, predict
from mahjong_nts.core.actions import ActionKind
from mahjong_nts.core.game import Phase
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.formats.rulefiles import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "train_strong_value.py"
np = pytest.importorskip("numpy")

EARLY_DISCARDS = {0: "b1 W", 1: "C", 2: "k9", 3: "b9"}


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_strong_value", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _features(bot: StrongBot, hand: str, **kw: object) -> tuple[float, ...]:
    obs = make_obs(hand, discards_of(hand), **kw)  # type: ignore[arg-type]
    bot.record = []
    bot.act(obs)
    assert len(bot.record) == 1
    return bot.record[0]


def test_features_of_a_ready_hand_worked_out_by_hand() -> None:
    # South (seat 1), concealed, East round: b123 b567 t345 k23 NN and a stray t9.
    # Throwing t9 leaves the hand ready on k1 and k4 (all eight copies unseen).  Its
    # only doublings would be the two of a fully concealed hand won self-drawn (the
    # north pair is no value tile for South in the East round), so under nts-2016 it
    # may go mahjong self-drawn only: wins on a discard 0, self-drawn 8 tiles (2 fours).
    hand = "b123 b567 t345 k23 N N t9"
    f = dict(
        zip(FEATURES, _features(StrongBot(0), hand, seat=1, discards=EARLY_DISCARDS), strict=True)
    )
    assert f["shanten"] == 0.0
    assert f["ready"] == 1.0
    assert f["wins_discard"] == 0.0
    assert f["wins_self"] == 2.0
    assert f["win_value"] > 0.0
    assert f["concealed"] == 1.0
    assert f["melds"] == 0.0
    assert f["held"] == 0.0  # no value tile held
    assert f["loser"] == 0.0  # as a non-winner: no pung, no scoring pair
    # 5 discards of 11 tiles gone by (5 discards, 50 live tiles left)
    assert f["gone"] == pytest.approx(5 / 55)


def test_features_follow_the_observation_alone_and_are_deterministic() -> None:
    # The same observation, built twice, gives the same features to bots of other
    # seeds (the bot keeps nothing of its own that they depend on) and after a
    # decision on another hand.
    hand = "b2 b3 b3 b4 k3 k3 k5 k5 k9 k9 t4 t5 t7 t7"
    kw = {"seat": 1, "discards": EARLY_DISCARDS}
    first = _features(StrongBot(0), hand, **kw)
    other = StrongBot(12345)
    _features(other, "b123 b567 t345 k23 N N t9", seat=2)
    assert _features(other, hand, **kw) == first
    assert _features(StrongBot(7), hand, **kw) == first
    assert len(first) == len(FEATURES)
    # a discard seen on the table is one live tile fewer: the features change
    changed = _features(StrongBot(0), hand, seat=1, discards={**EARLY_DISCARDS, 3: "b9 t6 t6"})
    assert changed != first


def test_a_played_hand_records_the_same_features_every_time() -> None:
    rules = load_ruleset("nts-2016")

    def run() -> list[tuple[float, ...]]:
        bots = [StrongBot(s, rules) for s in range(2)]
        for b in bots:
            b.record = []
        play(rules, [bots[0], HeuristicBot(1, rules), bots[1], HeuristicBot(3, rules)], 5)
        return [f for b in bots for f in b.record or []]

    one = run()
    assert one and one == run()


def test_no_record_when_a_kong_is_declared_instead_of_the_discard() -> None:
    # South holds four b5 beside k234 t345 k78 and a pair of west: after the kong of b5
    # the hand is as ready (on k6 and k9) as after its best discard, so the bot declares
    # it (a kong when the hand is no worse after it).  The discard it valued first (and
    # used to record) is not played, so nothing is recorded; the same hand without the
    # kong on offer records its discard.
    hand = "b5 b5 b5 b5 k2 k3 k4 t3 t4 t5 k7 k8 W W"
    bot = StrongBot(0)
    bot.record = []
    obs = make_obs(hand, [*discards_of(hand), "kong b5"], seat=1)
    assert bot.act(obs).kind is ActionKind.KONG
    assert bot.record == []
    action = bot.act(make_obs(hand, discards_of(hand), seat=1))
    assert action.kind is ActionKind.DISCARD
    assert len(bot.record) == 1


def test_the_weights_module_matches_the_features() -> None:
    assert strong_value.FEATURES == FEATURES
    assert len(strong_value.COEF) == len(FEATURES)
    zero = (0.0,) * len(FEATURES)
    assert predict(zero) == strong_value.INTERCEPT


def test_learned_level_decides_deterministically_and_ranks_only_near_discards() -> None:
    hand = "b2 b3 b3 b4 k3 k3 k5 k5 k9 k9 t4 t5 t7 t7"
    obs = make_obs(hand, discards_of(hand), seat=1, discards=EARLY_DISCARDS)
    learned = replace(STRONG, learned=True)
    a = StrongBot(0, obs.rules, level=learned).act(obs)
    assert StrongBot(9, obs.rules, level=learned).act(obs) == a
    # with no room beside the best (learned_near 0, one candidate) it is strong's choice
    alone = replace(learned, learned_most=1)
    assert StrongBot(0, obs.rules, level=alone).act(obs) == StrongBot(0, obs.rules).act(obs)
    assert a.tile is not None and a.tile in parse_tiles(hand)


def _data(x: object, y: object) -> dict[str, object]:
    n = len(y)  # type: ignore[arg-type]
    return {"x": x, "y": y, "hand": np.arange(n) // 10, "seat": np.zeros(n, dtype=int)}


def test_td_targets_bootstrap_from_the_next_decision() -> None:
    script = _script()
    pred = np.array([10.0, 20.0, 30.0, 5.0, 7.0])
    outcome = np.array([100.0, 100.0, 100.0, -50.0, -50.0])
    last = np.array([False, False, True, False, True])
    # lambda 0: the next decision's prediction; the last one its outcome
    assert list(script.td_targets(pred, outcome, last, 0.0)) == [20.0, 30.0, 100.0, 7.0, -50.0]
    # lambda 1: the outcome everywhere
    assert list(script.td_targets(pred, outcome, last, 1.0)) == [100.0] * 3 + [-50.0] * 2
    # lambda 0.5: G2 = 100, G1 = 0.5*30 + 0.5*100 = 65, G0 = 0.5*20 + 0.5*65 = 42.5
    assert list(script.td_targets(pred, outcome, last, 0.5))[:3] == [42.5, 65.0, 100.0]


def test_ridge_fit_recovers_a_known_relation() -> None:
    script = _script()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 3)) * np.array([1.0, 10.0, 0.1])
    y = 5.0 + 2.0 * x[:, 0] - 0.3 * x[:, 1] + 0.0 * x[:, 2] + rng.normal(scale=0.5, size=4000)
    b0, coef = script.fit_ridge(x, y, 0.0)
    assert b0 == pytest.approx(5.0, abs=0.05)
    assert coef == pytest.approx([2.0, -0.3, 0.0], abs=0.2)
    mse, const = script.held_out(_data(x, y), y, 1.0, 1.0)
    assert mse < 0.3 < 4.0 < const  # noise variance 0.25; y's variance about 13


def test_ridge_fit_finds_nothing_in_noise() -> None:
    script = _script()
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4000, 5))
    y = rng.normal(size=4000)
    mse, const = script.held_out(_data(x, y), y, 1.0, 1.0)
    assert mse >= 0.99 * const  # held out, a fit of noise is no better than the mean


def test_the_script_writes_a_module_of_the_bot_s_features(tmp_path: Path) -> None:
    out = tmp_path / "weights.py"
    done = run_script(SCRIPT, "--hands", "50", "--seed", "1000", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "held-out MSE" in done.stdout
    text = out.read_text()
    assert "--hands 50 --seed 1000" in text
    namespace: dict[str, object] = {}
    exec(compile(text, str(out), "exec"), namespace)
    assert namespace["FEATURES"] == FEATURES
    coef = namespace["COEF"]
    assert isinstance(coef, tuple) and len(coef) == len(FEATURES)
    assert all(isinstance(c, float) for c in coef)


@pytest.mark.parametrize("args", [["--hands", "10"], ["--explore", "2"], ["--clip", "0"]])
def test_bad_arguments_are_one_error_line(args: list[str]) -> None:
    done = run_script(SCRIPT, *args, timeout=60)
    assert done.returncode == 2
    assert "error:" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("margin", "expected"), [(1e9, "pass"), (-1e9, "pung S")])
def test_learned_claims_weigh_passing_against_the_claim(margin: float, expected: str) -> None:
    # A claim must beat passing's learned value by the margin: by a huge one, never;
    # by a huge negative one, always (here the only claim: a pung of South).
    hand = "k234 t45 t78 SS N"
    obs = make_obs(
        hand, ["pung S", "pass"], phase=Phase.CLAIM, offered="S", seat=1, melds={1: ["[b123]"]}
    )
    level = replace(STRONG, learned_claims=True, learned_claim_margin=margin)
    assert str(StrongBot(0, obs.rules, level=level).act(obs)) == expected
