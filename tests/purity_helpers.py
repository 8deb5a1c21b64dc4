"""The check the pure layers share (the sheet's and the tournament's logic): a module
imports only the standard library and the packages it names, none of the modules that
do I/O or bring chance or a clock, and calls none of the built-ins that do I/O."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

FORBIDDEN_CALLS = frozenset({"print", "open", "input", "exec", "eval"})
IO_MODULES = frozenset(
    {"os", "io", "pathlib", "subprocess", "socket", "random", "time", "datetime"}
)


def assert_pure(
    path: Path, packages: tuple[str, ...], forbidden: Iterable[str] = IO_MODULES
) -> None:
    """Fails naming the module and what it imports or calls that a pure layer may not."""
    banned = frozenset(forbidden)
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
                assert name.startswith(packages), f"{path.name} imports {name}"
                continue
            assert top == "__future__" or top in sys.stdlib_module_names, (
                f"{path.name} imports third-party {name}"
            )
            assert top not in banned, f"{path.name} imports {name} (I/O, chance or a clock)"
