"""The authority form of Game.apply: an action comes with the seat it is sent for and the
sequence number (Game.seq) of the decision it answers.  A wrong seat raises NotYourTurn,
an answer to another decision StaleAction, malformed ones InvalidAction; the state stays
exactly as it was.  Then the game checks legality as always (one path)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from core_helpers import load
from game_helpers import deal, game_after, random_action, snapshot
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mahjong_nts.core.actions import NUM_ACTIONS, Action, ActionKind, parse_action
from mahjong_nts.core.errors import (
    IllegalAction,
    InvalidAction,
    MahjongError,
    NotYourTurn,
    StaleAction,
)
from mahjong_nts.core.game import MAX_SEQ, Game, Phase
from mahjong_nts.core.observation import observe

SPECS = ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]

EAST = "C k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 N P W"
SOUTH = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
WEST_PAIR = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"  # can pung East's C
WEST_NONE = "b9 b9 b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"  # cannot
NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E S W N b8"


# -- what seq numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("west", [WEST_PAIR, WEST_NONE])
def test_seq_counts_public_events_only(west: str) -> None:
    """Worked out by hand: the deal logs one event per seat (no flowers in nts-2016), so
    East's first turn is decision 4; his discard makes 5 public events, the number of a
    claim window on it; West's pass in that window is secret, and South's draw makes 6.
    Whether West was asked or not, South's turn is decision 6: the number gives away
    nothing of who could use the discard."""
    game = deal("nts-2016", [EAST, SOUTH, west, NORTH])
    assert game.seq == 4
    game.apply("discard C", seat=0, seq=4)
    if west == WEST_PAIR:
        assert (game.phase, game.current_seat, game.seq) == (Phase.CLAIM, 2, 5)
        game.apply("pass", seat=2, seq=5)
    assert (game.phase, game.current_seat, game.seq) == (Phase.TURN, 1, 6)
    assert [observe(game, s).seq for s in range(4)] == [6, 6, 6, 6]


def test_the_seats_of_one_window_answer_the_same_number() -> None:
    """South discards b5: West may chow it, North pung it; both are asked, in turn order
    after South, under the window's number 7 (deal 4, East's discard 5, South's draw 6,
    South's discard 7); the passes are secret, so West's draw is decision 8."""
    game = deal(
        "nts-2016",
        [
            "P k2 k5 k8 t3 t6 t9 b2 b6 b8 N W C S",
            "E b7 b9 k1 k4 k7 t1 t4 t7 S W t9 t1",
            "b3 b4 b1 k1 k4 k7 t2 t5 t8 F F E E",
            "b5 b5 k3 k6 k9 t3 t6 t9 S W N b8 C",
        ],
        draws="b5",
    )
    game.apply("discard C", seat=0, seq=4)  # North holds one C: no window
    assert (game.phase, game.current_seat, game.seq) == (Phase.TURN, 1, 6)
    game.apply("discard b5", seat=1, seq=6)
    assert (game.phase, game.current_seat, game.seq) == (Phase.CLAIM, 2, 7)
    assert [observe(game, s).seq for s in range(4)] == [7, 7, 7, 7]
    game.apply("pass", seat=2, seq=7)
    assert (game.phase, game.current_seat, game.seq) == (Phase.CLAIM, 3, 7)
    before = snapshot(game)
    with pytest.raises(NotYourTurn):  # West answers again: it is not asked any more
        game.apply("chow b3", seat=2, seq=7)
    assert snapshot(game) == before
    game.apply("pass", seat=3, seq=7)
    assert (game.phase, game.current_seat, game.seq) == (Phase.TURN, 2, 8)


@settings(max_examples=60)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10**6))
def test_seq_grows_from_decision_to_decision_and_is_the_same_for_every_seat(
    spec: str, seed: int
) -> None:
    game = Game(load(spec), random.Random(seed))
    rng = random.Random(seed)
    window: tuple[int, int] | None = None  # (seq, seat asked) of the open window
    last = -1
    while not game.is_over:
        seq = game.seq
        assert all(observe(game, s).seq == seq for s in range(game.n))
        if game.phase is Phase.TURN:
            assert seq > last
            window = None
        elif window is not None and window[0] == seq:
            assert game.current_seat != window[1]  # the next seat asked in the same window
        else:
            assert seq > last
        if game.phase is not Phase.TURN:
            window = (seq, game.current_seat)
        last = seq
        game.apply(random_action(game, rng, false_mahjong=0.01), seat=game.current_seat, seq=seq)
    assert game.seq >= last


# -- cheating attempts ---------------------------------------------------------------------


def test_acting_for_another_seat_is_refused() -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    before = snapshot(game)
    for seat in (1, 2, 3):
        for act in ("discard b3", "mahjong", "pass", "pung C"):
            with pytest.raises(NotYourTurn, match=f"^seat {seat} is not asked to decide now$"):
                game.apply(act, seat=seat, seq=4)
            assert snapshot(game) == before
    # a false mahjong sent for another seat would make that seat dead: refused too
    assert game.dead == [False] * 4


def test_in_a_claim_window_the_refusal_does_not_tell_who_is_asked() -> None:
    """West can use East's C; South and North (who cannot) learn nothing from trying: the
    message names only the seat the action was sent for."""
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    game.apply("discard C", seat=0, seq=4)
    before = snapshot(game)
    for seat in (0, 1, 3):
        with pytest.raises(NotYourTurn) as info:
            game.apply("pass", seat=seat, seq=5)
        assert str(info.value) == f"seat {seat} is not asked to decide now"
        assert info.value.seat == seat
        assert snapshot(game) == before


def test_an_old_action_replayed_is_stale() -> None:
    """East's first discard, sent again on his next turn (a replayed message), answers
    decision 4, long gone."""
    game = deal("nts-2016", [EAST, SOUTH, WEST_NONE, NORTH], draws="b1 b2 b3 k3")
    game.apply("discard C", seat=0, seq=4)
    while game.current_seat != 0 or game.phase is not Phase.TURN:
        assert game.tile is not None
        act = f"discard {game.tile.token}" if game.phase is Phase.TURN else "pass"
        game.apply(act, seat=game.current_seat, seq=game.seq)
    before = snapshot(game)
    with pytest.raises(StaleAction, match=r"answers decision 4, an earlier one") as info:
        game.apply("discard P", seat=0, seq=4)
    assert (info.value.expected, info.value.got) == (game.seq, 4)
    assert snapshot(game) == before
    with pytest.raises(StaleAction, match="a later one"):
        game.apply("discard P", seat=0, seq=game.seq + 1)
    game.apply("discard P", seat=0, seq=game.seq)


def test_a_window_answer_sent_twice_is_refused() -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    game.apply("discard C", seat=0, seq=4)
    game.apply("pung C", seat=2, seq=5)
    assert game.turn == 2 and game.phase is Phase.TURN
    before = snapshot(game)
    with pytest.raises(StaleAction):  # West is on turn now: the same answer is stale
        game.apply("pung C", seat=2, seq=5)
    assert snapshot(game) == before


def test_no_action_once_the_hand_is_over() -> None:
    game = game_after("nts-2016", 4, 10_000)
    assert game.is_over
    before = snapshot(game)
    for seat, seq in ((0, game.seq), (1, 0), (None, game.seq)):
        with pytest.raises(IllegalAction, match="the hand is over"):
            game.apply("pass", seat=seat, seq=seq)
    assert snapshot(game) == before


# -- malformed seats and numbers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "seq", "message"),
    [
        (True, None, "seat True is not a seat of this table"),
        (False, None, "seat False"),
        (-1, None, r"seat -1 is not a seat of this table \(0\.\.3\)"),
        (4, None, r"seat 4 is not a seat of this table \(0\.\.3\)"),
        ("0", None, "seat '0'"),
        (0.0, None, "seat 0.0"),
        ([0], None, "seat \\[0\\] is not"),
        (0, True, "seq True is not a sequence number"),
        (0, -1, r"seq -1 is not a sequence number \(a whole number 0\.\.2147483647\)"),
        (0, MAX_SEQ + 1, "seq 2147483648 is not a sequence number"),
        (0, "4", "seq '4'"),
        (0, 4.0, "seq 4.0"),
        (None, 2**70, "seq 1180591620717411303424 is not"),
    ],
)
def test_malformed_seat_or_seq(seat: Any, seq: Any, message: str) -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    before = snapshot(game)
    with pytest.raises(InvalidAction, match=message) as info:
        game.apply("discard C", seat=seat, seq=seq)
    assert len(str(info.value)) < 120
    assert snapshot(game) == before


def test_a_huge_seq_is_described_not_printed() -> None:
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    with pytest.raises(InvalidAction, match="seq a whole number of about 5001 digits"):
        game.apply("discard C", seat=0, seq=10**5000)


def test_seats_of_a_three_player_table() -> None:
    game = Game(load("nmb-2009+three-players"), random.Random(2))
    with pytest.raises(InvalidAction, match=r"seat 3 is not a seat of this table \(0\.\.2\)"):
        game.apply(game.legal_actions()[0], seat=3, seq=game.seq)


def test_the_errors_survive_pickling() -> None:
    """Worker processes send errors back pickled; the extra fields must come along."""
    stale = pickle.loads(pickle.dumps(StaleAction("stale", 9, 4)))
    assert (str(stale), stale.expected, stale.got) == ("stale", 9, 4)
    other = pickle.loads(pickle.dumps(NotYourTurn("not you", 2)))
    assert (str(other), other.seat) == ("not you", 2)
    assert isinstance(stale, IllegalAction) and isinstance(other, MahjongError)


# -- fuzzing: nothing changes unless everything is right -------------------------------------

garbage_actions = st.one_of(
    st.integers(min_value=0, max_value=NUM_ACTIONS - 1),
    st.builds(
        lambda w, t: f"{w} {t}",
        st.sampled_from([k.word for k in ActionKind]),
        st.sampled_from(["b1", "b5", "k9", "E", "C", "P", "f1", "x"]),
    ),
    st.sampled_from(["pass", "mahjong", "", "discard"]),
    st.text(max_size=8),
    st.none(),
)
seats = st.one_of(
    st.none(),
    st.integers(-2, 5),
    st.booleans(),
    st.sampled_from(["0", 1.0, [1], 10**30]),
)
seq_offsets = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.sampled_from([True, False, "3", 2.5, -(10**9), 10**40]),
)


def expected_error(game: Game, seat: Any, seq: Any) -> type[Exception] | None:
    """The authority check's verdict, from the contract (``None``: the plain apply's)."""
    if seat is None and seq is None:
        return None

    def bad(x: Any, top: int) -> bool:
        return isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= top

    if seat is not None and bad(seat, game.n - 1):
        return InvalidAction
    if seq is not None and bad(seq, MAX_SEQ):
        return InvalidAction
    if game.is_over:
        return IllegalAction
    if seat is not None and seat != game.current_seat:
        return NotYourTurn
    if seq is not None and seq != game.seq:
        return StaleAction
    return None


@settings(max_examples=400)
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
    window=st.booleans(),
    act=st.one_of(st.just("legal"), st.just("legal"), garbage_actions),
    seat=st.one_of(st.just("current"), st.just("current"), st.integers(0, 3), seats),
    offset=st.one_of(st.just(0), st.just(0), seq_offsets),
)
def test_authority_fuzz(
    spec: str, seed: int, steps: int, window: bool, act: Any, seat: Any, offset: Any
) -> None:
    """Wrong seats, stale or odd sequence numbers and garbage actions thrown at random
    states: the verdict is the contract's, a refused action changes nothing, and an
    accepted one does exactly what the plain apply() does (one path of legality)."""
    game = game_after(spec, seed, steps, window)
    if act == "legal":
        legal = game.legal_actions()
        act = legal[seed % len(legal)] if legal else "pass"
    if seat == "current":
        seat = game.current_seat
    seq = game.seq + offset if isinstance(offset, int) and not isinstance(offset, bool) else offset
    verdict = expected_error(game, seat, seq)
    before = snapshot(game)
    plain = game.clone()
    event(f"verdict {verdict.__name__ if verdict else 'none'}")
    if verdict is not None:
        with pytest.raises(verdict):
            game.apply(act, seat=seat, seq=seq)
        assert snapshot(game) == before
        return
    try:
        plain.apply(act)
    except MahjongError as exc:
        with pytest.raises(type(exc)):
            game.apply(act, seat=seat, seq=seq)
        assert snapshot(game) == before
        return
    event("accepted")
    game.apply(act, seat=seat, seq=seq)
    assert snapshot(game) == snapshot(plain)


def test_parse_errors_come_after_the_authority_checks() -> None:
    """The server checks seat and number first, then the game reads the action."""
    game = deal("nts-2016", [EAST, SOUTH, WEST_PAIR, NORTH])
    with pytest.raises(NotYourTurn):
        game.apply("nonsense", seat=1, seq=4)
    with pytest.raises(StaleAction):
        game.apply("nonsense", seat=0, seq=3)
    with pytest.raises(InvalidAction, match="unknown action"):
        game.apply("nonsense", seat=0, seq=4)
    assert parse_action("discard C") in game.legal_actions()
    game.apply(Action(ActionKind.DISCARD, parse_action("discard C").tile), seat=0, seq=4)
