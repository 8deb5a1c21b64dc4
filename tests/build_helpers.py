"""Which build the tests run on (``mahjong_nts.core.build``), for the few tests that look
inside the pure build: see tests/test_build.py and docs/speed.md."""

from __future__ import annotations

import pytest

from mahjong_nts.core.build import COMPILED

__all__ = ["COMPILED", "pure_only"]


def pure_only(why: str) -> pytest.MarkDecorator:
    """Skip a test on the compiled build, saying why it only means something in the pure
    one (it patches a module's globals, which compiled code has bound, or checks a pure
    fast path that the compiled build does not take)."""
    return pytest.mark.skipif(COMPILED, reason=f"pure build only: {why}")
