"""Kongs: the three kinds, each with a loose tile (NTS 2016 1.8.3; NMB 2009 'Kongen'); kong
robbing, of promoted kongs only, a pung promoted in the turn it was claimed included (NMB
2009 'Kongroof'); kong on kong; the kong after the last allowed one ends the hand as a remise
(NMB 2009 'Dode muur': 'Bij de situatie dat iemand de 15e kong wil declareren, is het
remise')."""

from __future__ import annotations

import dataclasses

import pytest
from core_helpers import load
from game_helpers import check_invariants, concealed_text, deal, play

from mahjong_nts.core.game import Game, Phase, Source
from mahjong_nts.core.hand import Meld, MeldKind, WinSource
from mahjong_nts.core.tiles import Tile


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


QUIET_SOUTH = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
QUIET_WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E S W k9"
QUIET_NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E S W N b8"


def test_concealed_kong_takes_the_first_loose_tile_and_cannot_be_robbed() -> None:
    """'legt de vier stenen gesloten op tafel ... waarna men een extra steen neemt ... van
    losse stenen' (1.8.3); 'Kongroof is niet mogelijk als diegene ... een dichte kong maakt'
    (2009).  North waits on b1 (b2 b3) but is not asked."""
    north = "NNN FFF t789 b23 k99"
    game = deal(
        "nts-2016",
        ["b1 b1 b1 b1 k2 k5 k8 t3 t6 t9 S W P C", QUIET_SOUTH, QUIET_WEST, north],
        loose="P W",
    )
    live_before = game.wall.live_left
    assert "kong b1" in legal(game)
    play(game, "kong b1")
    assert game.melds[0] == [Meld(MeldKind.KONG, Tile.B1, open=False)]
    assert (game.phase, game.turn, game.source, game.tile) == (
        Phase.TURN,
        0,
        Source.LOOSE,
        Tile.WHITE,
    )
    assert (game.kongs, game.wall.dead_left, game.wall.live_left) == (1, 13, live_before)
    assert [e.kind for e in game.events[-2:]] == ["kong", "loose"]
    check_invariants(game)
    play(game, "discard P")
    check_invariants(game)


# East lets b5 go first; South holds b5 b5 (a pung from it); West waits on b5 (b4 b6).
EAST = "b5 k2 k5 k8 t3 t6 t9 b9 S W N E F P"
SOUTH_PAIR = "b5 b5 b1 b1 k1 k4 k7 t1 t4 t7 C C P"
SOUTH_PUNG = "b5 b5 b5 b1 b1 k1 k4 k7 t1 t4 t7 C C"
WEST_WAITS = "WWW FFF b46 t2 t3 t4 k9 k9"  # own wind and dragons: two doublings
WEST_QUIET = "b2 b3 b7 k3 k6 k9 t2 t5 t8 F F S P"
NORTH = "b2 b7 b8 k3 k6 t5 t6 t8 t9 E N P k9"


def test_open_kong_from_a_discard_takes_a_loose_tile() -> None:
    """'Indien een speler een Pung op stok heeft en iemand gooit de vierde steen weg, dan
    roept de speler Kong en legt de vier stenen open op tafel' (1.8.3)."""
    game = deal("nts-2016", [EAST, SOUTH_PUNG, WEST_QUIET, NORTH], loose="S")
    play(game, "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 1)
    assert legal(game) == {"pung b5", "kong b5", "pass"}
    play(game, "kong b5")
    assert game.melds[1] == [Meld(MeldKind.KONG, Tile.B5, open=True)]
    assert game.discards[0] == []
    assert (game.phase, game.turn, game.source, game.tile) == (
        Phase.TURN,
        1,
        Source.LOOSE,
        Tile.SOUTH,
    )
    assert game.kongs == 1
    check_invariants(game)


def test_a_kong_claimed_from_a_discard_cannot_be_robbed() -> None:
    """West may take the discard itself for mahjong, but once it is konged there is no rob."""
    game = deal("nts-2016", [EAST, SOUTH_PUNG, WEST_WAITS, NORTH], loose="S")
    play(game, "discard b5")
    assert game.current_seat == 1
    play(game, "kong b5")
    assert game.current_seat == 2 and legal(game) == {"mahjong", "pass"}
    play(game, "pass")
    assert (game.phase, game.turn, game.source) == (Phase.TURN, 1, Source.LOOSE)


def _promoted(west: str, north: str = NORTH, draws: str = "N S E") -> Game:
    """South pungs East's b5, the others draw and let go harmless tiles (``draws``), South
    draws the fourth b5 and promotes his pung."""
    game = deal("nts-2016", [EAST, SOUTH_PAIR, west, north], draws=f"{draws} b5", loose="k5")
    play(game, "discard b5")
    assert game.current_seat == 1
    play(game, "pung b5")
    while game.phase is Phase.CLAIM:  # West and North may be asked (for mahjong) too
        play(game, "pass")
    assert (game.turn, game.source) == (1, Source.CLAIM)
    play(game, "discard C", *(f"discard {t}" for t in draws.split()))
    assert (game.turn, game.tile) == (1, Tile.B5)
    assert "kong b5" in legal(game)
    play(game, "kong b5")
    assert game.melds[1] == [Meld(MeldKind.KONG, Tile.B5, open=True)]
    return game


def test_promoted_kong_takes_a_loose_tile() -> None:
    """'Wanneer een speler een Pung op tafel heeft liggen en zelf de vierde steen van de muur
    heeft genomen dan mag men deze steen bij de drie andere stenen voegen' (1.8.3)."""
    game = _promoted(WEST_QUIET)
    assert (game.phase, game.turn, game.source, game.tile) == (Phase.TURN, 1, Source.LOOSE, Tile.K5)
    check_invariants(game)


def test_promoted_kong_is_robbed() -> None:
    """'Men maakt mahjong met een steen die door een speler wordt gebruikt om een open pung
    te completeren tot kong' (2009, Kongroof); ruling 7: the robbed player 'discarded' it."""
    game = _promoted(WEST_WAITS)
    assert (game.phase, game.current_seat, game.tile) == (Phase.ROB, 2, Tile.B5)
    assert legal(game) == {"mahjong", "pass"}
    play(game, "mahjong")
    res = game.result
    assert (res.winner, res.discarder, res.winning_tile) == (2, 1, Tile.B5)
    assert res.win.source is WinSource.ROBBED_KONG
    assert game.melds[1] == [Meld(MeldKind.PUNG, Tile.B5, open=True)]
    assert game.kongs == 0
    assert "robbing_kong" in {i.id for i in res.scores[2].items}
    check_invariants(game)


def test_two_robbers_the_first_in_turn_wins() -> None:
    """Both complete a chow with the robbed tile: 'Wanneer de situatie voor meerdere spelers
    gelijk is, dan heeft diegene Mahjong die het eerst aan de beurt is' (1.8.5.1)."""
    north = "NNN EEE t789 b67 k11"  # own wind and round wind; waits on b5 or b8
    game = _promoted(WEST_WAITS, north, draws="S S t1")
    assert (game.phase, game.current_seat) == (Phase.ROB, 2)
    play(game, "mahjong")
    assert (game.phase, game.current_seat) == (Phase.ROB, 3)
    play(game, "mahjong")
    res = game.result
    assert res is not None and (res.winner, res.discarder) == (2, 1)


def test_unrobbed_promoted_kong_goes_on_with_the_loose_tile() -> None:
    game = _promoted(WEST_WAITS)
    play(game, "pass")
    assert (game.phase, game.turn, game.source, game.tile) == (Phase.TURN, 1, Source.LOOSE, Tile.K5)
    assert game.kongs == 1


def test_pung_promoted_in_the_same_turn_can_be_robbed() -> None:
    """'als iemand in één beurt allereerst een pung declareert met een door een andere speler
    weggelegde steen (open pung) en vervolgens in dezelfde beurt besluit daar een kong van te
    maken ... is kongroof toegestaan' (2009, Kongroof)."""
    game = deal("nts-2016", [EAST, SOUTH_PUNG, WEST_WAITS, NORTH], loose="k5")
    play(game, "discard b5", "pung b5", "pass")  # West lets the discard itself go
    assert (game.turn, game.source) == (1, Source.CLAIM)
    assert "kong b5" in legal(game)
    play(game, "kong b5")
    assert (game.phase, game.current_seat) == (Phase.ROB, 2)
    play(game, "mahjong")
    assert game.result is not None and game.result.win is not None
    assert game.result.win.source is WinSource.ROBBED_KONG
    check_invariants(game)


def test_kong_on_kong() -> None:
    """Two kongs in one turn and mahjong on the second loose tile (book: 'Kong op kong').
    Loose tiles are taken in order: the first k5, then the second."""
    east = "b1 b1 b1 b1 b2 b2 b2 b2 F F F C C k5"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="k5 k5")
    play(game, "kong b1")
    assert game.tile == Tile.K5 and "mahjong" not in legal(game)
    play(game, "kong b2")
    assert "mahjong" in legal(game)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.win is not None and res.winner == 0
    assert res.win.source is WinSource.LOOSE_TILE and res.win.kong_on_kong
    assert not res.win.heaven  # East's first turn, but the winning tile is no dealt tile
    check_invariants(game)


def test_win_on_a_loose_tile() -> None:
    east = "b1 b1 b1 b1 F F F P P P C C t4 t5"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="t6")
    play(game, "kong b1", "mahjong")
    res = game.result
    assert res is not None and res.win is not None and res.winning_tile == Tile.T6
    assert res.win.source is WinSource.LOOSE_TILE and not res.win.kong_on_kong


@pytest.mark.parametrize(
    ("spec", "kongs"),
    [("nts-2016", 14), ("nts-2002", 14), ("nmb-2009", 14), ("nmb-2009+three-players", 10)],
)
def test_max_kongs(spec: str, kongs: int) -> None:
    """A dead wall of 14 has room for 14 kongs; the 15th is a remise (2009, 'Dode muur')."""
    assert load(spec).table.max_kongs == kongs


def test_the_kong_after_the_last_allowed_is_a_remise() -> None:
    """With max_kongs lowered to 1, the second kong ends the hand as a remise: nothing is
    scored or paid."""
    base = load("nts-2016")
    rules = dataclasses.replace(base, table=dataclasses.replace(base.table, max_kongs=1))
    east = "b1 b1 b1 b1 b2 b2 b2 b2 F F F C C k5"
    game = deal(rules, [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="k5 k5")
    play(game, "kong b1")
    assert not game.is_over
    play(game, "kong b2")
    res = game.result
    assert game.is_over and res is not None and res.remise
    assert res.reason == "kong number 2 in one hand"
    assert res.settlement.balances == (0, 0, 0, 0) and res.scores == ()
    assert game.wall.dead_left == 13  # no loose tile for the kong that ended it
    assert concealed_text(game, 0) == "k5 k5 F F F C C"  # the first kong's loose tile
    check_invariants(game)
