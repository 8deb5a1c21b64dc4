"""The settle page (mahjong_nts/web/settle.py): settlements worked out by hand from
the rules, the book's gross table, the drawing, errors beside their field, bounds."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.web.settle import MAX_HAND_CHARS, MAX_QUERY_CHARS


def page(client: TestClient, lang: str = "en", **fields: Any) -> Any:
    return client.get(f"/settle?{urlencode({'lang': lang, **fields})}")


def nets(html: str) -> list[int]:
    return [int(v) for v in re.findall(r'data-testid="net\d">([+-]?\d+)<', html)]


def gross(html: str) -> list[list[str]]:
    table = html.split('<table class="gross">', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    rows = re.findall(r"<tr><th scope=\"row\">[^<]*</th>(.*?)</tr>", body, re.S)
    return [re.findall(r'<td class="num">(.*?)</td>', row)[:-1] for row in rows]


def error_beside(html: str, key: str) -> str:
    match = re.search(rf'<p class="field-error" id="err-{key}"[^>]*>([^<]*)</p>', html)
    assert match, f"no error beside {key}"
    return match.group(1)


OTHERS = {
    "hand1": "b111 k55 t23 [CCC] [t456]",
    "hand2": "k1 k2 k3 k7 k8 k9 t1 t1 t5 t6 t7 b4 b5",
    "hand3": "k2 k3 k4 b6 b7 b8 t2 t2 t4 b9 b9 S S",
}


def scores(*values: int) -> dict[str, str]:
    return {f"score{i}": str(v) for i, v in enumerate(values)}


def test_empty_form(client: TestClient) -> None:
    response = client.get("/settle")
    assert response.status_code == 200
    html = response.text
    for i in range(4):  # nts-2016 seats four
        assert f'id="score{i}"' in html
    assert 'id="score4"' not in html
    assert "table-svg" not in html and "field-error" not in html


# a player's own column: a dot on screen, "nothing" for a screen reader
NOTHING = '<span aria-hidden="true">·</span><span class="sr">nothing</span>'


def test_nts_2016_east_wins_40_self_drawn(client: TestClient) -> None:
    """NTS 2016, 2.1: East pays and receives double; the winner receives his score from
    everyone.  East wins 40 from the wall: each other player pays him 2 x 40 = 80."""
    response = page(client, winner=0, east=0, **scores(40, 0, 0, 0))
    assert response.status_code == 200, response.text
    html = response.text
    assert nets(html) == [240, -80, -80, -80]
    assert gross(html) == [
        [NOTHING, "0", "0", "0"],
        ["80", NOTHING, "0", "0"],
        ["80", "0", NOTHING, "0"],
        ["80", "0", "0", NOTHING],
    ]
    assert "Player 2 pays Player 1 80" in html
    assert html.count('<line class="pay"') == 3  # one arrow per payer


def test_losers_settle_the_difference(client: TestClient) -> None:
    """East wins 40; South scored 10, West 20, North 0.  Each loser pays East 80; South
    and West receive their score from every other loser: West pays South 10, South
    pays West 20 (net 10 from South to West), North pays each his score."""
    html = page(client, winner=0, east=0, **scores(40, 10, 20, 0)).text
    assert nets(html) == [240, -80 - 20 + 10 + 10, -80 - 10 + 20 + 20, -80 - 10 - 20]
    rows = gross(html)
    assert rows[1][:3] == ["80", NOTHING, "20"]
    assert rows[2][:2] == ["80", "10"]
    assert "Player 2 pays Player 3 10" in html  # netted: 20 - 10
    assert html.count('<line class="pay"') == 6


def test_five_players_with_a_dreamer(client: TestClient) -> None:
    """nmb-2009+five-players: East not doubled, the discarder pays the winner double,
    the dreamer (seat 5) neither pays nor receives.  Seat 4 wins 100 on seat 2's
    discard; seat 2 scored 30."""
    response = page(
        client,
        ruleset="nmb-2009+five-players",
        winner=3,
        discarder=1,
        east=0,
        dreamer=4,
        **scores(0, 30, 0, 100, 0),
    )
    assert response.status_code == 200, response.text
    html = response.text
    assert nets(html) == [-100 - 30, -200 + 30 + 30, -100 - 30, 400, 0]
    assert "dreamer" in html.split('<table class="net">', 1)[1]
    assert html.count('<line class="pay"') == 5  # 3 to the winner, 2 to seat 2


def test_three_players(client: TestClient) -> None:
    """nmb-2009+three-players: three seats; seat 1 wins 50 from the wall, seat 3
    scored 20 and receives it from seat 2."""
    response = page(client, ruleset="nmb-2009+three-players", winner=0, east=1, **scores(50, 0, 20))
    html = response.text
    assert 'id="score3"' not in html
    assert nets(html) == [100, -70, -30]


def test_remise(client: TestClient) -> None:
    html = page(client, winner="none", **scores(40, 10, 0, 0)).text
    assert nets(html) == [0, 0, 0, 0]
    assert "Remise: nobody pays anybody." in html


def test_from_hands(client: TestClient) -> None:
    """The hands of tests/web/web_helpers.py: East's 576 (self-drawn) and South's 24;
    West and North hold only chows and plain pairs: 0.  East receives 2 x 576 from
    each; South receives 24 from West and North."""
    hands = {
        "hand0": "b123 k456 t789 EEE C +C",
        "hand1": "b111 k55 t23 [CCC] [t456]",
        "hand2": "k1 k2 k3 k7 k8 k9 t1 t1 t5 t6 t7 b4 b5",
        "hand3": "k2 k3 k4 b6 b7 b8 t2 t2 t4 b9 b9 S S",
    }
    response = page(client, mode="hands", winner=0, east=0, round_wind="E", **hands)
    assert response.status_code == 200, response.text
    html = response.text
    assert nets(html) == [3 * 1152, -1152 + 48, -1152 - 24, -1152 - 24]


PARTIAL = {
    "hand0": "b123 k456 t789 EEE C +C",
    "hand1": "PPP [SSS]",
    "hand2": "k111",
    "hand3": "NN",
}


def test_from_partial_hands(client: TestClient) -> None:
    """At the table only the winner's hand is whole; the others give the sets that
    score (NTS 2016 2.1, 1.4 for the items).  East wins 576 self-drawn (as above).
    South: a concealed pung of white dragons 8, an open pung of South 4 = 12 points,
    doubled for the dragons and for his own wind: 48.  West: a concealed pung of k1,
    8.  North: a pair of his own wind, 2.  East receives 2 x 576 from each; then South
    gets 48 - 8 = 40 from West and 48 - 2 = 46 from North, West 8 - 2 = 6 from North:
    South -1152 + 86, West -1152 - 40 + 6, North -1152 - 52."""
    response = page(client, mode="hands", winner=0, east=0, round_wind="E", **PARTIAL)
    assert response.status_code == 200, response.text
    html = response.text
    assert nets(html) == [3 * 1152, -1066, -1186, -1204]
    shown = re.findall(r"<li>Player \d: (\d+)</li>", html)
    assert shown == ["576", "48", "8", "2"]
    # each is what the calculator says of that hand in that seat
    for i, seat in enumerate("ESWN"):
        calc = client.get("/calc/result", params={"hand": PARTIAL[f"hand{i}"], "seat": seat})
        assert f'data-score="{shown[i]}"' in calc.text


def test_a_partial_hand_is_a_non_winners(client: TestClient) -> None:
    # the winner's hand is whole: a short one with a winning tile is still refused
    short = page(client, mode="hands", winner=0, **{**PARTIAL, "hand0": "EEE C +C"})
    assert short.status_code == 422
    assert "a winning hand has 14 tiles" in error_beside(short.text, "hand0")
    # 13 tiles or more without a winning tile is a whole hand, so it has 13
    many = page(client, mode="hands", winner=0, **{**PARTIAL, "hand1": "b111 b222 b333 b444 k55"})
    assert many.status_code == 422
    assert "a non-winning hand has 13 tiles" in error_beside(many.text, "hand1")


@pytest.mark.parametrize(
    ("fields", "key", "says"),
    [
        ({"winner": 0, **scores(40, 0, 0)}, "score3", "whole number"),
        ({"winner": 0, **scores(40, -5, 0, 0)}, "score1", "whole number"),
        ({"winner": 0, **scores(40, 0, 0, 0), "discarder": 0}, "discarder", "winner cannot"),
        ({"winner": "none", **scores(40, 0, 0, 0), "discarder": 1}, "discarder", "remise"),
        ({"winner": 0, **scores(40, 0, 0, 0), "dreamer": 1}, "form", "table of five"),
        ({"winner": 7, **scores(40, 0, 0, 0)}, "winner", "not a seat"),
        ({"winner": "x", **scores(40, 0, 0, 0)}, "winner", "choose a player"),
        ({"winner": "", **scores(40, 0, 0, 0)}, "winner", "Choose who won"),
        (
            {"mode": "hands", "winner": 0, "hand0": "b123 k456 t789 EEE C C", **OTHERS},
            "hand0",
            "winning tile",
        ),
        ({"mode": "hands", "winner": 0, "hand1": "b12x"}, "hand1", ""),
        ({"mode": "hands", "winner": 0, "hand1": "b1" * MAX_HAND_CHARS}, "hand1", "at most"),
        ({"ruleset": "/etc/passwd", "winner": 0}, "ruleset", "file"),
    ],
)
def test_bad_input_is_said_beside_its_field(
    client: TestClient, fields: dict[str, Any], key: str, says: str
) -> None:
    response = page(client, **fields)
    assert response.status_code == 422
    assert says in error_beside(response.text, key)
    assert f'aria-describedby="err-{key}"' in response.text or key == "form"
    assert "table-svg" not in response.text


def test_too_long_an_address(client: TestClient) -> None:
    response = client.get("/settle?name0=" + "a" * MAX_QUERY_CHARS)
    assert response.status_code == 414
    assert "too long" in response.text


def test_names_and_dutch(client: TestClient) -> None:
    html = page(
        client, lang="nl", winner=1, east=0, name0="Anna", name1="Bert", **scores(0, 40, 0, 0)
    ).text
    assert '<html lang="nl">' in html
    assert "Anna betaalt Bert 80" in html
    assert "Oost" in html and "Wie betaalt wie" in html
    assert "<script>" not in html  # the CSP forbids inline script


def test_names_are_escaped(client: TestClient) -> None:
    html = page(client, winner=1, name0="<b>x</b>", **scores(0, 40, 0, 0)).text
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_share_link_is_the_query(client: TestClient) -> None:
    html = page(client, winner=1, **scores(0, 40, 0, 0)).text
    assert 'href="/settle?lang=en&amp;winner=1&amp;score0=0' in html
