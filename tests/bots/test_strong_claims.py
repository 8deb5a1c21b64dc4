"""The strong bot's claims near ready, decided by expected points (``Level.exact_claims``):
positions worked out by hand, each checked against the scorer."""

from __future__ import annotations

import dataclasses

from bot_helpers import make_obs

from mahjong_nts.bots.strong import STRONG, StrongBot
from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import Hand
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.shanten import shanten
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.winvalue import win_value

PLANS = dataclasses.replace(STRONG, exact_claims=False)
"""`strong` with the plans' claims alone."""


def _east_offered_east(concealed: str, melds: list[str], legal: list[str]) -> Observation:
    """East (seat 0) in the West round, ``melds`` declared, offered the East that West
    (seat 2) has just thrown; 22 tiles left in the wall."""
    return make_obs(
        concealed,
        legal,
        phase=Phase.CLAIM,
        offered="E",
        seat=0,
        melds={0: melds},
        discards={2: "b9 k1 E"},
        round_wind=Tile.WEST,
        live_left=22,
    )


def test_a_pung_that_makes_a_bigger_hand_ready_on_more_tiles_is_claimed() -> None:
    # East holds b1 b3 b5 b5 b5 E E C C C beside an open pung of West (the round wind):
    # ready on b2 alone, with two doublings (the pungs of the round wind and a dragon).
    # The pung of East (his own wind) and throwing b1 leave b3 b5 b5 b5 C C C ready on b3
    # and b4, with three doublings.  The plans let the pung go (the hand is ready
    # already); the expected points take it: more winning tiles, each worth more.
    hand = "b1 b3 b5 b5 b5 E E C C C"
    obs = _east_offered_east(hand, ["[WWW]"], ["pung E", "pass"])
    counts = list(Hand(parse_tiles(hand)).counts)
    assert sorted(waiting_tiles(counts, n_melds=1)) == [Tile.B2]
    kept = "b3 b5 b5 b5 C C C"
    after_counts = list(Hand(parse_tiles(kept)).counts)
    assert sorted(waiting_tiles(after_counts, n_melds=2)) == [Tile.B3, Tile.B4]
    before = win_value(obs, Tile.B2, self_drawn=False, concealed=parse_tiles(hand))
    after = make_obs(kept, ["pass"], seat=0, melds={0: ["[WWW]", "[EEE]"]}, round_wind=Tile.WEST)
    for tile in (Tile.B3, Tile.B4):
        won = win_value(after, tile, self_drawn=False, concealed=parse_tiles(kept))
        assert won.allowed and before.allowed and won.balance > before.balance
    assert str(StrongBot(0, level=PLANS).act(obs)) == "pass"
    assert str(StrongBot(0).act(obs)) == "pung E"
    # the plans' answer stands unless the other is ahead by the margin
    margin = dataclasses.replace(STRONG, exact_claim_margin=1e9)
    assert str(StrongBot(0, level=margin).act(obs)) == "pass"


def test_a_hand_far_from_ready_claims_as_the_plans_do() -> None:
    # Two steps and more from ready the expectation is not asked: hands with the same
    # East pair and the pung of West, the rest broken up, answer as the plans do.
    for hand in ("b1 b3 k5 b5 b5 E E C C t9", "b1 b7 k5 b5 b5 E E C C t9"):
        counts = list(Hand(parse_tiles(hand)).counts)
        assert shanten(counts, n_melds=1) >= 2
        obs = _east_offered_east(hand, ["[WWW]"], ["pung E", "pass"])
        assert str(StrongBot(0).act(obs)) == str(StrongBot(0, level=PLANS).act(obs))


def test_a_position_with_the_tile_on_offer_not_yet_in_sight_is_answered() -> None:
    # An observation built by hand may leave the tile on offer out of the discards, so
    # the live count says one more East than the table can hold after the pung (two in
    # hand, this one, two more "live"): the claim's what-if must not draw a fifth East
    # (the scorer would refuse the hand).  East in the East round: a pung of East is two
    # doublings; b1-9 E E S W is a step from ready.
    obs = make_obs(
        "b1 b2 b3 b4 b5 b6 b7 b8 b9 E E S W", ["pung E", "pass"], phase=Phase.CLAIM, offered="E"
    )
    level = dataclasses.replace(STRONG, limit_plans=False)  # (else the wind snake passes)
    assert str(StrongBot(0, level=level).act(obs)) in ("pung E", "pass")
