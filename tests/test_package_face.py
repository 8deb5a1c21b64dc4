"""The package's face: every documented name imports from ``mahjong_nts``."""

from __future__ import annotations

import doctest
import subprocess
import sys

import mahjong_nts


def test_every_name_resolves() -> None:
    for name in mahjong_nts.__all__:
        assert getattr(mahjong_nts, name) is not None, name


def test_all_matches_the_lazy_table() -> None:
    assert set(mahjong_nts.__all__) == {"__version__", *mahjong_nts._WHERE}
    assert len(mahjong_nts.__all__) == len(set(mahjong_nts.__all__))


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        mahjong_nts.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_docstring_example() -> None:
    result = doctest.testmod(mahjong_nts)
    assert result.attempted >= 4 and result.failed == 0


def test_importing_the_core_stays_light() -> None:
    code = (
        "import sys, mahjong_nts.core.tiles; "
        "print(sorted(m for m in sys.modules if m.startswith(('mahjong_nts.formats', 'pydantic'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
