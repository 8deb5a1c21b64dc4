"""Which build runs: the core and the bots compiled with mypyc, or pure Python.

CI runs the suite twice (``.ci/run``): on the editable install (pure) and on a wheel
built with mypyc; there ``MAHJONG_NTS_EXPECT_BUILD=compiled`` makes these tests insist
that the compiled modules are the ones imported (a build that fell back to pure Python
would otherwise pass the whole suite unnoticed).
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path

import pytest

from cli_helpers import invoke_main, run_cli
from mahjong_nts.core import build

PURE_MODULES = {
    "mahjong_nts.core.text",
    "mahjong_nts.core.errors",
    "mahjong_nts.bots.loader",
    "mahjong_nts.env.aec",
    "mahjong_nts.env.single",
}
"""Left as Python in the compiled build (setup.py's PURE_MODULES says why)."""

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> list[str]:
    names = []
    for package in ("core", "bots", "env"):
        for path in sorted((SRC / "mahjong_nts" / package).glob("*.py")):
            stem = path.stem
            names.append(
                f"mahjong_nts.{package}" if stem == "__init__" else f"mahjong_nts.{package}.{stem}"
            )
    return names


def _compiled(name: str) -> bool:
    file = importlib.import_module(name).__file__ or ""
    return not file.endswith(".py")


def test_the_modules_agree_with_the_flag() -> None:
    """Every module of core/, bots/ and env/ (but the pure ones) is compiled exactly
    when ``build.COMPILED`` says so: no build is half compiled."""
    names = _modules()
    assert "mahjong_nts.core.game" in names and "mahjong_nts.bots.heuristic" in names
    assert "mahjong_nts.env.encoding" in names
    for name in names:
        want = build.COMPILED and name not in PURE_MODULES
        assert _compiled(name) is want, name


def test_setup_lists_the_same_pure_modules() -> None:
    setup = (SRC.parent / "setup.py").read_text(encoding="utf-8")
    block = setup[
        setup.index("PURE_MODULES = {") : setup.index("}", setup.index("PURE_MODULES = {"))
    ]
    listed = {p.removesuffix(".py").replace("/", ".") for p in re.findall(r'"([^"]+\.py)"', block)}
    assert listed == PURE_MODULES


def test_version_says_which_build() -> None:
    result = invoke_main(["--lang", "en", "--version"])
    assert result.exit_code == 0, result.output
    line = result.stdout.strip()
    assert line.startswith("mahjong-nts ")
    assert line.endswith("(compiled (mypyc))" if build.COMPILED else "(pure Python)")


def test_version_in_a_child_process() -> None:
    """The console script's way: a fresh process, the package these tests import."""
    done = run_cli("--lang", "en", "--version")
    assert done.returncode == 0, done.stderr
    assert ("compiled (mypyc)" in done.stdout) is build.COMPILED
    assert ("pure Python" in done.stdout) is not build.COMPILED


@pytest.mark.skipif(
    not os.environ.get("MAHJONG_NTS_EXPECT_BUILD"), reason="MAHJONG_NTS_EXPECT_BUILD not set"
)
def test_the_expected_build_runs() -> None:
    """CI says which build it installed; that build is the one imported."""
    want = os.environ["MAHJONG_NTS_EXPECT_BUILD"]
    assert want in ("compiled", "pure"), want
    assert build.COMPILED is (want == "compiled")
    assert _compiled("mahjong_nts.core.scoring") is (want == "compiled")
    assert _compiled("mahjong_nts.bots.heuristic") is (want == "compiled")
    assert _compiled("mahjong_nts.env.encoding") is (want == "compiled")
