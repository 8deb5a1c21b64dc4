"""How a hand ends: the win flags the engine sets (heaven, earth, last tile, last discard;
loose tiles are in test_game_kongs), flowers and their replacements ('Spelen met
gelukstenen'), and the remise of an exhausted wall (NTS 2016 1.8.5.2)."""

from __future__ import annotations

from typing import Any

import pytest
from core_helpers import load
from game_helpers import autoplay, check_invariants, deal, play, random_hand

from build_helpers import pure_only
from mahjong_nts.core import game as game_module
from mahjong_nts.core.game import Game, Phase, Source
from mahjong_nts.core.hand import Win, WinSource
from mahjong_nts.core.scoring import ScoreResult, Situation, score_hand
from mahjong_nts.core.tiles import WINDS, Tile

FIVE_SEATS = "nmb-2009+five-players"


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


QUIET_SOUTH = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
QUIET_WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E W k9 P"
QUIET_NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E W N b8 b1"


def test_heaven_east_wins_on_his_dealt_tiles() -> None:
    """'Spel van de hemel': East wins on the 14 dealt tiles; his winning tile is his last
    dealt tile (decision)."""
    east = "b1 b2 b3 b4 b5 b6 F F F C b7 b8 C b9"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH])
    assert game.source is Source.DEAL and game.tile == Tile.B9
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.winner == 0 and res.discarder is None
    assert res.win == Win(WinSource.WALL, heaven=True)
    assert res.winning_tile == Tile.B9
    assert res.scores[0].limit_hand == "heaven"
    check_invariants(game)


def test_earth_a_win_on_easts_first_discard() -> None:
    """'Spel van de aarde': mahjong on the first tile East lets go."""
    east = "b5 b2 b3 b4 b6 k1 k2 k4 t5 t6 t8 E N P"
    south = "SSS FFF t123 t456 b5"
    game = deal("nts-2016", [east, south, QUIET_WEST, QUIET_NORTH])
    play(game, "discard b5")
    assert game.current_seat == 1 and "mahjong" in legal(game)
    play(game, "mahjong")
    res = game.result
    assert res is not None and (res.winner, res.discarder) == (1, 0)
    assert res.win == Win(WinSource.DISCARD, first_discard=True)
    assert res.scores[1].limit_hand == "earth"


def test_no_earth_on_a_later_discard() -> None:
    east = "b1 b2 b3 b4 b6 k1 k2 k4 t5 t6 t8 E N P"
    south = "SSS FFF t123 t456 b5"
    game = deal("nts-2016", [east, south, QUIET_WEST, QUIET_NORTH], draws="t9 C C b5")
    play(game, "discard P", "discard t9", "discard C", "discard C", "discard b5")
    assert game.current_seat == 1 and "mahjong" in legal(game)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.win == Win(WinSource.DISCARD)
    assert res.scores[1].limit_hand is None


# -- the end of the live wall ---------------------------------------------------------------

# At four players the live wall holds 136 - 14 - 53 = 69 tiles after the deal; without claims
# tile i of it is drawn by seat (1 + i) % 4, so South draws the last one.
SOUTH_WAITS = "SSS FFF t123 t456 b5"  # own wind and dragons: two doublings; waits on b5
EAST_Q = "b1 b2 b4 k1 k2 k4 t7 t8 N P W C C E"


def _to_the_last_tile(south: str, west: str, north: str) -> Game:
    game = deal("nts-2016", [EAST_Q, south, west, north], last="b5", filler=7)
    autoplay(game, lambda g: g.wall.live_left == 0)
    assert (game.phase, game.turn, game.tile, game.source) == (Phase.TURN, 1, Tile.B5, Source.WALL)
    return game


def test_last_tile_of_the_wall() -> None:
    game = _to_the_last_tile(SOUTH_WAITS, QUIET_WEST, QUIET_NORTH)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.win == Win(WinSource.WALL, last_tile=True)
    assert "last_tile" in {i.id for i in res.scores[1].items}
    check_invariants(game)


def test_last_discard_may_be_claimed_only_for_mahjong() -> None:
    """Decision (lead): once the live wall is empty the last discard may be claimed only to
    go mahjong.  North holds b5 b5 but is not asked for a pung; West wins on it."""
    west = "WWW PPP t123 t456 b5"
    north = "b5 b5 b7 k3 k6 k9 t3 t6 t9 E S N b8"
    south = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S N t9"
    game = _to_the_last_tile(south, west, north)
    play(game, "discard b5")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    assert legal(game) == {"mahjong", "pass"}
    play(game, "mahjong")
    res = game.result
    assert res is not None and (res.winner, res.discarder) == (2, 1)
    assert res.win == Win(WinSource.DISCARD, last_discard=True)


def test_exhausted_wall_is_a_remise() -> None:
    """'Heeft niemand Mahjong en is de levende muur op, dan is het remise en worden de punten
    niet geteld' (1.8.5.2)."""
    north = "b5 b5 b7 k3 k6 k9 t3 t6 t9 E S N b8"
    south = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S N t9"
    game = _to_the_last_tile(south, QUIET_WEST, north)
    play(game, "discard b5")  # North may not pung the last discard: no claim window
    res = game.result
    assert game.is_over and res is not None and res.remise
    assert res.reason == "the live wall is exhausted"
    assert res.scores == () and res.settlement.balances == (0, 0, 0, 0)
    check_invariants(game)


# -- flowers and seasons --------------------------------------------------------------------

FLOWERS = "nmb-2009+flowers"
EAST_F = "b1 b2 b4 k1 k2 k4 t7 t8 N P W C C E"


def test_flower_in_the_deal_is_laid_out_and_replaced() -> None:
    """'Trekt men een geluksteen, dan wordt deze open op tafel gelegd en trekt men een nieuwe
    steen van de dode muur' and 'De dode muur wordt altijd aangevuld tot 14 stenen'."""
    east = "b1 b2 f1 k1 k2 k4 t7 t8 N P W C C E"
    game = deal(FLOWERS, [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="b9")
    assert game.bonus[0] == [Tile.F1]
    assert sum(game.hands[0]) == 14 and game.hands[0][Tile.B9] == 1
    assert game.wall.dead_left == 14
    assert game.wall.live_left == 144 - 14 - 53 - 1  # one topped the dead wall up
    check_invariants(game)


def test_easts_first_tile_is_his_last_dealt_tile_or_its_replacement() -> None:
    """docs/engine.md decision 7: East's winning tile for heaven is his last dealt tile, or
    its replacement if it was a flower (not the replacement of an earlier flower)."""
    east = "b1 b2 f1 b3 b4 b5 b6 F F F C b7 b8 C"
    game = deal(FLOWERS, [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="b9")
    assert game.tile == Tile.RED  # his 14th dealt tile, though b9 came after it
    play(game, "mahjong")
    assert game.result is not None and game.result.winning_tile == Tile.RED
    assert game.result.win == Win(WinSource.WALL, heaven=True)
    east = "b1 b2 b3 b4 b5 b6 F F F C b7 b8 C f1"
    game = deal(FLOWERS, [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="b9")
    assert game.tile == Tile.B9


def test_drawn_flower_replaced_win_is_self_drawn_not_a_loose_tile_win() -> None:
    """Decision (lead): a flower's replacement counts as self-drawn, but it is no loose-tile
    win."""
    game = deal(FLOWERS, [EAST_F, SOUTH_WAITS, QUIET_WEST, QUIET_NORTH], draws="f2", loose="b5")
    live = game.wall.live_left
    play(game, "discard N")
    assert (game.turn, game.source, game.tile) == (1, Source.REPLACED, Tile.B5)
    assert game.bonus[1] == [Tile.F2]
    assert (game.wall.dead_left, game.wall.live_left) == (14, live - 2)
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.win == Win(WinSource.WALL)
    ids = {i.id for i in res.scores[1].items}
    assert "loose_tile" not in ids and "bonus_tile" in ids
    check_invariants(game)


def test_flower_as_the_last_live_tile_replacement_is_not_the_last_tile() -> None:
    """Decision (lead): the replacement of a flower drawn as the last live tile is no
    'last tile' win.  All other flowers lie deep in the dead wall, so the live wall (77
    tiles after the deal at 144) is drawn out without replacements: South draws its last."""
    game = deal(
        FLOWERS,
        [EAST_F, SOUTH_WAITS, QUIET_WEST, QUIET_NORTH],
        last="f2",
        loose="b5 f1 f3 f4 s1 s2 s3 s4",
        filler=2,
    )
    assert game.wall.live_left == 77
    autoplay(game, lambda g: g.wall.live_left == 0)
    assert (game.turn, game.source, game.tile) == (1, Source.REPLACED, Tile.B5)
    assert game.wall.dead_left == 13  # nothing left to top it up
    play(game, "mahjong")
    res = game.result
    assert res is not None and res.win == Win(WinSource.WALL)


# -- a win is scored once ---------------------------------------------------------------------


_COUNTS_CALLS = pure_only(
    "counts the calls of score_hand by patching the game module; compiled code has bound them"
)


def counting_scorer(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the engine's calls of score_hand; the list holds the count."""
    calls = [0]
    real = game_module.score_hand

    def counted(*args: Any, **kw: Any) -> ScoreResult:
        calls[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(game_module, "score_hand", counted)
    return calls


@_COUNTS_CALLS
def test_a_self_drawn_mahjong_is_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the winner's hand was scored when the mahjong was offered and again when
    it was declared.  Now: once for the offer, once for each of the three other hands."""
    calls = counting_scorer(monkeypatch)
    east = "b1 b2 b3 b4 b5 b6 F F F C b7 b8 C b9"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH])
    assert "mahjong" in legal(game)
    assert calls[0] == 1
    clone = game.clone()
    play(game, "mahjong")
    assert calls[0] == 1 + 3
    play(clone, "mahjong")  # the clone reuses the same offer
    assert calls[0] == 1 + 3 + 3
    assert clone.result == game.result


@_COUNTS_CALLS
def test_a_winning_claim_is_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Earth: South's win on East's first discard is scored when the window opens (the
    only seat with a win on b5), then the three other hands when it is over."""
    calls = counting_scorer(monkeypatch)
    east = "b5 b2 b3 b4 b6 k1 k2 k4 t5 t6 t8 E N P"
    game = deal("nts-2016", [east, "SSS FFF t123 t456 b5", QUIET_WEST, QUIET_NORTH])
    play(game, "discard b5")
    assert calls[0] == 1 and game.current_seat == 1
    play(game, "mahjong")
    assert calls[0] == 1 + 3
    res = game.result
    assert res is not None and res.win == Win(WinSource.DISCARD, first_discard=True)


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+flowers", "rode-draak", FIVE_SEATS])
def test_the_score_reused_is_the_score_of_the_hand_as_won(spec: str) -> None:
    """The winner's result, scored when the win was offered, equals the final hand scored
    afresh with the flags of the win (last tile, last discard, earth, robbing, ...)."""
    rules = load(spec)
    wins = 0
    for seed in range(150):
        game, _ = random_hand(rules, seed)
        res = game.result
        assert res is not None
        if res.winner is None or res.win is None:
            continue
        wins += 1
        w = res.winner
        hand = game.hand_of(w, res.winning_tile)
        fresh = score_hand(hand, Situation(WINDS[w], game.round_wind, res.win, False), rules)
        assert res.scores[w] == fresh
    assert wins >= 10
