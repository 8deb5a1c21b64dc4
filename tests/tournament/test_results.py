"""Results and standings: table points, tie-breaks and penalties worked out by hand; the
zero-sum check; standings consistent with the results (properties); the EMA rows."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.tournament import (
    InvalidPlayer,
    InvalidResult,
    InvalidSettings,
    Penalty,
    Player,
    Ranking,
    Roster,
    Round,
    Standing,
    TablePoints,
    TableResult,
    check_results,
    ema_rows,
    format_points,
    plan,
    standings,
)

# --------------------------------------------------------------------------- golden

# 8 players, 2 rounds; the finals of each table sum to 0 (the settlements' balances)
GOLDEN = [
    TableResult(1, 1, (1, 2, 3, 4), (40, 10, -20, -30)),
    TableResult(1, 2, (5, 6, 7, 8), (25, 25, -10, -40)),  # 5 and 6 tie for first
    TableResult(2, 1, (1, 5, 3, 7), (-10, 30, 0, -20)),
    TableResult(2, 2, (2, 6, 4, 8), (0, 0, 0, 0)),  # all four tie
]


def _order(table: tuple[Standing, ...]) -> list[int]:
    return [s.player for s in table]


def test_table_points_split_ties_by_hand() -> None:
    # 4/2/1/0; ties split the points of the places they hold:
    # player 1: 4 + 1 = 5              score 40 - 10 = 30
    # player 2: 2 + 7/4 = 3.75         score 10
    # player 3: 1 + 2 = 3              score -20
    # player 4: 0 + 7/4 = 1.75         score -30
    # player 5: (4+2)/2 + 4 = 7        score 55
    # player 6: 3 + 7/4 = 4.75         score 25
    # player 7: 1 + 0 = 1              score -30
    # player 8: 0 + 7/4 = 1.75         score -40
    table = standings(GOLDEN)
    points = {s.player: s.table_points for s in table}
    assert points == {
        1: F(5),
        2: F(15, 4),
        3: F(3),
        4: F(7, 4),
        5: F(7),
        6: F(19, 4),
        7: F(1),
        8: F(7, 4),
    }
    assert {s.player: s.score for s in table} == {
        1: 30,
        2: 10,
        3: -20,
        4: -30,
        5: 55,
        6: 25,
        7: -30,
        8: -40,
    }
    # 4 and 8 both 1.75: the score decides (-30 before -40)
    assert _order(table) == [5, 1, 6, 2, 3, 4, 8, 7]
    assert [s.place for s in table] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert not any(s.shared for s in table)


def test_table_points_shared_ties_by_hand() -> None:
    # ties share the best place: round 1 table 2 gives 5 and 6 four each, round 2 table 2
    # gives all four players four
    # 1: 4 + 1 = 5; 2: 2 + 4 = 6; 3: 1 + 2 = 3; 4: 0 + 4 = 4; 5: 4 + 4 = 8;
    # 6: 4 + 4 = 8; 7: 1 + 0 = 1; 8: 0 + 4 = 4
    ranking = Ranking(points=TablePoints(ties="share"))
    table = standings(GOLDEN, ranking=ranking)
    assert {s.player: s.table_points for s in table} == {
        1: 5,
        2: 6,
        3: 3,
        4: 4,
        5: 8,
        6: 8,
        7: 1,
        8: 4,
    }
    # 5 and 6 on 8: score 55 before 25; 4 and 8 on 4: -30 before -40
    assert _order(table) == [5, 6, 2, 1, 4, 8, 3, 7]


def test_pure_score_and_a_shared_place() -> None:
    # scores: 5: 55, 1: 30, 6: 25, 2: 10, 3: -20, 4: -30, 7: -30, 8: -40; 4 and 7 are
    # level on every tie-break (no mahjongs or deal-ins given; they never met): they
    # share sixth place, and 8 is eighth
    table = standings(GOLDEN, ranking=Ranking(method="score"))
    assert _order(table) == [5, 1, 6, 2, 3, 4, 7, 8]
    assert [s.place for s in table] == [1, 2, 3, 4, 5, 6, 6, 8]
    assert [s.shared for s in table] == [False] * 5 + [True, True, False]


# three players level on score, broken head-to-head; mahjongs and deal-ins before it
H2H = [
    TableResult(1, 1, (1, 2, 3, 4), (20, 10, -10, -20)),
    TableResult(1, 2, (5, 6, 7, 8), (0, 0, 0, 0)),
    TableResult(2, 1, (1, 5, 3, 7), (-10, 10, 0, 0)),
    TableResult(2, 2, (2, 6, 4, 8), (0, 0, 0, 0)),
]


def test_head_to_head_by_hand() -> None:
    # scores: 1: 20 - 10 = 10; 2: 10 + 0 = 10; 5: 0 + 10 = 10; 6, 7, 8: 0; 3: -10;
    # 4: -20.  Among 1, 2, 5: round 1 table 1, 1 beat 2 (1: +1, 2: -1); round 2 table 1,
    # 5 beat 1 (5: +1, 1: -1): 5 (+1), 1 (0), 2 (-1).  Among 6, 7, 8 every table they
    # shared ended level: they share fourth place.
    table = standings(H2H, ranking=Ranking(method="score"))
    assert _order(table) == [5, 1, 2, 6, 7, 8, 3, 4]
    assert [s.place for s in table] == [1, 2, 3, 4, 4, 4, 7, 8]


def test_mahjongs_then_deal_ins_come_before_head_to_head() -> None:
    results = list(H2H)
    # player 2 made one mahjong in round 2 (the others none): 2 is first of the three
    results[3] = TableResult(2, 2, (2, 6, 4, 8), (0, 0, 0, 0), mahjongs=(1, 0, 0, 0))
    table = standings(results, ranking=Ranking(method="score"))
    assert _order(table)[:3] == [2, 5, 1]
    # no mahjongs; deal-ins 1: 1, 2: 1, 5: 2: fewest first, so 5 is third of the three;
    # 1 and 2 are still level, and 1 beat 2 at their table
    results = list(H2H)
    results[0] = TableResult(1, 1, (1, 2, 3, 4), (20, 10, -10, -20), deal_ins=(1, 1, 0, 0))
    results[2] = TableResult(2, 1, (1, 5, 3, 7), (-10, 10, 0, 0), deal_ins=(0, 2, 0, 0))
    table = standings(results, ranking=Ranking(method="score"))
    assert _order(table)[:3] == [1, 2, 5]
    # head-to-head first: 5 (+1), 1 (0), 2 (-1) again, whatever the deal-ins
    ranking = Ranking(method="score", tie_breaks=("head_to_head", "deal_ins"))
    assert _order(standings(results, ranking=ranking))[:3] == [5, 1, 2]


def test_penalty_comes_off_the_score_not_the_table_points() -> None:
    penalty = Penalty(5, 2, 15, "false mahjong")
    table = standings(H2H, [penalty], Ranking(method="score"))
    five = next(s for s in table if s.player == 5)
    assert (five.score, five.penalty, five.total) == (10, 15, -5)
    # 1 and 2 level on 10: 1 beat 2; 6, 7, 8 share third; 5 on -5; 3 on -10; 4 on -20
    assert _order(table) == [1, 2, 6, 7, 8, 5, 3, 4]
    assert [s.place for s in table] == [1, 2, 3, 3, 3, 6, 7, 8]
    # by table points the penalty changes only the score: 5's table points stay
    with_penalty = {s.player: s.table_points for s in standings(H2H, [penalty])}
    without = {s.player: s.table_points for s in standings(H2H)}
    assert with_penalty == without
    # round 1: four level at 0, (4 + 2 + 1 + 0) / 4; round 2: first, 4
    assert with_penalty[5] == F(7, 4) + 4


def test_award_by_hand() -> None:
    assert TablePoints.parse("4/2/1/0.5").award((30, 20, -10, -40)) == (4, 2, 1, F(1, 2))
    # three level for first with 4/2/1/0: (4 + 2 + 1) / 3 each
    assert TablePoints().award((10, 10, 10, -30)) == (F(7, 3),) * 3 + (0,)
    assert TablePoints(ties="share").award((10, 10, 10, -30)) == (4, 4, 4, 0)
    # seats in any order: the points follow the scores
    assert TablePoints().award((-40, 30, -10, 20)) == (0, 4, 1, 2)
    # a table of three and of five
    assert TablePoints().award((5, -10, 5)) == (3, 0, 3)  # (4 + 2) / 2 for the two firsts
    assert TablePoints().award((1, 2, 3, 4, -10)) == (0, 1, 2, 4, 0)
    assert format_points(F(7, 3)) == "2.33"


def test_zero_sum_check() -> None:
    res = TableResult(3, 2, (1, 2, 3, 4), (10, 10, 10, -20))
    with pytest.raises(
        InvalidResult, match=r"round 3, table 2: the scores sum to 10, not 0 \(10 too many\)"
    ):
        res.check_sum()
    with pytest.raises(InvalidResult, match=r"sum to 10, not 100000 \(99990 too few\)"):
        res.check_sum(start=25000)
    with pytest.raises(InvalidResult, match="sum to 10"):
        standings([res])
    TableResult(1, 1, (1, 2, 3), (30000, 20000, 25000)).check_sum(start=25000)


def test_result_errors() -> None:
    with pytest.raises(InvalidResult, match="round 1, table 1: player 2 twice"):
        TableResult(1, 1, (1, 2, 2, 4), (0, 0, 0, 0))
    with pytest.raises(InvalidResult, match="round 1, table 1: 3 scores for 4 players"):
        TableResult(1, 1, (1, 2, 3, 4), (0, 0, 0))
    with pytest.raises(InvalidResult, match="player 3's score"):
        TableResult(1, 1, (1, 2, 3, 4), (0, 0, "x", 0))  # type: ignore[arg-type]
    with pytest.raises(
        InvalidResult, match="round 1, table 1, player 2: mahjongs: a whole number from 0 to 1000"
    ):
        TableResult(1, 1, (1, 2, 3, 4), (0, 0, 0, 0), mahjongs=(0, -1, 0, 0))
    with pytest.raises(InvalidResult, match="round 1: player 4 at table 1 and at table 2"):
        check_results(
            [
                TableResult(1, 1, (1, 2, 3, 4), (0, 0, 0, 0)),
                TableResult(1, 2, (4, 5, 6, 7), (0, 0, 0, 0)),
            ]
        )
    with pytest.raises(InvalidResult, match="round 1, table 1: entered twice"):
        res = TableResult(1, 1, (1, 2, 3, 4), (0, 0, 0, 0))
        check_results([res, res])
    seating = [Round(1, ((1, 2, 3, 4), (5, 6, 7, 8)))]
    with pytest.raises(InvalidResult, match="players 1, 2, 3, 5, but 1, 2, 3, 4 were seated"):
        check_results([TableResult(1, 1, (1, 2, 3, 5), (0, 0, 0, 0))], seating)
    with pytest.raises(InvalidResult, match="round 1 has no table 3"):
        check_results([TableResult(1, 3, (1, 2, 3, 5), (0, 0, 0, 0))], seating)
    roster = Roster.numbered(4)
    with pytest.raises(InvalidResult, match="no player number 5"):
        check_results([TableResult(1, 1, (1, 2, 3, 5), (0, 0, 0, 0))], roster=roster)
    with pytest.raises(InvalidResult, match="give the reason"):
        Penalty(1, 1, 10, " ")
    with pytest.raises(InvalidSettings, match="give 4 values"):
        TablePoints(four=(F(4), F(2), F(1)))
    with pytest.raises(InvalidSettings, match="in hundredths at the finest"):
        TablePoints(four=(F(4), F(2), F(1), F(1, 3)))  # a third of a point
    with pytest.raises(InvalidSettings, match="in hundredths at the finest"):
        TablePoints.parse("4/2/1/0.001")
    with pytest.raises(InvalidSettings, match="'x' is not a number"):
        TablePoints.parse("4/2/1/x")
    with pytest.raises(InvalidSettings, match="a higher place never gets fewer"):
        TablePoints.parse("4/2/0/1")
    with pytest.raises(InvalidSettings, match="tie-break 'most'"):
        Ranking(tie_breaks=("most",))


def test_players() -> None:
    with pytest.raises(InvalidPlayer, match="player number 2 twice"):
        Roster((Player(2, "Anna"), Player(2, "Bert")))
    with pytest.raises(InvalidPlayer, match="not markup"):
        Player(1, "<script>x</script>")
    with pytest.raises(InvalidPlayer, match="EMA number '04010001' twice"):
        Roster((Player(1, "A", ema="04010001"), Player(2, "B", ema="04010001")))
    with pytest.raises(InvalidPlayer, match="player 1: empty"):
        Player(1, "  ")
    late = Player(3, "Cor", first_round=2, last_round=4, absent=frozenset({3}))
    assert [late.present_in(r) for r in range(1, 6)] == [False, True, False, True, False]
    roster = Roster((Player(1, "A"), late, Player(2, "B", last_round=1)))
    assert roster.present(1) == (1, 2)
    assert roster.present(2) == (1, 3)


def test_ema_rows() -> None:
    roster = Roster(
        tuple(
            Player(i, f"First{i}", f"Last{i}", club=f"Club{i % 2}", ema=f"0401{i:04d}")
            for i in range(1, 9)
        )
    )
    rows = ema_rows(standings(GOLDEN), roster, country={5: "NL"})
    assert rows[0] == (
        "Place",
        "First name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "Country/club",
    )
    assert rows[1] == ("1", "First5", "Last5", "04010005", "7", "55", "NL")
    assert rows[4] == ("4", "First2", "Last2", "04010002", "3.75", "10", "Club0")
    assert len(rows) == 9


# --------------------------------------------------------------------------- properties


@st.composite
def played(draw: st.DrawFn) -> tuple[list[TableResult], list[Penalty]]:
    """A seated tournament with random zero-sum finals, some ties, some penalties."""
    n = draw(st.integers(4, 24))
    rounds = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32))
    results = []
    for r in plan(n, rounds, rng=random.Random(seed)):
        for k, table in enumerate(r.tables, 1):
            finals = [draw(st.integers(-5, 5)) * 10 for _ in table[:-1]]
            finals.append(-sum(finals))
            mj = tuple(draw(st.integers(0, 3)) for _ in table)
            results.append(TableResult(r.number, k, table, tuple(finals), mahjongs=mj))
    penalties = [
        Penalty(draw(st.integers(1, n)), 1, draw(st.integers(1, 30)), "late")
        for _ in range(draw(st.integers(0, 3)))
    ]
    return results, penalties


@settings(max_examples=40)
@given(played(), st.sampled_from(["split", "share"]), st.sampled_from(["table_points", "score"]))
def test_standings_consistent_with_results(
    case: tuple[list[TableResult], list[Penalty]], ties: str, method: str
) -> None:
    results, penalties = case
    ranking = Ranking(method=method, points=TablePoints(ties=ties))  # type: ignore[arg-type]
    table = standings(results, penalties, ranking)
    players = {p for res in results for p in res.players}
    assert sorted(s.player for s in table) == sorted(players)
    for s in table:
        mine = [(res, res.players.index(s.player)) for res in results if s.player in res.players]
        assert s.score == sum(res.finals[i] for res, i in mine)
        assert s.rounds == len(mine)
        assert s.penalty == sum(p.points for p in penalties if p.player == s.player)
        assert s.mahjongs == sum(res.mahjongs[i] for res, i in mine)
    # zero-sum: the scores (before penalties) add up to nothing
    assert sum(s.score for s in table) == 0
    # split ties hand out exactly the points of the places
    if ties == "split":
        given_out = sum(sum(ranking.points.for_size(len(res.players)), F(0)) for res in results)
        assert sum(s.table_points for s in table) == given_out
    # ordered by the ranking's first keys; places never go down, shared when level
    keys = [(-s.table_points, -s.total) if method == "table_points" else (-s.total,) for s in table]
    assert keys == sorted(keys)
    for i, s in enumerate(table):
        assert s.place <= i + 1
        level_before = i > 0 and table[i - 1].place == s.place
        level_after = i + 1 < len(table) and table[i + 1].place == s.place
        assert s.shared == (level_before or level_after)
        if i:
            assert s.place >= table[i - 1].place
            if s.place != table[i - 1].place:
                assert s.place == i + 1


@settings(max_examples=30)
@given(st.lists(st.integers(-1000, 1000), min_size=4, max_size=4))
def test_zero_sum_property(finals: list[int]) -> None:
    res = TableResult(1, 1, (1, 2, 3, 4), tuple(finals))
    if sum(finals) == 0:
        res.check_sum()
    else:
        with pytest.raises(InvalidResult, match=f"sum to {sum(finals)}, not 0"):
            res.check_sum()
