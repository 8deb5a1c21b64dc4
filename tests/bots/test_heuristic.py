"""The heuristic bot: single decisions whose right answer follows from the hand, and a
run against the random bot."""

from __future__ import annotations

from bot_helpers import discards_of, make_obs, play

from mahjong_nts.bots import HeuristicBot, RandomBot
from mahjong_nts.core.game import Phase
from mahjong_nts.formats.rulefiles import load_ruleset


def act(obs_text: str, legal: list[str], **kw: object) -> str:
    return str(HeuristicBot(0).act(make_obs(obs_text, legal, **kw)))  # type: ignore[arg-type]


def test_takes_a_legal_mahjong_on_the_turn_and_on_a_discard() -> None:
    hand = "b123 b456 b789 k234 CC"
    assert act(hand, ["mahjong", *discards_of(hand)]) == "mahjong"
    ready = "b123 b456 b789 k234 C"
    legal = ["mahjong", "pung C", "pass"]
    assert act(ready + " C", legal, phase=Phase.CLAIM, offered="C", seat=1) == "mahjong"


def test_discards_the_only_tile_outside_sets_pairs_and_partial_sets() -> None:
    # three chows, b56 (waits on b4/b7), the pair k88, and a lone North (no value for
    # East in the East round): any other discard breaks a block and loses a step
    hand = "b123 k234 t567 b56 k88 N"
    assert act(hand, discards_of(hand)) == "discard N"


def test_keeps_the_wait_whose_tiles_are_still_live() -> None:
    # four chows and two single winds: either discard leaves a single wait on the other
    hand = "b123 b456 k234 t567 W N"
    three_north = {1: "N", 2: "N", 3: "N"}
    three_west = {1: "W", 2: "W", 3: "W"}
    assert act(hand, discards_of(hand), discards=three_north) == "discard N"
    assert act(hand, discards_of(hand), discards=three_west) == "discard W"


def test_claims_a_pung_of_dragons_that_an_open_hand_needs() -> None:
    # the open chow ended the fully-concealed hope: the doublings must come from sets,
    # and a pung of red dragons is one of them (and a step towards ready)
    hand = "b45 b78 k34 t66 CC"
    legal = ["pung C", "pass"]
    melds = {2: ["[b123]"]}
    assert act(hand, legal, phase=Phase.CLAIM, offered="C", seat=2, melds=melds) == "pung C"


def test_chows_only_in_the_suit_of_its_clean_hand() -> None:
    # an open clean bamboo hand (a bamboo chow and a pung of East, the round wind: one
    # doubling, clean is the other): a circles chow would end the plan that gives it
    # two doublings, a bamboo chow completes a set of it
    hand = "b2 b3 b5 b6 k4 k6 N"
    melds = {1: ["[b789]", "[EEE]"]}
    circles = act(hand, ["chow k4", "pass"], phase=Phase.CLAIM, offered="k5", seat=1, melds=melds)
    assert circles == "pass"
    legal = ["chow b2", "chow b3", "chow b4", "pass"]
    bamboo = act(hand, legal, phase=Phase.CLAIM, offered="b4", seat=1, melds=melds)
    assert bamboo.startswith("chow b")


def test_does_not_break_a_ready_concealed_hand_for_a_plain_pung() -> None:
    # ready on b1/b4 (b23) with a pair of k5 - wait, k55 is the pair: a pung of k5
    # takes the pair, opens the hand and leaves it a step further from ready
    hand = "b23 b456 b789 t234 k55"
    legal = ["pung k5", "pass"]
    assert act(hand, legal, phase=Phase.CLAIM, offered="k5", seat=2) == "pass"


def test_avoids_the_suit_an_open_clean_looking_hand_collects() -> None:
    # bamboo and circles play the same part in this hand, far from ready; the opponent
    # shows two melds in one suit: the bot throws the other suit's tile
    hand = "b1 b2 b5 b9 k1 k2 k5 k9 t1 t2 t4 t5 t7 t8"
    bamboo_opponent = {1: ["[b234]", "[b777]"]}
    circles_opponent = {1: ["[k234]", "[k777]"]}
    thrown = act(hand, discards_of(hand), melds=bamboo_opponent)
    assert thrown.startswith("discard k"), thrown
    thrown = act(hand, discards_of(hand), melds=circles_opponent)
    assert thrown.startswith("discard b"), thrown


def test_beats_the_random_bot() -> None:
    """200 hands, the heuristic bot rotating through the seats against three random bots.

    A random bot almost never reaches the two doublings a mahjong needs (it won 1 hand
    of 1200 in trial runs), while the heuristic bot wins about a quarter of its hands.
    Bounds with a wide safety margin: 20 wins of 200 is more than 5 standard deviations
    under 25% (sd = sqrt(200 * .25 * .75) = 6.1), and 5 wins for the three random bots
    together would be 5 standard deviations over even a 0.5% win rate.
    """
    rules = load_ruleset("nts-2016")
    wins = {"heuristic": 0, "random": 0}
    balance = {"heuristic": 0, "random": 0}
    for i in range(200):
        names = ["random"] * 4
        names[i % 4] = "heuristic"
        players = [
            HeuristicBot(i) if n == "heuristic" else RandomBot(i * 4 + s)
            for s, n in enumerate(names)
        ]
        game = play(rules, players, 1000 + i)
        result = game.result
        assert result is not None
        if result.winner is not None:
            wins[names[result.winner]] += 1
        for s, name in enumerate(names):
            balance[name] += result.settlement.balances[s]
    assert wins["heuristic"] >= 20
    assert wins["random"] <= 5
    assert balance["heuristic"] > 0 > balance["random"]


def test_announces_the_lucky_thirteen_with_a_ready_dealt_hand() -> None:
    """rode-draak: South's 13 dealt tiles wait on S or C (pung of its own wind or of a
    dragon, and the announcement: the two doublings a mahjong needs); it drew P, the tile
    it lets go anyway, so it announces with it."""
    bot = HeuristicBot(0, load_ruleset("rode-draak"))
    hand = "b222 k456 t789 SS CC P"
    legal = [*discards_of(hand), "announce P"]
    assert str(bot.act(make_obs(hand, legal, seat=1))) == "announce P"


def test_no_announcement_on_dead_waits() -> None:
    """The same kind of hand waiting on k1 or k4, every one of which lies in the discards:
    the announcement would fix a hand that cannot win."""
    bot = HeuristicBot(0, load_ruleset("rode-draak"))
    hand = "b123 b456 b789 k23 CC P"
    legal = [*discards_of(hand), "announce P"]
    dead = {0: "k1 k1 k4 k4", 2: "k1 k1", 3: "k4 k4"}
    choice = str(bot.act(make_obs(hand, legal, seat=1, discards=dead)))
    assert choice.startswith("discard")
