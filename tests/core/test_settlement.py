"""Tests for mahjong_nts.core.settlement (worked examples from the books and by hand)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_nts.core.errors import InvalidRuleSet, InvalidWin, MahjongError
from mahjong_nts.core.rules import SettlementRules
from mahjong_nts.core.settlement import Payment, Settlement, round_score, settle

NMB_2009 = SettlementRules(
    east_double=False, discarder_double=True, dominant_double=True, round_to=0
)
NTS = SettlementRules(east_double=True, discarder_double=False, dominant_double=False, round_to=0)
PLAIN = SettlementRules(
    east_double=False, discarder_double=False, dominant_double=False, round_to=0
)

EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3


# --- the 2009 book ----------------------------------------------------------


def test_book_2009_example() -> None:
    """ "Voorbeeld punten berekening": South wins on West's discard; West has a dead hand."""
    result = settle([128, 272, 0, 40], winner=SOUTH, discarder=WEST, east=EAST, rules=NMB_2009)
    assert result.balances == (-56, 1088, -712, -320)
    assert result.scores == (128, 272, 0, 40)
    # The book's table: what each pays and receives, gross.  Net per pair:
    assert result.payments == (
        Payment(EAST, SOUTH, 272),
        Payment(WEST, EAST, 128),
        Payment(WEST, SOUTH, 544),
        Payment(WEST, NORTH, 40),
        Payment(NORTH, EAST, 128 - 40),
        Payment(NORTH, SOUTH, 272),
    )
    assert result.received_by(SOUTH) == 1088
    assert result.paid_by(WEST) == 712
    assert sum(result.balances) == 0


def test_book_2009_example_gross_table() -> None:
    """The book's table itself, before netting: each pays each other player's score
    (the winner pays nobody); West gave the winning tile and pays South double."""
    result = settle([128, 272, 0, 40], winner=SOUTH, discarder=WEST, east=EAST, rules=NMB_2009)
    assert result.gross == (
        # to East, South, West, North
        (0, 272, 0, 40),  # East pays
        (0, 0, 0, 0),  # South (the winner) pays nobody
        (128, 544, 0, 40),  # West
        (128, 272, 0, 0),  # North
    )


def test_gross_with_east_double_and_dreamer() -> None:
    """nts-2016 style (East doubles) at a table of five: the dreamer's row and column
    stay empty, every entry with East in it is doubled."""
    result = settle([0, 0, 30, 0, 100], winner=4, discarder=None, east=0, dreamer=1, rules=NTS)
    assert result.gross == (
        (0, 0, 60, 0, 200),
        (0, 0, 0, 0, 0),
        (0, 0, 0, 0, 100),
        (0, 0, 30, 0, 100),
        (0, 0, 0, 0, 0),
    )
    assert result.balances == (-200 - 60, 0, 60 + 30 - 100, -100 - 30, 400)


def test_book_2009_verschillen_discard_512() -> None:
    """12 points and 2 doublings, won on a discard: (2+1+1) x (20+12) x 4 = 512."""
    result = settle([128, 0, 0, 0], winner=0, discarder=2, east=1, rules=NMB_2009)
    assert result.balances == (512, -128, -256, -128)
    assert result.received_by(0) == (2 + 1 + 1) * (20 + 12) * 4


def test_book_2009_verschillen_self_drawn_564() -> None:
    """Self-drawn all pay single: (1+1+1) x (20+15+12) x 4 = 564."""
    result = settle([188, 0, 0, 0], winner=0, discarder=None, east=1, rules=NMB_2009)
    assert result.balances == (564, -188, -188, -188)
    assert result.received_by(0) == (1 + 1 + 1) * (20 + 15 + 12) * 4


def test_book_2009_limit_hand_is_6000_either_way() -> None:
    """ "In beide gevallen levert een limietspel dus 6.000 punten op"."""
    claimed = settle([0, 1500, 0, 0], winner=1, discarder=3, east=0, rules=NMB_2009)
    drawn = settle([0, 2000, 0, 0], winner=1, discarder=None, east=0, rules=NMB_2009)
    assert claimed.balances[1] == drawn.balances[1] == 6000


def test_nmb_2009_east_not_doubled() -> None:
    result = settle([40, 100, 0, 0], winner=1, discarder=None, east=0, rules=NMB_2009)
    assert result.balances == (-100 + 40 + 40, 300, -100 - 40, -100 - 40)
    result = settle([0, 100, 0, 0], winner=1, discarder=None, east=0, rules=NMB_2009)
    assert result.balances == (-100, 300, -100, -100)


# --- nts: East pays and receives double ---------------------------------------


def test_nts_east_wins_limit() -> None:
    """East wins 2000: receives 4000 from each, 12000 (the 2002 book's maximum for East)."""
    result = settle([2000, 0, 0, 0], winner=0, discarder=3, east=0, rules=NTS)
    assert result.balances == (12000, -4000, -4000, -4000)
    assert result.payments == (Payment(1, 0, 4000), Payment(2, 0, 4000), Payment(3, 0, 4000))


def test_nts_non_east_wins_limit() -> None:
    """A non-East winner of 2000 receives at most 8000: 4000 from East, 2000 from each other."""
    result = settle([0, 2000, 0, 0], winner=1, discarder=2, east=0, rules=NTS)
    assert result.balances == (-4000, 8000, -2000, -2000)


def test_nts_losers_settle_difference_east_doubled() -> None:
    # West wins 100; East 24, South 8, North 0.
    # East receives 2x24 from South and from North, pays 2x8 to South: South pays East 2x(24-8).
    result = settle([24, 8, 100, 0], winner=2, discarder=None, east=0, rules=NTS)
    assert result.payments == (
        Payment(0, 2, 200),
        Payment(1, 0, 32),
        Payment(1, 2, 100),
        Payment(3, 0, 48),
        Payment(3, 1, 8),
        Payment(3, 2, 100),
    )
    assert result.balances == (-200 + 32 + 48, -32 - 100 + 8, 400, -48 - 8 - 100)


def test_east_elsewhere() -> None:
    """East need not be seat 0."""
    result = settle([0, 0, 0, 50], winner=3, discarder=None, east=2, rules=NTS)
    assert result.balances == (-50, -50, -100, 200)


def test_all_doublings_multiply() -> None:
    rules = SettlementRules(
        east_double=True, discarder_double=True, dominant_double=True, round_to=0
    )
    # East discards to the winner: 2 (East) x 2 (discarder).
    result = settle([0, 10, 0, 0], winner=1, discarder=0, east=0, rules=rules)
    assert result.balances == (-40, 60, -10, -10)


# --- green dragon hand: the dominant player --------------------------------------


def test_dominant_replaces_east() -> None:
    result = settle([0, 0, 30], winner=2, discarder=None, east=0, dominant=1, rules=NMB_2009)
    assert result.balances == (-30, -60, 90)


def test_dominant_wins_on_discard() -> None:
    result = settle([0, 30, 0], winner=1, discarder=0, east=2, dominant=1, rules=NMB_2009)
    # dominant x discarder: 4 x 30 from seat 0, 2 x 30 from seat 2.
    assert result.balances == (-120, 180, -60)


def test_dominant_without_dominant_double_doubles_nobody() -> None:
    rules = SettlementRules(
        east_double=True, discarder_double=False, dominant_double=False, round_to=0
    )
    result = settle([0, 0, 30], winner=2, discarder=None, east=0, dominant=1, rules=rules)
    assert result.balances == (-30, -30, 60)


# --- three and five players -----------------------------------------------------------


def test_three_players() -> None:
    result = settle([16, 64, 4], winner=1, discarder=2, east=0, rules=NMB_2009)
    # Winner: 64 from seat 0, 128 from the discarder.  Losers: 0 gets 16 from 2, pays 4.
    assert result.payments == (Payment(0, 1, 64), Payment(2, 0, 12), Payment(2, 1, 128))
    assert result.balances == (-52, 192, -140)


def test_five_players_dreamer_neither_pays_nor_receives() -> None:
    scores = [10, 0, 60, 0, 20]
    result = settle(scores, winner=2, discarder=4, east=1, dreamer=3, rules=NMB_2009)
    assert result.balances[3] == 0
    assert all(3 not in (p.payer, p.payee) for p in result.payments)
    assert result.balances == (
        -60 + 10 + 10 - 20,
        -60 - 10 - 20,
        60 + 60 + 120,
        0,
        -120 - 10 + 20 + 20,
    )
    assert sum(result.balances) == 0


def test_five_players_with_east_double() -> None:
    result = settle([0, 0, 0, 0, 100], winner=4, discarder=None, east=0, dreamer=1, rules=NTS)
    assert result.balances == (-200, 0, -100, -100, 400)


# --- remise, rounding -------------------------------------------------------------------


def test_remise_settles_nothing() -> None:
    result = settle([12, 40, 0, 8], winner=None, discarder=None, east=0, rules=NTS)
    assert result == Settlement(scores=(0, 0, 0, 0), balances=(0, 0, 0, 0), payments=())


@pytest.mark.parametrize(
    ("score", "to", "expected"),
    [
        (0, 10, 0),
        (4, 10, 0),
        (5, 10, 10),
        (124, 10, 120),
        (125, 10, 130),
        (128, 10, 130),
        (272, 10, 270),
        (44, 0, 44),
        (1, 2, 2),
        (149, 100, 100),
        (150, 100, 200),
        (7, 1, 7),
        (1, 3, 0),
        (2, 3, 3),
    ],
)
def test_round_score(score: int, to: int, expected: int) -> None:
    assert round_score(score, to) == expected


def test_round_score_rejects_negative_step() -> None:
    with pytest.raises(InvalidRuleSet):
        round_score(10, -10)


def test_settle_rounds_first() -> None:
    rules = SettlementRules(
        east_double=False, discarder_double=True, dominant_double=False, round_to=10
    )
    result = settle([128, 272, 0, 44], winner=1, discarder=2, east=0, rules=rules)
    assert result.scores == (130, 270, 0, 40)
    assert result.balances == (-270 + 130 + 130 - 40, 1080, -130 - 540 - 40, -270 - 130 + 80)


# --- values -----------------------------------------------------------------------------


def test_reprs_rebuild() -> None:
    result = settle([128, 272, 0, 40], winner=1, discarder=2, east=0, rules=NMB_2009)
    assert eval(repr(result)) == result
    assert repr(Payment(2, 1, 544)) == "Payment(payer=2, payee=1, amount=544)"


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "kwargs", "message"),
    [
        ([0, 10, 0, 0], {"winner": 1, "discarder": 1}, "own discard"),
        ([0, 10, 0, 0], {"winner": 4, "discarder": None}, "not a seat"),
        ([0, 10, 0, 0], {"winner": -1, "discarder": None}, "not a seat"),
        ([0, 10, 0, 0], {"winner": 1, "discarder": 7}, "not a seat"),
        ([0, 10, 0, 0], {"winner": 1, "discarder": None, "east": 4}, "not a seat"),
        ([0, 10, 0, 0], {"winner": 1, "discarder": None, "dominant": 9}, "not a seat"),
        ([0, 10, -4, 0], {"winner": 1, "discarder": None}, "never negative"),
        ([0, 10], {"winner": 1, "discarder": None}, "3, 4 or 5"),
        ([0] * 6, {"winner": 1, "discarder": None}, "3, 4 or 5"),
        ([0, 10, 0, 0], {"winner": None, "discarder": 2}, "remise"),
        ([0, 10, 0, 0, 0], {"winner": 1, "discarder": None}, "dreamer"),
        ([0, 10, 0, 0], {"winner": 1, "discarder": None, "dreamer": 2}, "table of five"),
        ([0, 10, 0, 0, 0], {"winner": 1, "discarder": None, "dreamer": 1}, "cannot win"),
        ([0, 10, 0, 0, 0], {"winner": 1, "discarder": 3, "dreamer": 3}, "cannot discard"),
        ([0, 10, 0, 0, 0], {"winner": 1, "discarder": None, "dreamer": 0}, "be East"),
        (
            [0, 10, 0, 0, 0],
            {"winner": 1, "discarder": None, "dreamer": 3, "dominant": 3},
            "dominant",
        ),
        ([0, 10, 0, 8, 0], {"winner": 1, "discarder": None, "dreamer": 3}, "must be 0"),
        ([0, 10.5, 0, 0], {"winner": 1, "discarder": None}, "whole number"),
        ([0, True, 0, 0], {"winner": 1, "discarder": None}, "whole number"),
    ],
)
def test_invalid(scores: list[int], kwargs: dict[str, int | None], message: str) -> None:
    args: dict[str, int | None] = {"east": 0, **kwargs}
    with pytest.raises(InvalidWin, match=message):
        settle(scores, rules=NTS, **args)  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------------

rule_sets = st.builds(
    SettlementRules,
    east_double=st.booleans(),
    discarder_double=st.booleans(),
    dominant_double=st.booleans(),
    round_to=st.sampled_from([0, 0, 1, 5, 10, 100]),
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], dict[str, int | None], SettlementRules]:
    n = draw(st.sampled_from([3, 4, 5]))
    seats = list(range(n))
    dreamer = draw(st.sampled_from(seats)) if n == 5 else None
    players = [s for s in seats if s != dreamer]
    scores = [0 if s == dreamer else draw(st.integers(0, 4000)) for s in seats]
    winner = draw(st.sampled_from(players))
    discarder = draw(st.none() | st.sampled_from([s for s in players if s != winner]))
    east = draw(st.sampled_from(players))
    dominant = draw(st.none() | st.sampled_from(players))
    kwargs: dict[str, int | None] = {
        "winner": winner,
        "discarder": discarder,
        "east": east,
        "dominant": dominant,
        "dreamer": dreamer,
    }
    return scores, kwargs, draw(rule_sets)


@given(hands())
def test_properties(case: tuple[list[int], dict[str, int | None], SettlementRules]) -> None:
    scores, kwargs, rules = case
    result = settle(scores, rules=rules, **kwargs)  # type: ignore[arg-type]
    n = len(scores)
    winner = kwargs["winner"]
    assert winner is not None
    assert sum(result.balances) == 0
    assert result.balances[winner] >= 0
    # Payments reproduce the balances, and are net (one per pair), positive, sorted.
    rebuilt = [0] * n
    for p in result.payments:
        assert p.amount > 0
        assert p.payer != p.payee
        rebuilt[p.payer] -= p.amount
        rebuilt[p.payee] += p.amount
    assert tuple(rebuilt) == result.balances
    # The net payments are the gross table netted pair by pair.
    for a in range(n):
        for b in range(n):
            net = sum(p.amount for p in result.payments if (p.payer, p.payee) == (a, b))
            assert net == max(0, result.gross[a][b] - result.gross[b][a])
    pairs = [frozenset((p.payer, p.payee)) for p in result.payments]
    assert len(pairs) == len(set(pairs))
    assert list(result.payments) == sorted(result.payments)
    # The winner never pays; a dead hand (score 0) never receives from the winner.
    assert all(p.payer != winner for p in result.payments)
    for seat, score in enumerate(result.scores):
        if score == 0:
            assert all(p.payee != seat for p in result.payments if p.payer == winner)
    # The winner receives his score from everyone else, at least once over.
    others = n - 1 - (kwargs["dreamer"] is not None)
    assert result.balances[winner] >= others * result.scores[winner]
    # The dreamer is out of it.
    if kwargs["dreamer"] is not None:
        assert result.balances[kwargs["dreamer"]] == 0


@given(hands())
def test_remise_property(case: tuple[list[int], dict[str, int | None], SettlementRules]) -> None:
    scores, kwargs, rules = case
    kwargs = {**kwargs, "winner": None, "discarder": None}
    result = settle(scores, rules=rules, **kwargs)  # type: ignore[arg-type]
    assert result.payments == ()
    assert set(result.balances) == {0}


@given(st.integers(-(10**6), 10**6), st.integers(1, 1000))
def test_round_score_is_nearest_multiple(score: int, to: int) -> None:
    r = round_score(score, to)
    assert r % to == 0
    assert -to < 2 * (r - score) <= to


def test_errors_are_mahjong_errors() -> None:
    assert issubclass(InvalidWin, MahjongError)
