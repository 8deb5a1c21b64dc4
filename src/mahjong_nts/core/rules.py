"""Rule sets as data: every value of a rule set, validated, in frozen values.

A rule set is built from a plain mapping (the parsed form of a TOML file; the
reading itself lives outside the core, in :mod:`mahjong_nts.formats.rulefiles`).  A
house-rule mapping names a ``base`` and overrides some values; :func:`merge`
lays it over the base.  Every problem raises :class:`InvalidRuleSet` naming the
file and the key.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Final

from mahjong_nts.core.errors import InvalidRuleSet
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS, ItemKind

__all__ = [
    "LimitValue",
    "RuleSet",
    "ScoringRules",
    "SettlementRules",
    "TableRules",
    "merge",
]

MAHJONG_KINDS: Final = ("limit", "pair", "pung", "chow")


@dataclass(frozen=True, slots=True)
class LimitValue:
    """What a limit hand is worth: won self-drawn, won on a claimed tile, and
    for a non-winner waiting for it (irregular hands only).  ``None``: the hand
    cannot score that way."""

    self_drawn: int | None
    claimed: int | None
    waiting: int | None = None


@dataclass(frozen=True, slots=True)
class ScoringRules:
    points: Mapping[str, int]
    doublings: Mapping[str, int]
    limit_hands: Mapping[str, LimitValue]
    limit: int | None
    """Cap on a self-drawn winner's score (``None``: no cap)."""
    limit_claimed: int | None
    """Cap on a winner's score won on a claimed tile (discard or robbed kong)."""
    limit_non_winner: int | None
    min_doublings: int
    """Doublings a winner needs to go mahjong (limit hands excepted)."""
    clean_hand_may_win: bool
    """A clean hand (any item of the ``clean`` group) may go mahjong with fewer doublings."""
    limit_hand_concealed_doublings: int
    """Doublings on a limit hand's value when fully concealed and self-drawn."""
    seven_pairs_duplicate: bool
    """Four identical tiles may count as two of the seven pairs (ruling 11)."""
    four_chows_simples_concealed: bool
    """Four chows together with all simples count only if concealed but for the winning
    tile; played open, neither counts (nmb-2009)."""


@dataclass(frozen=True, slots=True)
class SettlementRules:
    east_double: bool
    """East pays and receives double in every payment he is part of."""
    discarder_double: bool
    """The player who gave the winning tile pays the winner double."""
    dominant_double: bool
    """In the green-dragon hand the dominant player pays and receives double."""
    round_to: int
    """Round each score to a multiple of this before settling (0: no rounding)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    players: int
    """Players who play a hand (3 or 4; a 5-player table seats 4 and a dreamer)."""
    dreamer: bool
    """A fifth player sits out each hand (the dreamer)."""
    suits: str
    """Suit letters in play, e.g. ``"bkt"``; ``"bk"`` at the 3-player table."""
    winds: str
    """Wind letters in play, e.g. ``"ESWN"``."""
    flowers: bool
    wall_length: int
    """Stacks of two in each side of the wall."""
    dead_wall: int
    dead_wall_replenish: bool
    """The dead wall is refilled from the live wall (the flowers option)."""
    max_kongs: int
    """Kongs in one hand; declaring one more ends the hand as a remise."""
    open_chows: bool
    mahjong_priority: tuple[str, ...]
    """Order between several mahjong claims on one discard, before turn order."""
    priority_limit: str
    """Which limit hands come first: ``"any"`` or ``"irregular"``."""
    round_wind: str
    """``"rotating"`` (East, South, West, North rounds) or ``"east"`` (always East)."""
    rotate_on_east_win: bool
    rotate_on_remise: bool
    rounds: int
    hands: int
    hands_at_least: bool
    """``hands`` is a minimum (winds may not rotate every hand)."""
    green_dragon: str
    """Hands of the green dragon (3 and 5 players): ``"none"``; ``"hand_per_round"``, one
    such hand after every round (3 players); ``"final_round"``, a whole extra round of them
    after the last (5 players)."""
    false_mahjong: str
    """``"dead_hand"`` (the book) or ``"refuse"`` (a beginners' table)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    title: str
    source: str
    scoring: ScoringRules
    settlement: SettlementRules
    table: TableRules
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<RuleSet {self.name!r}>"

    def points(self, item: str) -> int:
        return self.scoring.points.get(item, 0)

    def doublings(self, item: str) -> int:
        return self.scoring.doublings.get(item, 0)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "rule set") -> RuleSet:
        """Validate a complete (already merged) mapping and build the rule set."""
        return _build(data, where)

    def to_mapping(self) -> dict[str, Any]:
        """The rule set as plain data (the inverse of :meth:`from_mapping`)."""
        sc = self.scoring
        scoring: dict[str, Any] = {}
        for f in fields(ScoringRules):
            if f.name in ("points", "doublings", "limit_hands"):
                continue
            value = getattr(sc, f.name)
            scoring[f.name] = False if value is None and f.name.startswith("limit") else value
        limit_hands: dict[str, Any] = {}
        for hand, lv in sc.limit_hands.items():
            entry = {
                k: v
                for k, v in (
                    ("self_drawn", lv.self_drawn),
                    ("claimed", lv.claimed),
                    ("waiting", lv.waiting),
                )
                if v is not None
            }
            limit_hands[hand] = entry
        table = {f.name: getattr(self.table, f.name) for f in fields(TableRules)}
        table["mahjong_priority"] = list(self.table.mahjong_priority)
        return {
            "name": self.name,
            "title": self.title,
            "source": self.source,
            "notes": list(self.notes),
            "scoring": scoring,
            "points": dict(sc.points),
            "doublings": dict(sc.doublings),
            "limit_hands": limit_hands,
            "settlement": {
                f.name: getattr(self.settlement, f.name) for f in fields(SettlementRules)
            },
            "table": table,
        }


def merge(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """Lay ``overlay`` over ``base``: tables merge key by key, other values replace."""
    out = dict(base)
    for key, value in overlay.items():
        old = out.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping):
            out[key] = merge(old, value)
        else:
            out[key] = value
    return out


def _suggest(word: object, options: Any) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidRuleSet(f"{where}: [{key}] must be a table, not {value!r}")
    return value


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRuleSet(f"{where}: expected a whole number, got {value!r}")
    if value < minimum:
        raise InvalidRuleSet(f"{where}: must be at least {minimum}, got {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidRuleSet(f"{where}: expected true or false, got {value!r}")
    return value


def _opt_int(value: Any, where: str) -> int | None:
    """A cap: a positive number, or ``false`` for none."""
    if value is False or value is None:
        return None
    return _int(value, where, minimum=1)


def _choice(value: Any, where: str, options: tuple[str, ...]) -> str:
    if value not in options:
        raise InvalidRuleSet(f"{where}: expected one of {', '.join(options)}, got {value!r}")
    return str(value)


def _required(section: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in section:
        raise InvalidRuleSet(f"{where}: missing value {key!r}")
    return section[key]


def _check_keys(section: Mapping[str, Any], allowed: Any, where: str) -> None:
    for key in section:
        if key not in allowed:
            raise InvalidRuleSet(f"{where}: unknown key {key!r}{_suggest(key, allowed)}")


_TOP_KEYS: Final = (
    "name",
    "title",
    "source",
    "notes",
    "base",
    "scoring",
    "points",
    "doublings",
    "limit_hands",
    "settlement",
    "table",
)


def _items(section: Mapping[str, Any], kind: ItemKind, where: str) -> Mapping[str, int]:
    out: dict[str, int] = {}
    for key, value in section.items():
        item = ITEMS.get(key)
        if item is None:
            raise InvalidRuleSet(f"{where}: unknown item {key!r}{_suggest(key, ITEMS)}")
        if item.kind is not kind:
            raise InvalidRuleSet(
                f"{where}: {key!r} is a {item.kind.value} item, put it under [{item.kind.value}]"
            )
        n = 0 if value is False else _int(value, f"{where}.{key}")
        if n:
            out[key] = n
    return MappingProxyType(out)


def _limit_hands(section: Mapping[str, Any], where: str) -> Mapping[str, LimitValue]:
    out: dict[str, LimitValue] = {}
    for key, value in section.items():
        here = f"{where}.{key}"
        if key not in LIMIT_HANDS:
            raise InvalidRuleSet(f"{where}: unknown limit hand {key!r}{_suggest(key, LIMIT_HANDS)}")
        if value is False:
            continue
        if not isinstance(value, Mapping):
            raise InvalidRuleSet(
                f"{here}: expected a table like "
                "{ self_drawn = 1000, claimed = 1000, waiting = 500 } or false"
            )
        _check_keys(value, ("self_drawn", "claimed", "waiting"), here)
        lv = LimitValue(
            *(_opt_int(value.get(k), f"{here}.{k}") for k in ("self_drawn", "claimed", "waiting"))
        )
        if lv.self_drawn is None and lv.claimed is None:
            raise InvalidRuleSet(f"{here}: needs a self_drawn or claimed value (or false)")
        if lv.waiting is not None and not LIMIT_HANDS[key].irregular:
            raise InvalidRuleSet(f"{here}: only irregular limit hands have a waiting value")
        out[key] = lv
    return MappingProxyType(out)


def _build(data: Mapping[str, Any], where: str) -> RuleSet:
    if not isinstance(data, Mapping):
        raise InvalidRuleSet(f"{where}: a rule set must be a table")
    _check_keys(data, _TOP_KEYS, where)
    name = _required(data, "name", where)
    if not isinstance(name, str) or not name:
        raise InvalidRuleSet(f"{where}: name must be a non-empty string")
    sc = _table(data, "scoring", where)
    w = f"{where} [scoring]"
    _check_keys(sc, [f.name for f in fields(ScoringRules)], w)
    scoring = ScoringRules(
        points=_items(_table(data, "points", where), ItemKind.POINTS, f"{where} [points]"),
        doublings=_items(
            _table(data, "doublings", where), ItemKind.DOUBLINGS, f"{where} [doublings]"
        ),
        limit_hands=_limit_hands(_table(data, "limit_hands", where), f"{where} [limit_hands]"),
        limit=_opt_int(_required(sc, "limit", w), f"{w}.limit"),
        limit_claimed=_opt_int(_required(sc, "limit_claimed", w), f"{w}.limit_claimed"),
        limit_non_winner=_opt_int(_required(sc, "limit_non_winner", w), f"{w}.limit_non_winner"),
        min_doublings=_int(_required(sc, "min_doublings", w), f"{w}.min_doublings"),
        clean_hand_may_win=_bool(_required(sc, "clean_hand_may_win", w), f"{w}.clean_hand_may_win"),
        limit_hand_concealed_doublings=_int(
            _required(sc, "limit_hand_concealed_doublings", w),
            f"{w}.limit_hand_concealed_doublings",
        ),
        seven_pairs_duplicate=_bool(
            _required(sc, "seven_pairs_duplicate", w), f"{w}.seven_pairs_duplicate"
        ),
        four_chows_simples_concealed=_bool(
            _required(sc, "four_chows_simples_concealed", w), f"{w}.four_chows_simples_concealed"
        ),
    )
    st = _table(data, "settlement", where)
    w = f"{where} [settlement]"
    _check_keys(st, [f.name for f in fields(SettlementRules)], w)
    round_to = _int(_required(st, "round_to", w), f"{w}.round_to")
    settlement = SettlementRules(
        east_double=_bool(_required(st, "east_double", w), f"{w}.east_double"),
        discarder_double=_bool(_required(st, "discarder_double", w), f"{w}.discarder_double"),
        dominant_double=_bool(_required(st, "dominant_double", w), f"{w}.dominant_double"),
        round_to=round_to,
    )
    table = _table_rules(_table(data, "table", where), f"{where} [table]")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise InvalidRuleSet(f"{where}: notes must be a list of strings")
    title = data.get("title", name)
    source = data.get("source", "")
    if not isinstance(title, str) or not isinstance(source, str):
        raise InvalidRuleSet(f"{where}: title and source must be strings")
    return RuleSet(
        name=name,
        title=title,
        source=source,
        scoring=scoring,
        settlement=settlement,
        table=table,
        notes=tuple(notes),
    )


def _table_rules(tb: Mapping[str, Any], w: str) -> TableRules:
    _check_keys(tb, [f.name for f in fields(TableRules)], w)

    def req(key: str) -> Any:
        return _required(tb, key, w)

    players = _int(req("players"), f"{w}.players", minimum=3)
    if players > 4:
        raise InvalidRuleSet(f"{w}.players: 3 or 4 play a hand (a fifth is the dreamer)")
    suits = req("suits")
    if (
        not isinstance(suits, str)
        or not suits
        or any(s not in "bkt" for s in suits)
        or len(set(suits)) != len(suits)
    ):
        raise InvalidRuleSet(f"{w}.suits: letters from 'bkt', e.g. 'bkt', got {suits!r}")
    winds = req("winds")
    if not isinstance(winds, str) or winds not in ("ESWN", "ESW"):
        raise InvalidRuleSet(f"{w}.winds: 'ESWN' or 'ESW', got {winds!r}")
    priority = req("mahjong_priority")
    if (
        not isinstance(priority, list)
        or not all(isinstance(p, str) for p in priority)
        or sorted(priority) != sorted(MAHJONG_KINDS)
    ):
        raise InvalidRuleSet(
            f"{w}.mahjong_priority: an order of {', '.join(MAHJONG_KINDS)}, got {priority!r}"
        )
    return TableRules(
        players=players,
        dreamer=_bool(req("dreamer"), f"{w}.dreamer"),
        suits=suits,
        winds=winds,
        flowers=_bool(req("flowers"), f"{w}.flowers"),
        wall_length=_int(req("wall_length"), f"{w}.wall_length", minimum=1),
        dead_wall=_int(req("dead_wall"), f"{w}.dead_wall", minimum=2),
        dead_wall_replenish=_bool(req("dead_wall_replenish"), f"{w}.dead_wall_replenish"),
        max_kongs=_int(req("max_kongs"), f"{w}.max_kongs"),
        open_chows=_bool(req("open_chows"), f"{w}.open_chows"),
        mahjong_priority=tuple(priority),
        priority_limit=_choice(req("priority_limit"), f"{w}.priority_limit", ("any", "irregular")),
        round_wind=_choice(req("round_wind"), f"{w}.round_wind", ("rotating", "east")),
        rotate_on_east_win=_bool(req("rotate_on_east_win"), f"{w}.rotate_on_east_win"),
        rotate_on_remise=_bool(req("rotate_on_remise"), f"{w}.rotate_on_remise"),
        rounds=_int(req("rounds"), f"{w}.rounds", minimum=1),
        hands=_int(req("hands"), f"{w}.hands", minimum=1),
        hands_at_least=_bool(req("hands_at_least"), f"{w}.hands_at_least"),
        green_dragon=_choice(
            req("green_dragon"), f"{w}.green_dragon", ("none", "hand_per_round", "final_round")
        ),
        false_mahjong=_choice(req("false_mahjong"), f"{w}.false_mahjong", ("dead_hand", "refuse")),
    )
