"""Fixtures of the core's tests (the helpers themselves are in ``core_helpers``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from core_helpers import load

from mahjong_nts.core.rules import RuleSet


@pytest.fixture
def rules() -> Callable[[str], RuleSet]:
    return load
