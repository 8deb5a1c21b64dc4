"""False mahjong (NTS 2016 1.10, NMB 2009 'Dood spel'): under the book's rule the claim is
accepted and makes the hand dead ('Het spel gaat dan gewoon door, deze speler mag echter
geen Mahjong meer maken en krijgt nul punten'; 2009: 'moet de speler ... wel betalen');
under ``false_mahjong = "refuse"`` it is an IllegalAction and changes nothing."""

from __future__ import annotations

import dataclasses

import pytest
from core_helpers import load
from game_helpers import check_invariants, deal, play, snapshot

from mahjong_nts.core.errors import IllegalAction
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def refusing(spec: str) -> RuleSet:
    base = load(spec)
    return dataclasses.replace(base, table=dataclasses.replace(base.table, false_mahjong="refuse"))


# East holds a concealed pung of white dragons (a non-winner would score for it) and waits,
# after letting k9 go, on b5.  South wins on b5.
EAST = "PPP FFF t123 t456 b5 k9"
SOUTH = "SSS CCC t789 k123 b5"
WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E W k9 N"
NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E W N b8 b1"


def test_false_mahjong_on_turn_makes_a_dead_hand_and_play_goes_on() -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST, NORTH], draws="b5")
    assert "mahjong" not in legal(game)
    before = snapshot(game)
    play(game, "mahjong")
    assert game.dead == [True, False, False, False]
    assert [e.kind for e in game.events[-2:]] == ["mahjong", "dead"]
    assert (game.phase, game.current_seat) == (Phase.TURN, 0)
    assert game.hands == list(map(list, before[8]))  # no tile moved
    assert "mahjong" not in legal(game)
    with pytest.raises(IllegalAction, match="dead hand cannot go mahjong"):
        game.apply("mahjong")
    play(game, "discard k9")  # East now waits on b5 ...
    check_invariants(game)
    play(game, "discard b5")  # ... but is not asked: a dead hand cannot win
    assert (game.phase, game.turn) == (Phase.TURN, 2)


def test_dead_hand_scores_nothing_and_still_pays() -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST, NORTH])
    play(game, "mahjong", "discard b5")
    assert game.current_seat == 1 and "mahjong" in legal(game)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.winner == 1
    assert res.scores[0].dead and res.scores[0].score == 0
    assert res.settlement.balances[0] < 0
    alive = score_hand(game.hand_of(0), Situation(Tile.EAST, Tile.EAST, None, False), game.rules)
    assert alive.score > 0  # alive, his concealed pungs of dragons would have scored
    check_invariants(game)


def test_false_mahjong_in_a_claim_window() -> None:
    """West could pung the b5 South lets go, claims mahjong instead: dead hand, no pung,
    and the turn passes on as if nobody claimed."""
    west = "b5 b5 b9 k2 k5 k8 t2 t5 t8 E W k9 N"
    east = "PPP FFF t123 t456 k7 k9"
    game = deal("nts-2016", [east, "SSS CCC t789 k123 b6", west, NORTH], draws="b5")
    play(game, "discard k9", "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"pung b5", "pass"}
    play(game, "mahjong")
    assert game.dead[2] and game.melds[2] == []
    assert (game.phase, game.turn) == (Phase.TURN, 2)  # West draws, as after a pass
    check_invariants(game)


def test_dead_hand_may_still_pung() -> None:
    west = "b5 b5 b9 k2 k5 k8 t2 t5 t8 E W k9 N"
    east = "PPP FFF t123 t456 k7 k9"
    game = deal("nts-2016", [east, "SSS CCC t789 k123 b6", west, NORTH], draws="t1 E b5")
    play(game, "discard k9", "discard t1")
    assert (game.turn, game.tile) == (2, Tile.EAST)
    play(game, "mahjong", "discard E")  # West: dead
    play(game, "discard b5")  # North draws b5 and lets it go
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"pung b5", "pass"}


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+three-players"])
def test_refuse_rule_rejects_a_false_mahjong_and_changes_nothing(spec: str) -> None:
    rules = refusing(spec)
    hands = [EAST, SOUTH, WEST, NORTH] if rules.table.players == 4 else [None] * 3
    game = deal(rules, hands)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="refuses false claims"):
        game.apply("mahjong")
    assert snapshot(game) == before
    assert not any(game.dead)
