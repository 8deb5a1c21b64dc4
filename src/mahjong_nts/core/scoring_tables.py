"""Scoring items and a rule set compiled into look-up tables for the scorer.

Which items a hand has is decided by the detection functions here, each adding item ids
to a ``found`` dict (id -> count); :meth:`RuleTables.evaluate` values such a dict under a
rule set.  The scorer does not build those dicts for every candidate: it adds up values
from tables filled from the very same functions, once per rule set and as first needed
(per set and pair for a seat and round wind, per combination of whole-hand items, per
summary of the set counts), and the tables keep the items that count, to explain the
best candidate.  Whole-hand facts come from per-group tables (a suit's 9 counts, the
honours' 7).  No table is keyed by a whole hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mahjong_nts.core.hand import MeldKind
from mahjong_nts.core.items import ITEMS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import NUM_KINDS, Tile, is_simple

__all__ = [
    "BIT",
    "Profile",
    "RuleTables",
    "WindTables",
    "fields",
    "profile_of",
    "rule_tables",
    "set_items",
    "unpack_set_items",
    "whole_found",
]

CHOW, PUNG, KONG = int(MeldKind.CHOW), int(MeldKind.PUNG), int(MeldKind.KONG)
_EAST, _NORTH, _GREEN = int(Tile.EAST), int(Tile.NORTH), int(Tile.GREEN)

# ---------------------------------------------------------------- whole-hand facts

# Per-group facts, 10 bits: the group holds tiles, a 2-8, a 1 or 9, a tile outside the
# jade hand (bamboo 2 3 4 6 8 and the green dragon), a kind an odd number of times; and
# (bits 5-8) how many kinds it holds.
_PRESENT, _SIMPLE, _TERMINAL, _NOT_JADE, _ODD, _KINDS = 1, 2, 4, 8, 16, 32
_GROUP_BITS = 10


_ODD_OF: Final = bytes(n & 1 for n in range(256))


def _group_facts(key: bytes, g: int) -> int:
    zeros = key.count(0)
    if zeros == len(key):
        return 0
    code = _PRESENT + _KINDS * (len(key) - zeros)
    if g < 3:
        if key[1:8].count(0) != 7:
            code |= _SIMPLE
        if key[0] or key[8]:
            code |= _TERMINAL
    if g == 0:  # outside the jade hand: bamboo 1, 5, 7 and 9
        not_jade = key[0] or key[4] or key[6] or key[8]
    elif g == 3:  # the winds and the red and white dragons
        not_jade = key[0] or key[1] or key[2] or key[3] or key[5] or key[6]
    else:
        not_jade = True
    if not_jade:
        code |= _NOT_JADE
    if 1 in key.translate(_ODD_OF):
        code |= _ODD
    return code


# Bits of the whole-hand items, in the order the scorer has always detected them (the
# order decides ties inside an exclusive group): clean hands, then the winner's items.
WHOLE_IDS: Final = (
    "clean_suit",
    "pure_suit",
    "very_clean",
    "pure_honours",
    "clean_terminals",
    "pure_terminals",
    "mahjong",
    "self_drawn",
    "fully_concealed",
    "only_possible_tile",
    "peling_eats_cake",
    "pure_simples",
    "last_tile",
    "last_tile_circles1",
    "last_tile_points",
    "last_discard",
    "loose_tile",
    "loose_tile_circles5",
    "kong_on_kong",
    "robbing_kong",
    "earth_doublings",
    "lucky_thirteen",
)
BIT: Final = {item_id: 1 << i for i, item_id in enumerate(WHOLE_IDS)}


class Profile:
    """Whole-hand facts, judged on every tile held, melds included (ruling 13)."""

    __slots__ = (
        "clean_bits",
        "clean_id",
        "clean_key",
        "honours",
        "irregular",
        "jade",
        "majors",
        "simples",
        "snake",
        "suit",
        "suits",
        "terminals",
        "whole_bits",
    )

    def __init__(self, code: int, kinds: int) -> None:
        """``code``: the four groups' facts, 10 bits each (bamboo lowest); ``kinds``: how
        many tile kinds they hold together."""
        groups = [code >> (_GROUP_BITS * g) & (1 << _GROUP_BITS) - 1 for g in range(4)]
        present = [g & _PRESENT for g in groups[:3]]
        self.suits = sum(present)
        self.suit = present.index(1) if self.suits else -1
        self.honours = bool(groups[3] & _PRESENT)
        simples = any(g & _SIMPLE for g in groups[:3])
        terminals = any(g & _TERMINAL for g in groups[:3])
        self.majors = not simples
        self.simples = not (terminals or self.honours)
        self.terminals = not (simples or self.honours)
        self.jade = not any(g & _NOT_JADE for g in groups)
        self.irregular = self.suits <= 1 or not any(g & _ODD for g in groups) or kinds == 13
        """14 such tiles may form an irregular shape: they need one suit at most, only
        pairs, or the 13 kinds of thirteen orphans."""
        self.snake = self.suits == 1 and not self.honours
        """The twisting snake is possible."""
        self.clean_bits = 0
        for item_id in self.clean_items():
            self.clean_bits |= BIT[item_id]
        self.whole_bits = self.clean_bits | (BIT["pure_simples"] if self.simples else 0)
        """The winner's whole-hand items of these tiles: clean hands, all simples."""
        self.clean_key = (
            (self.suits, self.suit, self.majors, self.honours) if self.clean_bits else None
        )
        """What tells clean hands apart (which suit, terminals, honours); ``None`` for a
        hand that is not clean."""
        self.clean_id = (
            0
            if self.clean_key is None
            else 1 + self.suits * 16 + (self.suit + 1) * 4 + self.majors * 2 + self.honours
        )
        """``clean_key`` as a small int (0: not clean), below 128."""

    def clean_items(self) -> list[str]:
        found: list[str] = []
        if self.suits == 1:
            found.append("clean_suit")
            if not self.honours:
                found.append("pure_suit")
            if self.majors:
                found.append("very_clean")
        elif self.suits == 0:
            found.append("pure_honours")
        if self.majors:
            found.append("clean_terminals")
            if self.terminals:
                found.append("pure_terminals")
        return found

    def seven_pair_kinds(self) -> list[str]:
        kinds = ["seven_pairs"]
        if self.suits == 1:
            kinds.append("seven_pairs_clean")
            if not self.honours:
                kinds.append("seven_pairs_pure")
            if self.majors:
                kinds.append("seven_pairs_very_clean")
        elif self.suits == 0:
            kinds.append("seven_pairs_honours")
        if self.majors:
            kinds.append("seven_pairs_terminals_honours")
            if self.terminals:
                kinds.append("seven_pairs_terminals")
        return kinds


_GROUP_CODES: Final[tuple[dict[bytes, int], ...]] = ({}, {}, {}, {})
"""A group's facts by its counts, one table per group (bamboo, circles, characters,
honours), as :func:`_group_value` places them; each starts again empty past
:data:`_GROUP_CODES_BOUND` entries."""
_GROUP_CODES_BOUND: Final = 1 << 13
_PROFILES: Final[dict[int, Profile]] = {}
"""The profile of each combination of the four groups' facts (without their numbers of
kinds) and the number of kinds they hold together; emptied past :data:`_PROFILES_BOUND`
entries."""
_PROFILES_BOUND: Final = 1 << 13
_SHAPES: Final[dict[int, Profile]] = {}
"""The profiles by what they depend on: the groups' facts without their numbers of kinds,
and whether those add up to 13 (so equal profiles are one object, built once).  Bounded
by the facts themselves: at most 4410 (9 combinations of facts for bamboo, 7 each for
circles and characters, 5 for the honours; with 13 kinds or not)."""
_FACT_BITS: Final = sum((_KINDS - 1) << (_GROUP_BITS * g) for g in range(4))
_THIRTEEN: Final = 1 << (_GROUP_BITS * 4)
_KINDS_SHIFT: Final = 48
"""Where a group's value (:func:`_group_value`) keeps its number of kinds: the four
groups' values add up to their facts side by side and their kinds summed."""


def _group_value(key: bytes, g: int) -> int:
    """Group ``g``'s facts (:func:`_group_facts`) in its own 10 bits, its number of kinds
    at :data:`_KINDS_SHIFT`."""
    code = _group_facts(key, g)
    return (code & _KINDS - 1) << (_GROUP_BITS * g) | code // _KINDS << _KINDS_SHIFT


def _fill_profile(b: bytes) -> Profile:
    t0, t1, t2, th = _GROUP_CODES
    for table in _GROUP_CODES:
        if len(table) >= _GROUP_CODES_BOUND:
            table.clear()
    k0, k1, k2, kh = b[0:9], b[9:18], b[18:27], b[27:34]
    c0 = t0.get(k0)
    if c0 is None:
        c0 = t0[k0] = _group_value(k0, 0)
    c1 = t1.get(k1)
    if c1 is None:
        c1 = t1[k1] = _group_value(k1, 1)
    c2 = t2.get(k2)
    if c2 is None:
        c2 = t2[k2] = _group_value(k2, 2)
    ch = th.get(kh)
    if ch is None:
        ch = th[kh] = _group_value(kh, 3)
    key = c0 + c1 + c2 + ch
    profile = _PROFILES.get(key)
    if profile is None:
        code = key & _FACT_BITS
        kinds = key >> _KINDS_SHIFT
        shape = code | (_THIRTEEN if kinds == 13 else 0)
        profile = _SHAPES.get(shape)
        if profile is None:
            profile = _SHAPES[shape] = Profile(code, kinds)
        if len(_PROFILES) >= _PROFILES_BOUND:
            _PROFILES.clear()
        _PROFILES[key] = profile
    return profile


def profile_of(held: Sequence[int]) -> Profile:
    """The whole-hand facts of the 34 counts ``held`` (per-group tables, one object per
    combination of group facts)."""
    b = bytes(held)
    t0, t1, t2, th = _GROUP_CODES
    try:
        return _PROFILES[t0[b[0:9]] + t1[b[9:18]] + t2[b[18:27]] + th[b[27:34]]]
    except KeyError:
        return _fill_profile(b)


# ---------------------------------------------------------------- set items

# A summary of a hand's sets, one 4-bit count per field, so summaries add up.
S_CHOWS, S_IDENTICAL, S_WINDS, S_DRAGONS = 1, 1 << 4, 1 << 8, 1 << 12
S_KONGS, S_CONCEALED_KONGS, S_CONCEALED_PUNGS = 1 << 16, 1 << 20, 1 << 24
SUMMARY_BITS: Final = 28


def fields(x: int) -> tuple[int, int, int, int, int, int, int]:
    """(chows, pungs+kongs, wind pungs, dragon pungs, kongs, concealed kongs,
    concealed pungs+kongs) of a summary."""
    return (
        x & 15,
        x >> 4 & 15,
        x >> 8 & 15,
        x >> 12 & 15,
        x >> 16 & 15,
        x >> 20 & 15,
        x >> 24 & 15,
    )


# (kind, tile, concealed) -> item id of a pung or kong.
_SET_KEY: Final = {
    (kind, tile, concealed): f"{name}_{'simple' if is_simple(tile) else 'major'}_"
    f"{'concealed' if concealed else 'open'}"
    for kind, name in ((PUNG, "pung"), (KONG, "kong"))
    for tile in range(NUM_KINDS)
    for concealed in (False, True)
}


SET_ITEM_IDS: Final = (
    *sorted(set(_SET_KEY.values())),
    "pung_dragon",
    "pung_ruling_dragon",
    "pung_own_wind",
    "pung_round_wind",
)
"""The items a single set can have; their counts pack into an int, 4 bits each."""
_SET_ITEM_SHIFT: Final = {item_id: 4 * i for i, item_id in enumerate(SET_ITEM_IDS)}


def pack_set_items(item_ids: Sequence[str]) -> int:
    """Item counts of one or more sets as one int (they add up: at most 4 sets of each)."""
    return sum(1 << _SET_ITEM_SHIFT[i] for i in item_ids)


def unpack_set_items(packed: int) -> dict[str, int]:
    return {
        i: packed >> _SET_ITEM_SHIFT[i] & 15
        for i in SET_ITEM_IDS
        if packed >> _SET_ITEM_SHIFT[i] & 15
    }


def one_set_items(
    kind: int, tile: int, concealed: bool, seat: int, rnd: int, found: dict[str, int]
) -> int:
    """The items of one set; returns its summary."""
    if kind == CHOW:
        return S_CHOWS
    key = _SET_KEY[kind, tile, concealed]
    found[key] = found.get(key, 0) + 1
    x = S_IDENTICAL
    if kind == KONG:
        x += S_KONGS + S_CONCEALED_KONGS * concealed
    x += S_CONCEALED_PUNGS * concealed
    if tile >= _GREEN:
        x += S_DRAGONS
        found["pung_dragon"] = found.get("pung_dragon", 0) + 1
        if tile == rnd:
            found["pung_ruling_dragon"] = 1
    elif tile >= _EAST:
        x += S_WINDS
        if tile == seat:
            found["pung_own_wind"] = 1
        if tile == rnd:
            found["pung_round_wind"] = 1
    return x


def pair_items(pair: int, seat: int, rnd: int, found: dict[str, int]) -> None:
    if pair >= _EAST:
        if pair >= _GREEN:
            found["pair_dragon"] = 1
        else:
            if pair == seat:
                found["pair_own_wind"] = 1
            if pair == rnd:
                found["pair_round_wind"] = 1


def summary_items(x: int, found: dict[str, int]) -> None:
    """Items of the sets taken together, for every player."""
    _, _, _, _, kongs, c_kongs, c_pungs = fields(x)
    if c_pungs >= 3:
        found["three_concealed_pungs"] = 1
        if c_pungs >= 4:
            found["four_concealed_pungs"] = 1
    if kongs >= 3:
        found["three_kongs"] = 1
        if c_kongs >= 3:
            found["three_concealed_kongs"] = 1
        if kongs == 4:
            found["four_kongs"] = 1


def set_items(
    sets: Sequence[tuple[int, int, bool]],
    pair: int | None,
    seat: int,
    rnd: int,
    found: dict[str, int],
) -> int:
    """Items of the sets (kind, tile, concealed) and the pair; returns the summary."""
    x = 0
    for kind, tile, concealed in sets:
        x += one_set_items(kind, tile, concealed, seat, rnd, found)
    if pair is not None:
        pair_items(pair, seat, rnd, found)
    summary_items(x, found)
    return x


# Pair classes: a suit tile, a wind, a dragon, the seat wind.
PAIR_SUIT, PAIR_WIND, PAIR_DRAGON, PAIR_SEAT = 0, 1, 2, 3


def winner_summary_items(
    x: int,
    pair_class: int,
    simples: bool,
    open_meld: bool,
    four_chows_simples_concealed: bool,
    found: dict[str, int],
) -> bool:
    """The winner's items of the sets taken together; True when four chows took
    "all simples" away (nmb-2009: four chows and simples need a concealed hand)."""
    chows, identical, winds, dragons, _, _, _ = fields(x)
    dropped = False
    if chows == 4:
        found["four_chows"] = 1
        found["chows_and_pair_points"] = 1
        if four_chows_simples_concealed and simples and open_meld:
            del found["four_chows"]
            found.pop("pure_simples", None)
            dropped = True
    elif identical == 4:
        found["four_pungs"] = 1
        if simples:
            found["all_pungs_simples"] = 1
    if winds == 3 and pair_class & PAIR_WIND:
        found["small_four_winds"] = 1
    if dragons == 2 and pair_class == PAIR_DRAGON:
        found["small_three_dragons"] = 1
    elif dragons == 3:
        found["three_wise_men"] = 1
    return dropped


# Which regular limit hands a summary may allow (the scorer then checks them in full):
LIMIT_SETS = 1  # four winds, three dragons, four kongs, four pungs, a kong and the seat pair
LIMIT_SNAKE = 2  # two pungs: the twisting snake, in a pure hand


def _limit_bits(x: int, pair_class: int) -> int:
    _, identical, winds, dragons, kongs, _, _ = fields(x)
    bits = 0
    if (
        winds == 4
        or dragons == 3
        or kongs == 4
        or identical == 4
        or (kongs and pair_class == PAIR_SEAT)
    ):
        bits |= LIMIT_SETS
    if identical == 2:
        bits |= LIMIT_SNAKE
    return bits


# ---------------------------------------------------------------- compiled rule sets

_Value = tuple[int, int, str | None]
_Entry = tuple[int, int, int]  # points, doublings, summary (or limit bits)


class WindTables:
    """Values of every set and pair for one seat wind and round wind.

    A value is packed into one int, ``points << point_shift | doublings << 32 |
    summary``, so the values of a hand's four sets and pair add up in one sum; the
    doublings field is wide enough for five of the largest.

    ``explained`` and ``pair_explained`` hold the scorer's explained items (with their
    details) of each set, per state (concealed, open, completed by a claimed tile), and
    of each pair; ``set_parts`` those of a hand's pungs and kongs taken together, by
    which they are, and ``concealed_parts`` the same for concealed pungs by their table
    indices (both bounded); the scorer fills them as first needed.
    ``other_wind``: which tiles are a wind that is neither the seat nor the round wind.
    """

    __slots__ = (
        "concealed",
        "concealed_items",
        "concealed_parts",
        "doubling_mask",
        "explained",
        "open",
        "open_items",
        "other_wind",
        "pair_class",
        "pair_explained",
        "pair_items",
        "pairs",
        "point_shift",
        "set_parts",
    )

    def __init__(self, rt: RuleTables, seat: int, rnd: int) -> None:
        sets: dict[bool, list[_Entry]] = {False: [], True: []}
        set_items: dict[bool, list[int]] = {False: [], True: []}
        for kind in (CHOW, PUNG, KONG):
            for tile in range(NUM_KINDS):
                for concealed in (False, True):
                    found: dict[str, int] = {}
                    x = one_set_items(kind, tile, concealed, seat, rnd, found)
                    p, d, chosen = rt.evaluate(found)
                    sets[concealed].append((p, d, x))
                    set_items[concealed].append(pack_set_items(chosen))
        pairs: list[_Entry] = []
        self.pair_items: list[tuple[str, ...]] = []
        self.pair_class: list[int] = []
        for tile in range(NUM_KINDS):
            found = {}
            pair_items(tile, seat, rnd, found)
            p, d, chosen = rt.evaluate(found)
            pairs.append((p, d, 0))
            self.pair_items.append(tuple(chosen))
            self.pair_class.append(
                PAIR_SUIT
                if tile < _EAST
                else PAIR_DRAGON
                if tile >= _GREEN
                else PAIR_SEAT
                if tile == seat
                else PAIR_WIND
            )
        most = max(d for table in (*sets.values(), pairs) for _, d, _ in table)
        self.point_shift = 32 + (5 * most).bit_length()
        self.doubling_mask = (1 << (self.point_shift - 32)) - 1

        def pack(table: list[_Entry]) -> list[int]:
            return [p << self.point_shift | d << 32 | x for p, d, x in table]

        # Sets by kind * NUM_KINDS + tile; their valued items packed by pack_set_items.
        self.concealed, self.open = pack(sets[True]), pack(sets[False])
        self.concealed_items, self.open_items = set_items[True], set_items[False]
        self.pairs = pack(pairs)
        self.explained: tuple[list[Any], ...] = tuple([None] * (3 * NUM_KINDS) for _ in range(3))
        self.pair_explained: list[Any] = [None] * NUM_KINDS
        self.set_parts: dict[tuple[int, ...], Any] = {}
        self.concealed_parts: dict[tuple[int, ...], Any] = {}
        self.other_wind = tuple(
            _EAST <= t <= _NORTH and t != seat and t != rnd for t in range(NUM_KINDS)
        )


_TABLE_BOUND: Final = 1 << 12
"""Entries of a rule set's whole-hand table (:attr:`RuleTables.whole`) and of its
set-count table (:attr:`RuleTables.derived`), each with its items; a full table starts
again empty (a long run of nts-2016 hands fills about 15 and 110)."""


class RuleTables:
    """A rule set compiled for the scorer (built once per :class:`RuleSet` object)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        sr = self.sr = rules.scoring
        self.values: dict[str, _Value] = {}
        """Item id -> (points, doublings, group) for the items ``rules`` values."""
        for item_id, item in ITEMS.items():
            p, d = sr.points.get(item_id, 0), sr.doublings.get(item_id, 0)
            if p or d:
                self.values[item_id] = (p, d, item.group)
        self.completes_pair = self.values.get("completes_pair", (0, 0, None))[:2]
        self._winds: dict[tuple[int, int], WindTables] = {}
        self.whole: dict[int, tuple[int, int, bool]] = {}
        """Whole-hand item bits -> (points, doublings, a clean-hand item counts)."""
        self.whole_items: dict[int, tuple[str, ...]] = {}
        """The same key: the items that count."""
        self.derived: dict[int, _Entry] = {}
        """Summary | pair class << 28 | simples << 30 | open meld << 31 ->
        (points, doublings, limit bits) of the winner's set-count items."""
        self.derived_items: dict[int, tuple[tuple[str, ...], bool]] = {}
        """The same key: the items that count, and whether "all simples" is dropped."""

    def winds(self, seat: int, rnd: int) -> WindTables:
        tables = self._winds.get((seat, rnd))
        if tables is None:
            tables = self._winds[seat, rnd] = WindTables(self, seat, rnd)
        return tables

    def evaluate(self, found: dict[str, int]) -> tuple[int, int, list[str]]:
        """Total points and doublings of the items found (id -> count), and the items
        that count; of each exclusive group only the most valuable member counts (the
        first found on a tie)."""
        table = self.values
        points = doublings = 0
        chosen: list[str] = []
        groups: dict[str, tuple[int, str, int, int]] | None = None
        for item_id, count in found.items():
            v = table.get(item_id)
            if v is None:
                continue
            p, d, group = v
            if group is None:
                points += p * count
                doublings += d * count
                chosen.append(item_id)
                continue
            if groups is None:
                groups = {}
            value = (p + d) * count
            old = groups.get(group)
            if old is None or value > old[0]:
                groups[group] = (value, item_id, p * count, d * count)
        if groups:
            for _, item_id, p, d in groups.values():
                points += p
                doublings += d
                chosen.append(item_id)
        return points, doublings, chosen

    def fill_whole(self, bits: int) -> tuple[int, int, bool]:
        p, d, chosen = self.evaluate(whole_found(bits))
        entry = (p, d, any(ITEMS[i].group == "clean" for i in chosen))
        if len(self.whole) >= _TABLE_BOUND:
            self.whole.clear()
            self.whole_items.clear()
        self.whole[bits] = entry
        self.whole_items[bits] = tuple(chosen)
        return entry

    def fill_derived(self, key: int) -> _Entry:
        x = key & ((1 << SUMMARY_BITS) - 1)
        pair_class = key >> SUMMARY_BITS & 3
        simples, open_meld = bool(key >> 30 & 1), bool(key >> 31 & 1)
        found: dict[str, int] = {}
        summary_items(x, found)
        rule = self.sr.four_chows_simples_concealed
        dropped = winner_summary_items(x, pair_class, simples, open_meld, rule, found)
        p, d, chosen = self.evaluate(found)
        pure_simples = self.values.get("pure_simples")
        if dropped and pure_simples:  # counted with the whole-hand items: take it back
            p -= pure_simples[0]
            d -= pure_simples[1]
        entry = (p, d, _limit_bits(x, pair_class))
        if len(self.derived) >= _TABLE_BOUND:
            self.derived.clear()
            self.derived_items.clear()
        self.derived[key] = entry
        self.derived_items[key] = (tuple(chosen), dropped)
        return entry

    def items_of_whole(self, bits: int) -> tuple[str, ...]:
        """The whole-hand items of ``bits`` that count (:attr:`whole_items`, filled if
        it is not there)."""
        found = self.whole_items.get(bits)
        if found is None:
            self.fill_whole(bits)
            found = self.whole_items[bits]
        return found

    def items_of_derived(self, key: int) -> tuple[tuple[str, ...], bool]:
        """The set-count items of ``key`` that count and whether "all simples" is dropped
        (:attr:`derived_items`, filled if it is not there)."""
        found = self.derived_items.get(key)
        if found is None:
            self.fill_derived(key)
            found = self.derived_items[key]
        return found


def whole_found(bits: int) -> dict[str, int]:
    """The whole-hand items of ``bits``, in detection order."""
    return {item_id: 1 for item_id in WHOLE_IDS if bits & BIT[item_id]}


_TABLES: dict[int, RuleTables] = {}


def rule_tables(rules: RuleSet) -> RuleTables:
    """The compiled tables of ``rules`` (kept per rule-set object)."""
    tables = _TABLES.get(id(rules))
    if tables is None or tables.rules is not rules:
        if len(_TABLES) > 64:
            _TABLES.clear()
        tables = _TABLES[id(rules)] = RuleTables(rules)
    return tables
