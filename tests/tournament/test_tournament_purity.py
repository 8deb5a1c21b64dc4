"""The tournament logic is pure like the core: standard library and the core only, no
I/O, no clock, no global random numbers (the seating's generator is passed in)."""

from __future__ import annotations

from pathlib import Path

import pytest

from purity_helpers import IO_MODULES, assert_pure

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "mahjong_nts" / "tournament"
MODULES = sorted(PACKAGE.glob("*.py"))


def test_modules_found() -> None:
    assert {p.stem for p in MODULES} >= {"__init__", "players", "seating", "results"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_imports_only_stdlib_and_core(path: Path) -> None:
    pure = ("mahjong_nts.core", "mahjong_nts.tournament")
    assert_pure(path, pure, IO_MODULES | {"secrets", "csv", "json"})


def test_doctests() -> None:
    import doctest

    import mahjong_nts.tournament.players as players
    import mahjong_nts.tournament.results as results
    import mahjong_nts.tournament.seating as seating

    for module in (players, seating, results):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0, module.__name__
        assert outcome.failed == 0, module.__name__
