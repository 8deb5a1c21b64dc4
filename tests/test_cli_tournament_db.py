"""``mahjong-nts tournament new/add/player/seat --db/result/penalty/standings/export``: a
tournament in the database from the command line; bad input is one ``error:`` line and
exit code 2, nothing stored; Dutch under ``--lang nl``.

Expected standings and exports are worked out by hand (table points 4/2/1/0, ties
split; docs/tournament.md)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cli_helpers import invoke_main
from mahjong_nts.store import open_store
from mahjong_nts.store.online import NewEvent, NewSeat, append_events, create_table
from mahjong_nts.store.sheets import add_hand, create_session
from mahjong_nts.store.tournaments import get_tournament, result_changes, set_round
from played_tables import play_bot_table

PLAYERS = (
    "first name,last name,club,ema\n"
    "Anna,de Vries,Draak,04120001\n"
    "Bram,Bakker,Draak,\n"
    "Cor,Jansen,Hilversum,\n"
    "Dirk,Visser,Hilversum,\n"
    "Eva,Smit,Utrecht,\n"
    "Fleur,Mulder,Utrecht,\n"
    "Gijs,de Boer,Delft,\n"
    "=Hanna,Bos,Delft,\n"
)


def _ok(*args: str) -> str:
    result = invoke_main(list(args))
    assert result.exit_code == 0, result.output
    assert result.exception is None
    return result.stdout


def _refused(*args: str) -> str:
    result = invoke_main(list(args))
    assert result.exit_code == 2, result.output
    assert result.exception is None and "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tournament.sqlite3'}"


@pytest.fixture
def tournament(db: str, tmp_path: Path) -> str:
    out = _ok(
        "tournament", "new", "--db", db, "--name", "Herfst", "--date", "2026-11-28",
        "--rounds", "3", "--seed", "5",
    )  # fmt: skip
    assert out.startswith("Tournament 1: Herfst, 2026-11-28, 3 rounds.")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    out = _ok("tournament", "add", "--db", db, "-t", "1", "--csv", str(players))
    assert out.splitlines()[0] == "Player 1: Anna de Vries"
    assert out.splitlines()[-1] == "Player 8: =Hanna Bos"
    return "1"


def _fix_round_one(db: str) -> None:
    store = open_store(db)
    try:
        set_round(store, 1, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
    finally:
        store.close()


def test_a_round_from_seat_to_export(db: str, tournament: str) -> None:
    _fix_round_one(db)
    wrong = _refused(
        "tournament", "result", "--db", db, "-t", "1", "--round", "1", "--table", "1",
        "--scores", "40,10,-20,-25",
    )  # fmt: skip
    assert wrong == (
        "error: round 1, table 1: the scores sum to 5, not 0 (5 too many): a table's "
        "scores sum to its total"
    )
    out = _ok(
        "tournament", "result", "--db", db, "-t", "1", "--round", "1", "--table", "1",
        "--scores", "40,10,-20,-30", "--by", "Els",
    )  # fmt: skip
    assert out.splitlines()[0] == "Round 1, table 1: version 1."
    _ok(
        "tournament", "result", "--db", db, "-t", "1", "--round", "1", "--table", "2",
        "--scores", "25,25,-10,-40",
    )  # fmt: skip
    _ok(
        "tournament", "penalty", "--db", db, "-t", "1", "--player", "5", "--round", "1",
        "--points", "5", "--reason", "valse mahjong",
    )  # fmt: skip
    # 1: 4 points; 5 and 6 tie at table 2 and split 4 + 2: 3 each, 5 then 25 - 5 = 20
    data = json.loads(_ok("tournament", "standings", "--db", db, "-t", "1", "--json"))
    assert [(s["place"], s["player"], s["table_points"], s["total"]) for s in data] == [
        (1, 1, "4", 40),
        (2, 6, "3", 25),
        (3, 5, "3", 20),
        (4, 2, "2", 10),
        (5, 7, "1", -10),
        (6, 3, "1", -20),
        (7, 4, "0", -30),
        (8, 8, "0", -40),
    ]
    rows = list(csv.reader(io.StringIO(_ok("tournament", "export", "--db", db, "-t", "1"))))
    assert rows[0] == [
        "Place", "First name", "Last name", "EMA number", "Table points", "Score", "Country/club",
    ]  # fmt: skip
    assert rows[1] == ["1", "Anna", "de Vries", "04120001", "4", "40", "Draak"]
    assert rows[8] == ["8", "'=Hanna", "Bos", "", "0", "-40", "Delft"]  # never a formula
    full = list(
        csv.reader(io.StringIO(_ok("tournament", "export", "--db", db, "-t", "1", "--full")))
    )
    assert len(full) == 9 and full[1][:9] == [
        "1",
        "1",
        "E",
        "1",
        "Anna",
        "de Vries",
        "40",
        "40",
        "4",
    ]
    text = _ok("tournament", "standings", "--db", db, "-t", "1")
    assert "   2=" not in text and text.splitlines()[1].split()[:3] == ["1", "1", "Anna"]


def test_a_correction_and_a_colliding_entry(db: str, tournament: str) -> None:
    _fix_round_one(db)
    args = ["tournament", "result", "--db", db, "-t", "1", "--round", "1", "--table", "1"]
    _ok(*args, "--scores", "40,10,-20,-30", "--by", "Els")
    collided = _refused(*args, "--scores", "30,10,-10,-30", "--by", "Piet")
    assert collided == (
        "error: round 1, table 1 was entered already (by 'Els', version 1): to change it, "
        "give --correct 1 with the right result"
    )
    out = _ok(*args, "--scores", "30,10,-10,-30", "--by", "Piet", "--correct", "1")
    assert out.splitlines()[0] == "Round 1, table 1: version 2."
    stale = _refused(*args, "--scores", "30,10,-10,-30", "--correct", "1")
    assert "since version 1 (it is at version 2)" in stale


def test_a_fixed_schedule_all_or_nothing(db: str, tournament: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("round,table,e,s,w,n\n1,1,1,2,3,4\n1,2,5,6,7,8\n2,1,1,5,2,6\n2,2,3,7,4,9\n")
    line = _refused("tournament", "seat", "--db", db, "-t", "1", "--schedule", str(bad))
    assert line == "error: round 2: no player number 9"
    store = open_store(db)
    try:
        assert get_tournament(store, 1).rounds == ()  # round 1 was fine: not stored either
    finally:
        store.close()
    good = tmp_path / "good.csv"
    good.write_text(bad.read_text().replace("4,9", "4,8"))
    out = json.loads(
        "[" + ",".join(
            _ok("tournament", "seat", "--db", db, "-t", "1", "--schedule", str(good), "--json")
            .splitlines()
        ) + "]"
    )  # fmt: skip
    assert out == [
        {"round": 1, "tables": [[1, 2, 3, 4], [5, 6, 7, 8]]},
        {"round": 2, "tables": [[1, 5, 2, 6], [3, 7, 4, 8]]},
    ]
    third = json.loads(_ok("tournament", "seat", "--db", db, "-t", "1", "--json"))
    assert third["round"] == 3


def test_swap_two_players_by_hand(db: str, tournament: str) -> None:
    store = open_store(db)
    try:
        set_round(store, 1, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
        set_round(store, 1, 2, [(1, 2, 5, 6), (3, 4, 7, 8)])
    finally:
        store.close()
    out = _ok("tournament", "swap", "--db", db, "-t", "1", "--round", "2", "2", "3")
    # 3 joins 1 (met at table 1 of round 1), 2 joins 4 (met there too): two repeats
    assert out.splitlines()[-2:] == [
        "Players 1 and 3 meet 2 times now.",
        "Players 2 and 4 meet 2 times now.",
    ]
    assert "    S     3  Cor Jansen" in out
    line = _refused("tournament", "swap", "--db", db, "-t", "1", "--round", "2", "2", "2")
    assert "a swap needs two players" in line
    line = _refused("tournament", "swap", "--db", db, "-t", "1", "--round", "3", "2", "3")
    assert "round 3 is not seated" in line


def test_seat_from_the_database_and_mark_players(db: str, tournament: str) -> None:
    out = _ok("tournament", "player", "--db", db, "-t", "1", "8", "--last-round", "1")
    assert out.strip() == "Player 8: =Hanna Bos, rounds 1 to 1, absent -."
    _ok("tournament", "add", "--db", db, "-t", "1", "--first-name", "Ivo", "--first-round", "2")
    first = json.loads(_ok("tournament", "seat", "--db", db, "-t", "1", "--json"))
    seated = sorted(p for t in first["tables"] for p in t)
    assert first["round"] == 1 and seated == list(range(1, 9))
    text = _ok("tournament", "seat", "--db", db, "-t", "1")
    assert text.splitlines()[0] == "Round 2" and "Ivo" in text and "Hanna" not in text
    store = open_store(db)
    try:
        assert [r.number for r in get_tournament(store, 1).rounds] == [1, 2]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "-t", "1", "--first-name", "anna", "--last-name", "DE VRIES"],
         "'anna DE VRIES' is registered already (player 1)"),
        (["add", "-t", "1", "--first-name", "<b>x</b>"], "not markup"),
        (["add", "-t", "1"], "give either --first-name"),
        (["add", "-t", "7", "--first-name", "X"], "no tournament has this number"),
        (["result", "-t", "1", "--round", "1", "--table", "1", "--scores", "a,b"],
         "not a list of whole numbers"),
        (["result", "-t", "1", "--round", "1", "--table", "1", "--scores", "0,0,0,0"],
         "round 1 is not seated"),
        (["seat", "-t", "1", "--players", "8"], "leave out --players"),
        (["seat", "-t", "1", "--schedule", "/no/such/file"], "--schedule"),
        (["player", "-t", "1", "2"], "give --first-round, --last-round or --absent"),
        (["penalty", "-t", "1", "--player", "1", "--round", "1", "--points", "0",
          "--reason", "x"], "give 1 to 2^48"),
        (["new", "--name", "X", "--date", "tomorrow", "--rounds", "3"], "YYYY-MM-DD"),
        (["new", "--name", "X", "--date", "2026-11-28", "--rounds", "3", "--points", "4/2/1"],
         "four numbers"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_stores_nothing(
    db: str, tournament: str, args: list[str], message: str
) -> None:
    line = _refused("tournament", *args, "--db", db)
    assert message in line
    store = open_store(db)
    try:
        view = get_tournament(store, 1)
        assert len(view.roster) == 8 and view.rounds == () and view.results == ()
    finally:
        store.close()


def test_a_players_file_with_an_error_registers_nobody(db: str, tmp_path: Path) -> None:
    _ok("tournament", "new", "--db", db, "--name", "X", "--date", "2026-11-28", "--rounds", "2")
    bad = tmp_path / "bad.csv"
    bad.write_text("first name,club\nAnna,Draak\nBram\n", encoding="utf-8")
    line = _refused("tournament", "add", "--db", db, "-t", "1", "--csv", str(bad))
    assert line == "error: players file, line 3: 1 fields, but the header names 2"
    nl = _refused("--lang", "nl", "tournament", "add", "--db", db, "-t", "1", "--csv", str(bad))
    assert "regel 3" in nl and "kolommen" in nl
    big = tmp_path / "big.csv"
    big.write_bytes(b"first name\n" + b"x\n" * 70000)
    assert "larger than" in _refused("tournament", "add", "--db", db, "-t", "1", "--csv", str(big))
    missing = _refused("tournament", "add", "--db", db, "-t", "1", "--csv", str(tmp_path / "no"))
    assert "--csv" in missing
    store = open_store(db)
    try:
        assert len(get_tournament(store, 1).roster) == 0
    finally:
        store.close()


def test_dutch(db: str, tournament: str) -> None:
    _fix_round_one(db)
    line = _refused(
        "--lang", "nl", "tournament", "result", "--db", db, "-t", "1", "--round", "1",
        "--table", "1", "--scores", "40,10,-20,-25",
    )  # fmt: skip
    assert line.startswith("error: ronde 1, tafel 1: de scores tellen op tot 5, niet 0")
    out = _ok(
        "--lang", "nl", "tournament", "result", "--db", db, "-t", "1", "--round", "1",
        "--table", "1", "--scores", "40,10,-20,-30",
    )  # fmt: skip
    assert out.splitlines()[0] == "Ronde 1, tafel 1: versie 1."
    out = _ok("--lang", "nl", "tournament", "standings", "--db", db, "-t", "1")
    assert out.split()[:3] == ["Plaats", "Nr.", "Naam"]
    line = _refused("--lang", "nl", "tournament", "add", "--db", db, "-t", "9", "--first-name", "X")
    assert line == "error: geen toernooi heeft dit nummer of deze link"


def _online_table(db: str, hands: list[list[int]], status: str) -> str:
    """An online table stored as the online server stores one: each hand's settlement
    by seat in its ``ended`` event."""
    table_id = "T" * 22
    store = open_store(db)
    try:
        create_table(
            store, table_id=table_id, watch_id="W" * 22, settings={"ruleset": "nts-2016"},
            ruleset_name="nts-2016", public=False, creator="c1",
            seats=[NewSeat("human")] * len(hands[0]),
            events=[NewEvent("created", {"match_seed": "1"})],
        )  # fmt: skip
        events = [
            NewEvent("ended", {"seed": str(n), "reason": "mahjong", "winner": 0, "balances": b},
                     hand=n)
            for n, b in enumerate(hands)
        ]  # fmt: skip
        append_events(store, table_id, 1, events, status=status)
    finally:
        store.close()
    return table_id


def test_a_result_from_an_online_table_or_a_sheet(db: str, tournament: str) -> None:
    _fix_round_one(db)
    args = ["tournament", "result", "--db", db, "-t", "1", "--round", "1"]
    # East (seat 0) goes mahjong with 40, the others hold 10, 0 and 8 (NTS: East wins
    # 2 x 40 from each; the losers pay each other the difference): 240, -68, -98, -74;
    # then a remise (nothing).
    table_id = _online_table(db, [[240, -68, -98, -74], [0, 0, 0, 0]], "playing")
    line = _refused(*args, "--table", "1", "--from-online", f"http://localhost/online/{table_id}")
    assert line == (
        f"error: online table 'http://localhost/online/{table_id}' is not finished: enter its "
        "result when its last hand is played"
    )
    store = open_store(db)
    try:
        append_events(store, table_id, 3, [NewEvent("finished", {})], status="finished")
        sheet = create_session(store, names=["Eva", "Fleur", "Gijs", "Hanna"]).token
        # Fleur (player 1, not East) goes mahjong with 20 off Gijs's discard... entered
        # as scores: East (Eva) holds 0, Gijs 0, Hanna 4. Non-East winner: 20 from each,
        # double from East: Eva -40, Gijs -20, Hanna -20, Fleur +80; between the losers
        # East pays double: Hanna gets 8 from Eva and 4 from Gijs.
        add_hand(store, sheet, {"scores": [0, 20, 0, 4], "winner": 1, "discarder": 2})
    finally:
        store.close()
    store = open_store(db)
    try:
        # four bots dealt from seed 4 (tests/played_tables.py): its hand logs say table
        # seat 2 went mahjong on seat 1's discard, seat 0 on seat 2's, seat 2 self-drawn,
        # seat 2 on seat 1's (tests/store/test_tournament_sources.py)
        played = play_bot_table(store, seed=4, hands=4)
    finally:
        store.close()
    out = _ok(*args, "--table", "1", "--from-online", played.id, "--by", "Els")
    lines = out.splitlines()
    assert lines[0] == "Round 1, table 1: version 1." and len(lines) == 5
    assert [line.split()[0] for line in lines[1:]] == ["1", "2", "3", "4"]
    again = _refused(*args, "--table", "1", "--from-online", played.id)
    assert "give --correct 1" in again
    out = _ok(*args, "--table", "2", "--from-sheet", f"https://club.example/sheet/{sheet}")
    assert out.splitlines()[1:] == [
        "    5       -48",
        "    6        80",
        "    7       -24",
        "    8        -8",
    ]
    wrong = _refused(*args, "--table", "2", "--from-sheet", table_id, "--correct", "1")
    assert wrong == f"error: no score sheet has the link '{table_id}'"
    both = _refused(*args, "--table", "2", "--scores", "0,0,0,0", "--from-sheet", sheet)
    assert both == "error: give one of --scores, --from-online and --from-sheet"
    mixed = _refused(*args, "--table", "2", "--from-sheet", sheet, "--players", "5,6,7,8")
    assert mixed.startswith("error: --from-sheet: the players")
    dutch = _refused("--lang", "nl", *args, "--table", "2", "--from-online", "x")
    assert dutch == "error: er is geen online tafel met de link of code 'x'"
    store = open_store(db)
    try:
        assert result_changes(store, 1) == ()
        assert len(get_tournament(store, 1).results) == 2
    finally:
        store.close()
    # the tie-breaks came with the results: from the online table's hands (above) and
    # from the sheet (Fleur, player 6, went mahjong on the discard of Gijs, player 7)
    data = json.loads(_ok("tournament", "standings", "--db", db, "-t", "1", "--json"))
    counts = {s["player"]: (s["mahjongs"], s["deal_ins"]) for s in data}
    assert counts == {1: (1, 0), 2: (0, 2), 3: (3, 1), 4: (0, 0),
                      5: (0, 0), 6: (1, 0), 7: (0, 1), 8: (0, 0)}  # fmt: skip
    text = _ok("tournament", "standings", "--db", db, "-t", "1")
    assert text.split()[6:8] == ["Mahjongs", "Deal-ins"]
    row = next(line.split() for line in text.splitlines()[1:] if line.split()[1] == "3")
    assert row[-2:] == ["3", "1"]
