"""The calculator page (``GET /``) and its result fragment (``GET /calc/result``).

Totals are worked out by hand from docs/rules.md (nts-2016 unless said otherwise).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from fastapi.testclient import TestClient

from mahjong_nts.web.calc import MAX_HAND_CHARS, MAX_HOUSE_CHARS


def result(client: TestClient, **query: str) -> tuple[int, str, dict[str, Any]]:
    """The fragment's status, text and data attributes (decoded)."""
    answer = client.get("/calc/result", params=query)
    attrs = {
        k: json.loads(html.unescape(v)) if k != "share" else html.unescape(v)
        for k, v in re.findall(r'data-(model|problem|inplay|share)="([^"]*)"', answer.text)
    }
    return answer.status_code, answer.text, attrs


def score_of(text: str) -> int:
    found = re.search(r'data-score="(\d+)"', text)
    assert found, text[:500]
    return int(found.group(1))


def test_plain_concealed_mahjong_self_drawn(client: TestClient) -> None:
    # East in the East round, C drawn from the wall to pair C:
    # EEE concealed 8 + pair of dragons 2 + mahjong 20 + self-drawn 2 + only possible
    # tile 2 + completing the pair 2 = 36 points; pung of own wind 1 + round wind 1 +
    # fully concealed 2 = 4 doublings: 36 x 16 = 576
    status, text, data = result(
        client, hand="b123 k456 t789 EEE C +C", seat="E", round="E", **{"from": "wall"}
    )
    assert status == 200 and data["problem"] is None
    assert score_of(text) == 576
    assert "<dt>Total points</dt><dd>36</dd>" in text
    assert "<dt>Doublings</dt><dd>4</dd>" in text
    assert "Mahjong is allowed with this hand." in text
    # every item explained: both names, the detail, the book's section
    assert '<span class="name">Fully concealed hand</span>' in text
    assert '<span class="alt" lang="nl">Verborgen schat</span>' in text
    assert '<span class="detail">pung of E (concealed)</span>' in text
    assert "NTS 2016, 2.4.2 Verdubbelingen voor de winnaar: &#34;Verborgen schat 2&#34;" in text
    assert data["model"] == {
        "loose": ["b1", "b2", "b3", "k4", "k5", "k6", "t7", "t8", "t9", "E", "E", "E", "C"],
        "winning": "C",
        "melds": [],
        "bonus": [],
    }


def test_a_not_counted_note(client: TestClient) -> None:
    # South in the East round, b4 from a discard: WWW 8 + CCC 8 + mahjong 20 = 36;
    # dragon pung 1 + clean hand 1 = 2 doublings: 144. b1 would also have completed it.
    _, text, _ = result(
        client, hand="b123 WWW CCC b23 b55 +b4", seat="S", round="E", **{"from": "discard"}
    )
    assert score_of(text) == 144
    assert "Did not count" in text
    assert "b4 was not the only tile that completed the hand: b1 also did" in text


def test_refused_mahjong_says_why(client: TestClient) -> None:
    # South, chows and a pair of b5 from a discard: no doubling at all, 2 are needed
    _, text, _ = result(client, hand="b123 b456 k234 t678 b5 +b5", seat="S", **{"from": "discard"})
    assert "Mahjong is not allowed:" in text


def test_a_non_winner_from_only_the_sets_that_score(client: TestClient) -> None:
    # a concealed pung of red dragons alone: 8 points, 1 doubling: 16
    _, text, _ = result(client, hand="CCC", seat="S")
    assert score_of(text) == 16
    assert "scored from the sets shown" in text
    # an open pung of E (round wind) and a concealed kong of W, South: 4 + 32 = 36, x2
    _, text, _ = result(client, hand="[EEE] (WWWW)", seat="S")
    assert score_of(text) == 72


def test_a_meld_that_is_wrong_names_its_place(client: TestClient) -> None:
    status, text, data = result(client, hand="b55 [b124]")
    assert status == 200
    assert data["problem"]["where"] == "hand"
    assert data["problem"]["column"] == 5
    assert "b1 b2 b4 is not a chow, pung or kong" in data["problem"]["message"]
    assert 'class="problem"' in text


def test_a_fifth_copy_names_the_tile(client: TestClient) -> None:
    _, _, data = result(client, hand="b11 [b111]")
    assert data["problem"]["tile"] == "b1"
    assert "5 copies of b1" in data["problem"]["message"]


def test_a_wrong_win_names_the_field(client: TestClient) -> None:
    _, _, data = result(client, hand="b123 k456 t789 EEE C +C", seat="S", heaven="1")
    assert data["problem"]["where"] == "from"
    assert "heaven" in data["problem"]["message"]


def test_the_table_decides_the_palette_and_the_options(client: TestClient) -> None:
    _, _, data = result(client, ruleset="nmb-2009+three-players")
    assert "t1" in data["inplay"]["absent"] and "N" in data["inplay"]["absent"]
    assert data["inplay"]["flowers"] is False and data["inplay"]["lucky"] is False
    _, _, data = result(client, ruleset="rode-draak")
    assert data["inplay"]["lucky"] is True
    page = client.get("/", params={"ruleset": "nmb-2009+three-players"}).text
    assert re.search(r'data-tile="t1" aria-label="characters 1" title="characters 1" hidden', page)
    _, _, data = result(client, ruleset="nts-2016+flowers", hand="CCC f1", seat="S")
    assert data["inplay"]["flowers"] is True


def test_characters_at_three_players_name_the_tile(client: TestClient) -> None:
    _, _, data = result(client, ruleset="nmb-2009+three-players", hand="t111", seat="S")
    assert data["problem"]["tile"] == "t1"


def test_house_rules_pasted_as_toml(client: TestClient) -> None:
    # a pung of dragons worth 2 doublings: 8 x 4 = 32
    _, text, _ = result(client, hand="CCC", seat="S", house="[doublings]\npung_dragon = 2\n")
    assert score_of(text) == 32
    assert '<span class="cite">house rules</span>' in text
    _, _, data = result(client, hand="CCC", house="[doublings\n")
    assert data["problem"]["where"] == "house"
    assert "not valid TOML" in data["problem"]["message"]
    _, _, data = result(client, hand="CCC", house='base = "/etc/passwd"\n')
    assert data["problem"]["where"] == "house"


def test_the_share_url_round_trip(client: TestClient) -> None:
    query = {"hand": "b123 WWW CCC b23 b55 +b4", "seat": "S", "round": "E", "from": "discard"}
    _, first, data = result(client, **query)
    share = data["share"]
    assert share.startswith("/?hand=b123+WWW+CCC+b23+b55+%2Bb4&seat=S&round=E&from=discard")
    page = client.get(share)  # opening the link renders the hand and its score
    assert page.status_code == 200
    assert score_of(page.text) == score_of(first) == 144
    assert 'value="b123 WWW CCC b23 b55 +b4"' in page.text
    again = dict(parse_qsl(urlsplit(share).query))
    assert result(client, **again)[2]["share"] == share


def test_a_palette_tap_without_javascript(client: TestClient) -> None:
    page = client.get("/", params={"hand": "CC", "add": "C", "seat": "S"}).text
    assert 'value="CC C"' in page
    assert score_of(page) == 16


def test_dutch(client: TestClient) -> None:
    page = client.get(
        "/", params={"hand": "CCC", "seat": "S"}, headers={"Accept-Language": "nl"}
    ).text
    assert '<label for="seat">Eigen wind</label>' in page
    assert '<span class="name">Dichte pung edelstenen</span>' in page
    # a Dutch page names the item in Dutch only, and says what it counted in Dutch
    assert "Concealed pung of terminals/honours" not in page
    assert '<span class="detail">pung van C (dicht)</span>' in page
    assert "pung of C (concealed)" not in page
    assert 'aria-label="bamboe 3"' in page


def test_english_names_the_item_in_both_languages(client: TestClient) -> None:
    page = client.get(
        "/", params={"hand": "CCC", "seat": "S"}, headers={"Accept-Language": "en"}
    ).text
    assert '<span class="name">Concealed pung of terminals/honours</span>' in page
    assert '<span class="alt" lang="nl">Dichte pung edelstenen</span>' in page
    assert '<span class="detail">pung of C (concealed)</span>' in page


def test_bounds(client: TestClient) -> None:
    long_hand = client.get("/", params={"hand": "b1 " * (MAX_HAND_CHARS // 3 + 1)})
    assert long_hand.status_code == 422
    assert f"at most {MAX_HAND_CHARS}" in long_hand.text
    house = client.get("/calc/result", params={"house": "#" * (MAX_HOUSE_CHARS + 1)})
    assert house.status_code == 422
    spec = client.get("/calc/result", params={"ruleset": "x" * 500})
    assert spec.status_code == 422
    # a value the form never sends is ignored, not obeyed
    odd = client.get("/calc/result", params={"seat": "Q", "from": "sky", "hand": "CCC"})
    assert odd.status_code == 200


def test_no_inline_script(client: TestClient) -> None:
    page = client.get("/", params={"hand": "CCC"}).text
    assert re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page) is None
    assert '<script type="module" src="/static/calc.js"></script>' in page


def test_the_way_to_a_score_sheet_is_there_for_the_script(client: TestClient) -> None:
    """Without JavaScript nothing of it shows (it needs the sheets this browser opened);
    the script is a module of its own, and the link it makes is the sheet's page with
    the result's share query, which the sheet reads (tests/web/routes/test_sheet_routes.py)."""
    page = client.get("/", params={"hand": "CCC", "seat": "S"}).text
    assert re.search(r'<div id="to-sheet" class="to-sheet"[^>]* hidden>', page)
    assert '<script type="module" src="/static/calc-sheet.js"></script>' in page
    assert 'href="/sheet">Start a score sheet</a>' in page
    _status, _text, attrs = result(client, hand="CCC", seat="S")
    assert dict(parse_qsl(urlsplit(attrs["share"]).query))["seat"] == "S"
    for path in ("/static/calc-sheet.js", "/static/sheets-known.js", "/static/calc-sheet.css"):
        assert client.get(path).status_code == 200
