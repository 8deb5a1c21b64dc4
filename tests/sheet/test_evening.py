"""The evening score sheet's logic (sheet/evening.py): rotation, settlement, running
totals, money, corrections.  Expected values are worked out by hand from the books
(docs/rules.md): NTS 2016 2.1 (East pays and receives double) and 1.8.5 (the winds
rotate after every hand); NMB 2009 'Het verrekenen van de punten' (the discarder pays
the winner double), 'Het mahjong' (East keeps the wind when he wins, and after a
remise), 'Drie spelers' and 'Vijf spelers'."""

from __future__ import annotations

import doctest
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.bots.base import make_bot
from mahjong_nts.core.match import Match, Rotation
from mahjong_nts.core.observation import observe
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sheet import evening
from mahjong_nts.sheet.evening import (
    HandContext,
    HandsEntry,
    ScoredHands,
    ScoresEntry,
    Sheet,
    SheetError,
    check_entry,
    compute,
)

E, S, W, N, G = Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.GREEN
SPECS = ("nts-2016", "nts-2002", "nmb-2009", "nmb-2009+three-players", "nmb-2009+five-players")
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva")


def sheet(spec: str, chip: object = None) -> Sheet:
    rules = load_ruleset(spec)
    return Sheet.create(NAMES[: Rotation.start(rules).players], rules, chip)


def test_docstring_examples() -> None:
    assert doctest.testmod(evening).failed == 0


# --------------------------------------------------------------------------- golden


def test_nts_2016_east_double_and_rotation_after_every_hand() -> None:
    s = sheet("nts-2016")
    rows = compute(
        s,
        [
            # East (Ann) self-drawn: 40 from each, doubled (East), losers settle.
            ScoresEntry((40, 10, 0, 8), winner=0),
            ScoresEntry((0, 0, 0, 0), winner=None),  # remise: the winds rotate too
            # East is Cor; Dirk wins on Ann's discard (no discarder double in 2016).
            ScoresEntry((20, 0, 30, 50), winner=3, discarder=0),
        ],
    )
    assert [r.east for r in rows] == [0, 1, 2]
    assert [r.round_wind for r in rows] == [E, E, E]
    assert rows[2].seat_winds == (W, N, E, S)
    assert rows[0].balances == (240, -68, -98, -74)
    assert rows[1].balances == (0, 0, 0, 0)
    assert rows[2].balances == (-50, -130, -20, 200)
    assert rows[2].totals == (190, -198, -118, 126)
    assert all(r.problem is None for r in rows) and rows[0].money is None


def test_nmb_2009_east_keeps_the_wind_and_the_discarder_pays_double() -> None:
    s = sheet("nmb-2009")
    entries = [
        ScoresEntry((100, 20, 0, 0), winner=0, discarder=1),  # East wins: stays East
        ScoresEntry((0, 0, 0, 0), winner=None),  # remise: stays East
        ScoresEntry((0, 0, 10, 0), winner=2),  # South wins: the wind moves on
        ScoresEntry((0, 0, 0, 0), winner=None),
    ]
    rows = compute(s, entries)
    assert [r.east for r in rows] == [0, 0, 0, 1]
    assert rows[0].balances == (400, -160, -120, -120)
    assert rows[2].balances == (-10, -10, 30, -10)


def three_player_entries() -> list[ScoresEntry]:
    return [
        ScoresEntry((0, 10, 0), winner=1),  # East Ann, Bob wins: on
        ScoresEntry((0, 0, 10), winner=2),  # East Bob, Cor wins: on
        ScoresEntry((10, 0, 0), winner=0),  # East Cor, Ann wins: on; round over
        # The green-dragon hand: Bob wins self-drawn, the dice made Cor dominant.
        ScoresEntry((10, 50, 20), winner=1, dominant=2),
        ScoresEntry((0, 0, 0), winner=None),
    ]


def test_three_players_green_dragon_hand_with_its_dominant_player() -> None:
    rows = compute(sheet("nmb-2009+three-players"), three_player_entries())
    assert [r.round_wind for r in rows] == [E, E, E, G, S]
    assert [r.green for r in rows] == [False, False, False, True, False]
    assert [r.east for r in rows] == [0, 1, 2, 0, 0]
    # Dominant Cor pays and receives double; East is then not doubled.
    assert rows[3].balances == (-70, 150, -80)
    assert rows[3].seat_winds == (E, S, W)


def test_the_green_dragon_hand_needs_its_dominant_player() -> None:
    s = sheet("nmb-2009+three-players")
    entries = [*three_player_entries()[:3], ScoresEntry((10, 50, 20), winner=1)]
    with pytest.raises(SheetError, match="dominant: this is a hand of the green dragon"):
        check_entry(s, entries, 3)
    bad = [*three_player_entries()[:1], ScoresEntry((0, 0, 10), winner=2, dominant=0)]
    with pytest.raises(SheetError, match="only a hand of the green dragon"):
        check_entry(s, bad, 1)
    with pytest.raises(SheetError, match="plays no green-dragon hand"):
        check_entry(sheet("nts-2016"), [ScoresEntry((0, 9, 0, 0), winner=1, dominant=0)], 0)


def test_five_players_the_dreamer_sits_out() -> None:
    s = sheet("nmb-2009+five-players")
    rows = compute(s, [ScoresEntry((0, 40, 10, 0, 0), winner=1, discarder=0)])
    assert rows[0].dreamer == 4 and rows[0].seat_winds == (E, S, W, N, None)
    assert rows[0].balances == (-90, 160, -20, -50, 0)
    entries = [rows[0].entry, ScoresEntry((5, 0, 0, 0, 0), winner=None)]
    with pytest.raises(SheetError, match=r"scores\[0\]: Ann is the dreamer"):
        check_entry(s, entries, 1)
    entries[1] = ScoresEntry((0, 0, 0, 0, 0), winner=0)
    with pytest.raises(SheetError, match="winner: Ann is the dreamer"):
        check_entry(s, entries, 1)
    assert compute(s, entries)[1].seat_winds == (None, E, S, W, N)


def test_money_from_the_chip_value() -> None:
    rows = compute(sheet("nts-2016", "0.5"), [ScoresEntry((40, 10, 0, 8), winner=0)] * 2)
    assert rows[0].money == tuple(Decimal(x) for x in ("120", "-34", "-49", "-37"))
    # hand 2: East is Bob; Ann wins self-drawn: 40 + 40 + 80 (from East); Bob gets 20
    # (doubled) from Cor and 20 - 16 from Dirk; Cor pays Dirk 8: (160, -56, -68, -36)
    assert rows[1].balances == (160, -56, -68, -36)
    assert rows[1].money_totals == tuple(Decimal(x) for x in ("200", "-62", "-83", "-55"))
    assert sum(rows[1].money_totals) == 0


def test_a_new_game_starts_when_the_match_is_over() -> None:
    rows = compute(sheet("nts-2016"), [ScoresEntry((0, 0, 0, 0), winner=None)] * 17)
    assert [r.game for r in rows] == [0] * 16 + [1]
    assert rows[15].round_wind == N and rows[16].round_wind == E and rows[16].east == 0
    assert rows[16].hand == 0 and rows[15].hand == 15


def test_a_correction_that_moves_east_flags_a_later_hand() -> None:
    s = sheet("nmb-2009+three-players")
    entries: list[ScoresEntry] = three_player_entries()
    entries[0] = ScoresEntry((10, 0, 0), winner=0)  # East wins now: he stays East
    rows = compute(s, entries)
    # Bob's win in hand 4 still moves the wind on (East Cor did not win): the round
    # ends there and hand 5, a remise, is the green-dragon hand now
    assert [r.east for r in rows] == [0, 0, 1, 2, 0]
    assert [r.green for r in rows] == [False, False, False, False, True]
    assert rows[4].problem is None
    assert rows[3].problem is not None and "only a hand of the green dragon" in rows[3].problem
    assert rows[3].balances == (0, 0, 0) and rows[3].totals == rows[2].totals
    # corrected again (no dominant): it counts
    entries[3] = ScoresEntry((10, 50, 20), winner=1)
    assert compute(s, entries)[3].problem is None


def test_calculator_hands_are_scored_in_their_place() -> None:
    seen: list[HandContext] = []

    def scorer(entry: HandsEntry, ctx: HandContext) -> ScoredHands:
        seen.append(ctx)
        return ScoredHands(tuple(0 if h is None else int(h) for h in entry.hands), ("x",) * 4)

    s = sheet("nts-2016")
    entries = [ScoresEntry((0,) * 4, winner=None), HandsEntry(("8", "30", "0", "2"), winner=1)]
    rows = compute(s, entries, scorer)
    assert seen[0].east == 1 and seen[0].seat_winds == (N, E, S, W) and seen[0].round_wind == E
    # East (Bob) wins: 30, doubled, from each; among the losers Cor (0) pays Ann 8 and
    # Dirk 2, Dirk pays Ann 8 - 2: Ann -60 + 8 + 6, Cor -60 - 8 - 2, Dirk -60 - 6 + 2
    assert rows[1].balances == (-46, 180, -70, -64)
    assert rows[1].details == ("x",) * 4
    assert compute(s, entries)[1].problem == "hands: hands from the calculator need a scorer"


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "Bob", "Cor"], "played by four players"),
        (["Ann", "Bob", "Cor", "ann"], r"names\[3\]: 'ann' is the name of player 0"),
        (["Ann", "Bob", "Cor", "x" * 41], "at most 40 characters"),
        (["Ann", "Bob", "Cor", "a\x1bb"], "printable"),
        (["Ann", "Bob", "Cor", " Dirk"], "no space at either end"),
        (["Ann", "Bob", "Cor", 4], "a name is text"),
        ("AnnBobCorDirk", "as a list"),
    ],
)
def test_bad_names(names: object, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        Sheet.create(names, load_ruleset("nts-2016"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("chip", "message"),
    [
        ("0", "above 0"),
        ("-1", "above 0"),
        ("100.5", "at most 100"),
        ("0.0001", "at most 3 decimals"),
        ("NaN", "above 0"),
        ("abc", "not a number"),
        (1.5, "not float"),
        (True, "not bool"),
        ("1" * 21, "at most 20 characters"),
    ],
)
def test_bad_chip_values(chip: object, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        Sheet.create(NAMES[:4], load_ruleset("nts-2016"), chip)


def test_good_chip_values() -> None:
    assert evening.check_chip("0.125") == Decimal("0.125")
    assert evening.check_chip(2) == Decimal(2)
    assert evening.check_chip("1.50") == Decimal("1.5")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (ScoresEntry((1, 2, 3), winner=None), "give 4 scores"),
        (ScoresEntry((1, 2, 3, -1), winner=None), r"scores\[3\]: a score is a whole number"),
        (
            ScoresEntry((1, 2, 3, 2**48 + 1), winner=None),
            r"scores\[3\]: a score is a whole number 0-281474976710656",
        ),
        (ScoresEntry((0, 0, 0, 0), winner=None, discarder=1), "a remise .* has no discarder"),
        (ScoresEntry((0, 0, 0, 0), winner=1, discarder=1), "cannot be the discarder"),
        (ScoresEntry((0, 0, 0, 0), winner=4), "winner: a player is a number 0-3"),
        (ScoresEntry((0, 0, 0, 0), winner=True), "winner: a player is a number"),
        (HandsEntry(("a", "b"), winner=None), "give 4 hands"),
    ],
)
def test_bad_entries(entry: evening.Entry, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        check_entry(sheet("nts-2016"), [entry], 0)
    assert compute(sheet("nts-2016"), [entry])[0].problem is not None


def test_a_bare_score_goes_up_to_the_core_bound() -> None:
    """The sheet takes every score a hand can reach (core.rules.MAX_SCORE, 2**48), as
    ``settle`` does.  East (player 0) wins S self-drawn under nts-2016 (2.1, East pays
    and receives double): each other player pays 2 S, so East +6 S and each -2 S."""
    s = 2**48
    rows = compute(sheet("nts-2016"), [ScoresEntry((s, 0, 0, 0), winner=0)])
    assert rows[0].problem is None
    assert rows[0].balances == (6 * s, -2 * s, -2 * s, -2 * s)
    with pytest.raises(SheetError, match=r"scores\[0\]: a score is a whole number 0-2814"):
        check_entry(sheet("nts-2016"), [ScoresEntry((s + 1, 0, 0, 0), winner=0)], 0)


def test_at_most_max_hands() -> None:
    entries = [ScoresEntry((0,) * 4, winner=None)] * (evening.MAX_HANDS + 1)
    with pytest.raises(SheetError, match="at most 500 hands"):
        compute(sheet("nts-2016"), entries)
    assert len(compute(sheet("nts-2016"), entries[:-1])) == evening.MAX_HANDS


# --------------------------------------------------------------------------- properties


@st.composite
def sheets_and_entries(draw: st.DrawFn, max_hands: int = 40) -> tuple[Sheet, list[ScoresEntry]]:
    """A sheet and entries that fit where they stand (drawn along the rotation), with an
    occasional one that does not."""
    spec = draw(st.sampled_from(SPECS))
    s = sheet(spec, draw(st.none() | st.sampled_from(["1", "0.25", "0.125"])))
    n = s.players
    rot = Rotation.start(s.rules)
    entries: list[ScoresEntry] = []
    for _ in range(draw(st.integers(0, max_hands))):
        seating = rot.seating
        winner = draw(st.none() | st.sampled_from(seating))
        discarder = None
        if winner is not None and draw(st.booleans()):
            discarder = draw(st.sampled_from([p for p in seating if p != winner]))
        scores = tuple(draw(st.integers(0, 2000)) if p in seating else 0 for p in range(n))
        dominant = draw(st.sampled_from(seating)) if rot.green and winner is not None else None
        if draw(st.integers(0, 19)) == 0:  # now and then one that does not fit
            dominant = draw(st.none() | st.sampled_from(range(n)))
        entry = ScoresEntry(scores, winner, discarder, dominant)
        entries.append(entry)
        rot = rot.next(None if winner is None else seating.index(winner))
        if rot.over:
            rot = Rotation.start(s.rules)
    return s, entries


@settings(max_examples=60)
@given(sheets_and_entries())
def test_balances_sum_to_zero_and_totals_add_up(case: tuple[Sheet, list[ScoresEntry]]) -> None:
    s, entries = case
    rows = compute(s, entries)
    assert len(rows) == len(entries)
    running = [0] * s.players
    for row in rows:
        assert sum(row.balances) == 0
        running = [a + b for a, b in zip(running, row.balances, strict=True)]
        assert list(row.totals) == running
        if row.dreamer is not None:
            assert row.balances[row.dreamer] == 0
        if row.problem is not None:
            assert row.balances == (0,) * s.players
        if s.chip is not None:
            assert row.money is not None and row.money_totals is not None
            assert row.money == tuple(b * s.chip for b in row.balances)
            assert sum(row.money_totals) == 0


@settings(max_examples=60)
@given(sheets_and_entries(max_hands=30), st.data())
def test_a_correction_changes_only_what_depends_on_it(
    case: tuple[Sheet, list[ScoresEntry]], data: st.DataObject
) -> None:
    s, entries = case
    if not entries:
        return
    k = data.draw(st.integers(0, len(entries) - 1))
    before = compute(s, entries)
    n = s.players
    winner = data.draw(st.none() | st.integers(0, n - 1))
    new = ScoresEntry(tuple(data.draw(st.integers(0, 500)) for _ in range(n)), winner)
    after = compute(s, [*entries[:k], new, *entries[k + 1 :]])
    assert after[:k] == before[:k]
    place = ("game", "hand", "round", "round_wind", "east", "dreamer", "green", "seat_winds")
    for old, row in zip(before[k + 1 :], after[k + 1 :], strict=True):
        assert row.entry == old.entry
        if all(getattr(row, f) == getattr(old, f) for f in place):
            assert row.balances == old.balances and row.problem == old.problem
    delta = [a - b for a, b in zip(after[k].balances, before[k].balances, strict=True)]
    if all(
        all(getattr(a, f) == getattr(b, f) for f in place)
        for a, b in zip(before[k + 1 :], after[k + 1 :], strict=True)
    ):
        for old, row in zip(before[k:], after[k:], strict=True):
            assert list(row.totals) == [t + d for t, d in zip(old.totals, delta, strict=True)]


def play_match(spec: str, seed: int) -> Match:
    """A whole match played by the heuristic bots."""
    rules = load_ruleset(spec)
    match = Match(rules, random.Random(seed), SeedRng)
    bots = [make_bot("heuristic", seed * 10 + p, rules) for p in range(match.players)]
    while not match.is_over:
        setup, game = match.next_hand()
        while not game.is_over:
            seat = game.current_seat
            game.apply(bots[setup.players[seat]].act(observe(game, seat)))
        match.record(game)
    return match


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_sheet_agrees_with_a_match_played_to_its_end(spec: str, seed: int) -> None:
    """A match's hands entered as bare scores: the same East, round wind, dreamer and
    balances on the sheet as in the match, and then a new game."""
    match = play_match(spec, seed)
    s = sheet(spec)
    entries = []
    for rec in match.history:
        players, result = rec.setup.players, rec.result
        scores = [0] * s.players
        for seat, player in enumerate(players):
            scores[player] = result.settlement.scores[seat]
        entries.append(
            ScoresEntry(
                tuple(scores),
                None if result.winner is None else players[result.winner],
                None if result.discarder is None else players[result.discarder],
                rec.setup.dominant,
            )
        )
    rows = compute(s, [*entries, entries[0]])
    assert any(rec.result.winner is not None for rec in match.history)
    for rec, row in zip(match.history, rows, strict=False):
        assert row.problem is None
        assert row.east == rec.setup.players[0]
        assert row.round_wind == rec.setup.round_wind
        assert row.round == rec.setup.round
        assert row.dreamer == rec.setup.dreamer
        assert row.balances == rec.balances
    assert list(rows[-2].totals) == match.balances
    assert rows[-1].game == 1 and rows[-1].east == 0
