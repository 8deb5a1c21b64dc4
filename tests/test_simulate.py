"""The simulation runner: hands fixed by (seed, index), seats rotating, the same summary
whatever the number of processes, and the summary's statistics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats.gamelog import read_hand_log, verify_hand_log
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.simulate import (
    Z95,
    SimulationSpec,
    _mean_ci,
    _wilson,
    hand_seed,
    play_hand,
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
    run = run_simulation(spec, 12)
    alone = [play_hand(spec, rules, i) for i in (7, 3, 11)]
    assert alone == [run[7], run[3], run[11]]
    other = run_simulation(SimulationSpec("nts-2016", MIXED, seed=12), 12)
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
    outcomes = run_simulation(spec, 40)
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
    outcomes = run_simulation(spec, 6, jobs=2)
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
    with pytest.raises(ValueError, match="hands must be at least 1"):
        run_simulation(SimulationSpec("nts-2016", MIXED), 0)
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        run_simulation(SimulationSpec("nts-2016", MIXED), 5, jobs=0)
