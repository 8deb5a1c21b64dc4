"""The strong bot's irregular limit hands (thirteen orphans, the snakes, the Peking
garden): what each is credited under each rule set, which discard plays for one, and the
claims it lets go to keep the hand concealed.  Expected values worked out by hand."""

from __future__ import annotations

import dataclasses
import math

import pytest
from bot_helpers import LATE_DISCARDS, counts_of, discards_of, make_obs

from mahjong_nts.bots.strong import (
    STRONG,
    LimitCredits,
    NormalBot,
    StrongBot,
    limit_credits,
    limit_pick,
    limit_target,
)
from mahjong_nts.core.game import Phase
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import DuelSpec, play_wall

OFF = dataclasses.replace(STRONG, limit_plans=False, exact_claims=False)
"""`strong` without the limit hands, its claims the plans' alone (near ready its claims
are also weighed by expected points, which would change the positions' answers)."""


def without_irregular_limits(rules: RuleSet) -> RuleSet:
    hands = {
        k: v
        for k, v in rules.scoring.limit_hands.items()
        if k not in ("thirteen_orphans", "wind_snake", "dragon_snake", "peking_garden")
    }
    scoring = dataclasses.replace(rules.scoring, limit_hands=hands)
    return dataclasses.replace(rules, scoring=scoring)


@pytest.mark.parametrize(
    ("name", "orphans", "snakes"),
    [
        # nts-2016 and nts-2002: thirteen orphans 2000, each snake and the garden 1000
        ("nts-2016", 1.5, 0.5),
        ("nts-2002", 1.5, 0.5),
        # nmb-2009: on a discard 1500 and 750
        ("nmb-2009", 0.5 + math.log2(1.5), 0.5 + math.log2(0.75)),
        # rode-draak: a limit (1000) and half a limit (500)
        ("rode-draak", 0.5, -0.5),
    ],
)
def test_credits_follow_the_values_of_the_rule_set(
    name: str, orphans: float, snakes: float
) -> None:
    got = limit_credits(load_ruleset(name), 0.5)
    assert got is not None
    assert got.orphans == pytest.approx(orphans)
    assert got.snakes == pytest.approx(snakes)


def test_no_credits_without_the_hands() -> None:
    rules = without_irregular_limits(load_ruleset("nts-2016"))
    assert limit_credits(rules, 0.5) is None
    # a snake missing: no snakes, thirteen orphans still
    hands = dict(load_ruleset("nts-2016").scoring.limit_hands)
    del hands["dragon_snake"]
    rules = load_ruleset("nts-2016")
    rules = dataclasses.replace(
        rules, scoring=dataclasses.replace(rules.scoring, limit_hands=hands)
    )
    assert limit_credits(rules, 0.5) == LimitCredits(1.5, None)


def test_none_with_three_players() -> None:
    # three players play no characters and no North: thirteen orphans, the wind snake
    # and the garden cannot be made (a hand played for one would wait on a North)
    assert limit_credits(load_ruleset("nts-2016+three-players"), 0.5) is None
    # the flowers and five players play the whole set
    assert limit_credits(load_ruleset("nts-2016+flowers"), 0.5) == LimitCredits(1.5, 0.5)
    assert limit_credits(load_ruleset("nts-2016+five-players"), 0.5) == LimitCredits(1.5, 0.5)


def test_a_three_player_wall_that_once_asked_for_a_north_plays_out() -> None:
    # before limit_credits knew the tile set, strong played this wall's hand for thirteen
    # orphans and asked the scorer what a North would win: InvalidHand, the duel stopped
    name = "nts-2016+three-players"
    play_wall(DuelSpec(name, "strong", "heuristic", 1), load_ruleset(name), 58)


def test_the_target_is_the_nearest_after_its_credit() -> None:
    credits = LimitCredits(1.5, 0.5)
    # twelve orphans with a pair: thirteen orphans 0 steps (ready for the white dragon)
    assert limit_target(counts_of("b19 k19 t19 ESWN CF E"), credits) == (-1.5, 0, 0)
    # bamboo 1-9 and three winds: the wind snake 1 step (13 - 12), orphans 8 (b1 b9
    # E S W, no pair: 13 - 5)
    assert limit_target(counts_of("b123456789 ESW k5"), credits) == (0.5, 1, 1)
    # no credit for thirteen orphans: the snake's 1 step, not orphans' 8
    assert limit_target(counts_of("b123456789 ESW k5"), LimitCredits(None, 0.5)) == (0.5, 1, 1)
    assert limit_target(counts_of("b123456789 ESW k5"), LimitCredits(1.5, None)) == (6.5, 8, 0)


def test_a_pick_plays_for_the_nearest_target() -> None:
    credits = LimitCredits(1.5, 0.5)
    # eleven orphans and a pair of East, k5 and k6 besides: throwing k5 (or k6) leaves
    # thirteen orphans 1 step away (13 - 11 kinds - the pair), -0.5 after its credit;
    # an orphan or the pair thrown, 2.  k5 and k6 tie (each leaves F and P to help):
    # the first goes
    counts = counts_of("b19 k19 t19 ESWN C E k56")
    choices = [t for t in range(34) if counts[t]]
    live = [4] * 34
    assert limit_pick(counts, choices, 3.0, credits, 5, live) == parse_tiles("k5")[0]
    assert counts == counts_of("b19 k19 t19 ESWN C E k56")  # the hand is left as it was
    # not when the plans' value is nearer than the target after its credit
    assert limit_pick(counts, choices, -0.6, credits, 5, live) is None
    # nor from farther than ``most`` steps
    assert limit_pick(counts, choices, 3.0, credits, 0, live) is None


def test_ties_go_to_the_discard_that_more_live_tiles_bring_nearer() -> None:
    # a complete wind snake (bamboo 1-9, the four winds and an extra South): every
    # discard leaves 13 fitting tiles, ready.  Throwing the extra South waits on an
    # extra of any of the 13 kinds (13 x 4 live tiles here); throwing a bamboo or
    # another wind waits on that one kind only (4)
    counts = counts_of("b123456789 ESWN S")
    choices = [t for t in range(34) if counts[t]]
    live = [4] * 34
    assert limit_pick(counts, choices, 3.0, LimitCredits(1.5, 0.5), 5, live) == parse_tiles("S")[0]
    # with no live copy of anything but b5, the South thrown is helped by b5 alone (4),
    # as is the b5 thrown: a tie, and the first of them (b5) goes
    live = [0] * 34
    live[parse_tiles("b5")[0]] = 4
    assert limit_pick(counts, choices, 3.0, LimitCredits(1.5, 0.5), 5, live) == parse_tiles("b5")[0]


@pytest.mark.parametrize(
    ("hand", "limit"),
    [
        # eleven orphans and a pair: the partial chow k56 goes; by the plans, an orphan
        ("b19 k19 t19 ESWN C E k56", {"k5", "k6"}),
        # bamboo 1-9, three winds, a dragon and k5: the wind snake (1 step, for North or
        # an extra) whether k5 or the dragon goes; by the plans, a wind
        ("b123456789 ESW C k5", {"k5", "C"}),
    ],
)
def test_strong_plays_for_an_irregular_limit_hand(hand: str, limit: set[str]) -> None:
    legal = discards_of(hand)
    got = str(StrongBot(0).act(make_obs(hand, legal)))
    assert got.removeprefix("discard ") in limit
    other = str(StrongBot(0, level=OFF).act(make_obs(hand, legal)))
    assert other.removeprefix("discard ") not in limit


def test_a_step_from_thirteen_orphans_it_plays_for_them_before_safety() -> None:
    # late, West (three open melds) close; the hand holds eleven orphans and a pair of
    # North, and b5 and k5: one of those goes (a step from thirteen orphans, worth
    # 2000), not the safe white dragon the hand throws without the limit plans
    hand = "b1 b5 b9 k1 k5 t9 E S W N N F P C"
    melds = {2: ["[b234]", "[k777]", "[PPP]"]}
    obs = make_obs(hand, discards_of(hand), melds=melds, discards=LATE_DISCARDS)
    assert str(StrongBot(0).act(obs)) in ("discard b5", "discard k5")
    assert str(StrongBot(0, level=OFF).act(obs)) == "discard P"


def test_not_under_a_rule_set_without_them_nor_at_the_normal_level() -> None:
    hand = "b19 k19 t19 ESWN C E k56"
    legal = discards_of(hand)
    rules = without_irregular_limits(load_ruleset("nts-2016"))
    got = StrongBot(0, rules).act(make_obs(hand, legal, rules=rules))
    assert got == StrongBot(0, rules, level=OFF).act(make_obs(hand, legal, rules=rules))
    assert str(got) not in ("discard k5", "discard k6")
    assert str(NormalBot(0).act(make_obs(hand, legal))) not in ("discard k5", "discard k6")


def test_a_claim_that_would_open_the_hand_is_let_go() -> None:
    # East in the East round: a pung of East is two doublings, and the plans take it
    # (three chows, the pung, two single winds); the wind snake is ready as it is
    # (b1-9, E S W and an extra East: 13 fitting tiles, waiting for North)
    hand = "b123456789 EE SW"
    legal = ["pung E", "pass"]
    obs = make_obs(hand, legal, phase=Phase.CLAIM, offered="E")
    assert str(StrongBot(0, level=OFF).act(obs)) == "pung E"
    assert str(StrongBot(0).act(obs)) == "pass"
    # the same with k5 and t5 instead of South and West: every snake 2 steps away (1.5
    # after its credit), the plans nearer; the pung stands
    hand = "b123456789 EE k5 t5"
    obs = make_obs(hand, legal, phase=Phase.CLAIM, offered="E")
    assert str(StrongBot(0).act(obs)) == "pung E"
    assert str(StrongBot(0, level=OFF).act(obs)) == "pung E"
