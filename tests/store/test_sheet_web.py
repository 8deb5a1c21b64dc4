"""The score sheet's pages on each database (SQLite and PostgreSQL: ``db_url`` of
tests/store/conftest.py): a sheet made, a hand added and corrected, read back by a
new app on the same database.  Balances worked out by hand: NTS 2016 2.1, East pays
and receives double."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app

pytestmark = pytest.mark.db


def test_a_sheet_through_the_app_outlives_the_app(db_url: str) -> None:
    settings = Settings(db_url=db_url)
    with TestClient(create_app(settings)) as client:
        r = client.post(
            "/sheet",
            data={"name": ["Ann", "Bob", "Cor", "Dirk"], "ruleset": "nts-2016"},
            follow_redirects=False,
        )
        assert r.status_code == 303
        path = r.headers["location"]
        # Ann (East) 40 self-drawn: +240; Bob 10, Cor 0, Dirk 8 pay 80 each and settle
        # their differences: -68, -98, -74.
        fields = {"kind": "scores", "score0": "40", "score1": "10", "score3": "8", "winner": "0"}
        assert client.post(f"{path}/hands", data=fields, follow_redirects=False).is_redirect
        # corrected: Bob won 16 on Ann's discard, the others 0.  Ann is East and pays
        # double, 32; Cor and Dirk 16 each (no more for the discarder under nts-2016):
        # Bob +64, Ann -32, Cor -16, Dirk -16.
        fields = {"kind": "scores", "version": "1", "score1": "16", "winner": "1",
                  "discarder": "0"}  # fmt: skip
        r = client.post(f"{path}/hands/1", data=fields, follow_redirects=False)
        assert r.status_code == 303
        stale = client.post(f"{path}/hands/1", data=fields, follow_redirects=False)
        assert stale.status_code == 409
    with TestClient(create_app(settings)) as client:
        page = client.get(path).text
        block = page[page.index('id="standings-title"') : page.index("</section>")]
        assert [int(n) for n in re.findall(r"<strong>(-?\d+)</strong>", block)] == [
            -32, 64, -16, -16,
        ]  # fmt: skip
        assert "version 2" in client.get(f"{path}/hands/1").text
