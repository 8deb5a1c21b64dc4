"""A match (core/match.py): winds rotating and rounds advancing per rule set (NTS 2016 1.8.5,
1.9; NTS 2002 'Ronde en de windrichting'; NMB 2009 'Het mahjong', 'Ronde en de
windrichting', 'Drie spelers', 'Vijf spelers'), and balances summed from the hands.

A hand's outcome is chosen by the chance the match deals it with (a rigged wall, the table
and wind being the match's): East wins at once (heaven), South wins on East's first discard
(earth), or the hand dealt is played out quietly to a remise.  Every hand recorded is the
very game the match dealt."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest
from core_helpers import load
from game_helpers import RiggedRng, autoplay, play, random_action

from mahjong_nts.core.errors import IllegalMatchStep
from mahjong_nts.core.game import Game
from mahjong_nts.core.match import HandRecord, Match, Rotation
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import Tile
from mahjong_nts.core.wall import Rng

E, S, W, N, G = Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.GREEN

HEAVEN = "b1 b2 b3 b4 b5 b6 b7 b8 b9 F F F C C"
EARTH_EAST = "b5 b2 b3 b4 b6 k1 k2 k4 k5 k6 k8 E W P"
EARTH_SOUTH = "SSS FFF k123 k789 b5"


def outcome_rng(rules: RuleSet, outcome: str, seed: int) -> Rng:
    """Chance that deals a hand ending as ``outcome``: 'east' (East wins at once), 'south'
    (South wins on East's first discard) or 'remise' (any wall)."""
    n = rules.table.players
    if outcome == "east":
        return RiggedRng(rules, [HEAVEN, *[None] * (n - 1)], filler=seed)
    if outcome == "south":
        return RiggedRng(rules, [EARTH_EAST, EARTH_SOUTH, *[None] * (n - 2)], filler=seed)
    return random.Random(seed)


def play_outcome(game: Game, outcome: str) -> None:
    """Play a hand dealt by :func:`outcome_rng` to its end."""
    if outcome == "remise":
        autoplay(game, lambda g: False)
    elif outcome == "east":
        play(game, "mahjong")
    else:
        play(game, "discard b5")
        while not game.is_over:
            game.apply("mahjong" if game.current_seat == 1 else "pass")


def outcome_match(
    spec: str, outcomes: Sequence[str], dice: Rng | None = None
) -> tuple[Match, Callable[[], None]]:
    """A match whose hand ``i`` ends as ``outcomes[i]`` (cycled), and a function that
    plays and records its next hand."""
    rules = load(spec)
    pending: list[str] = []

    def make_rng(seed: int) -> Rng:
        return outcome_rng(rules, pending[-1], seed)

    match = Match(rules, dice if dice is not None else random.Random(0), make_rng)

    def step() -> None:
        pending.append(outcomes[len(match.history) % len(outcomes)])
        _, game = match.next_hand()
        play_outcome(game, pending[-1])
        match.record(game)

    return match, step


def play_match(spec: str, outcomes: Sequence[str] | None = None, seed: int = 0) -> Match:
    """A match to its end; hand ``i`` ends as ``outcomes[i]`` (cycled), or by random play."""
    if outcomes is not None:
        match, step = outcome_match(spec, outcomes)
        while not match.is_over:
            assert len(match.history) < 500
            step()
        return match
    match = Match(load(spec), random.Random(seed), random.Random)
    rng = random.Random(seed)
    while not match.is_over:
        assert len(match.history) < 500
        _, game = match.next_hand()
        while not game.is_over:
            game.apply(random_action(game, rng))
        match.record(game)
    return match


def winds(match: Match) -> list[Tile]:
    return [r.setup.round_wind for r in match.history]


def easts(match: Match) -> list[int]:
    return [r.setup.players[0] for r in match.history]


def check_balances(match: Match) -> None:
    history: list[HandRecord] = match.history
    for rec in history:
        assert sum(rec.balances) == 0
        for seat, player in enumerate(rec.setup.players):
            assert rec.balances[player] == rec.result.settlement.balances[seat]
        if rec.setup.dreamer is not None:
            assert rec.balances[rec.setup.dreamer] == 0
    totals = [sum(r.balances[p] for r in history) for p in range(match.players)]
    assert match.balances == totals and sum(totals) == 0


@pytest.mark.parametrize("outcomes", [["remise"], ["east"], ["south", "east", "remise"]])
def test_nts_2016_rotates_after_every_hand_four_rounds_of_four(outcomes: list[str]) -> None:
    """'Het draaien van de winden geschiedt na elk spel' (1.8.5), after a remise too
    (1.8.5.2); 'vier ronden, inclusief eventuele remises' of four hands, round wind East,
    South, West, North (1.9)."""
    match = play_match("nts-2016", outcomes)
    assert len(match.history) == 16
    assert winds(match) == [E] * 4 + [S] * 4 + [W] * 4 + [N] * 4
    assert easts(match) == [i % 4 for i in range(16)]
    assert [r.setup.round for r in match.history] == [i // 4 for i in range(16)]
    for r in match.history:
        assert r.setup.players == tuple((r.setup.players[0] + k) % 4 for k in range(4))
        assert r.setup.dreamer is None and r.setup.dominant is None
    check_balances(match)


def test_nts_2002_round_wind_is_always_east() -> None:
    """'Iedere ronde is de wind van de ronde Oost'."""
    match = play_match("nts-2002", ["south", "east", "remise"])
    assert len(match.history) == 16 and winds(match) == [E] * 16
    assert easts(match) == [i % 4 for i in range(16)]


def test_nmb_2009_winds_stay_when_east_wins_or_on_a_remise() -> None:
    """'Het draaien van de winden geschiedt na elk spel, met uitzondering wanneer Oost
    mahjong heeft ... Bij remise draait de wind niet'; four rounds, 'dus minimaal 16
    spellen'."""
    outcomes = ["east", "remise", "south"]
    match = play_match("nmb-2009", outcomes)
    assert len(match.history) == 16 * 3  # only every third hand moves the winds on
    expected_east, east = [], 0
    for i in range(48):
        expected_east.append(east)
        if outcomes[i % 3] == "south":
            east = (east + 1) % 4
    assert easts(match) == expected_east
    assert winds(match) == [E] * 12 + [S] * 12 + [W] * 12 + [N] * 12
    check_balances(match)


@pytest.mark.parametrize("spec", ["nts-2016", "nts-2002", "nmb-2009", "rode-draak"])
def test_random_matches_follow_the_rotation_rule(spec: str) -> None:
    table = load(spec).table
    for seed in range(2):
        match = play_match(spec, seed=seed)
        assert len(match.history) >= 16
        for prev, nxt in zip(match.history, match.history[1:], strict=False):
            w = prev.result.winner
            moves = table.rotate_on_remise if w is None else (w != 0 or table.rotate_on_east_win)
            assert nxt.setup.players[0] == (prev.setup.players[0] + moves) % 4
        check_balances(match)


# -- three players ---------------------------------------------------------------------------

THREE = "nmb-2009+three-players"


def test_three_players_rounds_of_three_and_a_green_dragon_hand() -> None:
    """'Nadat de oorspronkelijke West Oost is geweest volgt de ronde van de groene draak ...
    In deze ronde is er geen heersende wind, maar een heersende draak'.  The overlay plays
    three rounds (East, South, West), each followed by one green-dragon hand."""
    match = play_match(THREE, ["south"])
    assert len(match.history) == 12
    assert winds(match) == [E, E, E, G, S, S, S, G, W, W, W, G]
    assert easts(match) == [0, 1, 2, 0] * 3
    for r in match.history:
        assert len(r.setup.players) == 3
        assert (r.setup.dominant is not None) == (r.setup.round_wind == G)
    check_balances(match)


class ScriptedDice:
    """The match's chance: dice as scripted, hand seeds counting up."""

    def __init__(self, throws: Sequence[int]) -> None:
        self._throws = iter(throws)
        self._seed = 0

    def shuffle(self, x: list[object]) -> None:  # not used by a match
        raise AssertionError

    def randint(self, a: int, b: int) -> int:
        return next(self._throws)

    def getrandbits(self, k: int) -> int:
        self._seed += 1
        return self._seed


@pytest.mark.parametrize(("throw", "offset"), [((1, 1), 1), ((3, 4), 0), ((6, 6), 2)])
def test_the_winner_throws_for_the_dominant_player(throw: tuple[int, int], offset: int) -> None:
    """'De winnaar van het laatste spel werpt met twee dobbelstenen. Zijn worp bepaalt ...
    welke speler heersend is': counting counter-clockwise from the thrower as one (as East
    counts to the opener, 1.6).  South wins the third hand; the throw picks the player
    ``offset`` seats on from him.  The dominant player pays and receives double."""
    match, step = outcome_match(THREE, ["south", "south", "south", "east"], ScriptedDice(throw))
    for _ in range(4):
        step()
    winner = match.history[2].setup.players[1]
    rec = match.history[3]
    setup = rec.setup
    assert setup.round_wind == G
    seat = (setup.players.index(winner) + offset) % 3
    assert setup.dominant == setup.players[seat]
    score = rec.result.scores[0].score
    # East wins self-drawn: each loser pays his score, double if either is dominant
    factors = [2 if seat in (0, s) else 1 for s in (1, 2)]
    assert rec.result.settlement.balances[0] == score * sum(factors)


def test_after_a_remise_east_throws() -> None:
    """Under nts-2016 a remise moves the winds on, so it may end a round; then East (no
    winner) throws: (1, 1) counts two from East, South is dominant."""
    match, step = outcome_match(
        "nts-2016+three-players", ["south", "south", "remise", "east"], ScriptedDice((1, 1))
    )
    for _ in range(3):
        step()
    setup, game = match.next_hand()
    assert setup.round_wind == G and game.round_wind == G and game.dominant == 1
    assert setup.dominant == setup.players[1]


# -- five players ----------------------------------------------------------------------------

FIVE = "nmb-2009+five-players"


@pytest.mark.parametrize("outcomes", [["east"], ["remise", "south"]])
def test_five_players_the_dreamer_sits_out(outcomes: list[str]) -> None:
    """'Als dit spel is afgelopen of wanneer het remise is, wordt Oost de nieuwe dromer en
    wordt de oude dromer Noord. Een ronde is gespeeld wanneer iedere speler Oost is geweest,
    er zijn dus vijf beurten'; the overlay plays a fifth round of the green dragon."""
    match = play_match(FIVE, outcomes)
    history = match.history
    assert len(history) == 25
    assert winds(match) == [E] * 5 + [S] * 5 + [W] * 5 + [N] * 5 + [G] * 5
    assert history[0].setup.dreamer == 4 and history[0].setup.players == (0, 1, 2, 3)
    for prev, nxt in itertools.pairwise(history):
        assert nxt.setup.dreamer == prev.setup.players[0]  # East becomes the dreamer
        assert nxt.setup.players[3] == prev.setup.dreamer  # the dreamer becomes North
        assert nxt.setup.players[:3] == prev.setup.players[1:]
    for r in history:
        assert r.setup.dreamer not in r.setup.players
        assert (r.setup.dominant is not None) == (r.setup.round_wind == G)
    check_balances(match)


# -- bookkeeping -------------------------------------------------------------------------------


def test_hands_must_be_recorded_in_turn() -> None:
    match = Match(load("nts-2016"), random.Random(1), random.Random)
    with pytest.raises(IllegalMatchStep, match="no hand in play"):
        match.record(Game(load("nts-2016"), random.Random(1)))
    _setup, game = match.next_hand()
    with pytest.raises(IllegalMatchStep, match="record the hand in play"):
        match.next_hand()
    with pytest.raises(IllegalMatchStep, match="not over yet"):
        match.record(game)
    autoplay(game, lambda g: False)
    match.record(game)
    with pytest.raises(IllegalMatchStep, match="recorded already"):
        match.record(game)
    assert len(match.history) == 1


def test_only_the_game_the_match_dealt_is_recorded() -> None:
    """Regression: record() took any finished game: another game with the same table (its
    result went into the balances), a clone of the dealt game played differently, a game
    of another rule set, the same game twice, and things that are no game at all."""
    rules = load("nts-2016")
    match = Match(rules, random.Random(1), random.Random)
    setup, game = match.next_hand()
    other = Game(rules, random.Random(setup.seed), round_wind=setup.round_wind)
    copy = game.clone()
    three = Game(load("nmb-2009+three-players"), random.Random(5))
    for g in (other, copy, three):
        autoplay(g, lambda g: False)
    for wrong in (other, copy, three):
        with pytest.raises(IllegalMatchStep, match="not the hand this match dealt"):
            match.record(wrong)
    for junk in (None, 3, "game", setup):
        with pytest.raises(IllegalMatchStep, match="takes the Game"):
            match.record(junk)  # type: ignore[arg-type]
    assert match.history == [] and match.balances == [0, 0, 0, 0]
    play_outcome(game, "remise")
    first = match.record(game)
    assert first.setup == setup and first.result is game.result
    _setup2, game2 = match.next_hand()
    autoplay(game2, lambda g: False)
    with pytest.raises(IllegalMatchStep, match="recorded already"):
        match.record(game)  # the first hand again, while the second is in play
    match.record(game2)
    assert len(match.history) == 2


def test_no_hand_after_the_match() -> None:
    match = play_match("nts-2016", ["remise"])
    assert match.is_over
    with pytest.raises(IllegalMatchStep, match="the match is over"):
        match.next_hand()


def test_a_hand_replays_alone_from_its_setup() -> None:
    rules = load("nmb-2009+three-players")
    match = Match(rules, random.Random(9), random.Random)
    rng = random.Random(2)
    while len(match.history) < 5:
        setup, game = match.next_hand()
        moves = []
        while not game.is_over:
            act = random_action(game, rng)
            game.apply(act)
            moves.append(act)
        match.record(game)
        seat = None if setup.dominant is None else setup.players.index(setup.dominant)
        alone = Game(rules, random.Random(setup.seed), round_wind=setup.round_wind, dominant=seat)
        for act in moves:
            alone.apply(act)
        assert alone.events == game.events and alone.result == game.result


# --------------------------------------------------------------------------- Rotation


def rotate(spec: str, winners: Sequence[int | None]) -> list[Rotation]:
    """The rotation before each hand whose winners (seats, 0 is East) are ``winners``,
    and the one after the last."""
    rots = [Rotation.start(load(spec))]
    for w in winners:
        rots.append(rots[-1].next(w))
    return rots


def test_rotation_east_win_keeps_east_under_nmb_2009_only() -> None:
    """NMB 2009 'Het mahjong': the winds move on 'met uitzondering wanneer Oost mahjong
    heeft', and 'Bij remise draait de wind niet'; NTS 2016 1.8.5: after every hand."""
    nmb = rotate("nmb-2009", [0, None, 2])
    assert [r.east for r in nmb] == [0, 0, 0, 1]
    nts = rotate("nts-2016", [0, None, 2])
    assert [r.east for r in nts] == [0, 1, 2, 3]
    assert [r.seating for r in nts] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]


def test_rotation_rounds_and_the_end_of_a_match() -> None:
    """NTS 2016 1.9: four rounds of four hands, round wind East, South, West, North."""
    rots = rotate("nts-2016", [1] * 16)
    assert [r.round_wind for r in rots[:16]] == [E] * 4 + [S] * 4 + [W] * 4 + [N] * 4
    assert not any(r.over for r in rots[:16]) and rots[16].over
    with pytest.raises(IllegalMatchStep, match="over"):
        rots[16].next(None)
    assert Rotation.start(load("nts-2002")).next(1).next(1).next(1).next(1).round_wind == E


def test_rotation_three_players_green_dragon_hand_after_each_round() -> None:
    """NMB 2009 'Drie spelers': after every player was East once, a hand of the green
    dragon (docs/rules.md 91, 92: three rounds E, S, W)."""
    rots = rotate("nmb-2009+three-players", [1, 1, 1, None, 1])
    assert [r.round_wind for r in rots] == [E, E, E, G, S, S]
    assert [r.green for r in rots] == [False, False, False, True, False, False]
    assert [r.east for r in rots] == [0, 1, 2, 0, 0, 1]  # the green hand does not rotate


def test_rotation_five_players_dreamer_and_green_round() -> None:
    """NMB 2009 'Vijf spelers': East becomes the dreamer after each hand or remise, five
    hands a round; the optional fifth round of the green dragon (docs/rules.md 95-98)."""
    rots = rotate("nmb-2009+five-players", [0, None] * 12 + [0])
    assert [r.dreamer for r in rots[:3]] == [4, 0, 1]
    assert rots[1].seating == (1, 2, 3, 4)
    assert [r.round_wind for r in rots[:25]] == [E] * 5 + [S] * 5 + [W] * 5 + [N] * 5 + [G] * 5
    assert rots[25].over


def test_rotation_refuses_a_winner_off_the_table() -> None:
    with pytest.raises(IllegalMatchStep, match="0-3"):
        Rotation.start(load("nts-2016")).next(4)
