"""The sheet's logic is pure like the core: standard library and the core only, no I/O."""

from __future__ import annotations

from pathlib import Path

import pytest

from purity_helpers import assert_pure

SHEET = Path(__file__).resolve().parents[2] / "src" / "mahjong_nts" / "sheet"
MODULES = sorted(SHEET.glob("*.py"))


def test_sheet_modules_found() -> None:
    assert {p.stem for p in MODULES} >= {"__init__", "evening"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_sheet_imports_only_stdlib_and_core(path: Path) -> None:
    assert_pure(path, ("mahjong_nts.core", "mahjong_nts.sheet"))
