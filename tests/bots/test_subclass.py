"""A shipped bot can be the base of a researcher's own (``class Mine(HeuristicBot)``,
loaded as ``module:Class``) on both builds: compiled, each shipped bot class is marked for
interpreted subclasses (bots/_mypyc.py), else Python could not subclass it."""

from __future__ import annotations

import pytest
from bot_helpers import play

from mahjong_nts.bots.base import RandomBot
from mahjong_nts.bots.heuristic import HeuristicBot
from mahjong_nts.bots.strong import EasyBot, NormalBot, StrongBot
from mahjong_nts.core.actions import Action
from mahjong_nts.core.observation import Observation
from mahjong_nts.formats.rulefiles import load_ruleset


@pytest.mark.parametrize("base", [RandomBot, HeuristicBot, StrongBot, NormalBot, EasyBot])
def test_a_shipped_bot_can_be_subclassed(base: type) -> None:
    class Counting(base):  # type: ignore[misc, valid-type]
        name = "counting"

        def act(self, obs: Observation) -> Action:
            self.asked = getattr(self, "asked", 0) + 1
            chosen: Action = super().act(obs)
            assert chosen in obs.legal
            return chosen

    rules = load_ruleset("nts-2016")
    players = [Counting(seat, rules) for seat in range(4)]
    game = play(rules, players, 3)
    assert game.is_over
    assert sum(getattr(p, "asked", 0) for p in players) >= 50  # every decision went through it
    assert all(p.name == "counting" for p in players)
