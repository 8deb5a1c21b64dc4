"""The tournament logic is pure like the core: standard library and the core only, no
I/O, no clock, no global random numbers (the seating's generator is passed in)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "mahjong_nts" / "tournament"
MODULES = sorted(PACKAGE.glob("*.py"))
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval"}
FORBIDDEN_MODULES = {
    "os",
    "io",
    "pathlib",
    "subprocess",
    "socket",
    "random",
    "secrets",
    "time",
    "datetime",
    "csv",
    "json",
}


def test_modules_found() -> None:
    assert {p.stem for p in MODULES} >= {"__init__", "players", "seating", "results"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_imports_only_stdlib_and_core(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}"
            continue
        for name in names:
            top = name.split(".")[0]
            if top == "mahjong_nts":
                assert name.startswith(("mahjong_nts.core", "mahjong_nts.tournament")), name
                continue
            assert top == "__future__" or top in sys.stdlib_module_names, name
            assert top not in FORBIDDEN_MODULES, name


def test_doctests() -> None:
    import doctest

    import mahjong_nts.tournament.players as players
    import mahjong_nts.tournament.results as results
    import mahjong_nts.tournament.seating as seating

    for module in (players, seating, results):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0, module.__name__
        assert outcome.failed == 0, module.__name__
