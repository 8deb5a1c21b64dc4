"""A hand's records in the game (`Game.events`, `discard_log`, `public_log`) are bounded
by the set's tiles, as docs/security.md says: every entry follows a tile dealt or drawn,
or a decision on one, and each tile is drawn once and discarded at most once, so a list
holds at most 8 entries for each tile of the set (a draw or a loose tile, a flower, the
discard, up to three claim decisions on it, the meld or kong it ends in, a mahjong).

Hands of random legal play (which claims and declares kongs far more than the bots and
plays most walls out) under every shipped rule set and table."""

from __future__ import annotations

import pytest
from game_helpers import random_hand

from mahjong_nts.core.game import Game
from mahjong_nts.core.wall import tile_set
from mahjong_nts.formats.rulefiles import load_ruleset

PER_TILE = 8
RULESETS = (
    "nts-2016",
    "nts-2002",
    "nmb-2009",
    "rode-draak",
    "nts-2016+flowers",
    "nts-2016+three-players",
    "nts-2016+five-players",
)


@pytest.mark.parametrize("spec", RULESETS)
def test_records_stay_within_the_tiles(spec: str) -> None:
    rules = load_ruleset(spec)
    bound = PER_TILE * len(tile_set(rules.table))

    def check(game: Game) -> None:
        for records in (game.events, game.discard_log, game.public_log):
            assert len(records) <= bound, (spec, len(records))

    longest = 0
    for seed in range(30):
        game, _ = random_hand(rules, seed, each=check)
        longest = max(longest, len(game.events))
    # the random hands are long ones: the bound is not met by hands that barely start
    assert longest > len(tile_set(rules.table)) // 2, (spec, longest)
