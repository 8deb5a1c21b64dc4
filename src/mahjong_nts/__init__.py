"""mahjong-nts: Dutch tournament Mahjong (NTS) rules, scoring, settlement and play.

The package's face: everything a program needs, importable from here::

    >>> from mahjong_nts import load_ruleset, parse_hand, score_hand, Situation, Tile
    >>> from mahjong_nts import Win, WinSource
    >>> hand = parse_hand("b123 k456 t789 EEE C +C")
    >>> situation = Situation(Tile.EAST, Tile.EAST, Win(WinSource.WALL))
    >>> score_hand(hand, situation, load_ruleset("nts-2016")).score
    576

Names are imported on first use (so ``import mahjong_nts.core.tiles`` stays light);
``docs/api.md`` documents each of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE: dict[str, str] = {
    # tiles and notation
    "Tile": "core.tiles",
    "parse_tile": "core.tiles",
    "Hand": "core.hand",
    "Meld": "core.hand",
    "MeldKind": "core.hand",
    "Win": "core.hand",
    "WinSource": "core.hand",
    "parse_hand": "core.notation",
    "parse_tiles": "core.notation",
    "parse_meld": "core.notation",
    "format_hand": "core.notation",
    "format_tiles": "core.notation",
    # rule sets
    "RuleSet": "core.rules",
    "load_ruleset": "formats.rulefiles",
    # scoring and settlement
    "Situation": "core.scoring",
    "ScoreResult": "core.scoring",
    "ScoredItem": "core.scoring",
    "score_hand": "core.scoring",
    "Payment": "core.settlement",
    "Settlement": "core.settlement",
    "settle": "core.settlement",
    "waiting_tiles": "core.analysis",
    "shanten": "core.shanten",
    # play
    "Action": "core.actions",
    "ActionKind": "core.actions",
    "parse_action": "core.actions",
    "Game": "core.game",
    "HandResult": "core.game",
    "Phase": "core.game",
    "Match": "core.match",
    "Observation": "core.observation",
    "observe": "core.observation",
    "SeedRng": "core.seeding",
    "seed_commitment": "core.seeding",
    # errors
    "MahjongError": "core.errors",
    "InvalidTile": "core.errors",
    "InvalidNotation": "core.errors",
    "InvalidMeld": "core.errors",
    "InvalidHand": "core.errors",
    "InvalidWin": "core.errors",
    "InvalidRuleSet": "core.errors",
    "InvalidAction": "core.errors",
    "IllegalAction": "core.errors",
    "NotYourTurn": "core.errors",
    "StaleAction": "core.errors",
    "InvalidSetup": "core.errors",
    "InvalidSeed": "core.errors",
    "InvalidSeat": "core.errors",
    "IllegalMatchStep": "core.errors",
    "NotCounted": "core.scoring",
}

__all__ = [
    "Action",
    "ActionKind",
    "Game",
    "Hand",
    "HandResult",
    "IllegalAction",
    "IllegalMatchStep",
    "InvalidAction",
    "InvalidHand",
    "InvalidMeld",
    "InvalidNotation",
    "InvalidRuleSet",
    "InvalidSeat",
    "InvalidSeed",
    "InvalidSetup",
    "InvalidTile",
    "InvalidWin",
    "MahjongError",
    "Match",
    "Meld",
    "MeldKind",
    "NotCounted",
    "NotYourTurn",
    "Observation",
    "Payment",
    "Phase",
    "RuleSet",
    "ScoreResult",
    "ScoredItem",
    "SeedRng",
    "Settlement",
    "Situation",
    "StaleAction",
    "Tile",
    "Win",
    "WinSource",
    "__version__",
    "format_hand",
    "format_tiles",
    "load_ruleset",
    "observe",
    "parse_action",
    "parse_hand",
    "parse_meld",
    "parse_tile",
    "parse_tiles",
    "score_hand",
    "seed_commitment",
    "settle",
    "shanten",
    "waiting_tiles",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mahjong_nts' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"mahjong_nts.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from mahjong_nts.core.actions import Action, ActionKind, parse_action
    from mahjong_nts.core.analysis import waiting_tiles
    from mahjong_nts.core.errors import (
        IllegalAction,
        IllegalMatchStep,
        InvalidAction,
        InvalidHand,
        InvalidMeld,
        InvalidNotation,
        InvalidRuleSet,
        InvalidSeat,
        InvalidSeed,
        InvalidSetup,
        InvalidTile,
        InvalidWin,
        MahjongError,
        NotYourTurn,
        StaleAction,
    )
    from mahjong_nts.core.game import Game, HandResult, Phase
    from mahjong_nts.core.hand import Hand, Meld, MeldKind, Win, WinSource
    from mahjong_nts.core.match import Match
    from mahjong_nts.core.notation import (
        format_hand,
        format_tiles,
        parse_hand,
        parse_meld,
        parse_tiles,
    )
    from mahjong_nts.core.observation import Observation, observe
    from mahjong_nts.core.rules import RuleSet
    from mahjong_nts.core.scoring import (
        NotCounted,
        ScoredItem,
        ScoreResult,
        Situation,
        score_hand,
    )
    from mahjong_nts.core.seeding import SeedRng, seed_commitment
    from mahjong_nts.core.settlement import Payment, Settlement, settle
    from mahjong_nts.core.shanten import shanten
    from mahjong_nts.formats.rulefiles import load_ruleset
