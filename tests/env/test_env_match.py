"""Episodes of a whole match (``episode="match"``): PettingZoo's API and seed tests,
rewards per hand and at the end, the cut after ``max_hands``, the player who sits a hand
out, and golden tests of observation layout 2 (layout 1 and the match section,
docs/env.md), worked out by hand from the rule sets' rotation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mahjong_nts.env as mj_env
from mahjong_nts.bots import make_bot
from mahjong_nts.env.aec import MahjongEnv
from mahjong_nts.env.encoding import (
    LAYOUT,
    MATCH_LAYOUT,
    MATCH_LAYOUT_VERSION,
    MATCH_OBS_SIZE,
    OBS_SIZE,
    encode,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+three-players", "nts-2016+five-players"])
def test_pettingzoo_api_test_of_a_match(spec: str) -> None:
    api_test(mj_env.env(ruleset=spec, episode="match"), num_cycles=300)


def test_pettingzoo_seed_test_of_a_match() -> None:
    seed_test(lambda: mj_env.env(ruleset="nts-2016", episode="match"), num_cycles=300)


def _play_match(
    spec: str, seed: int, reward: str = "score", max_hands: int = 500
) -> tuple[MahjongEnv, dict[str, list[float]], int]:
    """A match played by heuristic bots through the wrapped env; each agent's rewards as
    ``last()`` hands them out (nonzero ones), and the steps taken."""
    e = mj_env.env(ruleset=spec, episode="match", reward=reward, max_hands=max_hands)
    e.reset(seed=seed)
    u: MahjongEnv = e.unwrapped
    bots: dict[str, Any] = {}
    got: dict[str, list[float]] = {a: [] for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, r, term, trunc, _ = e.last()
        if r:
            got[agent].append(r)
        if term or trunc:
            e.step(None)
            continue
        assert obs is not None and obs["observation"].shape == (MATCH_OBS_SIZE,)
        bot = bots.setdefault(agent, make_bot("heuristic", len(bots), u.rules))
        act = bot.act(u.core_observation(agent))
        assert obs["action_mask"][act.id] == 1
        e.step(act.id)
        steps += 1
    return u, got, steps


def test_a_match_pays_each_hand_and_its_rewards_add_up_to_the_balances() -> None:
    """nts-2016 (1.8.5, 1.9): the winds move on after every hand, four rounds, so a
    match is 16 hands; each agent's rewards are its hands' balances (zero-sum each),
    and they add up to its balance in the match."""
    u, got, _ = _play_match("nts-2016", 5)
    match = u.match
    assert match is not None and match.is_over and len(match.history) == 16
    for p, agent in enumerate(u.possible_agents):
        per_hand = [float(rec.balances[p]) for rec in match.history if rec.balances[p]]
        assert got[agent] == per_hand
        assert sum(got[agent]) == match.balances[p]
    assert sum(match.balances) == 0 and any(match.balances)


def test_table_points_come_once_at_the_end_of_the_match() -> None:
    u, got, _ = _play_match("nts-2016", 5, reward="table_points")
    match = u.match
    assert match is not None and match.is_over
    assert all(len(r) <= 1 for r in got.values())  # one reward each, at the end (0 is none)
    finals = match.balances
    if len(set(finals)) == 4:
        order = sorted(range(4), key=lambda p: -finals[p])
        assert [sum(got[f"player_{p}"]) for p in order] == [4.0, 2.0, 1.0, 0.0]
    assert sum(sum(r) for r in got.values()) == 7.0


def test_a_match_not_over_after_max_hands_is_cut() -> None:
    u, _, _ = _play_match("nts-2016", 6, max_hands=2)
    assert u.match is not None and len(u.match.history) == 2 and not u.match.is_over
    assert all(u.truncations.values()) or not u.agents


def test_the_dreamer_sits_the_hand_out() -> None:
    """Five players (NMB 2009, Begrippen, Vijf spelers): in the first hand players 0-3
    sit East..North and player 4, the one before East, is the dreamer.  Its array is
    all 0 but the match section: balances by seat from East (all 0 yet), its own as the
    fifth, progress (hand 0, round 0, East not moved on, 4 rounds and the green-dragon
    round: 5), sitting out 1; its mask is all 0 and it has no core observation."""
    e = MahjongEnv(ruleset="nts-2016+five-players", episode="match")
    e.reset(seed=1)
    assert e.possible_agents == [f"player_{p}" for p in range(5)]
    obs = e.observe("player_4")
    x = np.zeros(MATCH_OBS_SIZE, dtype=np.float32)
    x[MATCH_LAYOUT["MATCH_PROGRESS"]] = (0, 0, 0, 5)
    x[MATCH_LAYOUT["SITTING_OUT"]] = 1
    np.testing.assert_array_equal(obs["observation"], x)
    assert not obs["action_mask"].any()
    with pytest.raises(ValueError, match="sits this hand out"):
        e.core_observation("player_4")
    assert e.infos["player_4"] == {"hand": 0, "seat": None}


def test_layout_2_is_layout_1_and_the_match_section() -> None:
    assert MATCH_LAYOUT_VERSION == 2
    assert OBS_SIZE == 858 and MATCH_OBS_SIZE == 858 + 5 + 4 + 1
    assert all(MATCH_LAYOUT[k] == v for k, v in LAYOUT.items())
    assert (MATCH_LAYOUT["MATCH_BALANCES"], MATCH_LAYOUT["MATCH_PROGRESS"]) == (
        slice(858, 863),
        slice(863, 867),
    )
    assert MATCH_LAYOUT["SITTING_OUT"] == slice(867, 868)


def test_golden_the_first_and_the_second_hand_of_a_match() -> None:
    """nts-2016: East (player 0) opens the match: no balances yet, progress (0, 0, 0, 4).
    The winds move on after every hand (1.8.5), so in the second hand player 1 is East
    and player 0 sits North (seat 3): its seat wind is North, and its balances row by
    relative seat is itself, then the seats after it: East (player 1), South (player 2),
    West (player 3); progress (hand 1, round 0, East moved on once, 4 rounds)."""
    e = MahjongEnv(ruleset="nts-2016", episode="match")
    e.reset(seed=9)
    first = e.observe("player_0")["observation"]
    assert e.game is not None
    layout_1 = encode(e.core_observation("player_0"))
    np.testing.assert_array_equal(first[:OBS_SIZE], layout_1)
    np.testing.assert_array_equal(first[OBS_SIZE:], [0, 0, 0, 0, 0, 0, 0, 0, 4, 0])
    bots = [make_bot("heuristic", s, e.rules) for s in range(4)]
    while e.match is not None and not e.match.history:  # play the first hand out
        seat = e.game.current_seat
        e.step(bots[seat].act(e.core_observation(e.agent_selection)).id)
    assert e.match is not None
    b = e.match.history[0].balances  # by player: the core's settlement of hand 1
    second = e.observe("player_0")["observation"]
    assert e.infos["player_0"] == {"hand": 1, "seat": 3}
    assert second[LAYOUT["SEAT_WIND"].start + 3] == 1  # North
    np.testing.assert_array_equal(second[:OBS_SIZE], encode(e.core_observation("player_0")))
    np.testing.assert_array_equal(second[OBS_SIZE:], [b[0], b[1], b[2], b[3], 0, 1, 0, 1, 4, 0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"episode": "game"}, "one of hand, match"),
        ({"episode": "match", "max_hands": 0}, r"max_hands=0: a whole number 1\.\.500"),
        ({"episode": "match", "max_hands": True}, "max_hands=True"),
    ],
)
def test_bad_match_arguments_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MahjongEnv(**kwargs)  # type: ignore[arg-type]
