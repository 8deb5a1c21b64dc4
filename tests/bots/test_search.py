"""The strong bot's search by sampled draws (:mod:`mahjong_nts.bots.search`): what a
sampled future is worth follows from the rules, the futures are the same for the same
position, and the search's decisions are deterministic."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from typing import Any

from bot_helpers import counts_of, discards_of, make_obs, play

from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.search import Policy, futures, rollout_values, state_seed
from mahjong_nts.bots.strong import Level, StrongBot, _later
from mahjong_nts.core.hand import Meld, MeldKind
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import NUM_KINDS, Tile
from mahjong_nts.core.winvalue import win_value
from mahjong_nts.formats.rulefiles import load_ruleset

ALL = [True] * NUM_KINDS
EARLY = {0: "b1 N", 1: "k9", 2: "t9", 3: "b9"}


def rollout_worth(*args: Any) -> float:
    """The mean worth of a hand over the futures (:func:`rollout_values`)."""
    values = rollout_values(*args)
    return sum(values) / len(values) if values else 0.0


def win_of(obs: Observation):  # type: ignore[no-untyped-def]
    def win(key: bytes, tile: int, self_drawn: bool) -> tuple[bool, int]:
        concealed = [t for t in range(NUM_KINDS) for _ in range(key[t])]
        v = win_value(obs, tile, self_drawn=self_drawn, concealed=concealed)
        return v.allowed, v.balance

    return win


def live_of(obs: Observation) -> list[int]:
    seen = [0] * NUM_KINDS
    for t in obs.concealed:
        seen[t] += 1
    for view in obs.seats:
        for t in view.discards:
            seen[t] += 1
        for m in view.melds:
            assert m is not None
            for t in m.tiles:
                seen[t] += 1
    return [4 - x for x in seen]


def test_a_ready_hand_without_two_doublings_is_worth_nothing() -> None:
    # South (seat 1) has claimed a chow b234, so the hand is open: k234 k567 t45 WW waits
    # on t3 or t6 with one doubling at most (West is neither his wind nor the round's),
    # and a mahjong needs two under nts-2016, self-drawn or not.  However the futures
    # fall, it never wins (a draw that completes it is not allowed, the hand stays as it
    # is): worth exactly 0.  b567 b88 CC FF k9, one step from ready on the same table,
    # drops the k9 and waits on a pung of a dragon (one doubling) in a clean bamboo hand
    # (one more): some future wins it, so it is worth more.
    rules_obs = make_obs("k234 k567 t45 WW", [], seat=1, melds={1: ["[b234]"]}, discards=EARLY)
    live = live_of(rules_obs)
    seqs = futures(live, 64, 7)
    win = win_of(rules_obs)
    fast = counts_of("k234 k567 t45 WW")
    for t in parse_tiles("t3 t6"):
        assert not win(bytes(fast), t, True)[0] and not win(bytes(fast), t, False)[0]
    free = Policy(ALL, (0, 1, 2, 3), False, 1, True)
    assert rollout_worth(fast, free, seqs, 12, 3, 0.04, win) == 0.0
    slow = counts_of("b567 b88 CC FF k9")
    clean_bamboo = Policy(
        [t < 9 or t >= 27 for t in range(NUM_KINDS)], (0, 7, 7, 3), False, 1, True
    )
    assert rollout_worth(slow, clean_bamboo, seqs, 12, 3, 0.04, win) > 0.0


def test_a_sooner_win_is_worth_more() -> None:
    # The same ready hand, concealed (two doublings when self-drawn): with a hazard of
    # an opponent ending the hand every round, a future counts less the later it wins;
    # with more rounds the hand can only win more often.
    obs = make_obs("b123 b456 k234 k567 t4", [], seat=1, discards=EARLY)
    win = win_of(obs)
    hand = counts_of("b123 b456 k234 k567 t4")
    seqs = futures(live_of(obs), 64, 3)
    policy = Policy(ALL, (0, 1, 2, 3), False, 0, True)
    no_hazard = rollout_worth(hand, policy, seqs, 12, 3, 0.0, win)
    hazard = rollout_worth(hand, policy, seqs, 12, 3, 0.1, win)
    shorter = rollout_worth(hand, policy, seqs, 4, 3, 0.0, win)
    assert 0.0 < hazard < no_hazard
    assert 0.0 < shorter <= no_hazard


def test_futures_hold_the_unseen_tiles_and_follow_the_seed() -> None:
    live = [4 - (t % 3) for t in range(NUM_KINDS)]
    a = futures(live, 5, 11)
    assert a == futures(live, 5, 11)
    assert a != futures(live, 5, 12)
    for seq in a:
        assert sorted(seq) == [t for t in range(NUM_KINDS) for _ in range(live[t])]


def test_the_seed_is_the_same_in_every_process() -> None:
    # str and bytes hashes are salted per process; the seed must not depend on them.
    code = (
        "from mahjong_nts.bots.search import state_seed; "
        "print(state_seed(2, [5, 1, 33], (40, 61, 12)))"
    )
    seeds = set()
    for salt in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=salt)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        seeds.add(int(out.stdout))
    assert seeds == {state_seed(2, [5, 1, 33], (40, 61, 12))}
    assert state_seed(2, [5, 1, 33], (40, 61, 12)) != state_seed(2, [5, 1, 32], (40, 61, 12))


SEARCHING = Level(rollouts=24, claim_rollouts=24, rollout_pungs=True, worth_cap=1000.0)


class Searching(StrongBot):
    """The strong bot with every search on (discards, claims, pungs in the futures)."""

    name = "searching"

    def __init__(self, seed: int = 0, rules: RuleSet | None = None) -> None:
        super().__init__(seed, rules, level=SEARCHING)


def test_a_level_passed_to_the_bot_is_the_one_it_plays() -> None:
    # read back natively by the compiled build too (a class attribute of an interpreted
    # subclass would not be)
    assert Searching(0).level is SEARCHING
    assert StrongBot(0).level.rollouts == 0


def test_the_searching_bot_decides_the_same_way_every_time() -> None:
    hand = "b2 b3 b5 b7 k3 k4 k6 k8 t2 t4 t6 C N W"
    obs = make_obs(hand, discards_of(hand), seat=1, discards=EARLY)
    picks = {str(Searching(seed).act(obs)) for seed in range(3)}
    again = Searching(0)
    picks |= {str(again.act(obs)) for _ in range(2)}
    assert len(picks) == 1


def test_a_hand_of_searching_bots_plays_the_same_twice() -> None:
    rules = load_ruleset("nts-2016")
    logs: list[list[str]] = [[], []]
    for log in logs:
        players = [Searching(s, rules) if s % 2 == 0 else HeuristicBot(s, rules) for s in range(4)]
        play(rules, players, 5, check=lambda obs, a, log=log: log.append(f"{obs.seat}:{a}"))
    assert logs[0] == logs[1] and len(logs[0]) > 20


def test_a_future_pungs_a_discard_that_brings_the_plan_nearer() -> None:
    # The open hand of the first test, b567 b88 CC FF k9 beside the chow b234, in one
    # future made by hand: the first discard of the round is a red dragon (C), then a
    # green one (F), then tiles it cannot use.  Punging the C (and letting the k9 go)
    # makes it ready on b8 or F, and the F that comes next wins: pungs of two dragons
    # (a doubling each) in a clean bamboo hand (one more), so mahjong is allowed on a
    # discard.  Without pungs the dragons go by, the hand is never ready: worth 0.
    obs = make_obs("b567 b88 CC FF k9", [], seat=1, melds={1: ["[b234]"]}, discards=EARLY)
    hand = counts_of("b567 b88 CC FF k9")
    future = [int(t) for t in parse_tiles("C F t1 t2 t3 k1 k2 t4 k6 t8 N W k5 t9 k8 k7")]
    clean = Policy([t < 9 or t >= 27 for t in range(NUM_KINDS)], (0, 7, 7, 3), False, 1, True)
    win = win_of(obs)

    def pungs(tiles: tuple[int, ...]):  # type: ignore[no-untyped-def]
        melds = tuple(Meld(MeldKind.PUNG, Tile(t)) for t in tiles)
        seats = tuple(
            replace(v, melds=(*v.melds, *melds), claimed_from=(*v.claimed_from, 0))
            if v.seat == 1
            else v
            for v in obs.seats
        )
        return win_of(replace(obs, seats=seats))

    without = rollout_values(hand, clean, [future], 4, 3, 0.0, win)
    with_pungs = rollout_values(hand, clean, [future], 4, 3, 0.0, win, pung=pungs)
    assert without == [0.0]
    ok, balance = pungs((int(Tile.RED),))(bytes(counts_of("b567 b88 FF")), Tile.GREEN, False)
    assert ok and with_pungs == [float(balance)]


def test_a_future_win_is_no_heavenly_hand() -> None:
    # East before his first discard, ready: a self-drawn win now would be the heavenly
    # hand (a limit hand), but a win found in a sampled future comes rounds later and is
    # valued as such: no heavenly hand.
    hand = "b123 b456 k234 k567 t4"
    obs = make_obs(f"{hand} N", discards_of(f"{hand} N"), seat=0)
    assert obs.discard_count == 0
    concealed = parse_tiles(hand)
    now = win_value(obs, Tile.T4, self_drawn=True, concealed=concealed)
    later = win_value(_later(obs), Tile.T4, self_drawn=True, concealed=concealed)
    assert now.limit_hand is not None and later.limit_hand is None
    assert later.allowed and later.balance < now.balance
