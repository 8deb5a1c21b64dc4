"""The tournament pages (web/tournament.py) through the app: make one, register and
import players, seat, enter results (a wrong sum, a collision, a correction), the
public page, a player's page, the big screen, the score cards with their QR codes.

Table points by hand: 4/2/1/0 by place at the table (docs/tournament.md)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import segno
from fastapi.testclient import TestClient

from mahjong_nts.store import open_store
from mahjong_nts.store.online import NewEvent, NewSeat, create_table
from mahjong_nts.store.sheets import add_hand, create_session
from mahjong_nts.store.tournaments import get_tournament, result_changes, set_round
from mahjong_nts.tournament import repeat_lower_bound, repeats, wind_counts
from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.tournament import SCREEN_SECONDS
from played_tables import play_bot_table

PLAYERS = (
    "first name,last name,club\n"
    "Anna,de Vries,Draak\nBram,Bakker,Draak\nCor,Jansen,Hilversum\nDirk,Visser,Hilversum\n"
    "Eva,Smit,Utrecht\nFleur,Mulder,Utrecht\nGijs,de Boer,Delft\n"
    'Jan & "Piet",Bos,Delft\n'
)
NEW = {"name": "Herfst", "date": "2026-11-28", "rounds": "3", "ruleset": "nts-2016",
       "points": "4/2/1/0", "ties": "split", "ranking": "table_points", "fives": "1"}  # fmt: skip


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tournament")


@pytest.fixture(scope="module")
def client(data: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=data, default_language="en"))
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


def _errors(text: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'class="form-error"[^>]*>([^<]*)<', text)]


def _new(client: TestClient, **kw: str) -> str:
    r = client.post("/tournaments", data={**NEW, **kw}, follow_redirects=False)
    assert r.status_code == 303, r.text
    path: str = r.headers["location"]
    return path


def _seated(data: Path, path: str) -> list[list[int]]:
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        view = get_tournament(store, path.rsplit("/", 1)[1])
        return [list(t) for t in view.rounds[-1].tables]
    finally:
        store.close()


def test_the_nav_leads_to_the_tournaments(client: TestClient) -> None:
    assert '<a href="/tournaments">Tournaments</a>' in client.get("/").text
    page = client.get("/tournaments")
    assert '<a href="/tournaments" aria-current="page">Tournaments</a>' in page.text
    path = _new(client)
    assert '<a href="/tournaments" aria-current="page">Tournaments</a>' in client.get(path).text
    dutch = client.get("/?lang=nl").text
    assert '<a href="/tournaments">Toernooien</a>' in dutch
    client.get("/?lang=en")  # back to English (the choice is a cookie)


def test_make_a_tournament_and_refusals(client: TestClient) -> None:
    assert client.get("/tournaments").status_code == 200
    for kw, message in (
        ({"name": "<b>Cup</b>"}, "a name is text, not markup"),
        ({"rounds": "x"}, "Rounds: give a whole number"),
        ({"rounds": "30"}, "rounds: 1 to 20"),
        ({"date": "morgen"}, "YYYY-MM-DD"),
        ({"points": "4/2"}, "give four numbers like 4/2/1/0"),
    ):
        r = client.post("/tournaments", data={**NEW, **kw})
        assert r.status_code == 422 and any(message in e for e in _errors(r.text)), kw
    path = _new(client)
    page = client.get(path)
    assert page.status_code == 200 and "Herfst" in page.text and "No players yet." in page.text


def test_a_round_from_registration_to_standings(client: TestClient, data: Path) -> None:
    path = _new(client)
    bad = PLAYERS.replace("Gijs,de Boer", "Gijs,<i>Boer</i>")
    r = client.post(f"{path}/import", data={"csv": bad})
    assert r.status_code == 422
    assert _errors(r.text) == [
        "players file, line 8, column 2 (last name): '<i>Boer</i>' has '<': a name is text, "
        "not markup"
    ]
    assert "No players yet." in r.text and "&lt;i&gt;Boer" in r.text  # kept, as text
    r = client.post(f"{path}/import", data={"csv": PLAYERS}, follow_redirects=False)
    assert r.status_code == 303
    r = client.post(f"{path}/players", data={"first_name": "anna", "last_name": "DE VRIES"})
    assert r.status_code == 422
    assert _errors(r.text) == ["the new player: 'anna DE VRIES' is registered already (player 1)"]
    page = client.get(path).text
    assert "Jan &amp; &#34;Piet&#34; Bos" in page  # a name is shown as text
    assert client.post(f"{path}/seat", follow_redirects=False).status_code == 303
    tables = _seated(data, path)
    assert sorted(p for t in tables for p in t) == list(range(1, 9))
    scores = {"round": "1", "table": "1", "score0": "40", "score1": "10", "score2": "-20"}
    r = client.post(f"{path}/result", data={**scores, "score3": "-25"})
    assert r.status_code == 422
    assert _errors(r.text) == [
        "round 1, table 1: the scores sum to 5, not 0 (5 too many): a table's scores sum to "
        "its total"
    ]
    assert 'aria-invalid="true" aria-describedby="err-t1-1"' in r.text
    assert 'value="-25"' in r.text  # what was typed is kept for the correction
    nl = client.post(f"{path}/result?lang=nl", data={**scores, "score3": "-25"})
    assert _errors(nl.text)[0].startswith("ronde 1, tafel 1: de scores tellen op tot 5, niet 0")
    client.get("/tournaments?lang=en")  # back to English (the choice is a cookie)
    ok = client.post(f"{path}/result", data={**scores, "score3": "-30", "by": "Els"},
                     follow_redirects=False)  # fmt: skip
    assert ok.status_code == 303
    again = client.post(f"{path}/result", data={**scores, "score3": "-30"})
    assert again.status_code == 409
    assert "was entered already (by 'Els', version 1)" in _errors(again.text)[0]
    fixed = {**scores, "score0": "30", "score2": "-10", "score3": "-30", "version": "1"}
    assert client.post(f"{path}/result", data=fixed, follow_redirects=False).status_code == 303
    stale = client.post(f"{path}/result", data=fixed)
    assert stale.status_code == 409 and "since version 1" in _errors(stale.text)[0]
    r = client.post(f"{path}/result", data={"round": "1", "table": "2", "score0": "25",
                                            "score1": "25", "score2": "-10", "score3": "-40"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    # table 1 (corrected): 30, 10, -10, -30 by seat: 4, 2, 1, 0; table 2: 25, 25 tie
    # for first and split 4 + 2: 3 each, then 1 and 0
    east1, south1, west1, north1 = tables[0]
    east2, south2, west2, north2 = tables[1]
    public = client.get(path.replace("/tournaments/", "/t/"))  # the organiser's link: 404
    assert public.status_code == 404
    pub = re.search(r'href="/t/([A-Za-z0-9_-]{22})"', client.get(path).text)
    assert pub is not None
    page = client.get(f"/t/{pub.group(1)}").text
    n = '<td class="n">'
    rows = re.findall(rf"<tr>{n}(\d+)(=?)</td>{n}(\d+)</td><td class=\"name\">.*?</td>"
                      rf"{n}([\d.]+)</td>{n}(-?\d+)</td>", page)  # fmt: skip
    got = [(int(place), shared, int(p), pts, int(total)) for place, shared, p, pts, total in rows]
    assert got[0] == (1, "", east1, "4", 30)
    assert {got[1][2], got[2][2]} == {east2, south2}
    assert got[1][:2] == got[2][:2] == (2, "=") and got[1][3:] == ("3", 25)
    assert got[3] == (4, "", south1, "2", 10)
    # west1 and west2: 1 point and -10 each, never at one table: a shared fifth place
    assert {got[4][2], got[5][2]} == {west1, west2}
    assert got[4][:2] == got[5][:2] == (5, "=") and got[4][3:] == got[5][3:] == ("1", -10)
    assert [g[2] for g in got[-2:]] == [north1, north2]
    player = client.get(f"/t/{pub.group(1)}/p/{east1}").text
    assert "Place 1 of 8" in player and "4 table points" in player
    screen = client.get(f"/t/{pub.group(1)}/screen").text
    assert f'data-every="{SCREEN_SECONDS}"' in screen and "tournament-screen.js" in screen
    before = client.get(f"/t/{pub.group(1)}/version")
    assert before.status_code == 200 and before.headers["cache-control"] == "no-store"
    client.post(f"{path}/penalty", data={"player": "1", "round": "1", "points": "1",
                                         "reason": "te laat"})  # fmt: skip
    after = client.get(f"/t/{pub.group(1)}/version")
    assert int(after.text) == int(before.text) + 1  # one write, one more
    assert "Round 1" in screen and "Table 2" in screen
    cards = client.get(f"{path}/print").text
    assert cards.count("<svg") == 8 and cards.count('class="score-card"') == 2
    # each card's QR code is the player's own page (the same code segno makes of it)
    own = segno.make(f"http://testserver/t/{pub.group(1)}/p/{east1}", error="m", micro=False)
    assert own.svg_inline(scale=3, border=2) in cards
    for bad in ("0", "401", "x", "1000"):
        assert client.get(f"/t/{pub.group(1)}/p/{bad}").status_code == 404


def test_a_penalty_and_a_drop_out(client: TestClient, data: Path) -> None:
    path = _new(client, rounds="2")
    client.post(f"{path}/import", data={"csv": PLAYERS})
    r = client.post(f"{path}/penalty", data={"player": "1", "round": "1", "points": "0",
                                             "reason": "te laat"})  # fmt: skip
    assert r.status_code == 422 and "give 1 to 2^48" in _errors(r.text)[0]
    given = {"player": "1", "round": "1", "points": "10", "reason": "te laat"}
    r = client.post(f"{path}/penalty", data=given, follow_redirects=False)
    assert r.status_code == 303
    r = client.post(f"{path}/status", data={"player": "8", "last_round": "1"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    client.post(f"{path}/seat")
    client.post(f"{path}/players", data={"first_name": "Ivo", "first_round": "2"})
    client.post(f"{path}/seat")
    assert sorted(p for t in _seated(data, path) for p in t) == [1, 2, 3, 4, 5, 6, 7, 9]
    assert "Seat round" not in client.get(path).text  # every round seated


def test_swap_two_players_shows_the_repeats(client: TestClient, data: Path) -> None:
    path = _new(client)
    client.post(f"{path}/import", data={"csv": PLAYERS})
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        token = path.rsplit("/", 1)[1]
        set_round(store, token, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
        set_round(store, token, 2, [(1, 2, 5, 6), (3, 4, 7, 8)])
    finally:
        store.close()
    r = client.post(f"{path}/swap", data={"round": "2", "a": "2", "b": "3"})
    # 3 joins 1 and 2 joins 4: both pairs met at table 1 of round 1
    assert r.status_code == 200
    assert "Swapped. Repeat meetings now: 1 and 3 meet 2 times; 2 and 4 meet 2 times." in r.text
    assert _seated(data, path) == [[1, 3, 5, 6], [2, 4, 7, 8]]
    r = client.post(f"{path}/swap", data={"round": "2", "a": "2", "b": "9"})
    assert r.status_code == 422 and "player 9 is not seated" in _errors(r.text)[0]


def test_bad_requests(client: TestClient) -> None:
    path = _new(client)
    r = client.post(f"{path}/players", content=b"{}", headers={"content-type": "application/json"})
    assert r.status_code == 415
    r = client.post(f"{path}/import", content=b"csv=" + b"x" * (170 * 1024),
                    headers={"content-type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert r.status_code == 413
    assert client.get("/tournaments/short").status_code == 404
    assert client.post("/tournaments/" + "x" * 32 + "/seat").status_code == 404
    assert client.get("/t/" + "y" * 22).status_code == 404


def test_a_result_from_an_online_table_or_a_score_sheet(client: TestClient, data: Path) -> None:
    path = _new(client)
    client.post(f"{path}/import", data={"csv": PLAYERS})
    token = path.rsplit("/", 1)[1]
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        set_round(store, token, 1, [(1, 2, 3, 4), (5, 6, 7, 8)])
        # a finished online table, four bots dealt from seed 4 (tests/played_tables.py):
        # its logs say hand seat 2 went mahjong on hand seat 1's discard, then seat 0 on
        # seat 2's, seat 2 self-drawn, seat 2 on seat 1's (table seats; see
        # tests/store/test_tournament_sources.py); and one still playing
        played = play_bot_table(store, seed=4, hands=4)
        create_table(
            store, table_id="P" * 22, watch_id="p" * 22, settings={},
            ruleset_name="nts-2016", public=False, creator="c1",
            seats=[NewSeat("human")] * 4, status="playing",
            events=[NewEvent("created", {"match_seed": "1"})],
        )  # fmt: skip
        sheet = create_session(store, names=["Eva", "Fleur", "Gijs", "Hanna"]).token
        # East (Eva) goes mahjong with 40, the others hold 10, 0 and 8 (NTS: East wins
        # 2 x 40 from each, the losers pay each other the difference): 240, -68, -98, -74;
        # self-drawn, then Gijs on Hanna's discard with 20, the others holding nothing
        # (Fleur is East now: Gijs gets 20 from Hanna and Eva and 40 from Fleur)
        add_hand(store, sheet, {"scores": [40, 10, 0, 8], "winner": 0})
        add_hand(store, sheet, {"scores": [0, 0, 20, 0], "winner": 2, "discarder": 3})
    finally:
        store.close()
    r = client.post(f"{path}/result", data={"round": "1", "table": "1",
                                            "source": "http://x/online/" + "P" * 22})  # fmt: skip
    assert r.status_code == 422
    assert _errors(r.text) == [
        f"online table 'http://x/online/{'P' * 22}' is not finished: enter its result when its "
        "last hand is played"
    ]
    assert '<details class="from-source" open>' in r.text
    # the link is what is wrong, not the scores: the link's field is marked
    marked = re.findall(r'<input id="([^"]+)"[^>]*aria-invalid="true"', r.text)
    assert marked == ["src-1-1"]
    r = client.post(f"{path}/result", data={"round": "1", "table": "1", "source": "nonsense"})
    assert r.status_code == 422
    assert _errors(r.text) == ["'nonsense' is not the link of an online table or a score sheet"]
    r = client.post(f"{path}/result", data={"round": "1", "table": "1", "by": "Els",
                                            "source": "/online/watch/" + played.watch_id},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    r = client.post(f"{path}/result", data={"round": "1", "table": "2",
                                            "source": f"http://testserver/sheet/{sheet}"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    again = client.post(f"{path}/result", data={"round": "1", "table": "2", "source": sheet})
    assert again.status_code == 409 and "entered already" in _errors(again.text)[0]
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        view = get_tournament(store, token)
        online, sheet_result = view.results
        assert (online.result.players, online.entered_by) == ((1, 2, 3, 4), "Els")
        assert online.result.mahjongs == (1, 0, 3, 0) and online.result.deal_ins == (0, 2, 1, 0)
        assert sum(online.result.finals) == 0
        assert sheet_result.result.players == (5, 6, 7, 8) and sheet_result.entered_by == ""
        assert sheet_result.result.finals == (240 - 20, -68 - 40, -98 + 80, -74 - 20)
        assert sheet_result.result.mahjongs == (1, 0, 1, 0)
        assert sheet_result.result.deal_ins == (0, 0, 0, 1)
        assert result_changes(store, token) == ()
    finally:
        store.close()
    r = client.post(f"{path}/result", data={"round": "1", "table": "2", "version": "1",
                                            "source": played.id},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303  # a correction, through the same versions
    nl = client.post(f"{path}/result?lang=nl", data={"round": "1", "table": "1", "source": "x"})
    assert _errors(nl.text) == ["'x' is geen link van een online tafel of een scorelijst"]
    client.get("/tournaments?lang=en")


def test_a_fixed_schedule_from_the_page(client: TestClient, data: Path) -> None:
    path = _new(client)  # three rounds
    client.post(f"{path}/import", data={"csv": PLAYERS})
    assert "Seat from a fixed schedule (loopschema)" in client.get(path).text
    r = client.post(f"{path}/schedule", data={"schedule": "  "})
    assert r.status_code == 422 and _errors(r.text) == ["Paste a schedule: one line per table."]
    # round 2 seats player 9, who is not registered: neither round is stored
    bad = "round,table,e,s,w,n\n1,1,1,2,3,4\n1,2,5,6,7,8\n2,1,1,5,2,6\n2,2,3,7,4,9\n"
    r = client.post(f"{path}/schedule", data={"schedule": bad})
    assert r.status_code == 422 and _errors(r.text) == ["round 2: no player number 9"]
    assert "2,2,3,7,4,9" in r.text and '<details class="from-source" id="schedule" open>' in r.text
    r = client.post(f"{path}/schedule", data={"schedule": "1,1,1,2\n"})
    assert r.status_code == 422
    assert _errors(r.text) == [
        "fixed schedule, line 1: give round, table and 3 to 5 players, not 4 fields"
    ]
    good = bad.replace("4,9", "4,8")
    r = client.post(f"{path}/schedule", data={"schedule": good}, follow_redirects=False)
    assert r.status_code == 303
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        rounds = get_tournament(store, path.rsplit("/", 1)[1]).rounds
        assert [r.tables for r in rounds] == [
            ((1, 2, 3, 4), (5, 6, 7, 8)),
            ((1, 5, 2, 6), (3, 7, 4, 8)),
        ]
    finally:
        store.close()
    # the third round is seated as usual, after the schedule's two
    assert client.post(f"{path}/seat", follow_redirects=False).status_code == 303
    assert sorted(p for t in _seated(data, path) for p in t) == list(range(1, 9))
    assert "Seat from a fixed schedule" not in client.get(path).text  # all rounds seated
    nl = client.post(f"{path}/schedule?lang=nl", data={"schedule": "1,1,1,2\n"})
    assert nl.status_code == 422 and _errors(nl.text)[0].startswith("loopschema, regel 1:")
    client.get("/tournaments?lang=en")


def test_a_drop_out_undone_from_the_page(client: TestClient, data: Path) -> None:
    path = _new(client)  # three rounds
    client.post(f"{path}/import", data={"csv": PLAYERS})
    client.post(f"{path}/seat")  # round 1: all eight
    r = client.post(f"{path}/status", data={"player": "8", "last_round": "1"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    page = client.get(path).text
    assert page.count('name="plays_on"') == 1  # only player 8 has a last round
    assert 'aria-label="Player 8 plays on to the last round"' in page
    r = client.post(f"{path}/status", data={"player": "8", "plays_on": "1"},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    assert 'name="plays_on"' not in client.get(path).text
    client.post(f"{path}/seat")
    assert sorted(p for t in _seated(data, path) for p in t) == list(range(1, 9))  # 8 is back
    # gone after round 2 and round 3 seated without him: coming back is refused
    client.post(f"{path}/status", data={"player": "8", "last_round": "2"})
    client.post(f"{path}/players", data={"first_name": "Ivo", "first_round": "3"})
    client.post(f"{path}/seat")
    r = client.post(f"{path}/status", data={"player": "8", "plays_on": "1"})
    assert r.status_code == 422
    assert _errors(r.text) == [
        "player 8: round 3 is seated already; who plays in it cannot change now"
    ]


def test_36_players_seated_round_by_round_from_the_page(client: TestClient, data: Path) -> None:
    """The organiser presses "Seat round k" eight times for 36 players: no repeat meeting
    (the lower bound for 36 x 8 is 0, docs/tournament.md) and 72 East seats, two for
    everyone, as in a plan made at once."""
    path = _new(client, rounds="8", seed="11")
    names = "\n".join(f"Speler{i},Nummer{i}" for i in range(1, 37))
    r = client.post(f"{path}/import", data={"csv": "first name,last name\n" + names},
                    follow_redirects=False)  # fmt: skip
    assert r.status_code == 303
    for k in range(1, 9):
        r = client.post(f"{path}/seat", follow_redirects=False)
        assert r.status_code == 303, (k, _errors(r.text))
    store = open_store(f"sqlite:///{data / 'mahjong-nts.sqlite3'}")
    try:
        rounds = get_tournament(store, path.rsplit("/", 1)[1]).rounds
    finally:
        store.close()
    assert len(rounds) == 8 and repeat_lower_bound(36, 8) == 0
    assert repeats(rounds) == 0
    assert [c[0] for c in wind_counts(rounds).values()] == [2] * 36
