"""docs/web.md and docs/security.md say what the web layer does: the example runs, the
bounds are the code's."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from mahjong_nts.formats import wire
from mahjong_nts.i18n import MAX_ACCEPT_ENTRIES, MAX_ACCEPT_LANGUAGE
from mahjong_nts.store.db import MAX_URL_CHARS
from mahjong_nts.web.api import body
from mahjong_nts.web.middleware import CSP

DOCS = Path(__file__).resolve().parents[2] / "docs"
WEB = (DOCS / "web.md").read_text(encoding="utf-8")
SECURITY = (DOCS / "security.md").read_text(encoding="utf-8")


def test_python_example_runs_and_prints_what_it_says() -> None:
    blocks = re.findall(r"```python\n(.*?)```", WEB, re.S)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "web.md", "exec"), {})
    assert out.getvalue() == "[-80, 160, -40, -40]\n"


def test_bounds_are_the_codes() -> None:
    assert body.MAX_BODY_BYTES == wire.MAX_LINE_BYTES == 65536
    assert "longer than 65536 bytes (`wire.MAX_LINE_BYTES`)" in WEB
    row = next(line for line in SECURITY.splitlines() if line.startswith("| an HTTP request body"))
    assert "64 KiB" in row and "`web.api.body.MAX_BODY_BYTES`" in row
    row = next(line for line in SECURITY.splitlines() if line.startswith("| an `Accept-Language`"))
    assert f"{MAX_ACCEPT_LANGUAGE} characters, {MAX_ACCEPT_ENTRIES} languages" in row
    row = next(line for line in SECURITY.splitlines() if line.startswith("| a database URL"))
    assert f"{MAX_URL_CHARS} characters" in row and "`store.db.MAX_URL_CHARS`" in row
    assert "at most 2000 characters" in WEB


def test_the_csp_is_the_one_documented() -> None:
    assert " ".join(CSP.split()) in " ".join(WEB.split())
