"""Turns, draws, discards and the claim window (NTS 2016 1.7, 1.8.1-1.8.5.1; NMB 2009
'Algemene gang van het spel', 'Voorrang').

Most positions follow one pattern: East discards a tile nobody can use, South draws the
first tile of the live wall (chosen by the test) and discards it, so the contested tile is
not East's first discard (which would make every win on it the limit hand 'earth').
"""

from __future__ import annotations

import pytest
from game_helpers import check_invariants, concealed_text, deal, play

from mahjong_nts.core.actions import parse_action
from mahjong_nts.core.game import Game, Phase, Source
from mahjong_nts.core.hand import Meld, MeldKind, WinSource
from mahjong_nts.core.tiles import Tile

# East's hand: nobody can use his first discard, West (wind tile W).
EAST = "k1 k2 k4 k5 k7 k8 t7 t8 S N b7 b8 b9 W"
# South's: no two of anything the others discard below; it draws and discards the draw.
SOUTH = "t1 t4 t7 k3 k6 k9 b2 b8 S N W C P"


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def test_turns_go_counter_clockwise_and_draw_the_wall_in_order() -> None:
    """'Vervolgens neemt Zuid ... een steen van de muur en legt een steen weg. Hierna is West
    aan de beurt, dan Noord' (1.7)."""
    game = deal(
        "nts-2016",
        [EAST, SOUTH, "b1 b3 b5 k1 k4 k7 t2 t5 t8 E F N P", "b4 b6 k2 k5 k8 t3 t6 t9 E F C P S"],
        draws="t9 k8 b1 F E",
    )
    assert (game.phase, game.current_seat, game.source) == (Phase.TURN, 0, Source.DEAL)
    seats, drawn = [], []
    play(game, "discard W")
    for _ in range(5):
        seats.append(game.current_seat)
        drawn.append(game.tile)
        assert game.source is Source.WALL and game.tile is not None
        game.apply(f"discard {game.tile.token}")
        check_invariants(game)
    assert seats == [1, 2, 3, 0, 1]
    assert drawn == [Tile.T9, Tile.K8, Tile.B1, Tile.GREEN, Tile.EAST]
    assert [e.kind for e in game.events if e.decided] == ["discard"] * 6
    assert game.discards[0] == [Tile.WEST, Tile.GREEN]


def test_pung_by_anyone_and_play_goes_on_right_of_the_claimer() -> None:
    """'Pungen is ... voor iedere speler toegestaan ... Het spel wordt dan vervolgd door de
    speler die rechts zit van degene die heeft gepungd ... de tussenliggende spelers
    overgeslagen' (1.8.2)."""
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    north = "b4 b6 k2 k5 k8 t3 t6 t9 E P P S t1"
    game = deal("nts-2016", [EAST, SOUTH.replace("C", "F"), west, north], draws="C")
    play(game, "discard W", "discard C")  # South draws C and lets it go
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"pung C", "pass"}
    play(game, "pung C")
    assert game.melds[2] == [Meld(MeldKind.PUNG, Tile.RED, True)]
    assert (game.phase, game.turn, game.source, game.tile) == (Phase.TURN, 2, Source.CLAIM, None)
    assert "mahjong" not in legal(game)  # a claimed tile is no self-drawn win
    assert game.discards[1] == []  # the claimed discard went into the meld
    check_invariants(game)
    play(game, "discard E")  # nobody can use it
    assert game.turn == 3 and game.phase is Phase.TURN  # North draws: East's turn skipped
    assert game.source is Source.WALL


def test_chow_only_by_the_next_player() -> None:
    """'Indien een speler aan de beurt is en de laatst weggelegde steen kan gebruiken voor het
    vormen van een Chow' (1.8.1): only the player after the discarder."""
    west = "b4 b6 b7 k1 k4 k7 t2 t5 t8 E F N P"
    north = "b4 b6 k2 k5 k8 t3 t6 t9 E F C P S"  # could chow b5 too, but is not next
    game = deal("nts-2016", [EAST, SOUTH, west, north], draws="b5")
    play(game, "discard W", "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"chow b4", "chow b5", "pass"}
    play(game, "chow b5")  # b5 b6 b7
    assert game.melds[2] == [Meld(MeldKind.CHOW, Tile.B5, True)]
    assert concealed_text(game, 2) == "b4 k1 k4 k7 t2 t5 t8 E N F P"
    assert game.turn == 2 and game.source is Source.CLAIM
    check_invariants(game)


def test_nobody_asked_when_only_a_later_seat_could_chow() -> None:
    north = "b4 b6 k2 k5 k8 t3 t6 t9 E F C P S"
    game = deal(
        "nts-2016", [EAST, SOUTH, "b1 b9 k1 k4 k7 t2 t5 t8 E F N P W", north], draws="b5 k9"
    )
    play(game, "discard W", "discard b5")
    assert (game.phase, game.turn, game.tile) == (Phase.TURN, 2, Tile.K9)


def test_pung_goes_before_chow_whatever_the_turn_order() -> None:
    """'heeft het pungen of kongen voorrang boven het chowen' (1.8.5.1)."""
    west = "b4 b6 b7 k1 k4 k7 t2 t5 t8 E F N P"
    north = "b5 b5 k2 k5 k8 t3 t6 t9 E F C P S"
    game = deal("nts-2016", [EAST, SOUTH, west, north], draws="b5")
    play(game, "discard W", "discard b5")
    assert game.current_seat == 2
    play(game, "chow b4")  # West asks first ...
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 3)
    assert legal(game) == {"pung b5", "pass"}
    play(game, "pung b5")  # ... North's pung wins
    assert game.melds[2] == [] and sum(game.hands[2]) == 13  # West keeps his tiles
    assert game.melds[3] == [Meld(MeldKind.PUNG, Tile.B5, True)]
    assert (game.turn, game.source) == (3, Source.CLAIM)
    check_invariants(game)


def test_the_pair_tile_is_claimed_only_for_mahjong() -> None:
    """'de tweede steen van het paar van tafel te pakken ... kan alleen als deze steen de
    laatste is die benodigd is om Mahjong te maken' (1.8.4): there is no pair claim; a
    seat waiting on the pair is asked only for mahjong."""
    # West holds one b5 and waits on nothing; North waits on b5 for the pair
    west = "b5 b9 k1 k4 k7 t2 t5 t8 E C P W S"
    north = "NNN FFF t789 k123 b5"
    game = deal("nts-2016", [EAST, SOUTH.replace("N", "E"), west, north], draws="b5")
    play(game, "discard W", "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 3)
    assert legal(game) == {"mahjong", "pass"}
    play(game, "pass")
    assert (game.phase, game.turn) == (Phase.TURN, 2)  # West draws


# -- several mahjong claims -------------------------------------------------------------------

# Waiting on b5, each with at least two doublings (pungs of round wind, own wind, dragons):
PAIR_W = "EEE WWW t123 t456 b5"  # West: b5 completes the pair
PAIR_N = "NNN FFF t789 k123 b5"  # North: b5 completes the pair
PUNG_N = "NNN FFF t789 b55 k11"  # North: b5 completes a pung
PUNG_W = "WWW CCC b123 b55 k99"  # West: b5 completes a pung
CHOW_W = "EEE WWW t123 b46 k99"  # West: b5 completes a chow
LIMIT_N = "FFF CCC PPP b55 k99"  # North: b5 completes the limit hand 'three dragons'
SEVEN_PAIRS_N = "b11 b99 k11 k99 t11 t99 b5"  # North: b5 completes seven pairs

# East and South hold nothing the others could use (East lets S go first).
QUIET_EAST = "k4 k5 k7 k8 b7 b8 t3 t5 t8 k6 k6 t2 t4 S"
QUIET_SOUTH = "k4 k5 k7 k8 b7 b8 t3 t5 t8 t2 t4 t6 S"


def _race(spec: str, west: str, north: str) -> tuple[int | None, str]:
    """South discards b5, West and North both claim mahjong; who wins, and how."""
    game = deal(spec, [QUIET_EAST, QUIET_SOUTH, west, north], draws="b5", filler=3)
    play(game, "discard S", "discard b5")
    assert game.phase is Phase.CLAIM and game.current_seat == 2
    assert "mahjong" in legal(game)
    play(game, "mahjong")
    assert game.current_seat == 3 and "mahjong" in legal(game)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.winner is not None
    assert res.discarder == 1 and res.win is not None and res.win.source is WinSource.DISCARD
    check_invariants(game)
    return res.winner, res.scores[res.winner].limit_hand or ""


@pytest.mark.parametrize("spec", ["nts-2016", "nts-2002", "nmb-2009", "rode-draak"])
def test_mahjong_priority_pair_before_pung_before_chow(spec: str) -> None:
    """'limietspel -> paar -> pung -> chow -> degene die het eerst aan de beurt is'
    (1.8.5.1; NMB 2009 'Voorrang mahjong'; De Rode Draak: 'sluitpaar, pung, chow')."""
    assert _race(spec, PUNG_W, PAIR_N)[0] == 3  # pair beats pung, though West is first
    assert _race(spec, CHOW_W, PUNG_N)[0] == 3  # pung beats chow
    assert _race(spec, PAIR_W, PAIR_N)[0] == 2  # same kind: the first in turn


@pytest.mark.parametrize(("spec", "winner"), [("nts-2016", 3), ("nts-2002", 2), ("nmb-2009", 2)])
def test_a_regular_limit_hand_goes_first_only_under_nts_2016(spec: str, winner: int) -> None:
    """2016: 'Een speler die een limietspel kan maken gaat altijd voor'; 2002 and 2009:
    'Een speler die een onregelmatig limietspel kan maken'.  North's three dragons (a
    regular limit hand, completed by a pung) against West's pair."""
    assert _race(spec, PAIR_W, LIMIT_N)[0] == winner


@pytest.mark.parametrize("spec", ["nts-2016", "nts-2002", "nmb-2009"])
def test_an_irregular_limit_hand_goes_first_everywhere(spec: str) -> None:
    winner, limit = _race(spec, PAIR_W, SEVEN_PAIRS_N)
    assert winner == 3 and limit.startswith("seven_pairs")


def test_a_pung_claim_cannot_spoil_a_mahjong() -> None:
    """'Kan iemand Mahjong maken dan gaat dit altijd voor' (1.8.5.1)."""
    game = deal("nts-2016", [QUIET_EAST, QUIET_SOUTH, PUNG_W, PAIR_N], draws="b5", filler=3)
    play(game, "discard S", "discard b5")
    assert legal(game) == {"mahjong", "pung b5", "pass"}
    play(game, "pung b5", "mahjong")
    assert game.result is not None and game.result.winner == 3
    assert game.melds[2] == []


# -- three players --------------------------------------------------------------------------

THREE = "nmb-2009+three-players"
EAST3 = "k1 k2 k4 k5 k7 k8 S W b7 b8 b9 k9 P C"


def test_no_open_chows_at_three_players() -> None:
    """Drie spelers: 'Tijdens het spel mogen geen chows open op tafel worden gespeeld'."""
    west = "b4 b6 b1 k1 k3 k6 E F P S W C k9"
    game = deal(THREE, [EAST3, "b2 b3 k2 k3 k4 k6 k7 E F C P S W", west], draws="b5 b1")
    play(game, "discard W", "discard b5")
    # West, next after South, holds b4 b6 but is not asked: no chow at three players
    assert (game.phase, game.turn, game.tile) == (Phase.TURN, 2, Tile.B1)


def test_a_chow_completes_a_mahjong_at_three_players() -> None:
    """Decision (lead): the ban on open chows does not stop a mahjong completed by a chow,
    for any seat."""
    east = "b1 b1 b1 k1 k4 k7 b9 k8 S F P C b7 k6"
    west = "EEE WWW k123 b46 k99"  # own wind + round wind: two doublings
    game = deal(THREE, [east, "b2 b3 k2 k3 k5 k6 k7 F C P b8 k4 b9", west], draws="b5")
    play(game, "discard S", "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"mahjong", "pass"}
    play(game, "mahjong")
    assert game.result is not None and game.result.winner == 2
    check_invariants(game)


def test_claims_from_a_non_legal_action_are_refused() -> None:
    game = deal("nts-2016", [EAST, SOUTH, None, None])
    with pytest.raises(ValueError, match="not allowed"):
        game.apply(parse_action("pung W"))
