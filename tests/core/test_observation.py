"""What a seat may see (core/observation.py): its own tiles and what lies open on the table,
never another seat's concealed tiles or the order of the walls."""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import replace

import pytest
from core_helpers import load
from game_helpers import assert_no_leak, deal, perturbed, play, random_action, random_hand

from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.game import Discard, Game, Phase
from mahjong_nts.core.hand import Meld, MeldKind
from mahjong_nts.core.observation import (
    Observation,
    SeatView,
    observe,
    observe_public,
    visible_events,
)
from mahjong_nts.core.tiles import Tile

QUIET_SOUTH = "b3 b6 b9 k1 k4 k7 t1 t4 t7 E S W t9"
QUIET_WEST = "b3 b6 b9 k2 k5 k8 t2 t5 t8 E S W k9"
QUIET_NORTH = "b4 b7 k3 k6 k9 t3 t6 t9 E S W N b8"


@pytest.mark.parametrize(
    "spec", ["nts-2016", "nts-2002", "nmb-2009+flowers", "nmb-2009+three-players"]
)
def test_no_seat_sees_what_it_cannot_see(spec: str) -> None:
    """For states along random hands, a copy whose hidden parts (other seats' concealed
    tiles and concealed kongs, both walls' order) are shuffled looks the same to the seat."""
    rules = load(spec)
    rng = random.Random(5)
    checked = 0

    def check(game: Game) -> None:
        nonlocal checked
        if not game.is_over and rng.random() < 0.15:
            assert_no_leak(game, rng)
            checked += 1

    for seed in range(25):
        random_hand(rules, seed, false_mahjong=0.003, each=check)
    assert checked > 100


def test_the_perturbation_changes_what_is_hidden() -> None:
    """The check above can fail: the shuffled copy differs from the original in the other
    seats' hands and in the walls, and another seat's observation does see the change."""
    rules = load("nts-2016")
    rng = random.Random(1)
    game = Game(rules, random.Random(3))
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    other = perturbed(game, 0, rng)
    assert other.hands[0] == game.hands[0]
    assert other.hands[1:] != game.hands[1:]
    assert other.wall.remaining() != game.wall.remaining()
    assert observe(other, 0) == observe(game, 0)
    assert observe(other, 1) != observe(game, 1)


def test_own_tiles_and_counts_only() -> None:
    game = Game(load("nts-2016"), random.Random(8))
    for seat in range(4):
        obs = observe(game, seat)
        assert obs.concealed == game.concealed(seat)
        assert [v.concealed_count for v in obs.seats] == [14, 13, 13, 13]
        assert obs.live_left == game.wall.live_left and obs.dead_left == 14
        assert obs.result is None and obs.revealed == ()
    assert observe(game, 0).drawn == game.tile
    assert all(observe(game, s).drawn is None for s in (1, 2, 3))
    assert observe(game, 0).to_act and observe(game, 0).legal == game.legal_actions()
    assert all(not observe(game, s).to_act and observe(game, s).legal == () for s in (1, 2, 3))


@pytest.mark.parametrize("spec", ["nts-2016", "nts-2002"])
def test_every_seat_always_sees_the_rule_set(spec: str) -> None:
    """The rule set is part of every observation, never optional (issue 12)."""
    rules = load(spec)
    game = Game(rules, random.Random(3))
    for seat in range(game.n):
        assert observe(game, seat).rules is rules


def test_a_concealed_kong_lies_face_down_for_the_others() -> None:
    east = "b1 b1 b1 b1 k2 k5 k8 t3 t6 t9 F P C C"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="P")
    play(game, "kong b1")
    kong = Meld(MeldKind.KONG, Tile.B1, open=False)
    assert observe(game, 0).me.melds == (kong,)
    for seat in (1, 2, 3):
        obs = observe(game, seat)
        assert obs.seats[0].melds == (None,) and obs.kongs == 1


def test_only_the_seat_asked_sees_the_claim_window() -> None:
    """Issue 8: a window opens only when some seat can use the discard, so every other
    seat sees the table as it stands after the discard: East's turn, nothing on offer."""
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    east = "C k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 N P W"
    game = deal("nts-2016", [east, QUIET_SOUTH, west, QUIET_NORTH])
    play(game, "discard C")
    assert (game.phase, game.current_seat) == (Phase.CLAIM, 2)
    asked = observe(game, 2)
    assert (asked.phase, asked.offered, asked.turn, asked.to_act) == (
        Phase.CLAIM,
        Tile.RED,
        0,
        True,
    )
    assert asked.legal == game.legal_actions() and asked.drawn is None
    for seat in (0, 1, 3):
        obs = observe(game, seat)
        assert (obs.phase, obs.offered, obs.turn) == (Phase.TURN, None, 0)
        assert not obs.to_act and obs.legal == () and obs.drawn is None
        assert obs.seats[0].discards == (Tile.RED,) and obs.seats[0].concealed_count == 13
        assert obs.seq == 5  # four deals and the discard


_WINDOW = (Phase.CLAIM, Phase.ROB)


def _after(prev: Observation, act: Action) -> Observation:
    """What ``prev.seat`` sees right after the seat on turn (``prev.turn``) discards,
    announces or promotes a kong, before anyone else moves, worked out from its view
    before: the table between the two events, the same whether or not a window opens."""
    t, tile = prev.turn, act.tile
    assert tile is not None
    me = prev.seats[t]
    if act.kind is ActionKind.KONG:
        melds = tuple(
            Meld(MeldKind.KONG, tile, True) if m == Meld(MeldKind.PUNG, tile, True) else m
            for m in me.melds
        )
        view = replace(me, melds=melds, concealed_count=me.concealed_count - 1)
        kongs, discards = prev.kongs + 1, prev.discard_count
        history = prev.history
    else:
        view = replace(
            me,
            discards=(*me.discards, tile),
            concealed_count=me.concealed_count - 1,
            announced=me.announced or act.kind is ActionKind.ANNOUNCE,
        )
        kongs, discards = prev.kongs, prev.discard_count + 1
        history = (*prev.history, Discard(t, tile))
    concealed = list(prev.concealed)
    if prev.seat == t:
        concealed.remove(tile)
    return replace(
        prev,
        phase=Phase.TURN,
        seq=prev.seq + 1,
        to_act=False,
        legal=(),
        concealed=tuple(concealed),
        drawn=None,
        offered=None,
        seats=tuple(view if v.seat == t else v for v in prev.seats),
        kongs=kongs,
        discard_count=discards,
        history=history,
    )


@pytest.mark.parametrize(
    "spec", ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]
)
def test_a_seat_not_asked_cannot_tell_a_window_opened(spec: str) -> None:
    """Issue 8, over random hands: in every claim or rob window, at every answer, each
    seat not asked now sees exactly the table right after the discard (or promoted
    kong), derived from its view before it: what it would see had no window opened.
    The seat asked sees the window and the tile on offer."""
    rules = load(spec)
    windows = 0
    for seed in range(40):
        game = Game(rules, random.Random(seed))
        rng = random.Random(f"moves {seed}")
        before: list[Observation] = []
        last: Action | None = None
        while not game.is_over:
            if game.phase in _WINDOW:
                windows += 1
                assert last is not None
                for seat in range(game.n):
                    obs = observe(game, seat)
                    if seat == game.current_seat:
                        assert (obs.phase, obs.offered) == (game.phase, game.tile)
                    else:
                        assert obs == _after(before[seat], last), (seed, seat)
            else:
                before = [observe(game, s) for s in range(game.n)]
            act = random_action(game, rng, false_mahjong=0.003)
            if game.phase is Phase.TURN:
                last = act
            game.apply(act)
    assert windows > 100


def test_the_window_rule_for_events_matches_the_engine() -> None:
    """visible_events tells a window's answers from the events alone; checked against
    the phase each action was applied in, over random hands: another seat's answers,
    deal and hidden tiles never show, everything else does, in order."""
    rules = load("nts-2016")
    for seed in range(30):
        game = Game(rules, random.Random(seed))
        rng = random.Random(f"moves {seed}")
        answers: set[int] = set()
        concealed: set[int] = set()
        while not game.is_over:
            act = random_action(game, rng, false_mahjong=0.003)
            if game.phase in _WINDOW:
                answers.add(len(game.events))
            elif act.kind is ActionKind.KONG and game.hands[game.current_seat][act.tile] == 4:  # type: ignore[index]
                concealed.add(len(game.events))
            game.apply(act)
        for seat in range(4):
            want = []
            for i, e in enumerate(game.events):
                if e.seat == seat:
                    want.append(e)
                elif e.kind == "deal" or i in answers:
                    continue
                elif e.kind in ("draw", "loose"):
                    want.append(replace(e, tiles=()))
                elif i in concealed:
                    want.append(replace(e, tiles=(), note="concealed"))
                else:
                    want.append(e)
            assert visible_events(game, seat) == tuple(want)
            cut = len(game.events) // 2
            assert (
                visible_events(game, seat, cut)
                == visible_events(game, seat)[
                    len(visible_events(game, seat)) - len(visible_events(game, seat, cut)) :
                ]
            )


def test_everything_is_revealed_once_the_hand_is_over() -> None:
    east = "b1 b1 b1 b1 F F F P P P C C t4 t5"
    game = deal("nts-2016", [east, QUIET_SOUTH, QUIET_WEST, QUIET_NORTH], loose="t6")
    play(game, "kong b1", "mahjong")
    for seat in range(4):
        obs = observe(game, seat)
        assert obs.result == game.result and not obs.to_act and obs.legal == ()
        assert obs.revealed == tuple(game.hand_of(s) for s in range(4))
        assert obs.seats[0].melds == (Meld(MeldKind.KONG, Tile.B1, open=False),)


def test_a_dead_hand_is_public() -> None:
    game = deal("nts-2016", [None, None, None, None])
    play(game, "mahjong")  # filler hands: not a mahjong
    assert all(observe(game, s).seats[0].dead for s in range(4))


def test_every_seat_sees_the_number_of_the_decision_asked() -> None:
    """The claim window on East's first discard is decision 5 (four deal events and the
    discard, worked out by hand): every seat sees the same number, asked or not."""
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    east = "C k2 k5 k8 t3 t6 t9 b2 b4 b6 b8 N P W"
    game = deal("nts-2016", [east, QUIET_SOUTH, west, QUIET_NORTH])
    assert [observe(game, s).seq for s in range(4)] == [4] * 4
    play(game, "discard C")
    assert [observe(game, s).seq for s in range(4)] == [5] * 4


@pytest.mark.parametrize("seat", [-1, 4, 7, True, 10**50, "0", 0.0])
def test_observing_a_seat_not_at_the_table(seat: int) -> None:
    with pytest.raises(ValueError, match="not at this table"):
        observe(Game(load("nts-2016"), random.Random(0)), seat)


def test_a_huge_seat_is_described_not_printed() -> None:
    """Regression: the message printed the seat whole (past 4300 digits: a plain
    ValueError about int printing)."""
    with pytest.raises(ValueError, match="seat a whole number of about 5001 digits"):
        observe(Game(load("nts-2016"), random.Random(0)), 10**5000)


def test_the_public_history_says_who_claimed_each_discard_and_from_whom() -> None:
    """Issue 12: every discard in order and who claimed it (a tile let go by everyone is
    known), each meld with the seat it was claimed from.  East lets W go, South draws C
    and lets it go, West pungs it (NTS 2016 1.8.2) and lets E go."""
    east = "k1 k2 k4 k5 k7 k8 t7 t8 S N b7 b8 b9 W"
    south = "t1 t4 t7 k3 k6 k9 b2 b8 S N W F P"
    west = "C C b1 b3 b5 k1 k4 k7 t2 t5 t8 E F"
    north = "b4 b6 k2 k5 k8 t3 t6 t9 E P P S t1"
    game = deal("nts-2016", [east, south, west, north], draws="C")
    play(game, "discard W", "discard C")
    # in the window: the neutral view shows C on the table, claimed by nobody yet
    assert observe(game, 0).history == (Discard(0, Tile.WEST), Discard(1, Tile.RED))
    play(game, "pung C", "discard E")
    expected = (Discard(0, Tile.WEST), Discard(1, Tile.RED, 2), Discard(2, Tile.EAST))
    for seat in range(4):
        obs = observe(game, seat)
        assert obs.history == expected
        assert obs.seats[2].melds == (Meld(MeldKind.PUNG, Tile.RED, True),)
        assert obs.seats[2].claimed_from == (1,)
        assert all(v.claimed_from == () for v in obs.seats if v.seat != 2)


@pytest.mark.parametrize(
    "spec", ["nts-2016", "nts-2002", "nmb-2009+flowers", "nmb-2009+three-players", "rode-draak"]
)
def test_kept_views_are_the_views_built_afresh(spec: str) -> None:
    """Observations keep each seat's view until it changes (Game.view_cache): at every
    state of random hands (false mahjongs, kongs, claims and robs included), every seat's
    observation and the spectator's view equal those built on a copy with nothing kept
    (Game.clone starts an empty cache), for the seat itself, the others and after the end."""
    rules = load(spec)
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        steps += 1
        fresh = game.clone()
        assert fresh.view_cache == {}
        for seat in range(game.n):
            assert observe(game, seat) == observe(fresh, seat)
            fresh.view_cache.clear()
        assert observe_public(game) == observe_public(game.clone())

    for seed in range(12):
        random_hand(rules, seed, false_mahjong=0.01, each=check)
    assert steps > 500


def test_a_seat_view_is_the_one_its_constructor_builds() -> None:
    """The views observe() builds (through the slots' descriptors in the pure build) are
    the SeatView their constructor builds of the same values: equal, of equal hash and
    repr, and frozen."""
    rules = load("nts-2016")
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        steps += 1
        for view in observe(game, steps % game.n).seats:
            values = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
            built = SeatView(**values)
            assert view == built and hash(view) == hash(built) and repr(view) == repr(built)
            with pytest.raises(dataclasses.FrozenInstanceError):
                view.seat = 9  # type: ignore[misc]

    for seed in range(3):
        random_hand(rules, seed, false_mahjong=0.01, each=check)
    assert steps > 100


def test_an_unchanged_seat_keeps_its_view_object() -> None:
    """A seat's view is rebuilt only when it changes: East's discard changes East's view
    (and South's, when South draws next), not West's or North's."""
    game = Game(load("nts-2016"), random.Random(3))
    before = observe(game, 2).seats
    game.apply(next(a for a in game.legal_actions() if a.kind is ActionKind.DISCARD))
    after = observe(game, 2).seats
    assert after[0] is not before[0] and after[0] != before[0]
    assert after[3] is before[3]
    if game.phase is Phase.TURN and game.turn == 1:  # nobody claimed: South drew
        assert after[2] is before[2] and after[1] != before[1]


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+flowers", "nmb-2009+three-players"])
def test_an_observation_held_while_the_game_goes_on_shows_the_game_as_observed(
    spec: str,
) -> None:
    """observe() leaves the seat's tiles, the seats' views and the history to be worked
    out when first read, each apart; read after the game moved on (some parts read
    before, some not), every value is still that of the game as observed: equal to the
    observation of a copy taken then, which nothing changes (the tiles' counts too)."""
    rules = load(spec)
    rng = random.Random(11)
    held: list[tuple[Observation, Observation]] = []
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        steps += 1
        for kept, then in held:  # observed one or more moves ago
            counted = [0] * 34
            for t in then.concealed:
                counted[t] += 1
            assert kept.concealed_counts == tuple(counted)  # (before the equality fills all)
            assert kept == then
            assert (kept.concealed, kept.seats, kept.history) == (
                then.concealed,
                then.seats,
                then.history,
            )
        if len(held) > 8:
            del held[: len(held) - 8]
        copy = game.clone()
        for seat in range(game.n):
            simultaneous = rng.random() < 0.3
            kept = observe(game, seat, simultaneous=simultaneous)
            for part in ("seats", "concealed", "concealed_counts", "history"):
                if rng.random() < 0.2:
                    getattr(kept, part)  # read now: kept as read, the other parts not yet
            held.append((kept, observe(copy, seat, simultaneous=simultaneous)))

    for seed in range(8):
        random_hand(rules, seed, false_mahjong=0.01, each=check)
    assert steps > 300


def test_an_observation_held_across_a_held_window_closing() -> None:
    """close_window() changes the game too (the next seat draws): an observation taken in
    the held window still shows the window's table."""
    game = Game(load("nts-2016"), random.Random(3))
    game.hold_windows = True
    game.apply(next(a for a in game.legal_actions() if a.kind is ActionKind.DISCARD))
    assert game.held
    kept = [observe(game, seat) for seat in range(4)]
    then = [observe(game.clone(), seat) for seat in range(4)]
    game.close_window()
    assert game.phase is Phase.TURN and sum(game.hands[1]) == 14
    assert kept == then
    assert kept[1].seats[1].concealed_count == 13 == len(kept[1].concealed)


def test_an_observation_nobody_holds_is_never_worked_out() -> None:
    """A random player reads only the legal actions: an observation let go before the game
    changes never builds a seat's view, its sorted tiles or the history."""
    game = Game(load("nts-2016"), random.Random(3))
    for _ in range(40):
        seat = game.current_seat
        obs = observe(game, seat)
        legal = obs.legal
        del obs
        game.apply(legal[0] if legal[0].kind is not ActionKind.MAHJONG else legal[-1])
        if game.is_over:
            break
    assert game.discard_count > 5
    assert not [key for key in game.view_cache if key in ("history", "revealed")]
    assert not [key for key in game.view_cache if isinstance(key, tuple)]
    obs = observe(game, 0)
    obs.seats  # noqa: B018 - read: now the views are built, and only they
    assert ("views", 0, False) in game.view_cache
    assert ("concealed", 0) not in game.view_cache and "history" not in game.view_cache
    assert obs.concealed_counts == tuple(game.hands[0])  # from the game: no sorted tiles
    assert ("concealed", 0) not in game.view_cache
    obs.concealed  # noqa: B018
    assert ("concealed", 0) in game.view_cache and "history" not in game.view_cache


@pytest.mark.parametrize("spec", ["nts-2016", "nmb-2009+three-players"])
def test_the_concealed_counts_are_the_concealed_tiles_counted(spec: str) -> None:
    """Observation.concealed_counts, read from the game before the sorted tiles are built,
    after them, or off an observation built from its values, is ``concealed`` counted by
    kind, at every state of random hands and for every seat."""
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        steps += 1
        for seat in range(game.n):
            first = observe(game, seat).concealed_counts  # from the game
            obs = observe(game, seat)
            tiles = obs.concealed
            counted = [0] * 34
            for t in tiles:
                counted[t] += 1
            assert len(first) == 34 and first == tuple(counted) == obs.concealed_counts
            assert replace(obs).concealed_counts == first  # built from its values

    for seed in range(4):
        random_hand(load(spec), seed, false_mahjong=0.01, each=check)
    assert steps > 150


def test_observing_again_and_again_keeps_a_bounded_list() -> None:
    """Observations handed out while nothing changes (a server answering every poll) are
    forgotten by the game once nobody holds them: its list stays small."""
    game = Game(load("nts-2016"), random.Random(3))
    kept = [observe(game, 0) for _ in range(5)]
    for _ in range(1000):
        observe(game, 1)
    assert len(game.view_pending) <= 16 + len(kept)
    game.apply(kept[0].legal[-1])
    assert game.view_pending == []


def test_a_lazy_observation_copies_and_compares_as_its_values() -> None:
    """Equal, shown, copied and replaced (dataclasses.replace) by its values, as the
    dataclass it was; unhashable, as that was."""
    game = Game(load("nts-2016"), random.Random(3))
    obs = observe(game, 2)
    eager = Observation(*(getattr(observe(game, 2), name) for name in Observation.__match_args__))
    copied = copy.copy(obs)
    assert copied == obs == eager and repr(copied) == repr(eager)
    assert replace(obs, seq=7).seats == eager.seats and replace(obs, seq=7).seq == 7
    with pytest.raises(TypeError):
        hash(obs)
