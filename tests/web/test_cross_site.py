"""No change made by a page of another site (web/middleware.py, CrossSiteGuard): a form or
a script elsewhere cannot make a table, take a seat, start a game or write a score sheet in
a visitor's name.  The browser says where a request comes from (``Origin``,
``Sec-Fetch-Site``); a program sends neither and is served as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.middleware import origin_allowed, request_allowed

# TestClient asks for http://testserver: a page of this server has that origin
OWN = {"origin": "http://testserver"}
EVIL = {"origin": "https://evil.example"}
SCORE = {
    "seat_wind": "S",
    "round_wind": "E",
    "concealed": "b123 WWW CCC b234 b55",
    "winning_tile": "b4",
    "win": {"from": "discard"},
}


def _tables(app: FastAPI) -> int:
    return len(app.state.online.tables)


@pytest.mark.parametrize(
    "headers",
    [
        # a browser of today says where a request comes from
        {**EVIL, "sec-fetch-site": "cross-site"},
        {"origin": "null", "sec-fetch-site": "cross-site"},  # a sandboxed page, a file
        {"sec-fetch-site": "cross-site"},  # even without an Origin
        {"origin": "https://other.testserver", "sec-fetch-site": "same-site"},
        {**OWN, "sec-fetch-site": "cross-site"},
        # an older browser without Sec-Fetch-Site: by its Origin
        EVIL,
        {"origin": "http://testserver:8080"},  # another port is another origin
        {"origin": "http://testserver.evil.example"},
    ],
)
def test_a_form_of_another_site_changes_nothing(
    client: TestClient, app: FastAPI, headers: dict[str, str]
) -> None:
    tables = _tables(app)
    made = client.post("/online", data={"hands": "1"}, headers=headers, follow_redirects=False)
    assert made.status_code == 403
    assert "another site" in made.json()["error"]
    assert _tables(app) == tables
    sheet = client.post("/sheet", data={"ruleset": "nts-2016"}, headers=headers)
    assert sheet.status_code == 403
    game = client.post("/play", data={"ruleset": "nts-2016"}, headers=headers)
    assert game.status_code == 403
    api = client.post("/api/online/tables", json={"hands": 1}, headers=headers)
    assert api.status_code == 403
    assert _tables(app) == tables


def test_its_own_pages_and_programs_are_served(client: TestClient, app: FastAPI) -> None:
    tables = _tables(app)
    own = client.post(
        "/online",
        data={"hands": "1", "turn": "off", "claim": "off"},
        headers={**OWN, "sec-fetch-site": "same-origin"},
        follow_redirects=False,
    )
    assert own.status_code == 303, own.text
    assert _tables(app) == tables + 1
    # Chromium's own form post under Referrer-Policy: no-referrer: Origin null, same-origin
    chromium = {"origin": "null", "sec-fetch-site": "same-origin"}
    made = client.post("/online", data={"hands": "1"}, headers=chromium, follow_redirects=False)
    assert made.status_code == 303, made.text
    assert _tables(app) == tables + 2
    program = client.post("/api/score", json=SCORE)  # no Origin: no browser
    assert program.status_code == 200, program.text
    # reading is never refused: a link from another site opens the page
    assert client.get("/online", headers=EVIL).status_code == 200


def test_the_fast_api_path_is_guarded_too(client: TestClient) -> None:
    """/api/score and /api/settle are answered ahead of the router: still behind the guard."""
    assert client.post("/api/score", json=SCORE, headers=EVIL).status_code == 403
    assert client.post("/api/score", json=SCORE, headers=OWN).status_code == 200


def test_allowed_origins_may_act(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, allowed_origins=("https://club.example",)))
    with TestClient(app) as client:
        ok = client.post("/api/score", json=SCORE, headers={"origin": "https://club.example"})
        assert ok.status_code == 200
        assert client.post("/api/score", json=SCORE, headers=EVIL).status_code == 403


def test_origin_allowed() -> None:
    assert origin_allowed(None, "a.example")
    assert origin_allowed("https://a.example", "a.example")  # behind a TLS proxy
    assert origin_allowed("http://a.example:8000", "a.example:8000")
    assert not origin_allowed("http://a.example", "a.example:8000")
    assert not origin_allowed("null", "a.example")
    assert not origin_allowed("ftp://a.example", "a.example")
    assert not origin_allowed("https://a.example", None)
    assert origin_allowed("https://b.example", "a.example", ("https://b.example",))


def test_request_allowed() -> None:
    host = "a.example"
    assert request_allowed(None, host, None)  # a program
    assert request_allowed("null", host, "same-origin")
    assert request_allowed(None, host, "none")  # the user's own doing
    assert not request_allowed("https://a.example", host, "same-site")
    assert not request_allowed("https://a.example", host, "cross-site")
    assert request_allowed("https://b.example", host, "cross-site", ("https://b.example",))
    assert request_allowed("null", host, None)  # an older browser: null says nothing
    assert not request_allowed("https://b.example", host, None)
