"""The rules core is pure: standard library only, no I/O, no printing, and it never
imports the layers built on top of it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "src" / "mahjong_nts" / "core"
MODULES = sorted(CORE.glob("*.py"))
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval"}
FORBIDDEN_MODULES = {
    "os",
    "io",
    "pathlib",
    "subprocess",
    "socket",
    "shutil",
    "tomllib",
    "json",
    "random",
    "time",
    "logging",
    "importlib",
}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_modules_found() -> None:
    assert {p.stem for p in MODULES} >= {"tiles", "hand", "rules", "scoring", "analysis"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_core_imports_only_stdlib_and_core(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name in _imports(tree):
        top = name.split(".")[0]
        if top == "mahjong_nts":
            assert name.startswith("mahjong_nts.core"), f"{path.name} imports {name}"
            continue
        assert top == "__future__" or top in sys.stdlib_module_names, (
            f"{path.name} imports third-party {name}"
        )
        assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name} (I/O or chance)"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_core_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, (
                f"{path.name}:{node.lineno} calls {node.func.id}()"
            )
