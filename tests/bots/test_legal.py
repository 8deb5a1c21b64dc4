"""Every bot, at every table: each action it picks is one of its legal actions.

Bots get only :class:`Observation` values (never the game); the hands here are played
through :func:`observe`, and an action outside ``obs.legal`` fails the test (the engine
would accept a false mahjong, so its own check is not enough).
"""

from __future__ import annotations

import pytest
from bot_helpers import play

from mahjong_nts.bots import BOTS, make_bot
from mahjong_nts.core.actions import Action
from mahjong_nts.core.observation import Observation
from mahjong_nts.formats.rulefiles import load_ruleset

RULESETS = [
    "nts-2016",
    "nts-2002",
    "nmb-2009+flowers",
    "rode-draak",
    "nts-2016+three-players",
    "nmb-2009+flowers+three-players",
    "nts-2016+five-players",
]


def _check(obs: Observation, act: Action) -> None:
    assert isinstance(obs, Observation) and obs.to_act
    assert act in obs.legal, f"{act} not in {[str(a) for a in obs.legal]}"


@pytest.mark.parametrize("spec", RULESETS)
def test_every_action_is_legal(spec: str) -> None:
    rules = load_ruleset(spec)
    n = rules.table.players
    names = sorted(BOTS)
    hands = 40
    for seed in range(hands):
        # all bots of one kind, and mixed tables with the kinds rotating round
        if seed < len(names):
            lineup = [names[seed]] * n
        else:
            lineup = [names[(seed + s) % len(names)] for s in range(n)]
        players = [make_bot(name, seed * 10 + s) for s, name in enumerate(lineup)]
        game = play(rules, players, seed, _check)
        assert game.is_over and game.result is not None
        assert sum(game.result.settlement.balances) == 0


def test_registry_names_match_bots() -> None:
    for name in BOTS:
        assert make_bot(name, 1).name == name
    with pytest.raises(ValueError, match="unknown bot 'nobody': one of heuristic, random"):
        make_bot("nobody")
