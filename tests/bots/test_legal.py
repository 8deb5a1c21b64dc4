"""Every bot, at every table: each action it picks is one of its legal actions.

Bots get only :class:`Observation` values (never the game); the hands here are played
through :func:`observe`, and an action outside ``obs.legal`` fails the test (the engine
would accept a false mahjong, so its own check is not enough).
"""

from __future__ import annotations

import pytest
from bot_helpers import dealt_with, play

from mahjong_nts.bots import BOTS, make_bot
from mahjong_nts.core.actions import Action, ActionKind
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


# 13 dealt tiles that wait (on S or C; k1 or k4; t8 or P): the lucky thirteen can be announced
WAITING = ["b2 b2 b2 k4 k5 k6 t7 t8 t9 S S C C", "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 C C"]


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("concealed", WAITING)
def test_legal_around_the_lucky_thirteen(name: str, concealed: str) -> None:
    """rode-draak hands in which South is dealt a waiting hand: the announcement is offered,
    and whatever a bot does (announce or not) its actions stay legal, also after it has
    announced (only the drawn tile may go).  The heuristic bot announces such a hand
    whenever it is offered the announcement and no mahjong."""
    rules = load_ruleset("rode-draak")
    offered: list[Action] = []

    def check(obs: Observation, act: Action) -> None:
        _check(obs, act)
        kinds = {a.kind for a in obs.legal}
        if ActionKind.ANNOUNCE in kinds and ActionKind.MAHJONG not in kinds:
            offered.append(act)

    announced = 0
    for seed in range(12):
        players = [make_bot(name, seed * 10 + s, rules) for s in range(4)]
        game = play(rules, players, seed, check, dealt_with(rules, 1, concealed, seed))
        assert game.is_over and game.result is not None
        announced += game.announced[1]
    assert len(offered) >= 6
    if name == "heuristic":
        assert all(a.kind is ActionKind.ANNOUNCE for a in offered)
        assert announced == len(offered)


def test_registry_names_match_bots() -> None:
    for name in BOTS:
        assert make_bot(name, 1).name == name
    with pytest.raises(
        ValueError, match="unknown bot 'nobody': one of easy, heuristic, normal, random, strong"
    ):
        make_bot("nobody")
