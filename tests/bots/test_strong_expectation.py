"""The strong bot's expected points near ready (``_Expectation``): a hand that holds a
copy drawn beyond the tiles it started from never draws a fifth one."""

from __future__ import annotations

import math

from bot_helpers import make_obs

from mahjong_nts.bots.strong import StrongBot, _Expectation, _hazard
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import Hand
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.shanten import shanten
from mahjong_nts.core.tiles import Tile

BASE = "b1 b2 b3 t1 t2 t3 k5 k5 k5 W W E C"
"""South's 13 tiles: three k5 of the four (the last one live)."""
DRAWN = "b1 b2 b3 t1 t2 t3 k5 k5 k5 k5 W W E"
"""The same after drawing the last k5 and throwing the red dragon: a step from ready.  A
fifth k5 would make it ready (k555, the pair of k5, the pair of west: East thrown)."""


def test_a_copy_drawn_beyond_the_base_is_no_longer_live() -> None:
    obs = make_obs(BASE, ["pass"], phase=Phase.CLAIM, offered="b9", seat=1, live_left=40)
    bot = StrongBot(0)
    bot._obs = obs
    ctx = bot._context(obs)
    assert ctx.live[Tile.K5] == 1
    drawn = list(Hand(parse_tiles(DRAWN)).counts)
    assert shanten(drawn, n_melds=0) == 1
    rounds = obs.live_left // 4
    ev = _Expectation(ctx, bot._win, rounds, _hazard(obs, bot.level), bot.level)
    # the hand holds all four k5: asked before, it drew a fifth and the scorer refused
    worth = ev.hand(drawn, 1)
    # the same as an expectation that knows the last k5 is gone
    known = _Expectation(ctx, bot._win, rounds, _hazard(obs, bot.level), bot.level)
    known.live = [0 if t == Tile.K5 else k for t, k in enumerate(ev.live)]
    known.base = drawn
    assert worth == known.hand(list(drawn), 1)
    assert len(worth) == rounds + 1 and all(math.isfinite(x) for x in worth)
