"""The simulation runner: hands and matches fixed by (seed, index), seats rotating, work
streamed in bounded chunks, the same summary whatever the number of processes, and the
summary's statistics from exact sums."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.gamelog import read_hand_log, verify_hand_log
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim import runner
from mahjong_nts.sim import simulate as sim
from mahjong_nts.sim.simulate import (
    MAX_HANDS,
    Z95,
    MatchOutcome,
    SimulationSpec,
    _mean_ci,
    _Moments,
    _wilson,
    hand_seed,
    play_hand,
    play_match,
    round_wind_of,
    run_simulation,
    seat_entries,
    summarize,
    validate_bots,
)

MIXED = ("heuristic", "random", "random", "random")


def test_seats_rotate_so_each_entry_sits_everywhere() -> None:
    # entry j sits at seat (j + i) % n in hand i
    assert seat_entries(0, 4) == (0, 1, 2, 3)
    assert seat_entries(1, 4) == (3, 0, 1, 2)  # entry 0 is South, entry 3 East
    assert seat_entries(5, 3) == (1, 2, 0)
    for n in (3, 4):
        for j in range(n):
            assert {seat_entries(i, n).index(j) for i in range(n)} == set(range(n))


def test_round_wind_follows_the_table_winds() -> None:
    four = load_ruleset("nts-2016")
    assert [round_wind_of(i, four) for i in (0, 3, 4, 8, 12, 16)] == [
        Tile.EAST,
        Tile.EAST,
        Tile.SOUTH,
        Tile.WEST,
        Tile.NORTH,
        Tile.EAST,
    ]
    three = load_ruleset("nts-2016+three-players")  # winds E S W only
    assert [round_wind_of(i, three) for i in (0, 3, 6, 9)] == [
        Tile.EAST,
        Tile.SOUTH,
        Tile.WEST,
        Tile.EAST,
    ]


def test_hand_seeds_differ_by_seed_and_index() -> None:
    seeds = {hand_seed(s, i) for s in range(3) for i in range(50)}
    assert len(seeds) == 150
    assert all(0 <= x < 2**256 for x in seeds)


def test_a_hand_depends_only_on_seed_and_index() -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=11)
    run = list(run_simulation(spec, 12))
    alone = [play_hand(spec, rules, i) for i in (7, 3, 11)]
    assert alone == [run[7], run[3], run[11]]
    other = list(run_simulation(SimulationSpec("nts-2016", MIXED, seed=12), 12))
    assert other != run


@pytest.mark.parametrize("spec_name", ["nts-2016", "nmb-2009+flowers+three-players"])
def test_same_summary_for_one_and_two_jobs(spec_name: str) -> None:
    rules = load_ruleset(spec_name)
    bots = ("heuristic",) + ("random",) * (rules.table.players - 1)
    spec = SimulationSpec(spec_name, bots, seed=5)
    one = summarize(spec, rules, run_simulation(spec, 30, jobs=1))
    two = summarize(spec, rules, run_simulation(spec, 30, jobs=2))
    assert one == two
    assert one["hands"] == 30 and one["seats"] == rules.table.players


def test_summary_is_consistent() -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", ("heuristic", "heuristic", "random", "random"), seed=2)
    outcomes = list(run_simulation(spec, 40))
    s = summarize(spec, rules, outcomes)
    # settlements sum to zero, so the entries' mean balances do too
    assert math.isclose(sum(e["mean_balance"] for e in s["entries"]), 0, abs_tol=1e-9)
    assert s["wins"]["count"] + s["remise"]["count"] == 40
    assert s["wins"]["count"] == sum(e["wins"] for e in s["entries"])
    assert s["wins"]["self_drawn"] + s["wins"]["claimed"] == s["wins"]["count"]
    # a bot with two seats: wins added, balance the mean of its two entries
    h = s["by_bot"]["heuristic"]
    assert h["seats"] == 2
    assert h["wins"] == s["entries"][0]["wins"] + s["entries"][1]["wins"]
    assert h["win_rate"] == h["wins"] / 80
    assert math.isclose(
        h["mean_balance"],
        (s["entries"][0]["mean_balance"] + s["entries"][1]["mean_balance"]) / 2,
    )
    (m,) = s["margins"]
    assert (m["bot"], m["versus"]) == ("heuristic", "random")
    assert math.isclose(
        m["mean_balance_diff"], h["mean_balance"] - s["by_bot"]["random"]["mean_balance"]
    )
    lo, hi = m["mean_balance_diff_ci"]
    assert lo <= m["mean_balance_diff"] <= hi
    # every winning hand counts "mahjong" or is a limit hand
    limit_wins = sum(v["count"] for v in s["limit_hands"].values())
    assert s["items"].get("mahjong", {"count": 0})["count"] + limit_wins >= s["wins"]["count"]
    assert s["hand_length"]["decisions"] > s["hand_length"]["draws"] > 0


def test_wilson_interval_known_values() -> None:
    # 0 of 10: upper bound z^2 / (n + z^2)
    lo, hi = _wilson(0, 10)
    assert lo == 0 and math.isclose(hi, Z95**2 / (10 + Z95**2))
    # symmetric round one half
    lo, hi = _wilson(50, 100)
    assert math.isclose(lo + hi, 1.0)
    assert 0.40 < lo < 0.41  # 0.4038 (Wilson, z = 1.96)


def test_mean_interval_normal_approximation() -> None:
    mean, (lo, hi) = _mean_ci([1.0, 2.0, 3.0, 4.0])
    sd = math.sqrt(((1.5**2) * 2 + (0.5**2) * 2) / 3)  # sample sd of 1..4
    assert mean == 2.5
    assert math.isclose(hi - mean, Z95 * sd / 2) and math.isclose(mean - lo, hi - mean)


def test_logs_replay_from_the_hand_seed(tmp_path: Path) -> None:
    # the log says how to rebuild the hand (its result the seed, its header the round
    # wind); replaying it
    # with the logged actions must give the logged events and result
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=4, log_dir=str(tmp_path))
    outcomes = list(run_simulation(spec, 6, jobs=2))
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"hand-{i:06d}.jsonl" for i in range(6)]
    for o in outcomes:
        log = read_hand_log(tmp_path / f"hand-{o.index:06d}.jsonl")
        assert log.result is not None and log.result.seed == hand_seed(4, o.index)
        assert log.header.round_wind == round_wind_of(o.index, rules).token
        assert log.header.players == [MIXED[e] for e in o.seats]
        verify_hand_log(log)


def test_bad_bot_lists() -> None:
    four = load_ruleset("nts-2016")
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        validate_bots(["heuristic", "genius", "random", "random"], four)
    with pytest.raises(ValueError, match="plays 4 seats a hand: give 4 bots, not 3"):
        validate_bots(["random"] * 3, four)
    assert validate_bots(["random"] * 4, load_ruleset("nts-2016+five-players")) == ("random",) * 4
    with pytest.raises(ValueError, match="hands must be from 1 to 1000000, not 0"):
        run_simulation(SimulationSpec("nts-2016", MIXED), 0)
    with pytest.raises(ValueError, match="hands must be from 1 to 1000000, not 1000001"):
        run_simulation(SimulationSpec("nts-2016", MIXED), MAX_HANDS + 1)
    with pytest.raises(ValueError, match="matches must be from 1 to 100000, not 0"):
        run_simulation(SimulationSpec("nts-2016", MIXED, matches=True), 0)
    with pytest.raises(ValueError, match="plays 5 players a match: give 5 bots, not 4"):
        run_simulation(SimulationSpec("nts-2016+five-players", MIXED, matches=True), 1)
    with pytest.raises(ValueError, match="a seed is a whole number from 0 to 2"):
        SimulationSpec("nts-2016", MIXED, seed=2**256)
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        run_simulation(SimulationSpec("nts-2016", MIXED), 5, jobs=0)


# --------------------------------------------------------------------------- exact sums


def test_moments_are_exact_and_do_not_depend_on_the_order() -> None:
    values = [
        Fraction(1, 3),
        -7,
        Fraction(5, 2),
        10**15,
        -(10**15),
        Fraction(-1, 3),
        4,
        0,
    ]
    results = set()
    for seed in range(20):
        shuffled = values[:]
        random.Random(seed).shuffle(shuffled)
        acc = _Moments()
        for v in shuffled:
            acc.add(v)
        assert (acc.n, acc.s, acc.q) == (8, Fraction(-1, 2), sum(v * v for v in values))
        mean, ci = acc.mean_ci()
        results.add((mean, tuple(ci)))
    assert len(results) == 1  # a float running sum would depend on the order here
    # by hand, with a scale: the values 1, 2, 3, 4 halved
    acc = _Moments()
    for v in (1, 2, 3, 4):
        acc.add(v)
    mean, (_, hi) = acc.mean_ci(scale=2)  # the values 0.5, 1, 1.5, 2
    sd = math.sqrt((0.75**2 * 2 + 0.25**2 * 2) / 3)
    assert mean == 1.25 and math.isclose(hi - mean, Z95 * sd / 2)


# --------------------------------------------------------------------------- streaming


def test_outcomes_are_streamed_with_a_bounded_number_of_chunks_ahead() -> None:
    spec = SimulationSpec("nts-2016", ("random",) * 4, seed=1)
    done: list[int] = []
    stream = run_simulation(spec, 400, jobs=2, progress=done.append)
    assert not isinstance(stream, list)
    first = next(stream)
    assert first.index == 0
    # 400 hands over 2 processes: chunks of 13 hands, at most 3 chunks a process ahead
    assert len(done) <= 6 and sum(done) <= 6 * 13
    stream.close()  # an abandoned run stops its pool


def test_jobs_are_capped_to_the_processors(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object) -> None:
        raise AssertionError("a process pool with one processor")

    monkeypatch.setattr(sim, "available_cpus", lambda: 1)
    monkeypatch.setattr(runner, "_Pool", no_pool)
    spec = SimulationSpec("nts-2016", ("random",) * 4, seed=1)
    assert len(list(run_simulation(spec, 12, jobs=100_000))) == 12


def test_summary_from_a_stream_equals_the_summary_of_the_list() -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", ("heuristic", "random", "heuristic", "random"), seed=3)
    listed = summarize(spec, rules, list(run_simulation(spec, 20)))
    assert summarize(spec, rules, run_simulation(spec, 20, jobs=2)) == listed


# --------------------------------------------------------------------------- matches


@pytest.mark.parametrize(
    ("spec_name", "hands", "green", "played"),
    [
        # 4 rounds of 4 hands, the winds move on after every hand (NTS 2016, 1.8.5, 1.9)
        ("nts-2016", 16, 0, 16),
        # 3 rounds of 3 hands, each followed by its green-dragon hand
        ("nts-2016+three-players", 12, 3, 12),
        # 4 rounds of 5 hands and the green-dragon round of 5; each player dreams 5 times
        ("nts-2016+five-players", 25, 5, 20),
    ],
)
def test_whole_matches(spec_name: str, hands: int, green: int, played: int) -> None:
    rules = load_ruleset(spec_name)
    players = rules.table.players + (1 if rules.table.dreamer else 0)
    bots = ("heuristic",) + ("random",) * (players - 1)
    spec = SimulationSpec(spec_name, bots, seed=7, matches=True)
    m = play_match(spec, rules, 1)
    assert isinstance(m, MatchOutcome) and not m.cut
    assert len(m.hands) == hands and sum(h.green for h in m.hands) == green
    # entry j is player (j + 1) % players in match 1
    assert m.players == seat_entries(1, players)
    for entry in range(players):
        assert sum(entry in h.seats for h in m.hands) == played
        assert m.balances[entry] == sum(h.balances[entry] for h in m.hands)
    assert sum(m.balances) == 0
    for h in m.hands:
        assert len(h.seats) == rules.table.players and sum(h.balances) == 0
        dreamers = set(range(players)) - set(h.seats)
        assert all(h.balances[e] == 0 for e in dreamers)
    s = summarize(spec, rules, [m])
    assert s["unit"] == "match" and s["matches"] == 1 and s["hands"] == hands
    assert s["green_dragon_hands"] == green and s["cut_matches"] == 0
    assert [e["hands"] for e in s["entries"]] == [played] * players
    assert s["entries"][0]["mean_balance"] == m.balances[0]


def test_a_match_depends_only_on_seed_and_index() -> None:
    rules = load_ruleset("nts-2016+three-players")
    spec = SimulationSpec("nts-2016+three-players", ("random",) * 3, seed=2, matches=True)
    run = list(run_simulation(spec, 3, jobs=2))
    assert [m.index for m in run] == [0, 1, 2]
    assert play_match(spec, rules, 2) == run[2]


def test_same_match_summary_for_one_and_two_jobs() -> None:
    spec_name = "nts-2016+five-players"
    rules = load_ruleset(spec_name)
    bots = ("heuristic", "random", "random", "heuristic", "random")
    spec = SimulationSpec(spec_name, bots, matches=True)
    one = summarize(spec, rules, run_simulation(spec, 4, jobs=1))
    two = summarize(spec, rules, run_simulation(spec, 4, jobs=2))
    assert one == two and one["matches"] == 4 and one["hands"] == 100


def test_a_match_that_does_not_end_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MATCH_HAND_LIMIT", 3)
    rules = load_ruleset("nmb-2009")
    spec = SimulationSpec("nmb-2009", ("random",) * 4, seed=1, matches=True)
    m = play_match(spec, rules, 0)
    assert m.cut and len(m.hands) == 3
    s = summarize(spec, rules, [m])
    assert s["cut_matches"] == 1 and s["hands"] == 3


def test_match_logs_carry_the_hand_setup(tmp_path: Path) -> None:
    rules = load_ruleset("nts-2016+three-players")
    spec = SimulationSpec(
        "nts-2016+three-players", ("random",) * 3, seed=4, log_dir=str(tmp_path), matches=True
    )
    (m,) = run_simulation(spec, 1)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"match-000000-hand-{k:03d}.jsonl" for k in range(1, 13)]
    winds = []
    for name, hand in zip(names, m.hands, strict=True):
        log = read_hand_log(tmp_path / name)
        verify_hand_log(log)
        assert log.header.players == [spec.bots[e] for e in hand.seats]
        assert log.header.hand is not None
        winds.append(log.header.round_wind)
    assert winds == ["E"] * 3 + ["F"] + ["S"] * 3 + ["F"] + ["W"] * 3 + ["F"]
    assert rules.table.green_dragon == "hand_per_round"


def test_workers_use_the_rules_the_parent_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 8: pool workers read the house-rule file again (a file changed mid-run gave
    other results with --jobs; one deleted broke the pool).  Now the parent's values
    are passed on: with the file gone, two jobs give what one job gives."""
    house = tmp_path / "club.toml"
    house.write_text('base = "nts-2016"\nname = "club"\n[points]\nmahjong = 30\n')
    rules = load_ruleset(str(house))
    house.unlink()
    monkeypatch.setattr(sim, "available_cpus", lambda: 2)
    spec = sim.SimulationSpec(ruleset=str(house), bots=["random"] * 4, seed=5)
    one = list(sim.run_simulation(spec, 40, 1, rules=rules))
    two = list(sim.run_simulation(spec, 40, 2, rules=rules))
    assert one == two and len(one) == 40
