"""Seating: every present player once a round, allowed table sizes, the same plan for a
seed, the quality bars of issue 11, the lower bound, swaps and the files."""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.tournament import (
    DayPlans,
    InvalidSchedule,
    InvalidSeating,
    InvalidSettings,
    Round,
    SeatingOptions,
    club_meetings,
    next_round,
    plan,
    plan_rounds,
    read_clubs,
    read_schedule,
    repeat_lower_bound,
    repeat_pairs,
    repeats,
    seat_round,
    swap,
    table_sizes,
    wind_counts,
)


def _pairs_by_hand(rounds: list[Round]) -> int:
    """Repeat meetings counted the long way: every pair, every round."""
    everyone = sorted({p for r in rounds for t in r.tables for p in t})
    total = 0
    for a, b in combinations(everyone, 2):
        m = sum(1 for r in rounds for t in r.tables if a in t and b in t)
        total += max(0, m - 1)
    return total


def _rngs(seed: int, number: int) -> dict[str, random.Random]:
    """``next_round``'s generators as the store makes them from a tournament's seed."""
    return {
        "plan_rng": random.Random(f"{seed}:plan"),
        "round_rng": random.Random(f"{seed}:{number}"),
    }


def _east_spread(rounds: tuple[Round, ...]) -> int:
    east = [c[0] for c in wind_counts(rounds).values()]
    return max(east) - min(east)


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    ("players", "fives", "sizes"),
    [
        (16, True, (4, 4, 4, 4)),
        (17, True, (4, 4, 4, 5)),  # 4k + 1: one table of five
        (17, False, (4, 4, 3, 3, 3)),  # or three of three
        (18, True, (4, 4, 4, 3, 3)),  # 4k + 2: two of three
        (19, True, (4, 4, 4, 4, 3)),  # 4k + 3: one of three
        (5, True, (5,)),
        (6, True, (3, 3)),
        (7, False, (4, 3)),
        (9, False, (3, 3, 3)),
        (3, True, (3,)),
    ],
)
def test_table_sizes(players: int, fives: bool, sizes: tuple[int, ...]) -> None:
    assert table_sizes(players, fives) == sizes
    assert sum(sizes) == players


@pytest.mark.parametrize(("players", "fives"), [(2, True), (5, False), (1, True), (0, True)])
def test_table_sizes_impossible(players: int, fives: bool) -> None:
    with pytest.raises(InvalidSeating, match="cannot be seated"):
        table_sizes(players, fives)


# --------------------------------------------------------------------------- properties


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[list[int]], bool, int]:
    """Players 1..n, some absent in each round (late, dropped), at least 9 present."""
    n = draw(st.integers(9, 36))
    rounds = draw(st.integers(1, 4))
    present = []
    for _ in range(rounds):
        absent = draw(st.sets(st.integers(1, n), max_size=n - 9))
        present.append([p for p in range(1, n + 1) if p not in absent])
    return present, draw(st.booleans()), draw(st.integers(0, 2**64))


@settings(max_examples=25)
@given(tournaments())
def test_every_present_player_once_a_round(case: tuple[list[list[int]], bool, int]) -> None:
    present, fives, seed = case
    rounds = plan_rounds(present, (), SeatingOptions(fives=fives), random.Random(seed))
    assert [r.number for r in rounds] == list(range(1, len(present) + 1))
    for r, players in zip(rounds, present, strict=True):
        seated = [p for t in r.tables for p in t]
        assert sorted(seated) == sorted(players)  # each exactly once, nobody else
        assert sorted(len(t) for t in r.tables) == sorted(table_sizes(len(players), fives))
    # the same seed gives the same plan
    again = plan_rounds(present, (), SeatingOptions(fives=fives), random.Random(seed))
    assert again == rounds
    assert repeats(rounds) == _pairs_by_hand(list(rounds))


@settings(max_examples=15)
@given(st.integers(8, 30), st.integers(2, 4), st.integers(0, 2**32))
def test_round_by_round_keeps_the_history(n: int, count: int, seed: int) -> None:
    rng = random.Random(seed)
    history: list[Round] = []
    for k in range(1, count + 1):
        present = [p for p in range(1, n + 1) if (p + k) % 7 != 0]  # one in 7 sits out
        r = seat_round(present, history, rng=rng)
        assert r.number == k
        assert sorted(r.players) == sorted(present)
        history.append(r)
    # the first rounds were not changed by the later ones
    assert history[0] == seat_round(
        [p for p in range(1, n + 1) if (p + 1) % 7 != 0], [], rng=random.Random(seed)
    )


# --------------------------------------------------------------------------- quality bars


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_40_players_7_rounds_without_a_repeat(seed: int) -> None:
    rounds = plan(40, 7, rng=random.Random(seed))
    assert repeats(rounds) == 0
    assert _east_spread(rounds) <= 1  # 70 East seats for 40 players: 1 or 2 each


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_36_players_8_rounds_at_the_lower_bound(seed: int) -> None:
    bound = repeat_lower_bound(36, 8)
    assert bound == 0  # 24 meetings each among 35 others; 9 tables >= 4 seats
    rounds = plan(36, 8, rng=random.Random(seed))
    assert repeats(rounds) == bound
    east = [c[0] for c in wind_counts(rounds).values()]
    assert east == [2] * 36  # 72 East seats, two each


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_36_players_round_by_round(seed: int) -> None:
    """Seated a round at a time, as the organiser does on the day (``next_round``, the
    players of every round known): as good as the plan made at once: no repeat meeting
    (the bound is 0) and 72 East seats, two for everyone."""
    day = [list(range(1, 37))] * 8
    history: list[Round] = []
    for _ in range(8):
        history.append(next_round(day, history, **_rngs(seed, len(history) + 1)))
    assert repeats(history) == 0
    assert [c[0] for c in wind_counts(history).values()] == [2] * 36


def test_next_round_follows_the_plan_until_the_day_leaves_it() -> None:
    """While the rounds played are the plan's, the next round is the plan's; once the
    organiser swapped two players (the day left the plan) the round is seated alone
    against what was played, every present player once, and the same way again."""
    day = [list(range(1, 21))] * 4
    whole = plan_rounds(day, (), None, random.Random("5:plan"))
    one = next_round(day, [], **_rngs(5, 1))
    assert one == whole[0]
    assert next_round(day, [one], **_rngs(5, 2)) == whole[1]
    moved = swap(one, one.tables[0][0], one.tables[1][0]).round
    other = next_round(day, [moved], **_rngs(5, 2))
    assert sorted(other.players) == list(range(1, 21)) and other.number == 2
    assert other == seat_round(day[1], [moved], None, random.Random("5:2"))
    assert other == next_round(day, [moved], **_rngs(5, 2))
    # a later round too small to seat (everyone else gone) does not stop this one
    short = [list(range(1, 21)), list(range(1, 3))]
    assert sorted(next_round(short, [], **_rngs(5, 1)).players) == list(range(1, 21))
    with pytest.raises(InvalidSettings, match="round 3: the day has 2 rounds"):
        next_round(short, [one, one], **_rngs(5, 3))


class _CountingRandom:
    """``random.Random`` as ``DayPlans`` makes it, counting how often a plan is made."""

    def __init__(self) -> None:
        self.seeds: list[str | int] = []

    def __call__(self, seed: str | int) -> random.Random:
        self.seeds.append(seed)
        return random.Random(seed)


def _day_by_clicks(
    day: list[list[int]], seed: int, plans: DayPlans | None, make: _CountingRandom
) -> list[Round]:
    """Every round of ``day`` seated by its own click, with the plan remembered in
    ``plans`` or (None) made afresh at every click as before."""
    history: list[Round] = []
    for k in range(1, len(day) + 1):
        if plans is None:
            rngs = _rngs(seed, k)
        else:
            rngs = {
                "day_plan": lambda: plans.plan(day, None, f"{seed}:plan", make),
                "round_rng": random.Random(f"{seed}:{k}"),
            }
        history.append(next_round(day, history, **rngs))  # type: ignore[arg-type]
    return history


def test_a_remembered_day_plan_seats_as_a_fresh_one() -> None:
    """Eight rounds seated by eight clicks: with the plan remembered, the same seatings as
    with the plan made afresh at every click, and the plan made once, not eight times."""
    day = [list(range(1, 25))] * 8
    make = _CountingRandom()
    plans = DayPlans()
    cached = _day_by_clicks(day, 7, plans, make)
    assert cached == _day_by_clicks(day, 7, None, make)
    assert make.seeds == ["7:plan"] and len(plans) == 1
    assert cached[:8] == list(plan_rounds(day, (), None, random.Random("7:plan")))


def test_a_changed_day_plans_afresh() -> None:
    """A late arrival (the rounds' players change), another seed or other options find no
    remembered plan: the day is planned again, and seated as without the cache."""
    day = [list(range(1, 21))] * 4
    make = _CountingRandom()
    plans = DayPlans()
    first = plans.plan(day, None, "5:plan", make)
    assert plans.plan(day, None, "5:plan", make) is first and make.seeds == ["5:plan"]
    late = [list(range(1, 21))] * 2 + [list(range(1, 25))] * 2  # four come for round 3
    other = plans.plan(late, None, "5:plan", make)
    assert other == plan_rounds(late, (), None, random.Random("5:plan"))
    assert sorted(other[2].players) == list(range(1, 25))
    plans.plan(day, None, "6:plan", make)
    plans.plan(day, SeatingOptions(clubs={1: "A", 2: "A"}), "5:plan", make)
    plans.plan(day, SeatingOptions(fives=False), "5:plan", make)  # 20 players: fives unused
    assert make.seeds == ["5:plan"] * 2 + ["6:plan", "5:plan", "5:plan"]
    # seated by clicks with the roster changed after round 2: rounds 3 and 4 as uncached
    make = _CountingRandom()
    history = _day_by_clicks(day, 5, plans, make)[:2]
    for k in (3, 4):
        fresh = next_round(late, history, **_rngs(5, k))
        remembered = next_round(
            late,
            history,
            day_plan=lambda: plans.plan(late, None, "5:plan", make),
            round_rng=random.Random(f"5:{k}"),
        )
        assert remembered == fresh
        history.append(fresh)


def test_day_plans_keeps_the_last_few() -> None:
    """At most ``size`` plans, the least recently used dropped first."""
    make = _CountingRandom()
    plans = DayPlans(size=2)
    days = {n: [list(range(1, n + 1))] * 2 for n in (8, 12, 16)}
    plans.plan(days[8], None, 1, make)
    plans.plan(days[12], None, 1, make)
    plans.plan(days[8], None, 1, make)  # 8 used last: 12 goes first
    plans.plan(days[16], None, 1, make)
    assert len(plans) == 2
    plans.plan(days[8], None, 1, make)
    assert make.seeds == [1, 1, 1]  # 8, 12, 16 made once each; 8 still kept
    plans.plan(days[12], None, 1, make)
    assert make.seeds == [1, 1, 1, 1]  # 12 was dropped: made again
    with pytest.raises(ValueError, match="at least 1 plan, not 0"):
        DayPlans(size=0)
    with pytest.raises(TypeError, match="plan_rng or day_plan, not both"):
        next_round(days[8], [], **_rngs(1, 1), day_plan=lambda: ())
    with pytest.raises(InvalidSettings, match="needs a random number generator"):
        next_round(days[8], [], round_rng=random.Random(1))


@pytest.mark.parametrize(("players", "rounds"), [(44, 8), (16, 5)])
def test_a_round_seated_alone_keeps_east_even(players: int, rounds: int) -> None:
    """Seated alone against the history (``seat_round``: after a swap, a late arrival),
    each round still gives East to the players due for it where the tables allow it
    without a repeat: 44 players over 8 rounds (88 East seats, two each) and 16 over 5
    (20 East seats: one or two each) end with East counts one apart at most (before,
    every one of 12 seeds of 44 x 8 ended two apart)."""
    for seed in range(3):
        rng = random.Random(seed)
        history: list[Round] = []
        for _ in range(rounds):
            history.append(seat_round(list(range(1, players + 1)), history, rng=rng))
        assert _east_spread(tuple(history)) <= 1, seed


def test_200_players_10_rounds_in_under_5_seconds() -> None:
    start = time.perf_counter()
    rounds = plan(200, 10, rng=random.Random(3))
    elapsed = time.perf_counter() - start
    assert elapsed < 5.0
    assert repeats(rounds) == 0
    assert _east_spread(rounds) <= 1


def test_clubs_kept_apart() -> None:
    # 40 players, 5 clubs of 8: a club fits on the 10 tables, one member each
    clubs = {p: f"club {p % 5}" for p in range(1, 41)}
    rounds = plan(40, 5, SeatingOptions(clubs=clubs), random.Random(11))
    assert club_meetings(rounds, clubs) == 0
    assert repeats(rounds) == 0
    for r in rounds:
        for t in r.tables:
            assert len({clubs[p] for p in t}) == len(t)


# --------------------------------------------------------------------------- counting


def test_repeats_counted_by_hand() -> None:
    r1 = Round(1, ((1, 2, 3, 4), (5, 6, 7, 8)))
    r2 = Round(2, ((1, 2, 5, 6), (3, 4, 7, 8)))
    r3 = Round(3, ((1, 2, 3, 4), (5, 6, 7, 8)))
    # (1,2), (3,4), (5,6), (7,8) meet three times: 2 each; (1,3), (1,4), (2,3), (2,4),
    # (5,7), (5,8), (6,7), (6,8) meet twice (rounds 1 and 3): 1 each
    assert repeats([r1, r2, r3]) == 4 * 2 + 8 * 1
    assert (1, 2, 3) in repeat_pairs([r1, r2, r3])
    assert (1, 3, 2) in repeat_pairs([r1, r2, r3])
    assert repeats([r1, r2]) == 4


@pytest.mark.parametrize(
    ("players", "rounds", "bound"),
    [
        (40, 7, 0),  # 21 meetings each among 39 others
        (36, 8, 0),  # 24 among 35
        (16, 5, 0),  # 15 among 15: exactly everyone once
        (16, 6, 24),  # 18 among 15: 3 repeats each, 16 * 3 / 2
        # counting gives 0 (3 * 6 + 10 = 28 pairs a round, 112 <= 136), but the table of
        # five of rounds 2, 3, 4 takes five players from round 1's four tables: 1 each
        (17, 4, 3),
        (8, 2, 4),  # round 2: each table of 4 from 2 groups of round 1: 2 pairs
        (10, 3, 2),  # the table of four in rounds 2 and 3 takes two of one group
        (5, 3, 20),  # one table of five: all 10 pairs again in rounds 2 and 3
    ],
)
def test_lower_bound(players: int, rounds: int, bound: int) -> None:
    assert repeat_lower_bound(players, rounds) == bound


def test_small_plans_reach_their_bound() -> None:
    for players, rounds in ((8, 2), (10, 3), (5, 3), (16, 5)):
        best = min(repeats(plan(players, rounds, rng=random.Random(s))) for s in range(3))
        assert best == repeat_lower_bound(players, rounds), (players, rounds)


# --------------------------------------------------------------------------- swaps


def test_swap_reports_the_repeats_it_causes() -> None:
    r1 = Round(1, ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)))
    r2 = Round(2, ((1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)))
    assert repeats([r1, r2]) == 0
    done = swap(r2, 5, 2, [r1])
    assert done.round.tables[:2] == ((1, 2, 9, 13), (5, 6, 10, 14))
    assert done.round.tables[2:] == r2.tables[2:]
    # 1 and 2 met in round 1, and 5 and 6: each pair now twice
    assert done.new_repeats == ((1, 2, 2), (5, 6, 2))
    assert repeats([r1, done.round]) == 2


def test_swap_errors() -> None:
    r = Round(1, ((1, 2, 3, 4), (5, 6, 7, 8)))
    with pytest.raises(InvalidSeating, match="player 9 is not seated"):
        swap(r, 1, 9)
    with pytest.raises(InvalidSeating, match="two players"):
        swap(r, 1, 1)
    same = swap(r, 1, 3)  # one table: only the seats change
    assert same.round.tables[0] == (3, 2, 1, 4)
    assert same.new_repeats == ()


# --------------------------------------------------------------------------- bad input


def test_round_refuses_a_player_in_two_places() -> None:
    with pytest.raises(InvalidSeating, match="round 2: player 4 at table 1 and at table 2"):
        Round(2, ((1, 2, 3, 4), (4, 5, 6)))
    with pytest.raises(InvalidSeating, match="table 1: 2 players"):
        Round(1, ((1, 2),))
    with pytest.raises(InvalidSeating, match="round 1, table 1"):
        Round(1, ((1, 2, 3, 0),))


def test_plan_refuses_bad_sizes() -> None:
    with pytest.raises(InvalidSettings, match="players: 4 to 400"):
        plan(3, 2, rng=random.Random(0))
    with pytest.raises(InvalidSettings, match="rounds: 1 to 20"):
        plan(8, 21, rng=random.Random(0))
    with pytest.raises(InvalidSettings, match="random number generator"):
        plan(8, 2)
    with pytest.raises(InvalidSeating, match="round 1: player 3 twice"):
        plan_rounds([[1, 2, 3, 3, 4]], rng=random.Random(0))
    with pytest.raises(InvalidSettings, match="effort"):
        SeatingOptions(effort=11)


def test_read_clubs() -> None:
    text = "player;club\n1;Hilversum\n2 ; De Groene Draak  # since 2024\n\n# none for 3\n"
    assert read_clubs(text) == {1: "Hilversum", 2: "De Groene Draak"}
    with pytest.raises(InvalidSchedule, match="line 2: player 1 twice"):
        read_clubs("1,A\n1,B")
    with pytest.raises(InvalidSchedule, match="line 1: give a player number and a club"):
        read_clubs("1,A,B")
    with pytest.raises(InvalidSchedule, match="line 2: 'x1' is not a number from 1 to 400"):
        read_clubs("1,A\nx1,B")  # a header is only the first line
    with pytest.raises(InvalidSchedule, match="not markup"):
        read_clubs("1,<b>A</b>")
    with pytest.raises(InvalidSchedule, match="larger than"):
        read_clubs("1,A\n" * 20000)


def test_read_schedule() -> None:
    text = "round,table,E,S,W,N\n1,1,1,2,3,4\n1,2,5,6,7,8\n2,2,2,6,4,8\n2,1,1,5,3,7\n"
    rounds = read_schedule(text)
    assert rounds == (
        Round(1, ((1, 2, 3, 4), (5, 6, 7, 8))),
        Round(2, ((1, 5, 3, 7), (2, 6, 4, 8))),
    )
    with pytest.raises(InvalidSchedule, match="round 1 has no table 1"):
        read_schedule("1,2,1,2,3,4")
    with pytest.raises(InvalidSchedule, match="no tables for round 1"):
        read_schedule("2,1,1,2,3,4")
    with pytest.raises(InvalidSchedule, match="player 1 at table 1 and at table 2"):
        read_schedule("1,1,1,2,3,4\n1,2,1,6,7,8")
    with pytest.raises(InvalidSchedule, match="round 1, table 1 twice"):
        read_schedule("1,1,1,2,3,4\n1,1,5,6,7,8")
    with pytest.raises(InvalidSchedule, match="3 to 5 players, not 3 fields"):
        read_schedule("1,1,1")


def test_a_schedule_then_planned_rounds() -> None:
    fixed = read_schedule(
        "\n".join(f"1,{t + 1},{4 * t + 1},{4 * t + 2},{4 * t + 3},{4 * t + 4}" for t in range(4))
    )
    later = plan_rounds([list(range(1, 17))] * 4, fixed, rng=random.Random(5))
    assert [r.number for r in later] == [2, 3, 4, 5]
    assert repeats((*fixed, *later)) == 0  # 16 players, 5 rounds: an affine plane exists


def test_errors_are_mahjong_errors_with_texts() -> None:
    with pytest.raises(MahjongError) as info:
        Round(3, ((1, 2, 3, 4), (4, 5, 6)))
    text = info.value.text
    assert text.template == "round {round}: player {player} at table {a} and at table {b}"
    assert dict(text.params) == {"round": 3, "player": 4, "a": 1, "b": 2}


def test_meetings_in_a_plan_are_pairs_of_a_table() -> None:
    rounds = plan(20, 3, rng=random.Random(2))
    met = Counter()
    for r in rounds:
        for t in r.tables:
            for a, b in combinations(sorted(t), 2):
                met[a, b] += 1
    assert sum(met.values()) == 3 * 5 * 6
