"""A tournament in a real browser: make it, register players (a file with a mistake,
then the right one, a duplicate refused), seat round 1, enter its results with a wrong
sum first, see the standings, the big screen, a player's own page on a phone and the
score cards.  Table points by hand: 4/2/1/0 by place at the table, ties split
(docs/tournament.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from browser_helpers import DESKTOP, PHONE, example_codes, shot
from server_helpers import ROOT

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
"""axe-core, as tests/browser/test_a11y.py runs it: the WCAG 2.1 A and AA rules."""

PLAYERS = "\n".join(
    [
        "first name,last name,club",
        "Anna,de Vries,De Groene Draak",
        "Bram,Bakker,De Groene Draak",
        "Cor,Jansen,Hilversum",
        "Dirk,Visser,Hilversum",
        "Eva,Smit,Utrecht",
        "Fleur,Mulder,Utrecht",
        "Gijs,de Boer,Delft",
        "Hanna,Bos,Delft",
    ]
)


def _axe(page: Page, where: str) -> None:
    page.wait_for_load_state("networkidle")
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: "tag",
                values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
                resultTypes: ["violations"]});
            return r.violations.map((v) => ({id: v.id, help: v.help,
                nodes: v.nodes.map((n) => n.target.join(" "))}));
        }"""
    )
    assert found == [], (where, found)


def _table_names(page: Page, table: int) -> list[str]:
    """The names at a table of round 1, in seat order (from the result form's labels)."""
    form = page.locator(f"form:has(h4#r1t{table})")
    labels = form.locator(".seat-score label").all_inner_texts()[:4]
    # "East 3 Cor Jansen": the wind, the number, the name
    return [" ".join(label.split()[2:]) for label in labels]


def _scores(page: Page, table: int, scores: list[str]) -> None:
    for seat, value in enumerate(scores):
        page.locator(f"#r1t{table}s{seat}").fill(value)


def test_register_seat_enter_results_and_see_the_standings(
    page_in: Callable[..., Page],
) -> None:
    page = page_in(DESKTOP)
    page.add_init_script(path=str(AXE))  # on every document the page loads
    page.goto("/tournaments")
    page.wait_for_load_state("domcontentloaded")
    page.get_by_label("Name").fill("Herfsttoernooi")
    page.get_by_label("Date").fill("2026-11-28")
    page.get_by_label("Rounds").fill("4")
    page.get_by_label("Seed of the seatings").fill("12")
    _axe(page, "new tournament")
    shot(page, "tournament-new-desktop")
    page.get_by_role("button", name="Make the tournament").click()
    expect(page.get_by_role("heading", name="Herfsttoernooi")).to_be_visible()
    organiser = page.url

    # a file with a mistake on line 4 registers nobody, and says where
    page.get_by_label("Players (CSV)").fill(PLAYERS.replace("Dirk,Visser", "Dirk,<b>Visser</b>"))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator("#err-import")).to_have_text(
        "players file, line 5, column 2 (last name): '<b>Visser</b>' has '<': a name is text, "
        "not markup"
    )
    expect(page.get_by_text("No players yet.")).to_be_visible()
    page.get_by_label("Players (CSV)").fill(PLAYERS)
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.locator(".players-table tbody tr")).to_have_count(8)

    # the same person twice is refused
    page.get_by_label("First name").fill("anna")
    page.get_by_label("Last name").fill("De Vries")
    page.get_by_role("button", name="Register", exact=True).click()
    expect(page.locator("#err-register")).to_have_text(
        "the new player: 'anna De Vries' is registered already (player 1)"
    )

    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    first, second = _table_names(page, 1), _table_names(page, 2)
    assert sorted(first + second) == sorted(
        f"{line.split(',')[0]} {line.split(',')[1]}" for line in PLAYERS.splitlines()[1:]
    )

    # a wrong sum is refused beside its table, with what was typed kept
    _scores(page, 1, ["40", "10", "-20", "-25"])
    page.locator("form:has(h4#r1t1)").get_by_role("button", name="Enter the result").click()
    error = page.locator("#err-t1-1")
    expect(error).to_have_text(
        "round 1, table 1: the scores sum to 5, not 0 (5 too many): a table's scores sum to "
        "its total"
    )
    expect(page.locator("#r1t1s3")).to_have_value("-25")
    expect(page.locator("#r1t1s3")).to_have_attribute("aria-invalid", "true")
    _axe(page, "organiser, a wrong sum")
    shot(page, "tournament-wrong-sum-desktop")
    page.locator("#r1t1s3").fill("-30")
    page.locator("form:has(h4#r1t1)").get_by_role("button", name="Enter the result").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    _scores(page, 2, ["25", "25", "-10", "-40"])
    page.locator("form:has(h4#r1t2)").get_by_role("button", name="Enter the result").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")

    # table 1: 4, 2, 1, 0 by seat; table 2: East and South tie on 25 and split 4 + 2
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(8)
    top = rows.nth(0).locator("td").all_inner_texts()
    assert top[2:5] == [first[0], "4", "40"] and top[0] == "1"
    second_place = [rows.nth(i).locator("td").all_inner_texts() for i in (1, 2)]
    assert {r[2] for r in second_place} == {second[0], second[1]}
    assert all(r[0] == "2=" and r[3:5] == ["3", "25"] for r in second_place)
    shot(page, "tournament-organiser-desktop")

    # the big screen, from the organiser's link to it
    page.get_by_role("link", name="Big screen").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(page.locator(".standings-table tbody tr").first).to_contain_text(first[0])
    screen = page.url
    _axe(page, "big screen")
    shot(page, "tournament-screen-desktop")

    # the score cards and the seating list
    page.goto(organiser + "/print")
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".score-card")).to_have_count(2)
    expect(page.locator(".score-card svg")).to_have_count(8)
    _axe(page, "score cards")
    # the codes hold the tournament's random link: the picture shows an example's
    example_codes(page)
    shot(page, "tournament-cards-desktop")

    # a player's own page on a phone, and the organiser's page there
    phone = page_in(PHONE)
    phone.add_init_script(path=str(AXE))
    phone.goto(screen.replace("/screen", ""))
    phone.wait_for_load_state("domcontentloaded")
    phone.get_by_role("link", name=first[0]).first.click()
    phone.wait_for_load_state("domcontentloaded")
    expect(phone.get_by_role("heading", level=1)).to_contain_text(first[0])
    expect(phone.locator(".place")).to_contain_text("Place 1 of 8")
    expect(phone.locator("tbody tr").first).to_contain_text("East")
    _axe(phone, "a player's page")
    shot(phone, "tournament-player-phone")
    phone.goto(organiser)
    phone.wait_for_load_state("domcontentloaded")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing wider than the phone
    _axe(phone, "organiser on a phone")
    shot(phone, "tournament-organiser-phone")
    phone.goto(screen)
    phone.wait_for_load_state("domcontentloaded")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(phone, "tournament-screen-phone")

    # the big screen shows round 2 by itself once the organiser seats it
    page.goto(screen)
    page.wait_for_load_state("domcontentloaded")
    other = page_in(DESKTOP)
    other.goto(organiser)
    other.get_by_role("button", name="Seat round 2").click()
    expect(other.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible(timeout=40_000)


def test_a_fixed_schedule_and_a_player_who_plays_on(page_in: Callable[..., Page]) -> None:
    """An organiser pastes a loopschema (its round stored as written), marks a player gone
    after round 1, and takes that back with "Plays on"."""
    page = page_in(DESKTOP)
    page.goto("/tournaments")
    page.wait_for_load_state("domcontentloaded")
    page.get_by_label("Name").fill("Loopschema")
    page.get_by_label("Date").fill("2026-12-05")
    page.get_by_label("Rounds").fill("3")
    page.get_by_role("button", name="Make the tournament").click()
    expect(page.get_by_role("heading", name="Loopschema")).to_be_visible()
    page.get_by_label("Players (CSV)").fill(PLAYERS)
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".players-table tbody tr")).to_have_count(8)

    # the first round written by hand, seated as written
    page.get_by_text("Seat from a fixed schedule (loopschema)").click()
    page.get_by_label("Schedule (CSV)").fill(
        "round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,8"
    )
    page.get_by_role("button", name="Seat from the schedule").click()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(page.get_by_role("button", name="Seat round 2")).to_be_visible()
    assert _table_names(page, 1) == ["Anna de Vries", "Bram Bakker", "Cor Jansen", "Dirk Visser"]
    assert _table_names(page, 2) == ["Eva Smit", "Fleur Mulder", "Gijs de Boer", "Hanna Bos"]

    # Cor (3) goes home after round 1, then plays on after all
    page.locator("#st-player").fill("3")
    page.locator("#st-last").fill("1")
    page.locator("form:has(#st-player)").get_by_role("button").click()
    cor = page.locator(".players-table tbody tr").nth(2)
    expect(cor.locator("td").nth(4)).to_contain_text("1–1")
    cor.get_by_role("button", name="Player 3 plays on to the last round").click()
    cor = page.locator(".players-table tbody tr").nth(2)
    expect(cor.locator("td").nth(4)).to_contain_text("1–3")
    expect(cor.get_by_role("button")).to_have_count(0)
