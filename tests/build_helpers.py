"""Which build the tests run on (``mahjong_nts.core.build``), for the few tests that look
inside the pure build: see tests/test_build.py and docs/speed.md."""

from __future__ import annotations

import pytest

from mahjong_nts.core.build import COMPILED

__all__ = ["COMPILED", "DECLARED_TYPES_ONLY", "pure_only"]

DECLARED_TYPES_ONLY = (
    "the compiled constructor takes only the declared types (a TypeError before its own "
    "check: an int or a str where an enum is declared, a list or generator where a tuple is)"
)
"""Why a test of a core constructor given other types than it declares is pure-only
(docs/speed.md, 'What differs when compiled')."""


def pure_only(why: str) -> pytest.MarkDecorator:
    """Skip a test on the compiled build, saying why it only means something in the pure
    one (it patches a module's globals, which compiled code has bound, or checks a pure
    fast path that the compiled build does not take)."""
    return pytest.mark.skipif(COMPILED, reason=f"pure build only: {why}")
