"""The lucky thirteen (rode-draak): 'De Gelukkige Dertien: Wachtend mahjong in de eerste
hand; Oost gooit de gewenste steen niet weg (aankondigen en de stenen niet meer wisselen)'
(De Rode Draak 1998, 'Mahjong', once doubled).  A seat waiting with the tiles it was dealt
announces it on its first turn (``announce`` with the discard); from then on its hand stays
as it is: on its turns it discards the tile just drawn or goes mahjong, on a discard it may
only go mahjong.  A mahjong after the announcement is scored with ``lucky_thirteen``.  The
decisions where the sheet is silent are in docs/engine.md."""

from __future__ import annotations

import random

import pytest
from core_helpers import load
from game_helpers import check_invariants, check_rules, deal, play, random_action, tiles

from mahjong_nts.core.actions import ActionKind
from mahjong_nts.core.errors import IllegalAction
from mahjong_nts.core.game import Game, Phase, Source
from mahjong_nts.core.hand import Win, WinSource
from mahjong_nts.core.observation import observe
from mahjong_nts.core.scoring import Situation, score_hand
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.gamelog_schema import DECIDED_KINDS, EVENT_KINDS

RULES = "rode-draak"

EAST = "b1 b3 b4 k1 k2 k4 t7 t8 N P W E F t1"
# South waits on S or C with the 13 tiles it is dealt: b222 k456 t789 SS CC.  With the
# pung of its own wind or of a dragon and the announcement it has two doublings, enough
# to go mahjong on a discard too (rode-draak: 'tenminste twee keer verdubbelen').
SOUTH = "b2 b2 b2 k4 k5 k6 t7 t8 t9 S S C C"
WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E W k9 P"
NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E W N b8 b1"
NOT_WAITING = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def announcements(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions() if a.kind is ActionKind.ANNOUNCE}


def to_turn_of(game: Game, seat: int) -> None:
    """Quiet play (discard the tile drawn, pass every claim) until ``seat`` is on turn."""
    while not (game.phase is Phase.TURN and game.current_seat == seat):
        assert not game.is_over
        if game.phase is Phase.TURN:
            assert game.tile is not None
            game.apply(f"discard {game.tile.token}")
        else:
            game.apply("pass")


def souths_first_turn(draws: str, south: str = SOUTH, rules: str = RULES) -> Game:
    """East lets go of t1 (nobody can use it); South draws the first of ``draws``."""
    game = deal(rules, [EAST, south, WEST, NORTH], draws=draws)
    play(game, "discard t1")
    assert (game.phase, game.current_seat, game.source) == (Phase.TURN, 1, Source.WALL)
    return game


# -- when it can be announced ------------------------------------------------------------------


def test_south_announces_with_the_tile_drawn_on_its_first_turn() -> None:
    game = souths_first_turn("P")
    assert announcements(game) == {"announce P"}
    play(game, "announce P")
    assert game.announced == [False, True, False, False]
    assert game.discards[1] == [Tile.WHITE]
    announce = [e for e in game.events if e.kind == "announce"]
    assert len(announce) == 1 and announce[0].decided and announce[0].tiles == (Tile.WHITE,)
    assert announce[0].seat == 1
    for seat in range(4):  # an announcement is made aloud: every seat sees it
        assert observe(game, seat).seats[1].announced
    check_invariants(game)


def test_east_announces_with_a_discard_that_leaves_him_waiting() -> None:
    """East is dealt 14: b1..b9 k2 k3 C C N.  Only without N are his tiles waiting (on k1
    or k4); without any other tile they are not (worked out by hand)."""
    east = "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 C C N"
    south = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
    game = deal(RULES, [east, south, WEST, NORTH])
    assert announcements(game) == {"announce N"}
    play(game, "announce N")
    assert game.announced[0] and game.discards[0] == [Tile.NORTH]


def test_no_announcement_without_a_waiting_deal() -> None:
    game = souths_first_turn("P", south=NOT_WAITING)
    assert announcements(game) == set()
    with pytest.raises(IllegalAction, match="the tiles dealt are not waiting"):
        game.apply("announce P")


def test_only_the_tile_drawn_goes_with_the_announcement() -> None:
    """A seat other than East announces with the tile it drew, so that the 13 it was
    dealt stay as they are ('de stenen niet meer wisselen')."""
    game = souths_first_turn("P")
    with pytest.raises(IllegalAction, match="not allowed on your turn"):
        game.apply("announce b2")


def test_no_announcement_under_a_rule_set_without_the_lucky_thirteen() -> None:
    game = souths_first_turn("P", rules="nts-2016")
    assert announcements(game) == set()
    with pytest.raises(IllegalAction, match="nts-2016 does not score the lucky thirteen"):
        game.apply("announce P")


def test_no_announcement_after_the_first_turn() -> None:
    game = souths_first_turn("P F F F S")
    play(game, "discard P")
    to_turn_of(game, 1)
    assert announcements(game) == set()
    with pytest.raises(IllegalAction, match="first turn only"):
        game.apply("announce S")


def test_a_dead_hand_cannot_announce() -> None:
    game = souths_first_turn("P")
    play(game, "mahjong")  # a false mahjong: South's hand is dead (nts-2002)
    assert game.dead[1] and game.phase is Phase.TURN and game.current_seat == 1
    assert announcements(game) == set()
    with pytest.raises(IllegalAction, match="a dead hand cannot announce"):
        game.apply("announce P")


def test_not_in_a_claim_window() -> None:
    game = souths_first_turn("P C")
    play(game, "announce P")
    to_turn_of(game, 2)
    play(game, "discard C")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 1)
    with pytest.raises(IllegalAction, match="on the own turn"):
        game.apply("announce C")


def test_earth_comes_before_any_announcement() -> None:
    """'Oost gooit de gewenste steen niet weg': if East does let go of the tile South
    waits for, South may win on it at once: that is earth, not the lucky thirteen."""
    east = EAST.replace("t1", "S")
    game = deal(RULES, [east, SOUTH, WEST, NORTH])
    play(game, "discard S")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 1)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.winner == 1
    assert res.win == Win(WinSource.DISCARD, first_discard=True)


# -- the hand stays as it is -------------------------------------------------------------------


def test_after_the_announcement_only_the_tile_drawn_goes() -> None:
    """South draws a fourth b2 on its second turn: without the announcement it could
    declare a kong; after it, it only lets b2 go."""
    draws = "P F F F b2"
    free = souths_first_turn(draws)
    play(free, "discard P")
    to_turn_of(free, 1)
    assert "kong b2" in legal(free)

    game = souths_first_turn(draws)
    play(game, "announce P")
    to_turn_of(game, 1)
    assert game.tile == Tile.B2
    assert legal(game) == {"discard b2"}
    stays = r"stays as it is \(discard the tile just drawn, b2"
    for bad in ("kong b2", "discard S", "discard C"):
        with pytest.raises(IllegalAction, match=stays):
            game.apply(bad)
    play(game, "discard b2")
    assert game.concealed(1) == tuple(sorted(tiles(SOUTH)))


def test_on_a_discard_only_mahjong() -> None:
    """West lets C go: South, holding C C, would be asked for a pung; announced, it may only
    go mahjong (or pass).  It wins, the lucky thirteen doubling its score."""
    game = souths_first_turn("P C")
    play(game, "announce P")
    to_turn_of(game, 2)
    play(game, "discard C")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 1)
    assert legal(game) == {"mahjong", "pass"}
    with pytest.raises(IllegalAction, match="on a discard it may only go mahjong"):
        game.apply("pung C")
    play(game, "mahjong")
    res = game.result
    assert res is not None and (res.winner, res.discarder) == (1, 2)
    assert res.win == Win(WinSource.DISCARD, lucky_thirteen=True)
    lucky = [i for i in res.scores[1].items if i.id == "lucky_thirteen"]
    assert len(lucky) == 1 and lucky[0].doublings == 1
    check_rules(game)


def test_not_asked_for_a_discard_it_could_only_pung() -> None:
    """West draws and lets go of the fourth b2: South, holding three, is asked for a pung
    or a kong; announced, it is not asked at all (b2 completes no hand of it)."""
    free = souths_first_turn("P b2")
    play(free, "discard P")
    to_turn_of(free, 2)
    play(free, "discard b2")
    assert (free.phase, free.current_seat) == (Phase.CLAIM, 1)
    assert legal(free) == {"pung b2", "kong b2", "pass"}

    game = souths_first_turn("P b2")
    play(game, "announce P")
    to_turn_of(game, 2)
    play(game, "discard b2")
    assert (game.phase, game.current_seat) == (Phase.TURN, 3)


def test_a_self_drawn_win_after_the_announcement_doubles() -> None:
    """South draws S on its second turn: self-drawn, lucky thirteen.  rode-draak has no
    limit on ordinary hands, so the one doubling doubles the score exactly."""
    game = souths_first_turn("P F F F S")
    play(game, "announce P")
    to_turn_of(game, 1)
    assert game.tile == Tile.SOUTH and legal(game) == {"mahjong", "discard S"}
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.winner == 1 and res.discarder is None
    assert res.win == Win(WinSource.WALL, lucky_thirteen=True)
    rules = load(RULES)
    plain = score_hand(
        game.hand_of(1, Tile.SOUTH), Situation(Tile.SOUTH, Tile.EAST, Win(WinSource.WALL)), rules
    )
    assert res.scores[1].score == 2 * plain.score
    check_rules(game)


def test_a_hand_with_an_announcement_replays_from_its_decided_events() -> None:
    """The announcement is a decided event of its own kind (a hand log's event line, see
    formats/gamelog_schema.py); re-applying the decided events deals the same hand."""
    game = souths_first_turn("P F F F S")
    play(game, "announce P")
    to_turn_of(game, 1)
    play(game, "mahjong")
    decided = [e for e in game.events if e.decided]
    assert [e.kind for e in decided[:2]] == ["discard", "announce"]
    assert "announce" in EVENT_KINDS and "announce" in DECIDED_KINDS
    again = deal(RULES, [EAST, SOUTH, WEST, NORTH], draws="P F F F S")
    for e in decided:
        again.apply(" ".join([e.kind, *(t.token for t in e.tiles)]))
    assert again.events == game.events and again.result == game.result


# -- random play -------------------------------------------------------------------------------


WAITING = [
    SOUTH,  # S or C
    "b1 b2 b3 b4 b5 b6 b7 b8 b9 k2 k3 C C",  # k1 or k4
    "t1 t1 t1 t2 t3 t4 t5 t6 t7 t8 t8 P P",  # t8 or P
    "k2 k3 k4 k5 k5 k5 k6 k7 F F F E E",  # k5, k8 or E
]


@pytest.mark.parametrize("south", WAITING)
def test_random_play_with_announcements_keeps_the_rules(south: str) -> None:
    """South is dealt a waiting hand, the rest at random; every seat announces whenever it
    can and plays at random otherwise.  Every state keeps the invariants and the book's
    limits; announced hands are won now and then, and always as lucky thirteens."""
    rules = load(RULES)
    announced = won = 0
    for seed in range(40):
        game = deal(rules, [None, south, None, None], filler=seed)
        rng = random.Random(seed)
        while not game.is_over:
            check_rules(game)
            ann = [a for a in game.legal_actions() if a.kind is ActionKind.ANNOUNCE]
            game.apply(ann[0] if ann else random_action(game, rng))
            check_invariants(game)
        check_rules(game)
        announced += sum(game.announced)
        res = game.result
        if res is not None and res.win is not None and res.win.lucky_thirteen:
            won += 1
    assert announced >= 30 and won >= 1
