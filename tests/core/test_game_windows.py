"""Claim windows for a server that asks every seat at once (the online tables):
``Game.hold_windows``, ``close_window``, ``window_seats``, ``window_options``, ``check``,
``observe(..., simultaneous=True)`` and the spectator's ``observe_public``."""

from __future__ import annotations

import random

import pytest
from core_helpers import load
from game_helpers import assert_no_leak, deal, play, random_action, snapshot

from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.errors import IllegalAction, InvalidAction, NotYourTurn, StaleAction
from mahjong_nts.core.game import Game, Phase
from mahjong_nts.core.hand import Meld, MeldKind
from mahjong_nts.core.observation import observe, observe_public, visible_events
from mahjong_nts.core.tiles import Tile

SPECS = ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]

QUIET_SOUTH = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
QUIET_WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E S W k9"
QUIET_NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E S W N b8"

# South discards b5 (East discarded a south wind nobody wants, South drew t9): West, the
# next seat, can chow b3 b4 b5, North can pung it.  Every count within the four copies.
TWO_CLAIMERS = [
    "b1 b2 b9 k2 k5 k8 t3 t6 t9 N N P W S",
    "b5 b7 b8 k1 k4 k7 t2 t5 t8 E F F C",
    "b3 b4 k2 k4 k6 t1 t4 t7 E W C P S",
    "b5 b5 b7 k3 k6 k9 t3 t6 t9 E W N C",
]


def _play_both(spec: str, seed: int) -> tuple[Game, Game, list[int], list[int]]:
    """The same hand twice, with the same decisions: once as the engine asks (one seat
    after another, no window when nobody can use a tile), once with held windows, every
    seat of a window asked at once (its options from ``window_options``, its answer
    checked by ``check`` as it comes) and the answers fed in ``window_seats`` order.
    Returns both games and the ``seq`` of every decision in each."""
    rules = load(spec)
    plain = Game(rules, random.Random(seed))
    held = Game(rules, random.Random(seed))
    held.hold_windows = True
    rng = random.Random(f"moves {seed}")
    plain_seqs: list[int] = []
    held_seqs: list[int] = []
    while not plain.is_over:
        if held.held:  # a window nobody is asked in: the server closes it
            assert held.window_seats() == () and held.legal_actions() == ()
            assert held.current_seat == -1
            held.close_window()
            continue
        if plain.phase is Phase.TURN:
            assert held.phase is Phase.TURN and held.current_seat == plain.current_seat
            act = random_action(plain, rng, false_mahjong=0.003)
            plain_seqs.append(plain.seq)
            held_seqs.append(held.seq)
            held.check(act, seat=held.current_seat, seq=held.seq)
            plain.apply(act, seat=plain.current_seat, seq=plain.seq)
            held.apply(act, seat=held.current_seat, seq=held.seq)
            continue
        # a window with seats asked: the engine asks them in turn; the server all at once
        seats = held.window_seats()
        assert seats and seats[0] == plain.current_seat
        options = {s: held.window_options(s) for s in seats}
        answers: dict[int, Action] = {}
        seq = held.seq
        for s in seats:
            assert plain.current_seat == s and plain.legal_actions() == options[s]
            act = random_action(plain, rng, false_mahjong=0.003)
            assert held.check(act, seat=s, seq=seq) == act  # checked as it comes
            answers[s] = act
            plain_seqs.append(plain.seq)
            plain.apply(act, seat=s, seq=plain.seq)
        for s in seats:  # fed to the engine in its order
            held_seqs.append(held.seq)
            held.apply(answers[s], seat=s, seq=seq)
    if held.held:
        held.close_window()
    return plain, held, plain_seqs, held_seqs


@pytest.mark.parametrize("spec", SPECS)
def test_held_windows_play_the_same_hand(spec: str) -> None:
    """Holding every window and asking all its seats at once changes nothing the hand
    records: the same events, decision numbers and result, so its log verifies."""
    held_count = 0
    for seed in range(12):
        plain, held, plain_seqs, held_seqs = _play_both(spec, seed)
        assert held.is_over
        assert held.events == plain.events
        assert held.result == plain.result
        assert held_seqs == plain_seqs
        held_count += held.discard_count
    assert held_count > 100


def _east_discards_red() -> Game:
    """East discards a red dragon that West can pung (West holds two)."""
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    east = "C k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 N P W"
    return deal("nts-2016", [east, QUIET_SOUTH, west, QUIET_NORTH])


def test_a_discard_nobody_can_use_opens_a_held_window() -> None:
    east = "N k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 C P W"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH])
    game.hold_windows = True
    play(game, "discard N")  # the others hold no north wind that helps them (one each)
    assert game.phase is Phase.CLAIM and game.held and game.tile is Tile.NORTH
    assert game.window_seats() == () and game.current_seat == -1
    assert game.seq == 5  # four deals and the discard: the same for every seat
    before = snapshot(game)
    for seat in range(4):
        assert game.window_options(seat) == ()
        obs = observe(game, seat, simultaneous=True)
        assert (obs.phase, obs.to_act, obs.offered, obs.turn) == (Phase.TURN, False, None, 0)
        with pytest.raises(NotYourTurn):
            game.apply("pass", seat=seat, seq=5)
        with pytest.raises(NotYourTurn):
            game.check("pass", seat=seat, seq=5)
    with pytest.raises(IllegalAction, match="close_window"):
        game.apply("pass")
    with pytest.raises(IllegalAction, match="close_window"):
        game.apply("mahjong")  # not a false mahjong of seat -1
    assert snapshot(game) == before
    game.close_window()
    assert game.phase is Phase.TURN and game.turn == 1 and game.events[-1].kind == "draw"
    assert game.seq == 6
    with pytest.raises(IllegalAction, match="no claim or rob window"):
        game.close_window()


def test_a_window_with_seats_asked_is_not_closed_by_hand() -> None:
    game = _east_discards_red()
    game.hold_windows = True
    play(game, "discard C")
    assert game.window_seats() == (2,) and not game.held
    with pytest.raises(IllegalAction, match="still to answer"):
        game.close_window()


def test_every_seat_of_a_window_is_asked_at_once() -> None:
    """West can chow South's discard and North can pung it; the engine asks West first,
    the server asks both at once: each sees its own options, the others the neutral view."""
    game = deal("nts-2016", TWO_CLAIMERS, draws="t9")
    play(game, "discard S")  # East's: nobody can use it
    assert game.phase is Phase.TURN and game.turn == 1 and game.tile is Tile.T9
    play(game, "discard b5")
    assert game.window_seats() == (2, 3) and game.current_seat == 2
    chow = Action(ActionKind.CHOW, Tile.B3)
    pung = Action(ActionKind.PUNG, Tile.B5)
    passing = Action(ActionKind.PASS)
    assert game.window_options(2) == (chow, passing)
    assert game.window_options(3) == (pung, passing)
    assert game.window_options(0) == game.window_options(1) == ()
    for seat in (2, 3):
        obs = observe(game, seat, simultaneous=True)
        assert obs.to_act and obs.phase is Phase.CLAIM and obs.offered is Tile.B5
        assert obs.legal == game.window_options(seat)
    for seat in (0, 1):
        obs = observe(game, seat, simultaneous=True)
        assert not obs.to_act and obs.phase is Phase.TURN and obs.offered is None
    # the engine alone shows the window to the seat asked now only
    assert not observe(game, 3).to_act and observe(game, 3).phase is Phase.TURN
    before = snapshot(game)
    seq = game.seq
    assert game.check("pung b5", seat=3, seq=seq) == pung  # North, before West answered
    assert game.check("chow b3", seat=2, seq=seq) == chow
    with pytest.raises(NotYourTurn):
        game.check("pass", seat=1, seq=seq)  # South discarded: not in the window
    with pytest.raises(StaleAction):
        game.check("pung b5", seat=3, seq=seq - 1)
    with pytest.raises(IllegalAction, match="not allowed on the discard"):
        game.check("chow b3", seat=3, seq=seq)  # only the next seat chows
    with pytest.raises(InvalidAction):
        game.check("pung X", seat=3, seq=seq)
    with pytest.raises(InvalidAction):
        game.check("pass", seat=7, seq=seq)
    assert snapshot(game) == before  # checking changes nothing
    # the engine still takes the answers in its order only
    with pytest.raises(NotYourTurn):
        game.apply("pung b5", seat=3, seq=seq)
    game.apply("chow b3", seat=2, seq=seq)
    game.apply("pung b5", seat=3, seq=seq)
    # the pung goes before the chow
    assert game.melds[3] == [Meld(MeldKind.PUNG, Tile.B5, True)] and game.turn == 3
    assert game.melds[2] == []


def test_a_false_mahjong_claim_is_checked_like_the_engine_takes_it() -> None:
    """Under nts-2016 a false mahjong makes the hand dead (it is accepted); a seat of
    the window that is not asked first may claim one too."""
    game = deal("nts-2016", TWO_CLAIMERS, draws="t9")
    play(game, "discard S", "discard b5")
    assert game.check("mahjong", seat=3, seq=game.seq) == Action(ActionKind.MAHJONG)
    game.apply("pass", seat=2, seq=game.seq)
    game.apply("mahjong", seat=3, seq=game.seq)
    assert game.dead[3]


@pytest.mark.parametrize("spec", SPECS)
def test_simultaneous_views_hide_what_they_must(spec: str) -> None:
    """In held windows, every seat's observation (simultaneous or not) still does not
    change when what it cannot see is shuffled."""
    rules = load(spec)
    rng = random.Random(7)
    checked = 0
    for seed in range(8):
        game = Game(rules, random.Random(seed))
        game.hold_windows = True
        moves = random.Random(f"moves {seed}")
        while not game.is_over:
            if rng.random() < 0.2:
                assert_no_leak(game, rng)
                checked += 1
            if game.held:
                game.close_window()
            else:
                game.apply(random_action(game, moves))
    assert checked > 50


def test_the_public_view_shows_no_concealed_tile() -> None:
    east = "b1 b1 b1 b1 k2 k5 k8 t3 t6 t9 F P C C"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="P")
    play(game, "kong b1")
    view = observe_public(game)
    assert view.seats[0].melds == (None,) and view.kongs == 1  # face down for everyone
    assert [v.concealed_count for v in view.seats] == [11, 13, 13, 13]
    assert view.revealed == () and view.result is None and view.phase is Phase.TURN
    assert not hasattr(view, "concealed")
    seen = visible_events(game, None)
    assert all(e.kind != "deal" for e in seen)
    assert all(e.tiles == () for e in seen if e.kind in ("draw", "loose", "kong"))
    assert [e.note for e in seen if e.kind == "kong"] == ["concealed"]
    # every seat's own view shows its own kong
    assert observe(game, 0).me.melds == (Meld(MeldKind.KONG, Tile.B1, open=False),)


def test_the_public_view_in_a_window_is_the_neutral_one() -> None:
    game = _east_discards_red()
    play(game, "discard C")
    assert game.phase is Phase.CLAIM
    view = observe_public(game)
    assert view.phase is Phase.TURN and view.turn == 0 and view.seq == game.seq
    assert view.seats[0].discards == (Tile.RED,)
    assert view == observe_public(game)  # (a value)


def test_the_public_view_reveals_every_hand_at_the_end() -> None:
    game = Game(load("nts-2016"), random.Random(3))
    rng = random.Random(3)
    while not game.is_over:
        game.apply(random_action(game, rng))
    view = observe_public(game)
    assert view.phase is Phase.OVER and view.result == game.result
    assert view.revealed == tuple(game.hand_of(s) for s in range(4))
    assert all(None not in v.melds for v in view.seats)
