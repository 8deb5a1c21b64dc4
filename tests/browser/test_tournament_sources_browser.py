"""A tournament's results taken from where the hands were played, in a real browser:
the organiser lets four bots play an online table and writes an evening score sheet,
then pastes their links into the round's tables and sees the standings, the tie-break
columns (mahjongs, deal-ins) included.  Then tables of three and of five: a tournament
of 21 players (one table of five) and one of 18 (two tables of three), each table's
zero-sum check, the standings, the big screen and the score cards.

The server of this module has no claim window and no bot delay (its own data folder),
so that a bots' table plays its hands in seconds.  Balances and table points by hand
(NTS 2016 2.1: the winner receives his score from each player, East pays and receives
double, the others settle their differences; table points 4/2/1/0, tables of three
4/2/0, of five 4/2/1/0/0)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, PHONE, PLAY_SEED, enter_scores, example_codes, shot, shots_dir
from mahjong_nts.formats import gamelog
from server_helpers import running_server

NAMES = [
    "Anna de Vries", "Bram Bakker", "Cor Jansen", "Dirk Visser",
    "Eva Smit", "Fleur Mulder", "Gijs de Boer", "Hanna Bos",
]  # fmt: skip


@pytest.fixture(scope="module")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: bots move at once, a claim window closes when every
    seat has answered (the pages are the same as on any server)."""
    data = tmp_path_factory.mktemp("serve-sources")
    env = {
        "MAHJONG_NTS_PLAY_SEED": PLAY_SEED,
        "MAHJONG_NTS_WINDOW_SECONDS": "0",
        "MAHJONG_NTS_BOT_DELAY_SECONDS": "0",
    }
    with running_server(data, **env) as (url, _proc):
        yield url


def _new_tournament(page: Page, name: str, players: list[str], rounds: str = "3") -> str:
    page.goto("/tournaments")
    page.wait_for_load_state("domcontentloaded")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Date").fill("2026-12-12")
    page.get_by_label("Rounds").fill(rounds)
    page.get_by_label("Seed of the seatings").fill("7")
    page.get_by_role("button", name="Make the tournament").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    rows = ["first name,last name"] + [",".join(n.split(" ", 1)) for n in players]
    page.get_by_label("Players (CSV)").fill("\n".join(rows))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".players-table tbody tr")).to_have_count(len(players))
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    return page.url.split("?", 1)[0].split("#", 1)[0]


def _seats(page: Page, table: int) -> list[tuple[str, int, str]]:
    """Table ``table`` of round 1 in seat order: (wind, number, name), from the labels
    of its result form ("East 3 Cor Jansen")."""
    labels = page.locator(f"form:has(h4#r1t{table}) .seat-score label")
    out = []
    for text in labels.all_inner_texts():
        words = text.split()
        if words[1].isdigit():
            out.append((words[0], int(words[1]), " ".join(words[2:])))
    return out


def _standings(page: Page) -> dict[int, list[str]]:
    """The standings table by player number: place, number, name, table points, score,
    penalty, mahjongs, deal-ins."""
    rows = page.locator("#standings tbody tr")
    return {int(r[1]): r for r in (rows.nth(i).locator("td").all_inner_texts()
                                   for i in range(rows.count()))}  # fmt: skip


def _tally(logs: list[dict[str, Any]], seats: int) -> tuple[list[int], list[int]]:
    """Each table seat's mahjongs and deal-ins, read from the hand logs: the result line
    names the winner and the discarder by hand seat, the header's hand the table seat
    sitting there."""
    mahjongs, deal_ins = [0] * seats, [0] * seats
    for log in logs:
        at, winner, discarder = log["players"], log["winner"], log["discarder"]
        if winner is not None:
            mahjongs[at[winner]] += 1
            if discarder is not None:
                deal_ins[at[discarder]] += 1
    return mahjongs, deal_ins


def test_results_from_an_online_table_and_a_score_sheet(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP)
    organiser = _new_tournament(page, "Wintertoernooi", NAMES)
    one, two = _seats(page, 1), _seats(page, 2)
    assert [w for w, _, _ in one] == ["East", "South", "West", "North"]

    # table 1 played online; here four bots play its two hands (a table made through the
    # API: the lobby's form keeps a seat for a person), and the organiser opens its
    # spectators' link to see that it is over
    online = page_in(DESKTOP)
    bots = [{"kind": "bot", "bot": "heuristic"}] * 4
    made = online.request.post(
        "/api/online/tables", data={"seats": bots, "hands": 2, "turn_seconds": None}
    )
    assert made.status == 201, made.text()
    watch = made.json()["links"]["watch"]
    online.goto(watch)
    online.wait_for_load_state("domcontentloaded")
    expect(online.get_by_test_id("status")).to_have_text("The match is over.", timeout=120_000)
    watch = online.url

    # table 2 writes an evening sheet, its players in the order of the seating
    sheet = page_in(DESKTOP)
    sheet.goto("/sheet")
    sheet.wait_for_load_state("domcontentloaded")
    for i, (_, _, name) in enumerate(two):
        sheet.get_by_label(f"Player {i + 1}", exact=False).fill(name)
    sheet.get_by_role("button", name="Start the sheet").click()
    expect(sheet.get_by_role("heading", name="Score sheet", exact=True)).to_be_visible()
    e, s, w, n = (name for _, _, name in two)
    # hand 1: East 40 self-drawn, South 10, North 8: +240, -68, -98, -74
    enter_scores(sheet, {e: "40", s: "10", n: "8"}, winner=e)
    sheet.get_by_role("button", name="Add the hand").click()
    expect(sheet.get_by_role("status")).to_contain_text("Hand 1 added.")
    # hand 2 (South is East now): West 20 on North's discard, the others nothing: West
    # gets 20 from the first player and North and 40 from South (East pays double)
    enter_scores(sheet, {w: "20"}, winner=w, discarder=n)
    sheet.get_by_role("button", name="Add the hand").click()
    expect(sheet.get_by_role("status")).to_contain_text("Hand 2 added.")
    sheet_link = sheet.url

    # the organiser pastes both links, as "its link" of each table
    for table, link in ((1, watch), (2, sheet_link)):
        form = page.locator(f"form:has(h4#r1t{table})")
        form.get_by_text("From an online table or a score sheet").click()
        form.get_by_label("Its link").fill(link)
        form.get_by_label("Entered by").fill("Els")
        form.get_by_role("button", name="Take its result").click()
        expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.locator("form:has(h4#r1t2) h4")).to_contain_text("version 1 · Els")

    # table 2, from the sheet: 240 - 20, -68 - 40, -98 + 80, -74 - 20
    finals = [int(page.locator(f"#r1t2s{i}").input_value()) for i in range(4)]
    assert finals == [220, -108, -18, -94]
    table = _standings(page)
    assert all(row[6:8] for row in table.values())
    expected = {  # number: table points, score, mahjongs, deal-ins
        two[0][1]: ["4", "220", "1", "0"],
        two[1][1]: ["0", "-108", "0", "0"],
        two[2][1]: ["2", "-18", "1", "0"],
        two[3][1]: ["1", "-94", "0", "1"],
    }
    for number, want in expected.items():
        got = table[number]
        assert [got[3], got[4], got[6], got[7]] == want, (number, got)

    # table 1, from the online table: what its two hand logs say
    table_id = watch.rsplit("/", 1)[1]
    logs = []
    for hand in range(2):
        answer = online.request.get(f"/api/online/watch/{table_id}/log/{hand + 1}")
        assert answer.ok, answer.text()
        parsed = gamelog.parse_hand_log(answer.text())
        assert parsed.result is not None and parsed.header.hand is not None
        logs.append({"players": parsed.header.hand.players, "winner": parsed.result.winner,
                     "discarder": parsed.result.discarder,
                     "balances": parsed.result.settlement.balances})  # fmt: skip
    mahjongs, deal_ins = _tally(logs, 4)
    for seat, (_, number, _) in enumerate(one):
        score = sum(log["balances"][log["players"].index(seat)] for log in logs)
        got = table[number]
        assert [got[4], got[6], got[7]] == [str(score), str(mahjongs[seat]), str(deal_ins[seat])]
    shot(page, "tournament-sources-desktop")

    phone = page_in(PHONE)
    phone.goto(organiser)
    phone.wait_for_load_state("domcontentloaded")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    # on a phone the standings scroll sideways (a region of their own): swiped to the
    # end they show the tie-break columns
    wrap = phone.locator("#standings .table-wrap")
    wrap.scroll_into_view_if_needed()
    wrap.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    expect(phone.locator("#standings th", has_text="Deal-ins")).to_be_in_viewport()
    phone.locator("#standings").screenshot(
        path=str(shots_dir() / "tournament-sources-phone.png"), animations="disabled"
    )


def _names(count: int) -> list[str]:
    first = ["Anna", "Bram", "Cor", "Dirk", "Eva", "Fleur", "Gijs", "Hanna", "Ivo", "Jet",
             "Kees", "Lotte", "Mees", "Noor", "Otto", "Pien", "Quinten", "Roos", "Sem",
             "Tess", "Umut"]  # fmt: skip
    return [f"{first[i]} Speler{i + 1}" for i in range(count)]


def _result(page: Page, table: int, scores: list[int]) -> None:
    form = page.locator(f"form:has(h4#r1t{table})")
    for seat, value in enumerate(scores):
        page.locator(f"#r1t{table}s{seat}").fill(str(value))
    form.get_by_role("button", name="Enter the result").click()


def test_tables_of_five_and_of_three(page_in: Callable[..., Page]) -> None:
    page = page_in(DESKTOP)
    # 21 = 4 x 4 + 5: four tables of four and one of five (the fifth is the dreamer)
    organiser = _new_tournament(page, "Vijftal", _names(21))
    sizes = [len(_seats(page, t)) for t in range(1, 6)]
    assert sorted(sizes) == [4, 4, 4, 4, 5]
    five = sizes.index(5) + 1
    seats = _seats(page, five)
    assert [w for w, _, _ in seats] == ["East", "South", "West", "North", "Dreamer"]
    # a wrong sum at the five: refused beside it, nothing stored
    _result(page, five, [50, 20, -10, -30, -20])
    expect(page.locator(f"#err-t1-{five}")).to_have_text(
        f"round 1, table {five}: the scores sum to 10, not 0 (10 too many): a table's scores "
        "sum to its total"
    )
    _result(page, five, [50, 20, -10, -30, -30])
    expect(page.get_by_role("status")).to_have_text("Saved.")
    for t in range(1, 6):
        if t != five:
            _result(page, t, [30, 10, -10, -30])
            expect(page.get_by_role("status")).to_have_text("Saved.")
    table = _standings(page)
    # the five: 4/2/1/0/0 by place: 50 -> 4, 20 -> 2, -10 -> 1, -30 and -30 share the
    # last two places and split 0 + 0
    got = [(table[n][3], table[n][4]) for _, n, _ in seats]
    assert got == [("4", "50"), ("2", "20"), ("1", "-10"), ("0", "-30"), ("0", "-30")]
    # five winners with 4 points: first on score the 50 of the five, then the four 30s
    places = sorted((int(r[0].rstrip("=")), r[0]) for r in table.values())
    assert table[seats[0][1]][0] == "1" and [p for _, p in places[:6]] == [
        "1", "2=", "2=", "2=", "2=", "6"]  # fmt: skip
    shot(page, "tournament-five-desktop")
    _screen_and_cards(page, organiser, "five", 21)

    # 18 = 4 x 3 + 6: three tables of four and two of three (no North)
    page = page_in(DESKTOP)
    organiser = _new_tournament(page, "Drietal", _names(18))
    sizes = [len(_seats(page, t)) for t in range(1, 6)]
    assert sorted(sizes) == [3, 3, 4, 4, 4]
    threes = [t + 1 for t, size in enumerate(sizes) if size == 3]
    for t in threes:
        assert [w for w, _, _ in _seats(page, t)] == ["East", "South", "West"]
    _result(page, threes[0], [40, -10, -20])
    expect(page.locator(f"#err-t1-{threes[0]}")).to_have_text(
        f"round 1, table {threes[0]}: the scores sum to 10, not 0 (10 too many): a table's "
        "scores sum to its total"
    )
    _result(page, threes[0], [40, -10, -30])
    expect(page.get_by_role("status")).to_have_text("Saved.")
    _result(page, threes[1], [-5, 10, -5])  # South first, East and West share 2nd and 3rd
    expect(page.get_by_role("status")).to_have_text("Saved.")
    for t in range(1, 6):
        if t not in threes:
            _result(page, t, [30, 10, -10, -30])
            expect(page.get_by_role("status")).to_have_text("Saved.")
    table = _standings(page)
    a, b = _seats(page, threes[0]), _seats(page, threes[1])
    # tables of three: 4/2/0; at the second East and West tie and split 2 + 0: 1 each
    assert [(table[n][3], table[n][4]) for _, n, _ in a] == [("4", "40"), ("2", "-10"),
                                                              ("0", "-30")]  # fmt: skip
    assert [(table[n][3], table[n][4]) for _, n, _ in b] == [("1", "-5"), ("4", "10"),
                                                              ("1", "-5")]  # fmt: skip
    shot(page, "tournament-three-desktop")
    _screen_and_cards(page, organiser, "three", 18)


def _screen_and_cards(page: Page, organiser: str, name: str, players: int) -> None:
    """The big screen shows every table of the round, the five with its dreamer, the
    threes without North, and the standings; the score cards one card a table."""
    page.goto(organiser)
    page.get_by_role("link", name="Big screen").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".standings-table tbody tr")).to_have_count(players)
    cards = page.locator(".table-card")
    expect(cards).to_have_count(5)
    seats = sorted(cards.nth(i).locator(".seats li").count() for i in range(5))
    assert seats == ([4, 4, 4, 4, 5] if name == "five" else [3, 3, 4, 4, 4])
    if name == "five":
        expect(page.locator(".table-card").filter(has_text=re.compile("Dreamer"))).to_have_count(1)
    # nobody scrolls a projector: every column of the standings is in view
    wrap = page.locator(".table-wrap")
    assert wrap.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the standings scroll"
    shot(page, f"tournament-screen-{name}-desktop")
    page.goto(organiser + "/print")
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".score-card")).to_have_count(5)
    expect(page.locator(".score-card svg")).to_have_count(players)
    example_codes(page)
    shot(page, f"tournament-cards-{name}-desktop")
