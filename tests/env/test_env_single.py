"""The Gymnasium single-seat wrapper: one seat learns, bots play the others."""

from __future__ import annotations

import numpy as np
import pytest

from mahjong_nts.core.observation import observe
from mahjong_nts.env import SingleSeatEnv


def _play(env: SingleSeatEnv, seed: int) -> tuple[int, float, list[int]]:
    """One hand with random legal actions for the learner: its steps, reward, actions."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken: list[int] = []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert env.aec.agent_selection == env.agent  # asked only when it is the learner's
        game = env.aec.game
        assert game is not None and game.current_seat == env.seat
        legal = {a.id for a in observe(game, env.seat).legal}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        action = int(rng.choice(sorted(legal)))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return len(taken), reward, taken
        assert reward == 0.0


@pytest.mark.parametrize(("seat", "opponents"), [(0, "heuristic"), (2, ["random", "heuristic"])])
def test_the_learner_is_asked_only_on_its_decisions(seat: int, opponents: object) -> None:
    spec = "nts-2016" if isinstance(opponents, str) else "nmb-2009+three-players"
    env = SingleSeatEnv(ruleset=spec, seat=seat, opponents=opponents)  # type: ignore[arg-type]
    for seed in range(4):
        _, reward, _ = _play(env, seed)
        game = env.aec.game
        assert game is not None and game.result is not None
        assert reward == game.result.settlement.balances[seat]


def test_a_seed_replays_the_same_hand_bots_included() -> None:
    a, b = SingleSeatEnv(seat=3), SingleSeatEnv(seat=3)
    assert _play(a, 11) == _play(b, 11)
    assert a.aec.game is not None and b.aec.game is not None
    assert a.aec.game.events == b.aec.game.events


def test_a_hand_the_bots_end_before_the_learner_acts_again_is_over() -> None:
    env = SingleSeatEnv(seat=1, opponents="heuristic")
    over_by_others = 0
    for seed in range(20):
        _play(env, seed)
        game = env.aec.game
        assert game is not None and game.result is not None
        over_by_others += game.result.winner not in (None, 1)
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)
    assert over_by_others  # some hand was won by a bot, ending the learner's episode


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 4}, r"seat=4: a seat of this table, 0\.\.3"),
        ({"opponents": ["random"]}, "one bot name, or 3"),
        ({"opponents": "clever"}, "unknown bot 'clever'"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SingleSeatEnv(**kwargs)  # type: ignore[arg-type]
