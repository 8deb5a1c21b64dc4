"""Browser tests: Playwright (Python) driving Debian's chromium against a real
``mahjong-nts serve`` on 127.0.0.1, as a person would use the pages.

* ``live_url``: one server for the whole session, with its own data folder; it deals
  the games against the bots from ``browser_helpers.PLAY_SEED`` (the same every run).
* ``browser``: chromium, headless, started from ``CHROMIUM`` (default
  ``/usr/bin/chromium``; ``.ci/run`` installs Debian's package). A missing browser is an
  error, not a skip: CI must run these tests.
* ``phone`` / ``desktop``: a fresh page (own cookies) at 360x740 or 1280x800, English;
  ``page_in(width, locale)`` for others. Every page fails its test on a console error or
  an uncaught exception in the page.
* ``browser_helpers.shot(page, name)``: a screenshot NAME.png, in ``docs/images/web`` with
  ``MAHJONG_NTS_DOC_SHOTS=1``, else in a temporary folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from browser_helpers import ARGS, CHROMIUM, DESKTOP, PHONE, PLAY_SEED
from server_helpers import drain, running_server

# a busy two-core CI machine: waits are generous (they end as soon as the page is ready)
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("serve-data")
    with running_server(data, MAHJONG_NTS_PLAY_SEED=PLAY_SEED) as (url, proc):
        drain(proc)  # the session's many requests would fill the log's pipe
        yield url


# Playwright's sync API keeps an asyncio loop running while it is open, which breaks any
# later test that calls asyncio.run(): so it lives per module, not for the session.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM)")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield browser
    browser.close()


def _refused_form(msg: ConsoleMessage) -> bool:
    """Chromium's console line for a page answered 409 or 422: the documented answer
    to a form with a problem (the page shows the message beside the field).  Only the
    page itself (a ``POST`` answered with a page), never a script, style or picture."""
    url = msg.location.get("url", "")
    return bool(
        re.fullmatch(r"Failed to load resource: the server responded with a status of "
                     r"(409|422) \(.*\)", msg.text)
        and not re.search(r"\.(js|css|svg|png|json)(\?|$)", url)
    )  # fmt: skip


@pytest.fixture
def page_in(browser: Browser, live_url: str) -> Iterator[Callable[..., Page]]:
    """``page_in(viewport, locale="en-GB")``: a new page in a context of its own."""
    contexts = []
    problems: list[str] = []

    def make(viewport: dict[str, int], locale: str = "en-GB") -> Page:
        context = browser.new_context(viewport=viewport, locale=locale, base_url=live_url)
        contexts.append(context)
        page = context.new_page()

        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error" and not _refused_form(msg):
                problems.append(f"console: {msg.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, problems


@pytest.fixture
def phone(page_in: Callable[..., Page]) -> Page:
    return page_in(PHONE)


@pytest.fixture
def desktop(page_in: Callable[..., Page]) -> Page:
    return page_in(DESKTOP)
