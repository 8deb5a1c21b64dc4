"""The pages (mahjong_nts/web/pages.py, templating.py, templates/): language, layout,
security headers, and nothing loaded from another site."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app
from mahjong_nts.web.middleware import CSP

PAGES = ["/", "/docs", "/licences"]
NAV_EN = ["Calculator", "Settle", "Score sheet", "Play", "Online", "Tournaments", "Rules"]
NAV_NL = ["Hand berekenen", "Afrekenen", "Scorelijst", "Spelen", "Online", "Toernooien", "Regels"]


def nav_labels(html: str) -> list[str]:
    nav = html.split("<nav", 1)[1].split("</nav>", 1)[0]
    return re.findall(r"<a [^>]*>([^<]+)</a>", nav)


@pytest.mark.parametrize("path", PAGES)
def test_pages_have_the_layout(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert html.startswith("<!doctype html>")
    assert '<html lang="en">' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<a class="skip" href="#main">Skip to content</a>' in html
    assert '<main id="main"' in html
    assert nav_labels(html) == NAV_EN
    assert '<a href="/licences">Licences</a>' in html
    assert '<link rel="stylesheet" href="/static/app.css">' in html


@pytest.mark.parametrize("path", PAGES)
def test_no_inline_script_and_nothing_from_elsewhere(client: TestClient, path: str) -> None:
    html = client.get(path).text
    assert re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html) is None  # every script is a file
    assert re.search(r"\son[a-z]+=", html) is None  # no event handler attributes
    assert "style=" not in html
    for url in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert url.startswith(("/", "#", "?")), url  # this server only: no CDN


def test_the_home_page_links_to_the_api_docs(client: TestClient) -> None:
    html = client.get("/").text
    assert 'href="/docs"' in html
    assert '<a href="/" aria-current="page">Calculator</a>' in html


def test_docs_page_loads_swagger_ui_from_static(client: TestClient) -> None:
    html = client.get("/docs").text
    assert '<script src="/static/vendor/swagger-ui-dist/swagger-ui-bundle.js"></script>' in html
    assert '<link rel="stylesheet" href="/static/vendor/swagger-ui-dist/swagger-ui.css">' in html
    assert '<script src="/static/swagger-init.js"></script>' in html
    assert 'data-openapi-url="/openapi.json"' in html
    assert "https://" not in html and "http://" not in html
    init = client.get("/static/swagger-init.js")
    assert init.status_code == 200
    assert "dataset.openapiUrl" in init.text and "validatorUrl: null" in init.text


def test_swagger_ui_files_when_vendored(client: TestClient) -> None:
    from mahjong_nts.web.pages import STATIC_DIR, SWAGGER_CSS, SWAGGER_JS

    for url in (SWAGGER_JS, SWAGGER_CSS):
        file = STATIC_DIR / url.removeprefix("/static/")
        if not file.is_file():
            pytest.skip(
                "swagger-ui-dist is not vendored on this branch (the vendor branch adds it)"
            )
        assert client.get(url).status_code == 200


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for response in (
        client.get("/"),
        client.get("/static/app.css"),
        client.post("/api/score", content=b"{}", headers={"content-type": "application/json"}),
        client.get("/openapi.json"),
        client.get("/no/such/page"),
    ):
        assert response.headers["content-security-policy"] == CSP
        assert "default-src 'self'" in CSP and "unsafe-inline" not in CSP
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"


def test_unknown_page_is_an_html_404_for_a_browser(client: TestClient) -> None:
    response = client.get("/no-such-page", headers={"accept": "text/html,*/*"})
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.text
    assert nav_labels(response.text) == NAV_EN
    assert client.get("/no-such-page").json() == {"error": "Not Found"}


# --------------------------------------------------------------------------- language


def test_a_dutch_browser_gets_dutch(client: TestClient) -> None:
    response = client.get("/", headers={"accept-language": "nl-NL,nl;q=0.9,en;q=0.8"})
    assert '<html lang="nl">' in response.text
    assert nav_labels(response.text) == NAV_NL
    assert "<h1>Een hand berekenen</h1>" in response.text
    assert '<a class="skip" href="#main">Naar de inhoud</a>' in response.text
    assert response.headers["content-language"] == "nl"
    assert "set-cookie" not in response.headers  # negotiated, not chosen


def test_a_browser_wanting_english_most_gets_english(client: TestClient) -> None:
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.9,nl;q=0.5"})
    assert response.headers["content-language"] == "en"


def test_an_unknown_language_gets_the_default(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"default_language": "nl"}))) as c:
        assert c.get("/", headers={"accept-language": "de-DE"}).headers["content-language"] == "nl"
        assert c.get("/").headers["content-language"] == "nl"
        assert c.get("/", headers={"accept-language": "en"}).headers["content-language"] == "en"


def test_the_switch_sets_a_cookie_that_wins_over_the_browser(app: object) -> None:
    with TestClient(app) as c:  # type: ignore[arg-type]
        response = c.get("/?lang=nl", headers={"accept-language": "en"})
        assert '<html lang="nl">' in response.text
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("lang=nl;") and "SameSite=lax" in cookie and "HttpOnly" in cookie
        # the cookie is kept: the next page is Dutch though the browser asks for English
        again = c.get("/licences", headers={"accept-language": "en"})
        assert again.headers["content-language"] == "nl"
        assert "<h1>Licenties</h1>" in again.text
        back = c.get("/licences?lang=en")
        assert back.headers["content-language"] == "en"
        assert c.get("/").headers["content-language"] == "en"


def test_the_switch_links_to_the_same_page(client: TestClient) -> None:
    html = client.get("/licences").text
    assert '<a href="/licences?lang=nl" hreflang="nl" lang="nl">Nederlands</a>' in html
    assert '<span aria-current="true" lang="en">English</span>' in html


@pytest.mark.parametrize("value", ["de", "", "x" * 500, "nl'><script>"])
def test_a_bad_lang_value_is_ignored(client: TestClient, value: str) -> None:
    response = client.get("/", params={"lang": value}, headers={"accept-language": "en"})
    assert response.status_code == 200
    assert response.headers["content-language"] == "en"
    assert "set-cookie" not in response.headers
    assert "<script>" not in response.text
