"""The score sheet's pages (mahjong_nts/web/sheet.py) through the app, on the SQLite
file in the test settings' data folder.  Balances are worked out by hand from NTS 2016
2.1 (the winner receives his score from each player, East pays and receives double, the
others pay each other the difference of their scores)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response
from sqlalchemy import func, select

from mahjong_nts.store import Store
from mahjong_nts.store.models import SheetChange, SheetHand, SheetSession
from mahjong_nts.web import Settings, create_app

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
FORM = {"content-type": "application/x-www-form-urlencoded"}


def start(client: TestClient, names: list[str] = NAMES, **fields: str) -> str:
    """A new sheet; its path (``/sheet/TOKEN``)."""
    r = client.post(
        "/sheet", data={"name": names, "ruleset": "nts-2016", **fields}, follow_redirects=False
    )
    assert r.status_code == 303, r.text
    path = r.headers["location"]
    assert re.fullmatch(r"/sheet/[A-Za-z0-9_-]{32}", path), path
    return str(path)


def add(client: TestClient, path: str, **fields: Any) -> Response:
    return client.post(f"{path}/hands", data={"kind": "scores", **fields}, follow_redirects=False)


def scores(*values: int, winner: int | None, discarder: int | None = None) -> dict[str, str]:
    out = {f"score{p}": str(v) for p, v in enumerate(values)}
    out["winner"] = "" if winner is None else str(winner)
    if discarder is not None:
        out["discarder"] = str(discarder)
    return out


def field_error(html: str, key: str) -> str:
    """The message shown beside field ``key`` (the input says it is invalid)."""
    match = re.search(rf'<p class="(?:field|form)-error" id="err-{key}"[^>]*>(.*?)</p>', html)
    assert match, f"no message beside {key}"
    return match.group(1)


def count(store: Store, table: Any) -> int:
    with store.transaction() as s:
        n = s.scalar(select(func.count()).select_from(table))
    assert n is not None
    return n


@pytest.fixture(scope="module")
def store(app: FastAPI, client: TestClient) -> Store:
    db_store: Store = app.state.database.store()
    return db_store


def totals(html: str) -> list[int]:
    """The standings' totals, in the players' order."""
    block = html[html.index('id="standings-title"') : html.index("</section>")]
    return [int(n) for n in re.findall(r"<strong>(-?\d+)</strong>", block)]


# --------------------------------------------------------------------------- start


def test_the_start_page_asks_for_players_rule_set_and_chip(client: TestClient) -> None:
    r = client.get("/sheet")
    assert r.status_code == 200
    assert r.text.count('name="name"') == 5
    assert 'name="ruleset"' in r.text and 'name="chip"' in r.text
    assert 'aria-current="page">Score sheet' in r.text


def test_a_new_sheet_has_an_unguessable_link_and_no_hands(client: TestClient) -> None:
    a, b = start(client), start(client)
    assert a != b
    page = client.get(a)
    assert page.status_code == 200
    assert "No hands yet" in page.text and "Ann, Bob, Cor, Dirk" in page.text
    assert totals(page.text) == [0, 0, 0, 0]
    assert "East round, Ann is East." in page.text


@pytest.mark.parametrize(
    ("names", "key", "message"),
    [
        (["Ann", "Bob"], "names", "a sheet has 3, 4 or 5 players; got 2"),
        (["A", "B", "C", "D", "E", "F"], "names", "a sheet has 3, 4 or 5 players; got 6"),
        (["Ann", "B" * 41, "Cor", "Dirk"], "name1", "a name has at most 40 characters"),
        (["Ann", "Bob", "ann", "Dirk"], "name2", "&#39;ann&#39; is the name of player 0 already"),
        (["Ann", "", "Bob", "Cor"], "names", None),  # an empty field is left out: 3 players
    ],
)
def test_bad_players_are_refused_beside_the_field_and_nothing_is_stored(
    client: TestClient, store: Store, names: list[str], key: str, message: str | None
) -> None:
    before = count(store, SheetSession)
    r = client.post("/sheet", data={"name": names, "ruleset": "nts-2016"}, follow_redirects=False)
    if message is None:
        assert r.status_code == 303
        assert client.get(r.headers["location"]).text.count('class="player"') == 3
        return
    assert r.status_code == 422
    assert field_error(r.text, key) == message
    assert count(store, SheetSession) == before
    assert f'aria-describedby="err-{key}"' in r.text


def test_a_bad_chip_value_and_rule_set_are_refused(client: TestClient, store: Store) -> None:
    before = count(store, SheetSession)
    r = client.post("/sheet", data={"name": NAMES, "ruleset": "nts-2016", "chip": "lots"})
    assert r.status_code == 422
    assert "is not a number" in field_error(r.text, "chip")
    r = client.post("/sheet", data={"name": NAMES, "ruleset": "/etc/passwd"})
    assert r.status_code == 422
    assert field_error(r.text, "ruleset") == "choose one of the rule sets"
    assert count(store, SheetSession) == before
    # the names typed are kept in the form
    assert 'value="Dirk"' in r.text


def test_three_and_five_names_choose_the_tables_of_three_and_five(client: TestClient) -> None:
    three = client.get(start(client, NAMES[:3])).text
    assert "nts-2016+three-players" in three
    five = client.get(start(client, [*NAMES, "Eef"])).text
    assert "nts-2016+five-players" in five
    # at five players the fifth sits out the first hand (the dreamer), Ann is East
    assert "Eef <small>(dreamer, sits out)</small>" in five
    assert "Ann <small>(East)</small>" in five


# --------------------------------------------------------------------------- hands


def test_hands_as_scores_give_balances_totals_and_money(client: TestClient) -> None:
    path = start(client, chip="0,5")
    # Ann (East) 40 self-drawn: each pays her 80 (East double): +240.  Bob 10, Cor 0,
    # Dirk 8 settle the differences: Bob -80 +10 +2 = -68, Cor -80 -10 -8 = -98,
    # Dirk -80 -2 +8 = -74.
    r = add(client, path, **scores(40, 10, 0, 8, winner=0))
    assert r.status_code == 303
    assert r.headers["location"] == f"{path}?added=1#hand-1"
    page = client.get(r.headers["location"]).text
    assert totals(page) == [240, -68, -98, -74]
    assert "Hand 1 added. Totals: Ann 240, Bob -68, Cor -98, Dirk -74" in page
    # 0.5 cent a point: 240 points are 1.20 euro
    assert "€ 1.20" in page and "€ -0.49" in page
    # East passes on after every hand under nts-2016 (1.8.5)
    assert "East round, Bob is East." in page
    # Bob (East now) 16 on Cor's discard: the discarder pays no more under nts-2016
    # (2.1: the winner receives his score from each player); East receives double:
    # Ann, Cor and Dirk pay 32 each, Bob +96.
    r = add(client, path, **scores(0, 16, 0, 0, winner=1, discarder=2))
    page = client.get(r.headers["location"]).text
    assert totals(page) == [208, 28, -130, -106]


SCORE_MESSAGE = "a score is a whole number, 0 or more"
TOO_BIG = "a score is a whole number from 0 to 281474976710656"  # core.rules.MAX_SCORE
BAD_HANDS = [
    (scores(40, "x", 0, 0, winner=0), "score1", SCORE_MESSAGE),  # type: ignore[arg-type]
    (scores(40, -5, 0, 0, winner=0), "score1", SCORE_MESSAGE),
    (scores(2**48 + 1, 0, 0, 0, winner=0), "score0", TOO_BIG),
    (scores(10**15, 0, 0, 0, winner=0), "score0", TOO_BIG),
    (scores(10**100, 0, 0, 0, winner=0), "score0", TOO_BIG),
    (scores(4, 0, 0, 0, winner=0, discarder=0), "discarder", "the winner cannot be the discarder"),
    ({**scores(40, 0, 0, 0, winner=0), "winner": "7"}, "winner", "choose one of the players"),
    (
        scores(4, 0, 0, 0, winner=None, discarder=1),
        "discarder",
        "a remise (no winner) has no discarder",
    ),
    ({"kind": "hands", "hand0": "b1 b2 x9", "winner": "0"}, "hand0", None),
    (
        {"kind": "hands", "hand0": "b1 " * 70, "winner": "0"},
        "hand0",
        "a hand has at most 200 characters",
    ),
]


@pytest.mark.parametrize(("fields", "key", "message"), BAD_HANDS)
def test_bad_hands_are_refused_beside_the_field_and_nothing_is_stored(
    client: TestClient, store: Store, fields: dict[str, str], key: str, message: str | None
) -> None:
    path = start(client)
    before = count(store, SheetHand)
    r = add(client, path, **fields)
    assert r.status_code == 422
    shown = field_error(r.text, key)
    assert shown == message if message is not None else shown
    assert count(store, SheetHand) == before
    assert f'id="{key}"' in r.text and 'aria-invalid="true"' in r.text


def test_a_bare_score_goes_up_to_the_core_bound(client: TestClient) -> None:
    """Every score a hand can reach (core.rules.MAX_SCORE = 2**48, 15 digits), as for
    ``settle``: Ann, East, wins S self-drawn (NTS 2016 2.1: East receives double from
    each): Ann +6 S, the others -2 S each."""
    path = start(client)
    assert (
        'id="score0" name="score0" value="" inputmode="numeric" autocomplete="off" '
        'maxlength="15"' in client.get(path).text
    )
    s = 2**48
    r = add(client, path, **scores(s, 0, 0, 0, winner=0))
    assert r.status_code == 303, r.text
    assert totals(client.get(r.headers["location"]).text) == [6 * s, -2 * s, -2 * s, -2 * s]


def test_hands_from_the_calculator_are_scored_in_their_place(client: TestClient) -> None:
    path = start(client)
    # Ann is East in the East round, self-drawn, fully concealed: chows b123 k456 t789, a
    # concealed pung of East (8), a pair of red dragons (2), mahjong 20, self-drawn 2,
    # completing the pair 2, the only possible tile 2 = 36; doublings: own wind 1, round
    # wind 1, fully concealed 2: 36 x 2**4 = 576 (web_helpers.WINNER).  Bob (South): a
    # concealed pung of b1 (8), an open pung of red dragons (4, one doubling): 24.  Cor
    # and Dirk: three chows and loose tiles, nothing that scores.  Ann receives 2 x 576
    # from each: +3456.  Bob gets 24 from Cor and from Dirk: -1152 + 48 = -1104; Cor and
    # Dirk -1152 - 24 = -1176.
    fields = {
        "kind": "hands",
        "hand0": "b123 k456 t789 EEE C +C",
        "hand1": "b111 k55 t23 [CCC] [t456]",
        "hand2": "b234 k345 t456 b67 k8 t9",
        "hand3": "b234 k345 t456 b78 k9 t1",
        "winner": "0",
        "how": "wall",
    }
    r = add(client, path, **fields)
    assert r.status_code == 303, r.text
    page = client.get(r.headers["location"]).text
    assert totals(page) == [3456, -1104, -1176, -1176]
    assert re.search(r'class="score">576 <abbr title="mahjong">M</abbr>', page)
    # the correction form gives the hands back in the notation
    hand = client.get(f"{path}/hands/1").text
    assert 'value="b1 b2 b3 k4 k5 k6 t7 t8 t9 E E E C +C"' in hand
    assert 'value="b1 b1 b1 k5 k5 t2 t3 [C C C] [t4 t5 t6]"' in hand


def test_non_winners_give_just_the_sets_that_score(client: TestClient) -> None:
    """As on the settle page (tests/web/test_settle_page.py::test_from_partial_hands,
    worked out there): Ann, East, 576 self-drawn; Bob (South) 48 from PPP [SSS], Cor
    (West) 8 from k111, Dirk (North) 2 from his pair of North."""
    path = start(client)
    fields = {
        "kind": "hands",
        "hand0": "b123 k456 t789 EEE C +C",
        "hand1": "PPP [SSS]",
        "hand2": "k111",
        "hand3": "NN",
        "winner": "0",
        "how": "wall",
    }
    r = add(client, path, **fields)
    assert r.status_code == 303, r.text
    assert totals(client.get(r.headers["location"]).text) == [3456, -1066, -1186, -1204]
    hand = client.get(f"{path}/hands/1").text  # the notation comes back as typed
    assert 'value="P P P [S S S]"' in hand and 'value="N N"' in hand


def test_the_calculator_link_fills_in_the_hand_of_the_player_at_that_seat(
    client: TestClient,
) -> None:
    """The calculator links here with its own query.  In hand 1 of a sheet under
    nts-2016 Ann is East, Bob South, Cor West, Dirk North (player 0 is East first)."""
    path = start(client)
    page = client.get(
        path,
        params={
            "hand": "CCC [EEE]",
            "seat": "W",
            "round": "E",
            "from": "wall",
            "ruleset": "nts-2016",
        },
    ).text
    assert 'id="hand2" name="hand2" value="CCC [EEE]"' in page  # Cor sits West
    assert 'name="kind" value="hands" checked' in page
    assert 'id="calc-notice"' not in page  # scored where the sheet scores it
    assert '<option value="" selected>nobody (remise)</option>' in page
    # a winning tile makes him the winner
    page = client.get(path, params={"hand": "b123 k456 t789 EEE C +C", "seat": "E"}).text
    assert 'id="hand0" name="hand0" value="b123 k456 t789 EEE C +C"' in page
    assert re.search(
        r'<select id="winner" name="winner"[^>]*>.*?<option value="0" selected>', page, re.S
    )
    # another round or rule set than the sheet's: the reader is told
    page = client.get(
        path, params={"hand": "CCC", "seat": "S", "round": "S", "ruleset": "nmb-2009"}
    ).text
    assert 'id="hand1" name="hand1" value="CCC"' in page
    notice = re.search(r'<p class="notice" id="calc-notice">(.*?)</p>', page)
    assert notice and notice.group(1) == (
        "The calculator scored this hand in the South round under nmb-2009; the sheet "
        "scores it in its place: the East round under nts-2016."
    )
    # East passes on after every hand (NTS 2016 1.8.5): in hand 2 Bob is East
    add(client, path, **scores(0, 0, 0, 0, winner=None))
    page = client.get(path, params={"hand": "CCC", "seat": "E"}).text
    assert 'id="hand1" name="hand1" value="CCC"' in page
    # the sheet's own link to the calculator carries its round and rule set
    assert 'href="/?round=E&amp;ruleset=nts-2016">Score a hand in the calculator' in page


def test_the_live_fragment_is_304_until_the_sheet_changes(client: TestClient) -> None:
    path = start(client)
    page = client.get(path).text
    etag = re.search(r'data-etag="([^"]*)"', page)
    assert etag and etag.group(1) == "W/&#34;sheet-0-en&#34;"
    tag = 'W/"sheet-0-en"'
    same = client.get(f"{path}/live", headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.content == b""
    assert same.headers["etag"] == tag and same.headers["cache-control"] == "no-cache"
    assert client.get(f"{path}/live", headers={"If-None-Match": "*"}).status_code == 304
    # another phone adds a hand: the fragment comes, with the standings and the next form
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    fresh = client.get(f"{path}/live", headers={"If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.headers["etag"] == 'W/"sheet-1-en"'
    assert totals(fresh.text) == [240, -68, -98, -74]  # worked out above
    assert 'data-live="sheet"' in fresh.text and "<html" not in fresh.text
    assert "Add hand 2" in fresh.text and "East round, Bob is East." in fresh.text
    assert 'data-live="who-1"' in fresh.text
    again = client.get(f"{path}/live", headers={"If-None-Match": 'W/"sheet-1-en"'})
    assert again.status_code == 304
    # a correction is a change too; the form comes for hands when asked
    r = client.post(
        f"{path}/hands/1",
        follow_redirects=False,
        data={"kind": "scores", "version": "1", **scores(0, 0, 0, 0, winner=None)},
    )
    assert r.status_code == 303
    fixed = client.get(f"{path}/live?kind=hands", headers={"If-None-Match": 'W/"sheet-1-en"'})
    assert fixed.headers["etag"] == 'W/"sheet-2-en"' and totals(fixed.text) == [0, 0, 0, 0]
    assert 'name="kind" value="hands" checked' in fixed.text
    # each language its own tag; an unknown sheet 404
    dutch = client.get(
        f"{path}/live", headers={"If-None-Match": 'W/"sheet-2-en"', "Accept-Language": "nl"}
    )
    assert dutch.status_code == 200 and dutch.headers["etag"] == 'W/"sheet-2-nl"'
    assert "Spel 2 toevoegen" in dutch.text
    assert client.get("/sheet/" + "x" * 32 + "/live").status_code == 404


def test_the_calculator_can_link_a_hand_into_the_add_form(client: TestClient) -> None:
    path = start(client)
    page = client.get(path, params={"hand": "b123 k55 EEE [t789] +k5", "player": "2"}).text
    assert 'id="hand2" name="hand2" value="b123 k55 EEE [t789] +k5"' in page
    assert 'name="kind" value="hands" checked' in page
    # unknown keys and long values are not taken
    page = client.get(path, params={"hand0": "k" * 500, "evil": "x"}).text
    assert f'value="{"k" * 200}"' in page and 'value="x"' not in page


# --------------------------------------------------------------------------- corrections


def test_a_correction_recomputes_keeps_history_and_refuses_a_stale_version(
    client: TestClient, store: Store
) -> None:
    path = start(client)
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    add(client, path, **scores(0, 0, 0, 0, winner=None))
    form = client.get(f"{path}/hands/2").text
    assert 'name="version" value="1"' in form and "Not corrected yet." in form
    assert 'id="score0" name="score0" value="0"' in form
    # the remise was Bob's win of 16, self-drawn, as East: +96, the others -32
    fields = {"kind": "scores", "version": "1", **scores(0, 16, 0, 0, winner=1)}
    r = client.post(f"{path}/hands/2", data=fields, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{path}?corrected=2#hand-2"
    page = client.get(r.headers["location"]).text
    assert totals(page) == [208, 28, -130, -106]
    assert "Hand 2 corrected." in page and 'class="corrected"' in page
    history = client.get(f"{path}/hands/2").text
    assert "version 2" in history
    assert "was: Ann 0 · Bob 0 · Cor 0 · Dirk 0; a remise" in history
    assert "became: Ann 0 · Bob 16 · Cor 0 · Dirk 0; Bob won, self-drawn" in history
    # a second person still holding version 1 is told, and nothing changes
    changes = count(store, SheetChange)
    r = client.post(f"{path}/hands/2", data={"kind": "scores", "version": "1",
                                             **scores(0, 0, 20, 0, winner=2)})  # fmt: skip
    assert r.status_code == 409
    assert "Someone else corrected hand 2 since you opened it" in r.text
    assert f'<a href="{path}/hands/2">Reload hand 2</a>' in r.text
    assert count(store, SheetChange) == changes
    assert totals(client.get(path).text) == [208, 28, -130, -106]


def test_a_bad_correction_is_refused_beside_the_field(client: TestClient) -> None:
    path = start(client)
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    fields = {"version": "1", **scores(40, 10, 0, 8, winner=0, discarder=0)}
    r = client.post(f"{path}/hands/1", data=fields)
    assert r.status_code == 422
    assert field_error(r.text, "discarder") == "the winner cannot be the discarder"
    r = client.post(f"{path}/hands/1", data={"version": "x", **scores(1, 0, 0, 0, winner=0)})
    assert r.status_code == 422
    assert field_error(r.text, "entry") == "reload the page and correct the hand again"
    assert totals(client.get(path).text) == [240, -68, -98, -74]


@pytest.mark.parametrize("where", ["/hands/2", "/hands/0", "/hands/x", "/hands/99999"])
def test_a_hand_the_sheet_has_not_is_not_found(client: TestClient, where: str) -> None:
    path = start(client)
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    r = client.get(path + where, headers={"accept": "text/html"})
    assert r.status_code == 404 and "Page not found" in r.text


# --------------------------------------------------------------------------- exports


def test_csv_has_a_header_each_hand_and_guards_formulas(client: TestClient) -> None:
    path = start(client, ["=cmd|' /C calc'!A0", "+Bob", "@Cor", "-Dirk"], chip="1")
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    add(client, path, **scores(0, 16, 0, 0, winner=1))
    r = client.get(f"{path}.csv")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["content-disposition"] == 'attachment; filename="score-sheet.csv"'
    assert r.content.startswith(b"\xef\xbb\xbf")  # a BOM: spreadsheets read UTF-8
    text = r.content.decode("utf-8-sig")
    players = ["'=cmd|' /C calc'!A0", "'+Bob", "'@Cor", "'-Dirk"]
    header = ["hand", "game", "round wind", "East"]
    for name in ["=cmd|' /C calc'!A0", "+Bob", "@Cor", "-Dirk"]:
        header += [f"'{name} score", f"'{name} balance", f"'{name} total",
                   f"'{name} total in euros"]  # fmt: skip
    header.append("note")
    # hand 1 as in test_hands_as_scores_...; hand 2: Bob, East, 16 self-drawn: +96.
    # One cent a point: 240 points are 2.40 euro.
    expected = [
        header,
        ["1", "1", "East", players[0],
         "40", "240", "240", "2.40", "10", "-68", "-68", "-0.68",
         "0", "-98", "-98", "-0.98", "8", "-74", "-74", "-0.74", ""],
        ["2", "1", "East", players[1],
         "0", "-32", "208", "2.08", "16", "96", "28", "0.28",
         "0", "-32", "-130", "-1.30", "0", "-32", "-106", "-1.06", ""],
    ]  # fmt: skip
    assert list(csv.reader(io.StringIO(text))) == expected
    assert text.endswith("\r\n")


def test_csv_of_an_unknown_sheet_is_a_404(client: TestClient) -> None:
    r = client.get("/sheet/" + "A" * 32 + ".csv")
    assert r.status_code == 404
    assert r.json() == {"error": "no sheet has this link"}


def test_the_printable_page_has_the_table_and_a4_print_css(client: TestClient) -> None:
    path = start(client)
    add(client, path, **scores(40, 10, 0, 8, winner=0))
    page = client.get(f"{path}/print").text
    assert '<table class="sheet">' in page and "/hands/1" not in page
    assert '<form method="post"' not in page
    css = client.get("/static/sheet.css").text
    assert "@page { size: A4;" in css
    assert re.search(r"@media print \{\s*header\.site, footer\.site", css)


def test_an_unknown_link_is_a_page_not_found(client: TestClient) -> None:
    for path in ("/sheet/nope", "/sheet/" + "A" * 32, "/sheet/" + "A" * 500, "/sheet/%00"):
        r = client.get(path, headers={"accept": "text/html"})
        assert r.status_code == 404, path
    r = client.post("/sheet/" + "A" * 32 + "/hands", data=scores(1, 0, 0, 0, winner=0))
    assert r.status_code == 404


# --------------------------------------------------------------------------- bounds


def test_forms_are_bounded_and_must_be_forms(client: TestClient) -> None:
    path = start(client)
    r = client.post("/sheet", content=b"name=" + b"a" * 70_000, headers=FORM)
    assert r.status_code == 413
    many = "&".join(f"f{i}=1" for i in range(65))
    r = client.post(f"{path}/hands", content=many.encode(), headers=FORM)
    assert r.status_code == 413
    r = client.post("/sheet", json={"names": NAMES})
    assert r.status_code == 415
    r = client.post("/sheet", content=b"name=%ff%fe", headers=FORM)
    assert r.status_code == 400


# --------------------------------------------------------------------------- the database


def test_an_unreachable_database_is_a_503_and_the_rest_still_works(tmp_path: Any) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        r = client.get("/sheet/" + "A" * 32)
        assert r.status_code == 503
        assert "The score sheets cannot be reached now:" in r.text
        assert "does not exist" in r.text
        r = client.post("/sheet", data={"name": NAMES, "ruleset": "nts-2016"})
        assert r.status_code == 503
        assert client.get("/sheet/" + "A" * 32 + ".csv").status_code == 503
        assert client.get("/").status_code == 200
        assert client.post("/api/settle", json={"scores": [0, 40, 0, 0], "winner": 1}).json()[
            "balances"
        ] == [-80, 160, -40, -40]
        # once the folder is there, the next request opens the store
        (tmp_path / "missing").mkdir()
        assert client.get("/sheet/" + "A" * 32, headers={"accept": "text/html"}).status_code == 404


def test_the_sheet_survives_a_new_app_on_the_same_data_folder(tmp_path: Any) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    with TestClient(create_app(settings)) as client:
        path = start(client)
        add(client, path, **scores(40, 10, 0, 8, winner=0))
    assert (tmp_path / "data" / "mahjong-nts.sqlite3").is_file()
    with TestClient(create_app(settings)) as client:
        assert totals(client.get(path).text) == [240, -68, -98, -74]


def test_the_language_switch_of_a_refused_form_leads_back_to_the_sheet(
    client: TestClient,
) -> None:
    path = start(client)
    r = add(client, path, **scores(40, "x", 0, 0, winner=0))  # type: ignore[arg-type]
    assert f'href="{path}/hands?lang=nl"' in r.text
    r = client.get(f"{path}/hands?lang=nl", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{path}?lang=nl"
    page = client.get(r.headers["location"]).text
    assert 'lang="nl"' in page and "Oostronde, Ann is Oost." in page
    client.cookies.clear()
