"""Rule sets as data: every value of a rule set, validated, in frozen values.

A rule set is built from a plain mapping (the parsed form of a TOML file; the
reading itself lives outside the core, in :mod:`mahjong_nts.formats.rulefiles`).  A
house-rule mapping names a ``base`` and overrides some values; :func:`merge`
lays it over the base.  Every problem raises :class:`InvalidRuleSet` naming the
file and the key.

Every value is checked against a range in which a hand can be dealt and scored
(the ``MAX_*`` constants below; ``docs/house-rules.md`` lists them):

* the table's tiles fill the deal (13 a player, East 14), the dead wall and a
  live wall of at least one tile a player; the dead wall is whole stacks and
  ``wall_length`` fits the tile count;
* each points item is at most :data:`MAX_ITEM_POINTS`, each doubling item and
  every count of doublings at most :data:`MAX_ITEM_DOUBLINGS`, every cap and
  limit-hand value at most :data:`MAX_LIMIT`; and, taken together, the largest
  base any hand could reach (:func:`score_bound`) is at most :data:`MAX_SCORE`,
  so every score, base and payment stays a modest integer;
* names, titles, sources and notes are short printable text.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Final, cast

from mahjong_nts.core.errors import InvalidRuleSet, quote
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS, ItemKind
from mahjong_nts.core.text import N_, Text

__all__ = [
    "MAX_HANDS",
    "MAX_ITEM_DOUBLINGS",
    "MAX_ITEM_POINTS",
    "MAX_KONGS",
    "MAX_LIMIT",
    "MAX_NAME_CHARS",
    "MAX_NOTES",
    "MAX_NOTE_CHARS",
    "MAX_ROUNDS",
    "MAX_ROUND_TO",
    "MAX_SCORE",
    "MAX_SOURCE_CHARS",
    "MAX_TITLE_CHARS",
    "WALL_SLACK_WITH_FLOWERS",
    "LimitValue",
    "RuleSet",
    "ScoringRules",
    "SettlementRules",
    "TableRules",
    "merge",
    "score_bound",
    "table_tile_count",
]

MAHJONG_KINDS: Final = ("limit", "pair", "pung", "chow")

# --------------------------------------------------------------------------- bounds

MAX_ITEM_POINTS: Final = 1000
"""Most points one scoring item may be worth (the books' largest is 32, a concealed
kong of terminals or honours)."""

MAX_ITEM_DOUBLINGS: Final = 8
"""Most doublings one item may be worth; also the bound on ``min_doublings`` and
``limit_hand_concealed_doublings`` (the books' largest is 4)."""

MAX_LIMIT: Final = 1_000_000
"""Most a cap (``limit``, ``limit_claimed``, ``limit_non_winner``) or a limit
hand's value may be (the books' largest is 2000)."""

MAX_SCORE: Final = 2**48
"""Bound on the largest base any hand could reach under a rule set
(:func:`score_bound`).  A hand's balance is at most 8 times a settled score
(:data:`mahjong_nts.core.settlement.MAX_BALANCE`), so every balance stays below
2**52, well inside the integers a JSON number carries exactly (2**53, JavaScript's
too)."""

MAX_ROUND_TO: Final = 1000
"""Most ``round_to`` may be (the 2009 book rounds to tens when paying in chips)."""

MAX_ROUNDS: Final = 8
"""Most rounds in a game: twice round the winds (the books play four)."""

MAX_HANDS: Final = 40
"""Most ``hands`` in a game: :data:`MAX_ROUNDS` rounds of five players."""

MAX_KONGS: Final = 16
"""Most ``max_kongs`` may be: four kongs for each of four players."""

WALL_SLACK_WITH_FLOWERS: Final = 8
"""With flowers, the walls (``2 * players * wall_length`` tiles) may miss the tile
count by up to the eight flowers and seasons: the books give no wall for three
players with flowers, so the wall builder spreads the difference over the sides."""

MAX_NAME_CHARS: Final = 64
"""A rule set's name: one line of printable text, at most this long, no spaces
around it (shown in terminals and tables, written into hand logs)."""

MAX_TITLE_CHARS: Final = 300
MAX_SOURCE_CHARS: Final = 1000
MAX_NOTES: Final = 100
MAX_NOTE_CHARS: Final = 2000


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

    def points(self, item: object) -> int:
        """The points of ``item`` (0 where this rule set does not score it); an id that
        is no points item of the catalogue raises :class:`InvalidRuleSet`."""
        _check_item(item, ItemKind.POINTS)
        return self.scoring.points.get(cast(str, item), 0)

    def doublings(self, item: object) -> int:
        """The doublings of ``item`` (0 where this rule set does not score it); an id
        that is no doubling item of the catalogue raises :class:`InvalidRuleSet`."""
        _check_item(item, ItemKind.DOUBLINGS)
        return self.scoring.doublings.get(cast(str, item), 0)

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


# --------------------------------------------------------------------------- checks


def _suggest(word: object, options: Any) -> str:
    if not isinstance(word, str) or len(word) > MAX_NAME_CHARS:
        return ""
    close = difflib.get_close_matches(word, list(options), n=1)
    return Text(N_(" (did you mean {word!r}?)"), word=close[0]) if close else ""


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidRuleSet(
            N_("{where}: [{key}] must be a table, not {value}"),
            where=where,
            key=key,
            value=quote(value),
        )
    return value


def _int(value: Any, where: str, *, minimum: int = 0, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRuleSet(
            N_("{where}: expected a whole number, got {value}"), where=where, value=quote(value)
        )
    if not minimum <= value <= maximum:
        raise InvalidRuleSet(
            N_("{where}: must be from {minimum} to {maximum}, got {value}"),
            where=where,
            minimum=minimum,
            maximum=maximum,
            value=quote(value),
        )
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidRuleSet(
            N_("{where}: expected true or false, got {value}"), where=where, value=quote(value)
        )
    return value


def _opt_int(value: Any, where: str) -> int | None:
    """A cap or a limit-hand value: 1 to :data:`MAX_LIMIT`, or ``false`` for none."""
    if value is False or value is None:
        return None
    return _int(value, where, minimum=1, maximum=MAX_LIMIT)


def _choice(value: Any, where: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InvalidRuleSet(
            N_("{where}: expected one of {options}, got {value}"),
            where=where,
            options=", ".join(options),
            value=quote(value),
        )
    return value


def _required(section: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in section:
        raise InvalidRuleSet(N_("{where}: missing value {key!r}"), where=where, key=key)
    return section[key]


def _check_keys(section: Mapping[str, Any], allowed: Any, where: str) -> None:
    for key in section:
        if key not in allowed:
            raise InvalidRuleSet(
                N_("{where}: unknown key {key}{hint}"),
                where=where,
                key=quote(key),
                hint=_suggest(key, allowed),
            )


def _text(value: Any, where: str, limit: int) -> str:
    """One line of printable text of at most ``limit`` characters: no control
    characters, no line breaks, nothing a terminal would act on (it is shown in
    terminals, tables and file listings)."""
    if not isinstance(value, str):
        raise InvalidRuleSet(
            N_("{where}: expected text, got {value}"), where=where, value=quote(value)
        )
    if len(value) > limit:
        raise InvalidRuleSet(
            N_("{where}: at most {limit} characters, got {count}"),
            where=where,
            limit=limit,
            count=len(value),
        )
    for ch in value:
        if not ch.isprintable():
            raise InvalidRuleSet(
                N_(
                    "{where}: line break U+{code} at character {at}; write one line of "
                    "printable text"
                )
                if ch in _LINE_BREAKS
                else N_(
                    "{where}: control character U+{code} at character {at}; write one line of "
                    "printable text"
                ),
                where=where,
                code=f"{ord(ch):04X}",
                at=value.index(ch) + 1,
            )
    return value


_LINE_BREAKS: Final = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _name(value: Any, where: str) -> str:
    name = _text(value, f"{where}: name", MAX_NAME_CHARS)
    if not name.strip():
        raise InvalidRuleSet(N_("{where}: name must not be empty"), where=where)
    if name != name.strip():
        raise InvalidRuleSet(
            N_("{where}: name {name!r} starts or ends with a space"), where=where, name=name
        )
    return name


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


def _check_item(key: object, kind: ItemKind) -> None:
    """Refuse a lookup by a name that is no ``kind`` item: a typo never reads as 0."""
    item = ITEMS.get(key) if isinstance(key, str) else None
    if item is None or item.kind is not kind:
        raise InvalidRuleSet(
            N_("no {kind} item is called {key}{hint}"),
            kind=kind.value,
            key=quote(key),
            hint=_suggest(key, [k for k, v in ITEMS.items() if v.kind is kind]),
        )


def _items(section: Mapping[str, Any], kind: ItemKind, where: str) -> Mapping[str, int]:
    top = MAX_ITEM_POINTS if kind is ItemKind.POINTS else MAX_ITEM_DOUBLINGS
    out: dict[str, int] = {}
    for key, value in section.items():
        item = ITEMS.get(key)
        if item is None:
            raise InvalidRuleSet(
                N_("{where}: unknown item {key}{hint}"),
                where=where,
                key=quote(key),
                hint=_suggest(key, ITEMS),
            )
        if item.kind is not kind:
            raise InvalidRuleSet(
                N_("{where}: {key!r} is a {kind} item, put it under [{kind}]"),
                where=where,
                key=key,
                kind=item.kind.value,
            )
        n = 0 if value is False else _int(value, f"{where}.{key}", maximum=top)
        if n:
            out[key] = n
    return MappingProxyType(out)


def _limit_hands(section: Mapping[str, Any], where: str) -> Mapping[str, LimitValue]:
    out: dict[str, LimitValue] = {}
    for key, value in section.items():
        if key not in LIMIT_HANDS:
            raise InvalidRuleSet(
                N_("{where}: unknown limit hand {key}{hint}"),
                where=where,
                key=quote(key),
                hint=_suggest(key, LIMIT_HANDS),
            )
        here = f"{where}.{key}"
        if value is False:
            continue
        if not isinstance(value, Mapping):
            raise InvalidRuleSet(
                N_(
                    "{where}: expected a table like "
                    "{{ self_drawn = 1000, claimed = 1000, waiting = 500 }} or false"
                ),
                where=here,
            )
        _check_keys(value, ("self_drawn", "claimed", "waiting"), here)
        lv = LimitValue(
            *(_opt_int(value.get(k), f"{here}.{k}") for k in ("self_drawn", "claimed", "waiting"))
        )
        if lv.self_drawn is None and lv.claimed is None:
            raise InvalidRuleSet(
                N_("{where}: needs a self_drawn or claimed value (or false)"), where=here
            )
        if lv.waiting is not None and not LIMIT_HANDS[key].irregular:
            raise InvalidRuleSet(
                N_("{where}: only irregular limit hands have a waiting value"), where=here
            )
        out[key] = lv
    return MappingProxyType(out)


def _build(data: Mapping[str, Any], where: str) -> RuleSet:
    if not isinstance(data, Mapping):
        raise InvalidRuleSet(N_("{where}: a rule set must be a table"), where=where)
    _check_keys(data, _TOP_KEYS, where)
    name = _name(_required(data, "name", where), where)
    title = _text(data.get("title", name), f"{where}: title", MAX_TITLE_CHARS)
    source = _text(data.get("source", ""), f"{where}: source", MAX_SOURCE_CHARS)
    notes = data.get("notes", [])
    if not isinstance(notes, list):
        raise InvalidRuleSet(
            N_("{where}: notes must be a list of strings, not {value}"),
            where=where,
            value=quote(notes),
        )
    if len(notes) > MAX_NOTES:
        raise InvalidRuleSet(
            N_("{where}: notes: at most {most} notes, got {count}"),
            where=where,
            most=MAX_NOTES,
            count=len(notes),
        )
    for i, note in enumerate(notes):
        _text(note, f"{where}: notes[{i}]", MAX_NOTE_CHARS)
    sc = _table(data, "scoring", where)
    w = f"{where} [scoring]"
    _check_keys(sc, [f.name for f in fields(ScoringRules)], w)
    most = MAX_ITEM_DOUBLINGS
    scoring = ScoringRules(
        points=_items(_table(data, "points", where), ItemKind.POINTS, f"{where} [points]"),
        doublings=_items(
            _table(data, "doublings", where), ItemKind.DOUBLINGS, f"{where} [doublings]"
        ),
        limit_hands=_limit_hands(_table(data, "limit_hands", where), f"{where} [limit_hands]"),
        limit=_opt_int(_required(sc, "limit", w), f"{w}.limit"),
        limit_claimed=_opt_int(_required(sc, "limit_claimed", w), f"{w}.limit_claimed"),
        limit_non_winner=_opt_int(_required(sc, "limit_non_winner", w), f"{w}.limit_non_winner"),
        min_doublings=_int(_required(sc, "min_doublings", w), f"{w}.min_doublings", maximum=most),
        clean_hand_may_win=_bool(_required(sc, "clean_hand_may_win", w), f"{w}.clean_hand_may_win"),
        limit_hand_concealed_doublings=_int(
            _required(sc, "limit_hand_concealed_doublings", w),
            f"{w}.limit_hand_concealed_doublings",
            maximum=most,
        ),
        seven_pairs_duplicate=_bool(
            _required(sc, "seven_pairs_duplicate", w), f"{w}.seven_pairs_duplicate"
        ),
        four_chows_simples_concealed=_bool(
            _required(sc, "four_chows_simples_concealed", w), f"{w}.four_chows_simples_concealed"
        ),
    )
    bound = score_bound(scoring)
    if bound > MAX_SCORE:
        raise InvalidRuleSet(
            N_(
                "{where}: up to {points} points and {doublings} doublings could count in one "
                "hand, a base of {bound:,}; at most {most:,} (2**48): lower some doublings"
            ),
            where=where,
            points=_most_points(scoring.points),
            doublings=_most_doublings(scoring),
            bound=bound,
            most=MAX_SCORE,
        )
    st = _table(data, "settlement", where)
    w = f"{where} [settlement]"
    _check_keys(st, [f.name for f in fields(SettlementRules)], w)
    settlement = SettlementRules(
        east_double=_bool(_required(st, "east_double", w), f"{w}.east_double"),
        discarder_double=_bool(_required(st, "discarder_double", w), f"{w}.discarder_double"),
        dominant_double=_bool(_required(st, "dominant_double", w), f"{w}.dominant_double"),
        round_to=_int(_required(st, "round_to", w), f"{w}.round_to", maximum=MAX_ROUND_TO),
    )
    table = _table_rules(_table(data, "table", where), f"{where} [table]")
    return RuleSet(
        name=name,
        title=title,
        source=source,
        scoring=scoring,
        settlement=settlement,
        table=table,
        notes=tuple(notes),
    )


_SUIT_ORDER: Final = "bkt"


BONUS_COUNT: Final = 8
"""Flowers and seasons in a set played with them."""


def table_tile_count(suits: str, winds: str, flowers: bool) -> int:
    """Tiles in a table's set: four of each suit tile, wind and dragon in play,
    and the eight flowers and seasons with ``flowers``."""
    return 4 * (9 * len(suits) + len(winds) + 3) + (BONUS_COUNT if flowers else 0)


def _table_rules(tb: Mapping[str, Any], w: str) -> TableRules:
    _check_keys(tb, [f.name for f in fields(TableRules)], w)

    def req(key: str) -> Any:
        return _required(tb, key, w)

    players = _int(req("players"), f"{w}.players", minimum=3, maximum=4)
    dreamer = _bool(req("dreamer"), f"{w}.dreamer")
    if dreamer and players != 4:
        raise InvalidRuleSet(
            N_(
                "{where}.dreamer: a dreamer is the fifth player of a table of five (players = 4 "
                "and dreamer = true); a table of {players} players has none"
            ),
            where=w,
            players=players,
        )
    suits = req("suits")
    if (
        not isinstance(suits, str)
        or not suits
        or any(s not in _SUIT_ORDER for s in suits)
        or len(set(suits)) != len(suits)
    ):
        raise InvalidRuleSet(
            N_("{where}.suits: letters from 'bkt', e.g. 'bkt', got {value}"),
            where=w,
            value=quote(suits),
        )
    suits = "".join(s for s in _SUIT_ORDER if s in suits)  # one order: one wall per seed
    winds = req("winds")
    if not isinstance(winds, str) or winds not in ("ESWN", "ESW"):
        raise InvalidRuleSet(
            N_("{where}.winds: 'ESWN' or 'ESW', got {value}"), where=w, value=quote(winds)
        )
    if len(winds) < players:
        raise InvalidRuleSet(
            N_("{where}.winds: {players} players need {players} seat winds, got {winds!r}"),
            where=w,
            players=players,
            winds=winds,
        )
    flowers = _bool(req("flowers"), f"{w}.flowers")
    tiles = table_tile_count(suits, winds, flowers)
    deal = 13 * players + 1
    what = f"suits {suits!r}, winds {winds!r}{', flowers' if flowers else ''}"
    wall_length = _int(req("wall_length"), f"{w}.wall_length", minimum=1, maximum=tiles)
    slots = 2 * players * wall_length
    slack = WALL_SLACK_WITH_FLOWERS if flowers else 0
    if abs(slots - tiles) > slack:
        fit = tiles / (2 * players)
        raise InvalidRuleSet(
            N_(
                "{where}.wall_length: {players} walls of 2 x {length} hold {slots} tiles, "
                "but the table has {tiles} ({what}); use {fit:.0f}"
            )
            if fit == int(fit)
            else N_(
                "{where}.wall_length: {players} walls of 2 x {length} hold {slots} tiles, "
                "but the table has {tiles} ({what}); use about {fit:.0f}"
            ),
            where=w,
            players=players,
            length=wall_length,
            slots=slots,
            tiles=tiles,
            what=what,
            fit=fit,
        )
    dead_wall = _int(req("dead_wall"), f"{w}.dead_wall", minimum=2, maximum=tiles)
    if dead_wall % 2:
        raise InvalidRuleSet(
            N_("{where}.dead_wall: whole stacks of two (an even number), got {value}"),
            where=w,
            value=dead_wall,
        )
    if flowers and dead_wall < BONUS_COUNT:
        raise InvalidRuleSet(
            N_(
                "{where}.dead_wall: with flowers and seasons the dead wall must hold at least "
                "{least} tiles, so that every flower and season dealt can be replaced "
                "from it, got {value}"
            ),
            where=w,
            least=BONUS_COUNT,
            value=dead_wall,
        )
    most = _even_floor(tiles - deal - players)
    if dead_wall > most:
        raise InvalidRuleSet(
            N_(
                "{where}.dead_wall: {tiles} tiles ({what}) do not cover the deal ({deal}), "
                "a dead wall of {value} and a live wall of at least {players} "
                "(one tile a player); the dead wall may hold at most {most} here"
            ),
            where=w,
            tiles=tiles,
            what=what,
            deal=deal,
            value=dead_wall,
            players=players,
            most=most,
        )
    priority = req("mahjong_priority")
    if (
        not isinstance(priority, list)
        or not all(isinstance(p, str) for p in priority)
        or sorted(priority) != sorted(MAHJONG_KINDS)
    ):
        raise InvalidRuleSet(
            N_("{where}.mahjong_priority: an order of {kinds}, got {value}"),
            where=w,
            kinds=", ".join(MAHJONG_KINDS),
            value=quote(priority),
        )
    return TableRules(
        players=players,
        dreamer=dreamer,
        suits=suits,
        winds=winds,
        flowers=flowers,
        wall_length=wall_length,
        dead_wall=dead_wall,
        dead_wall_replenish=_bool(req("dead_wall_replenish"), f"{w}.dead_wall_replenish"),
        max_kongs=_int(req("max_kongs"), f"{w}.max_kongs", maximum=MAX_KONGS),
        open_chows=_bool(req("open_chows"), f"{w}.open_chows"),
        mahjong_priority=tuple(priority),
        priority_limit=_choice(req("priority_limit"), f"{w}.priority_limit", ("any", "irregular")),
        round_wind=_choice(req("round_wind"), f"{w}.round_wind", ("rotating", "east")),
        rotate_on_east_win=_bool(req("rotate_on_east_win"), f"{w}.rotate_on_east_win"),
        rotate_on_remise=_bool(req("rotate_on_remise"), f"{w}.rotate_on_remise"),
        rounds=_int(req("rounds"), f"{w}.rounds", minimum=1, maximum=MAX_ROUNDS),
        hands=_int(req("hands"), f"{w}.hands", minimum=1, maximum=MAX_HANDS),
        hands_at_least=_bool(req("hands_at_least"), f"{w}.hands_at_least"),
        green_dragon=_choice(
            req("green_dragon"), f"{w}.green_dragon", ("none", "hand_per_round", "final_round")
        ),
        false_mahjong=_choice(req("false_mahjong"), f"{w}.false_mahjong", ("dead_hand", "refuse")),
    )


def _even_floor(n: int) -> int:
    return max(n - n % 2, 0)


# --------------------------------------------------------------------------- score bound

_SET_POINTS: Final = frozenset(
    f"{kind}_{tiles}_{how}"
    for kind in ("pung", "kong")
    for tiles in ("simple", "major")
    for how in ("open", "concealed")
)
"""Points items of one set each: a hand has at most four sets."""

_TIMES: Final = {"bonus_tile": 8, "pung_dragon": 3}
"""Items that may count more than once in one hand, and how often at most: eight
flowers and seasons, three dragon pungs.  Every other item counts at most once."""


def _most(values: Mapping[str, int]) -> int:
    """The most the items of ``values`` could add up to in one hand: each as often
    as it can count, only the highest of an exclusive group (rulings 8, 13, 14)."""
    total = 0
    groups: dict[str, int] = {}
    for item_id, value in values.items():
        if item_id in _SET_POINTS or item_id.startswith("pair_"):
            continue
        group = ITEMS[item_id].group
        if group is None:
            total += value * _TIMES.get(item_id, 1)
        else:
            groups[group] = max(groups.get(group, 0), value)
    return total + sum(groups.values())


def _most_points(points: Mapping[str, int]) -> int:
    sets = 4 * max((points.get(i, 0) for i in _SET_POINTS), default=0)
    wind_pair = points.get("pair_own_wind", 0) + points.get("pair_round_wind", 0)
    pair = max(points.get("pair_dragon", 0), wind_pair)  # one pair; own and round wind both
    return sets + pair + _most(points)


def _most_doublings(scoring: ScoringRules) -> int:
    return _most(scoring.doublings)


def score_bound(scoring: ScoringRules) -> int:
    """An upper bound on the base (points times two to the doublings, before any
    cap) of any hand under these values, limit hands included.

    It is reached by no real hand: it adds every points item and every doubling
    as often as each could count in one hand (four sets, one pair, eight flowers,
    three dragon pungs; the highest item of an exclusive group), whether or not
    they can come together.  :func:`RuleSet.from_mapping` refuses a rule set whose
    bound is above :data:`MAX_SCORE`.
    """
    regular = _most_points(scoring.points) << _most_doublings(scoring)
    values = [
        v
        for lv in scoring.limit_hands.values()
        for v in (lv.self_drawn, lv.claimed, lv.waiting)
        if v is not None
    ]
    limit = max(values, default=0) << scoring.limit_hand_concealed_doublings
    return max(regular, limit)
