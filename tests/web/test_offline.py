"""The offline calculator's server side (web/offline.py) and the renderer it ships
(calc/result.py): the same bytes as ``GET /calc/result``, from the bundle alone.

The browser half (Pyodide in chromium) is tests/browser/test_offline_browser.py.
"""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from calc_golden import GOLDEN, Golden
from mahjong_nts.calc.result import render_fragment
from mahjong_nts.web.offline import MAX_BUNDLE_BYTES, build_bundle, offline_files

LANGS = {"en": "en-GB,en;q=0.9", "nl": "nl-NL,nl;q=0.9"}


def route(client: TestClient, golden: Golden, lang: str) -> tuple[int, str]:
    answer = client.get(
        "/calc/result?" + golden.query_string(), headers={"Accept-Language": LANGS[lang]}
    )
    assert answer.headers["content-language"] == lang
    return answer.status_code, answer.text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("golden", GOLDEN, ids=[g.name for g in GOLDEN])
def test_the_renderer_gives_the_route_s_bytes(
    client: TestClient, golden: Golden, lang: str
) -> None:
    status, text = route(client, golden, lang)
    assert render_fragment(golden.query_string(), lang) == (status, text)
    # and the golden case says what the books say
    score = re.search(r'data-score="(\d+)"', text)
    problem = re.search(r'<p class="problem"[^>]*>([^<]*)</p>', text)
    if golden.score is not None:
        assert score is not None and int(score.group(1)) == golden.score, text[:400]
    if golden.problem is not None:
        # the core's message, in the page's language (and never the other one)
        said, other = golden.problem, golden.problem_nl
        if lang == "nl":
            said, other = other, said
        assert problem is not None and said is not None and other is not None
        assert said in html.unescape(problem.group(1))
        assert other not in html.unescape(problem.group(1))
        assert score is None
    assert status == (422 if golden.name == "hand too long" else 200)


def test_dutch_is_dutch_and_english_english(client: TestClient) -> None:
    golden = GOLDEN[1]
    assert "<dt>Totaal punten</dt><dd>36</dd>" in route(client, golden, "nl")[1]
    assert "<dt>Total points</dt><dd>36</dd>" in route(client, golden, "en")[1]


def test_a_key_given_twice_counts_with_its_last_value(client: TestClient) -> None:
    text = client.get("/calc/result?hand=CC&hand=CCC&seat=S").text
    assert render_fragment("hand=CC&hand=CCC&seat=S", "en")[1] == text
    assert 'data-score="16"' in text  # CCC, not CC


# ---------------------------------------------------------------------------- the bundle


@pytest.fixture(scope="module")
def bundle(client: TestClient) -> bytes:
    answer = client.get("/offline/bundle.zip")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/zip"
    return answer.content


def test_the_bundle_is_bounded_deterministic_and_revalidated(
    client: TestClient, bundle: bytes
) -> None:
    assert len(bundle) < MAX_BUNDLE_BYTES
    assert build_bundle() == bundle  # the same files give the same bytes
    etag = client.get("/offline/bundle.zip").headers["etag"]
    again = client.get("/offline/bundle.zip", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_the_bundle_holds_no_web_server_and_no_pydantic(bundle: bytes) -> None:
    names = zipfile.ZipFile(io.BytesIO(bundle)).namelist()
    assert "mahjong_nts/calc/result.py" in names
    assert "mahjong_nts/calc/templates/calc_result.html" in names
    assert "mahjong_nts/i18n/locales/nl/LC_MESSAGES/mahjong_nts.mo" in names
    assert "markupsafe/_native.py" in names and "jinja2/environment.py" in names
    assert {"licences/jinja2-LICENSE.txt", "licences/markupsafe-LICENSE.txt"} <= set(names)
    assert not [n for n in names if n.startswith(("mahjong_nts/web/", "mahjong_nts/cli/"))]
    assert "mahjong_nts/formats/wire.py" not in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".pyc"))]


RUN_BUNDLE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from mahjong_nts.calc.result import render_fragment
jobs = json.load(sys.stdin)
out = [render_fragment(query, lang) for query, lang in jobs]
bad = sorted(m for m in sys.modules if m.split(".")[0] in
             ("pydantic", "pydantic_core", "fastapi", "starlette", "babel"))
native = "markupsafe._native" in sys.modules and "markupsafe._speedups" not in sys.modules
json.dump({"out": out, "bad": bad, "native": native}, sys.stdout)
"""


def test_the_bundle_alone_renders_the_route_s_bytes(
    client: TestClient, bundle: bytes, tmp_path: Path
) -> None:
    """The zip extracted into a folder and a bare interpreter (``-I -S``: no
    site-packages, no PYTHONPATH) that sees only it and the standard library: what
    Pyodide has.  Every golden query, in both languages, gives the route's answer."""
    zipfile.ZipFile(io.BytesIO(bundle)).extractall(tmp_path)
    jobs = [(g.query_string(), lang) for g in GOLDEN for lang in LANGS]
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", RUN_BUNDLE, str(tmp_path)],
        input=json.dumps(jobs), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["bad"] == []
    assert result["native"]  # MarkupSafe's pure Python fallback ran, as in Pyodide
    for (query, lang), (status, text) in zip(jobs, result["out"], strict=True):
        golden = next(g for g in GOLDEN if g.query_string() == query)
        assert (status, text) == route(client, golden, lang), (golden.name, lang)


# ---------------------------------------------------------------------------- the app


def test_the_service_worker_lists_what_it_caches(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    found = re.search(r"^const CONFIG = (\{.*\});$", answer.text, re.M)
    assert found, answer.text[:500]
    config = json.loads(found.group(1))
    files = offline_files()
    assert config["shellCache"] == f"mahjong-nts-shell-{files.version}"
    assert config["pyodideCache"] == "mahjong-nts-pyodide-314.0.7"
    # the calculator page, its CSS and JS (4 files, and 3 of the way to the sheet),
    # 42 tile pictures, manifest and icon
    assert config["shell"][0] == "/" and len(config["shell"]) == 1 + 4 + 3 + 2 + 42
    assert config["offline"] == ["/offline/worker.js", "/offline/bundle.zip"]
    total = 0
    for url in config["shell"] + config["offline"] + config["pyodide"]:
        got = client.get(url)
        assert got.status_code == 200, url
        total += len(got.content)
    # nothing of the sheets, the API or play is ever listed
    listed = " ".join(config["shell"] + config["offline"] + config["pyodide"])
    assert not re.search(r"(?:^|\s)/(?:api|sheet|play|settle|replay)(?:/|\s|$)", listed)
    assert all(
        u.startswith(("/static/", "/offline/"))
        for u in listed.split()[1:]
        if u != "/manifest.webmanifest"
    )
    # the figure the page shows covers Pyodide, the worker and the bundle
    assert config["bytes"] == sum(
        len(client.get(u).content) for u in config["offline"] + config["pyodide"]
    )
    assert total < 16_000_000


def test_only_the_worker_may_compile_webassembly(client: TestClient) -> None:
    worker = client.get("/offline/worker.js")
    assert "'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
    assert "unsafe-eval'" not in worker.headers["content-security-policy"].replace(
        "'wasm-unsafe-eval'", ""
    )
    for url in ("/", "/static/calc.js", "/sw.js", "/offline/bundle.zip"):
        assert "wasm" not in client.get(url).headers["content-security-policy"], url


@pytest.mark.parametrize(("lang", "name"), [("en", "Dutch mahjong calculator"),
                                            ("nl", "Mahjong: hand berekenen")])  # fmt: skip
def test_the_manifest_in_the_page_s_language(client: TestClient, lang: str, name: str) -> None:
    answer = client.get("/manifest.webmanifest", headers={"Accept-Language": LANGS[lang]})
    assert answer.headers["content-type"] == "application/manifest+json"
    body = answer.json()
    assert (body["name"], body["lang"]) == (name, lang)
    assert (body["start_url"], body["scope"], body["display"]) == ("/", "/", "standalone")
    icon = client.get(body["icons"][0]["src"])
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg ") and "<path " in icon.text


def test_the_page_links_the_manifest_and_offers_the_download(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": LANGS["nl"]}).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    size = f"{offline_files().offline_bytes / 1e6:.1f}".replace(".", ",")
    assert f"Offline beschikbaar maken ({size} MB)" in page
