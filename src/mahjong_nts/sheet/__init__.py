"""The evening score sheet's logic, pure: see :mod:`mahjong_nts.sheet.evening`."""

from mahjong_nts.sheet.evening import (
    MAX_CHIP_CENTS,
    MAX_HANDS,
    MAX_NAME_CHARS,
    Entry,
    HandContext,
    HandsEntry,
    Row,
    ScoredHands,
    Scorer,
    ScoresEntry,
    Sheet,
    SheetError,
    check_chip,
    check_entry,
    check_names,
    compute,
)

__all__ = [
    "MAX_CHIP_CENTS",
    "MAX_HANDS",
    "MAX_NAME_CHARS",
    "Entry",
    "HandContext",
    "HandsEntry",
    "Row",
    "ScoredHands",
    "Scorer",
    "ScoresEntry",
    "Sheet",
    "SheetError",
    "check_chip",
    "check_entry",
    "check_names",
    "compute",
]
