"""The PettingZoo environment: PettingZoo's own API and seed tests, and the action mask
against the core's legal actions (issue 12)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mahjong_nts.env as mj_env
from mahjong_nts.bots import make_bot
from mahjong_nts.core.actions import NUM_ACTIONS, Action
from mahjong_nts.core.game import Game
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.env.aec import MahjongEnv
from mahjong_nts.env.encoding import Encoder, action_mask, encode, encode_game, legal_mask
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED

pytestmark = pytest.mark.filterwarnings(
    # a dict observation with an action mask, as PettingZoo's own classic environments
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+three-players"])
def test_pettingzoo_api_test(spec: str) -> None:
    api_test(mj_env.env(ruleset=spec), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: mj_env.env(ruleset="nts-2016"), num_cycles=300)


def test_agents_are_the_seats_by_wind() -> None:
    e = mj_env.env(ruleset="nmb-2009+three-players", reward="table_points")
    e.reset(seed=1)
    assert e.possible_agents == ["seat_0", "seat_1", "seat_2"]
    assert e.agent_selection == "seat_0"  # East starts with the fourteenth tile


def _random_hand(
    spec: str, seed: int, reward: str = "score", bots: str = ""
) -> tuple[MahjongEnv, list[int]]:
    """Play one hand with random legal actions (or by the bot named), checking at every
    step that the mask of each agent is exactly the core's legal actions of that seat now
    (none for a seat not asked), and that the env's game is the core game dealt from the
    same seed."""
    env = MahjongEnv(ruleset=spec, reward=reward)  # type: ignore[arg-type]
    env.reset(seed=seed)
    shadow = Game(env.rules, SeedRng(seed))  # the same hand, driven by the core alone
    rng = random.Random(seed)
    players = [make_bot(bots, seed + s, env.rules) for s in range(shadow.n)] if bots else []
    taken: list[int] = []
    while not shadow.is_over:
        agent = env.agent_selection
        assert agent == f"seat_{shadow.current_seat}"
        for a in env.agents:
            mask = env.observe(a)["action_mask"]
            s = int(a.removeprefix("seat_"))
            legal = shadow.legal_actions() if s == shadow.current_seat else ()
            assert set(np.flatnonzero(mask).tolist()) == {act.id for act in legal}, (seed, a)
        if players:
            act = players[shadow.current_seat].act(observe(shadow, shadow.current_seat))
        else:
            act = rng.choice(shadow.legal_actions())
        taken.append(act.id)
        env.step(act.id)
        shadow.apply(act)
    assert env.game is not None and env.game.events == shadow.events
    return env, taken


@pytest.mark.parametrize(
    "spec", ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]
)
def test_the_mask_is_exactly_the_core_legal_actions(spec: str) -> None:
    for seed in range(6):
        env, _ = _random_hand(spec, seed)
        assert all(env.terminations.values())


def test_score_rewards_are_the_settlement_and_sum_to_zero() -> None:
    wins = 0
    for seed in range(12):
        env, _ = _random_hand("nts-2016", seed, bots="heuristic")
        assert env.game is not None and env.game.result is not None
        balances = env.game.result.settlement.balances
        assert [env.rewards[f"seat_{s}"] for s in range(4)] == [float(b) for b in balances]
        assert sum(env.rewards.values()) == 0
        wins += not env.game.result.remise
    assert wins  # some hand was won, so the rewards were not all zero


def test_table_points_rewards_by_place() -> None:
    ranked = 0
    for seed in range(12):
        env, _ = _random_hand("nts-2016", seed, reward="table_points", bots="heuristic")
        assert env.game is not None and env.game.result is not None
        balances = env.game.result.settlement.balances
        points = [env.rewards[f"seat_{s}"] for s in range(4)]
        assert sum(points) == 4 + 2 + 1 + 0  # places share their points, nothing is lost
        if len(set(balances)) == 4:  # no ties: 4/2/1/0 by place
            order = sorted(range(4), key=lambda s: -balances[s])
            assert [points[s] for s in order] == [4.0, 2.0, 1.0, 0.0]
            ranked += 1
    assert ranked


def test_reset_with_a_seed_deals_the_same_wall() -> None:
    a, b = MahjongEnv(), MahjongEnv()
    a.reset(seed=2**200 + 5)
    b.reset(seed=2**200 + 5)
    assert a.game is not None and b.game is not None
    assert a.game.events == b.game.events  # the deal: every seat's tiles
    assert np.array_equal(a.observe("seat_0")["observation"], b.observe("seat_0")["observation"])
    a.reset(seed=7)
    assert a.game is not None and a.game.events != b.game.events


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ruleset": "nts-2016", "players": 3}, "played by 4"),
        ({"reward": "money"}, "one of score, table_points"),
        ({"render_mode": "human"}, "None or 'ansi'"),
        ({"ruleset": 5}, "a rule set's name or a RuleSet"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MahjongEnv(**kwargs)  # type: ignore[arg-type]


def test_an_illegal_action_is_refused_with_the_legal_ones() -> None:
    env = MahjongEnv()
    env.reset(seed=3)
    legal = env.game.legal_actions() if env.game is not None else ()
    bad = next(i for i in range(NUM_ACTIONS) if Action.from_id(i) not in legal and i != 70 + 8)
    with pytest.raises(ValueError, match="is not legal now; legal: "):
        env.step(bad)
    with pytest.raises(ValueError, match=r"an action is an id 0\.\.171"):
        env.step(NUM_ACTIONS)
    # a chow slot of a tile that starts no chow (b9: id 70 + 8) is no action at all
    with pytest.raises(ValueError, match="not an action id"):
        env.step(70 + 8)


@pytest.mark.parametrize("seed", [-1, 2**256, 1.5, "7"])
def test_a_bad_seed_is_refused(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        MahjongEnv().reset(seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec", ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]
)
def test_the_kept_arrays_are_the_arrays_encoded_afresh(spec: str) -> None:
    """The environment keeps each seat's array between its observations and rewrites only
    what changed (env.encoding.Encoder): along random hands, observed by each seat at
    random moments (so several steps pass between two observations of a seat, claims,
    kongs and the end of the hand among them), it equals encode(observe(...)); and the
    array handed out is a copy that later steps do not change."""
    rules = mj_env.raw_env(ruleset=spec).rules
    rng = random.Random(11)
    compared = 0
    for seed in range(15):
        game = Game(rules, SeedRng(seed))
        encoders = [Encoder() for _ in range(game.n)]
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        while True:
            for s in range(game.n):
                if game.is_over or rng.random() < 0.4:
                    obs = observe(game, s)
                    x = encoders[s].encode(obs)
                    assert np.array_equal(x, encode(obs)), (spec, seed, s)
                    kept.append((x, x.copy()))
                    compared += 1
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert all(np.array_equal(x, was) for x, was in kept)
    assert compared > 1000


@pytest.mark.parametrize(
    "spec", [*SHIPPED, *(f"nts-2016+{o}" for o in OVERLAYS), "nmb-2009+flowers+three-players"]
)
def test_the_arrays_read_from_the_game_are_the_arrays_of_the_observations(spec: str) -> None:
    """The environment encodes straight from the game (env.encoding.encode_game, no
    Observation built) and sets the mask from the legal actions' ids (legal_mask): along
    random hands of every shipped rule set and overlay, with each seat observed at every
    step or at random moments (so several steps, claims, kongs and flowers, pass between
    two of its observations), the array equals encode(observe(...)) and the mask
    action_mask(observe(...)); the arrays handed out never change afterwards."""
    rules = mj_env.raw_env(ruleset=spec).rules
    rng = random.Random(5)
    compared = 0
    for seed in range(12):
        game = Game(rules, SeedRng(seed))
        every = seed % 3 == 0  # some hands observed by every seat at every step
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        while True:
            for s in range(game.n):
                if every or game.is_over or rng.random() < 0.3:
                    obs = observe(game, s)
                    x = encode_game(game, s)
                    assert np.array_equal(x, encode(obs)), (spec, seed, s, len(game.events))
                    assert np.array_equal(legal_mask(obs.legal), action_mask(obs))
                    kept.append((x, x.copy()))
                    compared += 1
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        assert all(np.array_equal(x, was) for x, was in kept)
    assert compared > 1000


def test_the_array_read_from_a_game_is_that_game_s_and_seat_s() -> None:
    """encode_game keeps its public array per game (in Game.view_cache): another hand,
    or a clone of the same hand played on, has its own, and each seat gets its own view
    of the same table, in any order of games and seats."""
    rules = mj_env.raw_env(ruleset="nts-2016").rules
    rng = random.Random(4)
    game = Game(rules, SeedRng(1))
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    other = Game(rules, SeedRng(2))
    twin = game.clone()
    for _ in range(8):
        twin.apply(rng.choice(twin.legal_actions()))
    for g, s in ((game, 0), (other, 0), (other, 1), (twin, 1), (game, 1), (twin, 2), (game, 0)):
        assert np.array_equal(encode_game(g, s), encode(observe(g, s))), s
    for seat in (-1, 4, True, 1.0):
        with pytest.raises(ValueError, match="not at this table"):
            encode_game(game, seat)  # type: ignore[arg-type]


def test_an_encoder_starts_afresh_for_another_hand() -> None:
    """Encoder.reset() (the environment's reset) forgets the hand; without it an
    observation of a new hand (its history shorter) starts afresh too."""
    rules = mj_env.raw_env(ruleset="nts-2016").rules
    encoder = Encoder()
    for seed in (1, 2):
        game = Game(rules, SeedRng(seed))
        rng = random.Random(seed)
        for _ in range(30):
            game.apply(rng.choice(game.legal_actions()))
        obs = observe(game, 0)
        assert np.array_equal(encoder.encode(obs), encode(obs))
    game = Game(rules, SeedRng(1))
    obs = observe(game, 0)
    assert np.array_equal(encoder.encode(obs), encode(obs))


@pytest.mark.parametrize(
    "spec", [*SHIPPED, *(f"{r}+three-players" for r in SHIPPED), "nmb-2009+flowers"]
)
def test_the_environment_s_kept_arrays_are_fresh_encodings_at_every_step(spec: str) -> None:
    """The environment's observation of every agent at every step of random hands (each
    seat's array kept between its observations and brought up to date by what changed)
    equals the full encoding made afresh from the core's observation,
    encode(observe(game, seat)), and its mask action_mask(observe(...)): every shipped
    rule set, at four and at three; and no array handed out changes afterwards."""
    env = MahjongEnv(ruleset=spec)
    rng = random.Random(3)
    compared = 0
    for seed in range(6):
        env.reset(seed=seed)
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        while env.agents:
            game = env.game
            assert game is not None
            for agent in env.agents:
                got = env.observe(agent)
                want = observe(game, int(agent.removeprefix("seat_")))
                assert np.array_equal(got["observation"], encode(want)), (spec, seed, agent)
                assert np.array_equal(got["action_mask"], action_mask(want)), (spec, agent)
                kept.append((got["observation"], got["observation"].copy()))
                compared += 1
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert all(np.array_equal(x, was) for x, was in kept)
    assert compared > 500


def test_the_action_spaces_draw_as_seeded_by_the_reset() -> None:
    """reset(seed=s) fixes agent i's action space as Discrete(NUM_ACTIONS) seeded with
    derive_seed(s, "actions", i) % 2**32 (the space is seeded on its first draw, the
    same draws); a reset without a seed, from the next hand's seed; an explicit seed()
    of the space afterwards wins."""
    from gymnasium.spaces import Discrete

    from mahjong_nts.core.seeding import derive_seed

    env = MahjongEnv(ruleset="nts-2016")

    def draws(space: object) -> list[int]:
        return [int(space.sample()) for _ in range(5)]  # type: ignore[attr-defined]

    def seeded(seed: int) -> Discrete:
        space = Discrete(NUM_ACTIONS)
        space.seed(seed)
        return space

    env.reset(seed=7)
    for i, agent in enumerate(env.agents):
        assert draws(env.action_space(agent)) == draws(seeded(derive_seed(7, "actions", i) % 2**32))
    env.reset()
    following = derive_seed(7, "next hand")
    for i, agent in enumerate(env.agents):
        want = draws(seeded(derive_seed(following, "actions", i) % 2**32))
        assert draws(env.action_space(agent)) == want
    env.reset(seed=7)
    env.action_space("seat_0").seed(99)
    assert draws(env.action_space("seat_0")) == draws(seeded(99))
