"""The rules page (mahjong_nts/web/rules.py): shipped sets side by side, differing rows
marked, book sections, only shipped names, bounds."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def row(html: str, key: str) -> str:
    match = re.search(rf'<tr( class="differs")? data-key="{re.escape(key)}">(.*?)</tr>', html, re.S)
    assert match, key
    return match.group(0)


def values(row_html: str) -> list[str]:
    return re.findall(r'<span class="value">([^<]*)</span>', row_html)


def test_default_compares_nts_2016_and_nmb_2009(client: TestClient) -> None:
    html = client.get("/rules?lang=en").text
    # NTS 2016 2.4.1: self-drawn 2 points; NMB 2009: 15.  Marked as differing.
    self_drawn = row(html, "points.self_drawn")
    assert values(self_drawn) == ["2", "15"] and 'class="differs"' in self_drawn
    # Both give 20 for mahjong: not marked.
    assert 'class="differs"' not in row(html, "points.mahjong")
    east = row(html, "settlement.east_double")
    assert values(east) == ["yes", "no"]
    assert "2.1: &#34;De speler die Oost is, betaalt en ontvangt altijd dubbel&#34;" in east


def test_three_sets_with_an_overlay_and_only_differences(client: TestClient) -> None:
    html = client.get(
        "/rules?set=nts-2016&set=nmb-2009%2Bthree-players&set=rode-draak&only=diff"
    ).text
    assert values(row(html, "table.players")) == ["4", "3", "4"]
    assert "points.mahjong" not in html  # 20 everywhere: left out
    assert "three-players: " in row(html, "table.players")  # cited from the overlay


def test_dutch(client: TestClient) -> None:
    html = client.get("/rules?lang=nl").text
    assert "Spelregels naast elkaar" in html
    assert "Oost betaalt en ontvangt dubbel" in html
    assert values(row(html, "settlement.east_double")) == ["ja", "nee"]


def test_a_file_or_unknown_name_is_refused(client: TestClient) -> None:
    response = client.get("/rules?lang=en&set=/etc/passwd&set=nts-2016")
    assert response.status_code == 422
    assert "never name" in response.text and "file" in response.text
    assert client.get("/rules?set=nts2016").status_code == 422


def test_at_most_three_sets(client: TestClient) -> None:
    response = client.get("/rules?lang=en&" + "&".join(["set=nts-2016"] * 5))
    assert response.status_code == 422
    assert "at most 3" in response.text
    assert client.get("/rules?set=" + "x" * 5000).status_code == 422
