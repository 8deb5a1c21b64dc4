"""The rules core's texts on the pages (issue 9, "every text translated"): on a Dutch
page what an item counted, why an item did not count, why a hand may not go mahjong,
the citations' notes and the errors are Dutch, and the English is not there; an English
page is as it always was.  The JSON API stays English (a machine contract)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from fastapi.testclient import TestClient

DUTCH = {"lang": "nl"}
ENGLISH = {"lang": "en"}
"""The page's language, asked in the query (it wins over the cookie a page set before)."""

BRIEF = {"hand": "b123 WWW CCC b23 b55 +b4", "seat": "S", "from": "discard"}
"""b123 b234 WWW CCC b55, b4 claimed by South in the East round (nts-2016): mahjong 20 +
two concealed pungs of honours 2 x 8 = 36 points; the dragon pung and a clean hand
(bamboo with honours) are 2 doublings: 144.  b1 would also have completed b23, W is
neither South nor East, and a claimed tile is no fully concealed hand."""


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _problem(page: str) -> dict[str, Any]:
    found = re.search(r'data-problem="([^"]*)"', page)
    assert found
    problem: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return problem


def test_the_briefs_hand_in_dutch(client: TestClient) -> None:
    page = client.get("/calc/result", params={**BRIEF, **DUTCH}).text
    assert 'data-score="144"' in page
    text = _text(page)
    for dutch in (
        "pung van W (dicht), pung van C (dicht)",
        "b4, van de tafel geclaimd",
        "bamboe met winden en draken",
        "b4 was niet de enige steen die de hand afmaakte: b1 ook",
        "pung van W: een pung winden telt alleen voor de eigen wind (S) of de rondewind (E)",
        "b4 was van de tafel geclaimd: bij een volledig dichte hand pak je elke steen zelf",
        "NTS 2016, 2.4.1, punten voor de winnaar",
        "één kleur met winden en draken",
    ):
        assert dutch in text
    for english in (
        "pung of W (concealed)",
        "claimed from a discard",
        "was not the only tile",
        "points for the winner",
        "one suit with honours",
        "Concealed pung of terminals/honours",  # the item's English name
        "Only possible tile",
    ):
        assert english not in text


def test_the_briefs_hand_in_english_is_unchanged(client: TestClient) -> None:
    text = _text(client.get("/calc/result", params={**BRIEF, **ENGLISH}).text)
    for english in (
        "Concealed pung of terminals/honours Dichte pung edelstenen pung of W (concealed), "
        "pung of C (concealed)",
        "b4, claimed from a discard",
        "b4 was not the only tile that completed the hand: b1 also did",
        "NTS 2016, 2.4.1, points for the winner",
    ):
        assert english in text


def test_a_refusal_in_dutch(client: TestClient) -> None:
    # b123 b456 k789 t111 t55, t5 claimed by West: no doubling at all (1.8: two needed)
    query = {"hand": "b123 b456 k789 t111 t5 +t5", "seat": "W", "from": "discard"}
    text = _text(client.get("/calc/result", params={**query, **DUTCH}).text)
    assert (
        "Mahjong is niet toegestaan: 0 verdubbelingen: voor mahjong zijn er minstens 2 nodig"
        in text
    )
    assert "a mahjong needs" not in text


def test_an_error_in_dutch_beside_its_tile_and_column(client: TestClient) -> None:
    page = client.get("/calc/result", params={"hand": "b123 WWW CCC b23 b55 X +b4", **DUTCH}).text
    problem = _problem(page)
    assert problem["column"] == 22  # "X" is the 22nd character
    assert problem["message"].startswith("onbekende steen 'X' in kolom 22; stenen schrijf je als")
    assert "unknown tile" not in page
    fifth = _problem(client.get("/calc/result", params={"hand": "b11 [b111]", **DUTCH}).text)
    assert fifth["tile"] == "b1"
    assert fifth["message"] == (
        "5 exemplaren van b1 (2 dicht, 3 in combinaties): er zijn maar 4 van elke steen"
    )
    english = _problem(client.get("/calc/result", params={"hand": "b11 [b111]", **ENGLISH}).text)
    assert (
        english["message"]
        == "5 copies of b1 (2 concealed, 3 in melds): there are only 4 of each tile"
    )
    three = _problem(
        client.get(
            "/calc/result",
            params={"ruleset": "nmb-2009+three-players", "hand": "t111", "seat": "S", **DUTCH},
        ).text
    )
    assert three["tile"] == "t1"
    assert three["message"].startswith("t1 wordt bij nmb-2009+three-players niet gespeeld")


def test_a_wrong_number_of_tiles_in_dutch(client: TestClient) -> None:
    page = client.get("/", params={"hand": "b123 WWW CCC b23 b55 b4", **DUTCH}).text
    assert "een hand zonder mahjong heeft 13 stenen (een kong telt als 3), deze heeft er 14" in page
    assert "a non-winning hand" not in page


def test_the_api_stays_english(client: TestClient) -> None:
    request = {
        "seat_wind": "S",
        "round_wind": "E",
        "concealed": "b123 WWW CCC b234 b55",
        "winning_tile": "b4",
        "win": {"from": "discard"},
    }
    answer = client.post("/api/score", json=request, headers={"Accept-Language": "nl"}).json()
    notes = {n["id"]: n["reason"] for n in answer["not_counted"]}
    assert notes["only_possible_tile"] == (
        "b4 was not the only tile that completed the hand: b1 also did"
    )
    bad = client.post(
        "/api/score", json={**request, "concealed": "b123 X"}, headers={"Accept-Language": "nl"}
    )
    assert bad.status_code == 422 and "unknown tile 'X'" in bad.json()["error"]


def test_settle_errors_in_dutch(client: TestClient) -> None:
    query = {
        "lang": "nl",
        "mode": "hands",
        "winner": "1",
        "hand0": "b123 b456 b789 EEE k1",
        "hand1": "b123 b456 b789 k234 +k11",
        "hand2": "t11",
        "hand3": "t22",
    }
    text = _text(client.get("/settle", params=query).text)
    assert "de winnende steen is één steen, 'k11' is er 2 in kolom 22" in text
    assert "the winning tile is one tile" not in text


def test_rules_page_citations_and_errors_in_dutch(client: TestClient) -> None:
    text = _text(client.get("/rules", params={"set": ["nts-2016", "nts-2017"], **DUTCH}).text)
    assert "onbekende spelregels 'nts-2017' (bedoel je 'nts-2016'?)" in text
    assert "2.2: met of zonder mahjong" in text  # limit_non_winner: "2.2: winner or not"
    assert "winner or not" not in text and "unknown rule set" not in text
    english = _text(client.get("/rules", params={"set": "nts-2016", **ENGLISH}).text)
    assert "2.2: winner or not" in english


def test_replay_errors_in_dutch(client: TestClient) -> None:
    answer = client.post(
        "/replay?lang=nl", files={"log": ("hand.jsonl", b"\n", "application/x-ndjson")}
    )
    assert answer.status_code == 422
    text = _text(answer.text)
    assert "geen leesbaar spelverslag: regel 1: lege regel" in text
    assert "empty line" not in text


def test_play_refusals_in_dutch(client: TestClient) -> None:
    """The bot game's own refusals (not the core's) follow the page's language too."""
    made = client.post("/api/play", json={"ruleset": "nts-2016", "hands": 1})
    assert made.status_code == 201, made.text
    game = made.json()
    early = client.post(f"/api/play/{game['game']}/next?lang=nl", json={"hand": game["hand"]})
    assert early.status_code == 409
    assert early.json()["error"] == "spel 1 wordt nog gespeeld"
    english = client.post(f"/api/play/{game['game']}/next?lang=en", json={"hand": game["hand"]})
    assert english.json()["error"] == "hand 1 is still in play"
    form = client.post("/play?lang=nl", data={"ruleset": "nts-2016", "hands": "0"})
    assert form.status_code == 422
    assert "spellen: minstens 1" in _text(form.text)
