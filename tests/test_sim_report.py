"""The report's statistics (``mahjong_nts.sim.report``): counted on hands whose outcomes
are known (made by hand, and seeded hands counted again from their logs with nothing but
``json``), the fixed-bin histograms, the CSV tables and the report folder's rule."""

from __future__ import annotations

import csv
import io
import json
import os
import statistics
from collections import Counter
from pathlib import Path

import pytest

from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.report import (
    BALANCE_BINS,
    CSV_FILES,
    MAX_DISCARDS,
    REPORT_FILES,
    REPORT_FORMAT,
    SCORE_BINS,
    Histogram,
    ReportDirError,
    RunStats,
    check_report_dir,
    clear_report_dir,
    csv_text,
    merged_tables,
)
from mahjong_nts.sim.simulate import HandOutcome, SimulationSpec, run_simulation

MIXED = ("heuristic", "random", "random", "random")
WALL = "the live wall is exhausted"


def rows(stats: RunStats | list[RunStats], name: str) -> list[dict[str, str]]:
    """The rows of table ``name`` as its CSV file has them."""
    runs = stats if isinstance(stats, list) else [stats]
    (table,) = [t for t in merged_tables(runs) if t.name == name]
    return list(csv.DictReader(io.StringIO(csv_text(table))))


def hand(
    index: int,
    seats: tuple[int, ...],
    winner: int | None,
    balances: tuple[int, ...],
    *,
    self_drawn: bool = False,
    discarder: int | None = None,
    discards: int = 60,
    score: int = 0,
    items: tuple[str, ...] = (),
    limit_hand: str | None = None,
) -> HandOutcome:
    return HandOutcome(
        index=index,
        seats=seats,
        winner=winner,
        self_drawn=self_drawn,
        balances=balances,
        decisions=80,
        draws=50,
        items=items,
        limit_hand=limit_hand,
        reason="mahjong" if winner is not None else WALL,
        discards=discards,
        score=score,
        discarder=discarder,
    )


# Four hands, entries 0 (heuristic) and 1-3 (random); seats[s] is the entry at seat s.
HANDS = (
    # East (the heuristic bot) wins self-drawn
    hand(
        0,
        (0, 1, 2, 3),
        0,
        (1200, -400, -400, -400),
        self_drawn=True,
        discards=40,
        score=200,
        items=("mahjong", "self_drawn"),
    ),
    # entry 2 (random, at North) wins on the heuristic bot's discard
    hand(
        1,
        (3, 0, 1, 2),
        2,
        (-300, -100, 500, -100),
        discarder=0,
        discards=51,
        score=120,
        items=("mahjong",),
    ),
    # a remise: nobody pays
    hand(2, (2, 3, 0, 1), None, (0, 0, 0, 0), discards=72),
    # the heuristic bot (North) wins a limit hand on entry 1's discard; balances past the
    # balance bins' low end and a score past the score bins' high end
    hand(
        3,
        (1, 2, 3, 0),
        0,
        (9000, -9000, 0, 0),
        discarder=1,
        discards=250,
        score=5000,
        items=("seven_pairs",),
        limit_hand="seven_pairs",
    ),
)


@pytest.fixture(scope="module")
def known() -> RunStats:
    rules = load_ruleset("nts-2016")
    stats = RunStats("nts-2016", SimulationSpec("nts-2016", MIXED, seed=7), rules)
    for o in HANDS:
        stats.add(o)
    return stats


def test_counts_of_known_hands(known: RunStats) -> None:
    (summary,) = rows(known, "summary.csv")
    assert summary["hands"] == "4" and summary["units"] == "4"
    assert (summary["won"], summary["self_drawn"], summary["claimed"]) == ("3", "1", "2")
    assert (summary["remise"], summary["remise_rate"]) == ("1", "0.250000")
    assert summary["mean_discards"] == f"{(40 + 51 + 72 + 250) / 4:.4f}"
    assert summary["seed"] == "7" and summary["bots"] == "heuristic random random random"
    heuristic, random = rows(known, "bots.csv")
    assert heuristic["bot"] == "heuristic" and heuristic["copies"] == "1"
    assert (heuristic["hands"], heuristic["wins"], heuristic["win_rate"]) == ("4", "2", "0.500000")
    assert (heuristic["self_drawn"], heuristic["claimed"], heuristic["dealt_in"]) == ("1", "1", "1")
    own = [1200, -300, 0, 9000]
    assert heuristic["mean_balance"] == f"{statistics.mean(own):.4f}"
    assert heuristic["sd_balance"] == f"{statistics.stdev(own):.4f}"
    assert (heuristic["min_balance"], heuristic["max_balance"]) == ("-300", "9000")
    assert random["copies"] == "3"
    assert (random["hands"], random["wins"], random["self_drawn"], random["dealt_in"]) == (
        "12",
        "1",
        "0",
        "1",
    )
    theirs = [-400, -400, -400, -100, 500, -100, 0, 0, 0, -9000, 0, 0]
    assert random["mean_balance"] == f"{statistics.mean(theirs):.4f}"
    assert random["sd_balance"] == f"{statistics.stdev(theirs):.4f}"
    (remise,) = rows(known, "remises.csv")
    assert (remise["reason"], remise["hands"], remise["rate"]) == (WALL, "1", "0.250000")


def test_win_rate_per_seat(known: RunStats) -> None:
    table = {(r["wind"], r["bot"]): r for r in rows(known, "seats.csv")}
    assert [w for w, b in table if b == ""] == ["East", "South", "West", "North"]
    # all bots: East won once (self-drawn), North twice (both claimed)
    assert [table[w, ""]["wins"] for w in ("East", "South", "West", "North")] == [
        "1",
        "0",
        "0",
        "2",
    ]
    assert table["North", ""]["claimed"] == "2" and table["East", ""]["self_drawn"] == "1"
    # the heuristic bot sat once at each seat and won at East and North
    assert [table[w, "heuristic"]["hands"] for w in ("East", "South", "West", "North")] == ["1"] * 4
    assert table["North", "heuristic"]["win_rate"] == "1.000000"
    assert table["South", "heuristic"]["mean_balance"] == "-300.0000"
    assert table["North", "random"]["wins"] == "1" and table["North", "random"]["hands"] == "3"


def test_histograms_of_known_hands(known: RunStats) -> None:
    low, high, width = BALANCE_BINS
    balances = rows(known, "balances.csv")
    heuristic = [(r["low"], r["high"], r["hands"]) for r in balances if r["bot"] == "heuristic"]
    # the won hands only (the remise is left out): 1200, -300, 9000, from the first used
    # bin to the last
    assert len(heuristic) == (9100 - -300) // width
    assert heuristic[0] == ("-300", "-200", "1") and heuristic[-1] == ("9000", "9100", "1")
    assert ("1200", "1300", "1") in heuristic
    assert sum(int(n) for _lo, _hi, n in heuristic) == 3
    random = [
        (r["low"], r["high"], r["hands"], r["share"]) for r in balances if r["bot"] == "random"
    ]
    # -9000 falls below the bins: the open bin, its low edge empty
    assert random[0] == ("", str(low), "1", f"{1 / 9:.6f}")
    counted = {(lo, hi): int(n) for lo, hi, n, _s in random}
    assert counted["-400", "-300"] == 3 and counted["-100", "0"] == 2
    assert counted["0", "100"] == 2 and counted["500", "600"] == 1
    assert sum(counted.values()) == 9  # three won hands, three random seats each
    scores = [(r["bot"], r["low"], r["high"], r["wins"]) for r in rows(known, "scores.csv")]
    assert ("random", "100", "200", "1") in scores
    assert scores[0] == ("heuristic", "200", "300", "1")
    assert (scores[[s[0] for s in scores].index("random") - 1]) == (
        "heuristic",
        str(SCORE_BINS[1]),
        "",
        "1",
    )  # 5000 is past the score bins: the open bin, its high edge empty
    lengths = {
        r["discards"]: (r["hands"], r["won"], r["remise"]) for r in rows(known, "hand_length.csv")
    }
    assert lengths == {
        "40": ("1", "1", "0"),
        "51": ("1", "1", "0"),
        "72": ("1", "0", "1"),
        str(MAX_DISCARDS): ("1", "1", "0"),  # 250 discards: counted as 200 or more
    }
    assert high > 9000


def test_items_of_known_hands(known: RunStats) -> None:
    items = {r["item"]: r for r in rows(known, "items.csv")}
    assert {k: v["wins"] for k, v in items.items()} == {
        "mahjong": "2",
        "self_drawn": "1",
        "seven_pairs": "1",
    }
    assert items["mahjong"]["rate"] == f"{2 / 3:.6f}"
    assert items["self_drawn"]["name_nl"] == "Zelf gepakt van de muur"
    (limit,) = rows(known, "limit_hands.csv")
    assert (limit["item"], limit["name_en"], limit["wins"]) == ("seven_pairs", "Seven pairs", "1")
    assert list(items) == ["mahjong", "self_drawn", "seven_pairs"]  # most often first


def _from_logs(folder: Path) -> dict[str, object]:
    """Counts worked out from the hand logs alone (plain json, none of the package)."""
    per_bot: dict[str, Counter[str]] = {}
    balances: dict[str, list[int]] = {}
    seat_wins: Counter[int] = Counter()
    items: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    hands = won = self_drawn = 0
    for path in sorted(folder.iterdir()):
        lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        header = lines[0]
        result = next(x for x in lines if x["type"] == "result")
        events = [x for x in lines if x["type"] == "event"]
        players = header["players"]
        hands += 1
        lengths[sum(1 for e in events if e["kind"] in ("discard", "announce"))] += 1
        for seat, name in enumerate(players):
            c = per_bot.setdefault(name, Counter())
            c["hands"] += 1
            balances.setdefault(name, []).append(result["settlement"]["balances"][seat])
        winner = result["winner"]
        if winner is None:
            continue
        won += 1
        seat_wins[winner] += 1
        per_bot[players[winner]]["wins"] += 1
        if result["discarder"] is None:
            self_drawn += 1
            per_bot[players[winner]]["self_drawn"] += 1
        else:
            per_bot[players[result["discarder"]]]["dealt_in"] += 1
        items.update(set(result["scores"][winner]["items"]))
    return {
        "hands": hands,
        "won": won,
        "self_drawn": self_drawn,
        "per_bot": per_bot,
        "balances": balances,
        "seat_wins": seat_wins,
        "items": items,
        "lengths": lengths,
    }


def test_seeded_hands_counted_again_from_their_logs(tmp_path: Path) -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=11, log_dir=str(tmp_path))
    stats = RunStats("nts-2016", spec, rules)
    for o in run_simulation(spec, 40, jobs=1, rules=rules):
        stats.add(o)
    logs = _from_logs(tmp_path)
    assert logs["won"] and logs["hands"] == 40  # some hands were won: the check means something
    (summary,) = rows(stats, "summary.csv")
    assert (summary["hands"], summary["won"], summary["self_drawn"]) == (
        str(logs["hands"]),
        str(logs["won"]),
        str(logs["self_drawn"]),
    )
    per_bot = logs["per_bot"]
    balances = logs["balances"]
    assert isinstance(per_bot, dict) and isinstance(balances, dict)
    for r in rows(stats, "bots.csv"):
        c = per_bot[r["bot"]]
        assert (r["hands"], r["wins"], r["self_drawn"], r["dealt_in"]) == (
            str(c["hands"]),
            str(c["wins"]),
            str(c["self_drawn"]),
            str(c["dealt_in"]),
        )
        values = balances[r["bot"]]
        assert r["mean_balance"] == f"{statistics.mean(values):.4f}"
        assert (r["min_balance"], r["max_balance"]) == (str(min(values)), str(max(values)))
    seat_wins = logs["seat_wins"]
    assert isinstance(seat_wins, Counter)
    for r in rows(stats, "seats.csv"):
        if r["bot"] == "":
            assert r["wins"] == str(seat_wins[int(r["seat"])])
    assert {r["item"]: int(r["wins"]) for r in rows(stats, "items.csv")} == logs["items"]
    assert {int(r["discards"]): int(r["hands"]) for r in rows(stats, "hand_length.csv")} == (
        logs["lengths"]
    )


def test_known_hand_from_its_log(tmp_path: Path) -> None:
    # hand 1 of seed 1 (heuristic against three random bots, round wind East): its log
    # says the heuristic bot, at South, drew its winning tile (E) itself with
    # "b234777 t78889 EE +E".  Under nts-2016: mahjong 20, a concealed pung of simples (b7)
    # 4, a concealed pung of a wind 8, self-drawn 2: 34 points; the round wind's pung 1
    # doubling, fully concealed 2: 34 x 2**3 = 272.  It is paid by each of the others,
    # East double: 544 + 272 + 272 = +1088.
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=1, log_dir=str(tmp_path))
    stats = RunStats("nts-2016", spec, rules)
    for o in run_simulation(spec, 2, jobs=1, rules=rules):
        stats.add(o)
    result = next(
        json.loads(line)
        for line in (tmp_path / "hand-000001.jsonl").read_text("utf-8").splitlines()
        if json.loads(line)["type"] == "result"
    )
    assert result["winner"] == 1 and result["discarder"] is None
    assert result["hands"][1] == "b234777 t78889 EE +E"
    assert sorted(result["scores"][1]["items"]) == sorted(
        [
            "mahjong",
            "pung_simple_concealed",
            "pung_major_concealed",
            "self_drawn",
            "pung_round_wind",
            "fully_concealed",
        ]
    )
    assert result["scores"][1]["score"] == 272 and result["settlement"]["balances"][1] == 1088
    heuristic = rows(stats, "bots.csv")[0]
    assert (heuristic["wins"], heuristic["self_drawn"], heuristic["max_balance"]) == (
        "1",
        "1",
        "1088",
    )
    assert [r for r in rows(stats, "scores.csv") if r["bot"] == "heuristic"] == [
        {
            "ruleset": "nts-2016",
            "bot": "heuristic",
            "low": "200",
            "high": "300",
            "wins": "1",
            "share": "1.000000",
        }
    ]
    south = [r for r in rows(stats, "seats.csv") if r["wind"] == "South" and r["bot"] == ""]
    assert south[0]["wins"] == "1" and south[0]["self_drawn"] == "1"


def test_a_run_of_matches_counts_every_hand() -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=3, matches=True)
    stats = RunStats("nts-2016", spec, rules)
    for o in run_simulation(spec, 1, jobs=1, rules=rules):
        stats.add(o)
    (summary,) = rows(stats, "summary.csv")
    assert (summary["unit"], summary["units"], summary["hands"]) == ("match", "1", "16")
    assert sum(int(r["hands"]) for r in rows(stats, "bots.csv")) == 16 * 4


def test_same_tables_for_one_and_two_jobs() -> None:
    rules = load_ruleset("nts-2016")
    spec = SimulationSpec("nts-2016", MIXED, seed=5)
    texts = []
    for jobs in (1, 2):
        stats = RunStats("nts-2016", spec, rules)
        for o in run_simulation(spec, 60, jobs=jobs, rules=rules):
            stats.add(o)
        texts.append([csv_text(t) for t in merged_tables([stats])])
    assert texts[0] == texts[1]


def test_histogram_bins() -> None:
    h = Histogram(0, 300, 100)
    assert h.bins() == []
    for v in (-1, 0, 99, 100, 250, 299, 300, 10**9):
        h.add(v)
    assert h.bins() == [(None, 0, 1), (0, 100, 2), (100, 200, 1), (200, 300, 2), (300, None, 2)]
    h = Histogram(0, 300, 100)
    h.add(150)
    assert h.bins() == [(100, 200, 1)]  # only from the first used bin to the last
    with pytest.raises(ValueError, match="bad bins"):
        Histogram(0, 250, 100)
    low, high, width = BALANCE_BINS
    assert (high - low) % width == 0 and len(Histogram(*BALANCE_BINS).counts) == 242


def test_nothing_played_is_an_error() -> None:
    stats = RunStats("nts-2016", SimulationSpec("nts-2016", MIXED), load_ruleset("nts-2016"))
    with pytest.raises(ValueError, match="no hand was played"):
        stats.tables()


# --------------------------------------------------------------------------- the folder


def test_report_folder_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_report_dir(tmp_path / "new" / "deeper")  # missing: it will be made
    empty = tmp_path / "empty"
    empty.mkdir()
    check_report_dir(empty)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ReportDirError, match="is a file") as exc:
        check_report_dir(a_file)
    assert exc.value.why == "file"
    with pytest.raises(ReportDirError, match="cannot be made") as exc:
        check_report_dir(a_file / "under")
    assert exc.value.why == "no-parent"
    real_access = os.access
    with monkeypatch.context() as m:  # a folder this user may not write into (root may)
        m.setattr(os, "access", lambda p, mode: Path(p) != empty and real_access(p, mode))
        with pytest.raises(ReportDirError, match="cannot be written") as exc:
            check_report_dir(empty)
        with pytest.raises(ReportDirError, match="does not take new files") as exc:
            check_report_dir(empty / "new")
        assert exc.value.why == "unwritable"
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.md").write_text("mine")
    with pytest.raises(ReportDirError, match="not empty and not a previous report") as exc:
        check_report_dir(other)
    assert exc.value.name == "notes.md"


def test_a_previous_report_is_replaced_and_nothing_else(tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / "report.json").write_text(json.dumps({"format": REPORT_FORMAT}))
    for name in CSV_FILES:
        (old / name).write_text("old")
    check_report_dir(old)  # a previous report
    (old / "mine.txt").write_text("keep me")
    with pytest.raises(ReportDirError) as exc:
        check_report_dir(old)  # a report and a file of someone else's
    assert exc.value.name == "mine.txt"
    (old / "mine.txt").unlink()
    (old / "report.json").write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ReportDirError):
        check_report_dir(old)  # the report's names, but not a report
    (old / "report.json").write_text("not json")
    with pytest.raises(ReportDirError):
        check_report_dir(old)
    (old / "report.json").unlink()
    with pytest.raises(ReportDirError):
        check_report_dir(old)  # no report.json: nothing says it is a report
    sub = tmp_path / "sub"
    (sub / "index.html").mkdir(parents=True)  # a folder by a report file's name
    (sub / "report.json").write_text(json.dumps({"format": REPORT_FORMAT}))
    with pytest.raises(ReportDirError):
        check_report_dir(sub)
    clear_report_dir(old)
    assert sorted(p.name for p in old.iterdir()) == []
    assert "index.html" in REPORT_FILES and "report.json" in REPORT_FILES
