"""Scoring: one hand, winner or not, under a rule set, explained item by item.

The hand is arranged every legal way (all arrangements of the concealed tiles,
every set the winning tile may have completed, the irregular shapes, Pe-ling
eet cake) and the highest score is kept (rulings 2 and 3).  What each item is
worth comes from the rule set; which items a hand has is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from mahjong_nts.core import analysis
from mahjong_nts.core.analysis import Block, BlockKind, Shape
from mahjong_nts.core.errors import InvalidWin
from mahjong_nts.core.hand import Hand, MeldKind, Win, WinSource
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import (
    NUM_KINDS,
    Tile,
    is_simple,
    is_wind,
)

__all__ = ["ScoreResult", "ScoredItem", "Situation", "score_hand"]

_CHOW, _PUNG, _KONG = int(MeldKind.CHOW), int(MeldKind.PUNG), int(MeldKind.KONG)
_EAST, _NORTH, _GREEN = int(Tile.EAST), int(Tile.NORTH), int(Tile.GREEN)
_PAIR = 3


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything about a player's hand that is not its tiles."""

    seat_wind: Tile
    round_wind: Tile
    """A wind, or ``Tile.GREEN`` in the green-dragon hand of the 3- and 5-player tables."""
    win: Win | None = None
    """How the hand was won; ``None`` for a player who did not win."""
    dead: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat_wind", Tile(self.seat_wind))
        object.__setattr__(self, "round_wind", Tile(self.round_wind))
        if not is_wind(self.seat_wind):
            raise InvalidWin(f"the seat wind must be E, S, W or N, not {self.seat_wind.token}")
        if not (is_wind(self.round_wind) or self.round_wind is Tile.GREEN):
            raise InvalidWin(
                f"the round wind must be E, S, W, N (or F in the green-dragon hand), "
                f"not {self.round_wind.token}"
            )
        win = self.win
        if win is not None and win.heaven and self.seat_wind is not Tile.EAST:
            raise InvalidWin("only East can win the heavenly hand (heaven)")
        if win is not None and win.first_discard and self.seat_wind is Tile.EAST:
            raise InvalidWin("East cannot win on his own first discard (first_discard)")


@dataclass(frozen=True, slots=True)
class ScoredItem:
    id: str
    nl: str
    en: str
    points: int
    doublings: int
    count: int = 1
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ScoreResult:
    winner: bool
    dead: bool
    items: tuple[ScoredItem, ...]
    points: int
    doublings: int
    limit_hand: str | None
    base: int
    """Points x 2**doublings, or the limit hand's value (with its doublings)."""
    cap: int | None
    """The cap that applied to this hand (``None``: no cap)."""
    score: int
    mahjong_allowed: bool | None
    """For a winner: may he go mahjong with this hand.  ``None`` for other players."""
    refusal: str | None
    arrangement: tuple[str, ...]
    """The sets that produced the score; ``*`` marks the set the winning tile completed."""


# A set while scoring: (kind, tile, concealed).
_Set = tuple[int, int, bool]
_NO_HELD: Final = (0,) * NUM_KINDS
_ITEM_ORDER: Final = {item_id: i for i, item_id in enumerate(ITEMS)}
_SNAKE_LAYOUTS: Final = ((3, 6, 2), (2, 6, 5), (2, 5, 8))  # two chow starts, pair rank


def _make_block_text(kind: int, tile: int) -> str:
    size = {_CHOW: 0, _PUNG: 3, _KONG: 4}.get(kind, 2)
    if tile < 27:
        r = tile % 9 + 1
        if size == 0:
            return "bkt"[tile // 9] + (f"{r}{r + 1}{r + 2}" if r <= 7 else "")
        return "bkt"[tile // 9] + str(r) * size
    return Tile(tile).token * size


_BLOCK_TEXT: Final = {
    (kind, tile): _make_block_text(kind, tile)
    for kind in (_CHOW, _PUNG, _KONG, _PAIR)
    for tile in range(NUM_KINDS)
}


def _block_text(kind: int, tile: int) -> str:
    """A set in notation, e.g. ``b123``, ``k555``, ``EEEE``, ``FF``."""
    return _BLOCK_TEXT[kind, tile]


def _tiles_text(counts: Sequence[int]) -> str:
    parts: list[str] = []
    for suit in range(3):
        digits = "".join(str(r + 1) * counts[suit * 9 + r] for r in range(9))
        if digits:
            parts.append("bkt"[suit] + digits)
    honours = "".join(Tile(t).token * counts[t] for t in range(27, NUM_KINDS))
    if honours:
        parts.append(honours)
    return " ".join(parts)


class _Profile:
    """Whole-hand facts, judged on every tile held, melds included (ruling 13)."""

    __slots__ = ("honours", "jade", "majors", "simples", "suit", "suits", "terminals")

    def __init__(self, held: Sequence[int]) -> None:
        b, k, t = any(held[0:9]), any(held[9:18]), any(held[18:27])
        self.suits = b + k + t
        self.suit = 0 if b else 1 if k else 2 if t else -1
        self.honours = any(held[27:34])
        simples = any(held[1:8]) or any(held[10:17]) or any(held[19:26])
        terminals = bool(held[0] or held[8] or held[9] or held[17] or held[18] or held[26])
        self.majors = not simples
        self.simples = not (terminals or self.honours)
        self.terminals = not (simples or self.honours)
        self.jade = sum(held) == held[1] + held[2] + held[3] + held[5] + held[7] + held[31]

    def clean_items(self, found: dict[str, int]) -> None:
        if self.suits == 1:
            found["clean_suit"] = 1
            if not self.honours:
                found["pure_suit"] = 1
            if self.majors:
                found["very_clean"] = 1
        elif self.suits == 0:
            found["pure_honours"] = 1
        if self.majors:
            found["clean_terminals"] = 1
            if self.terminals:
                found["pure_terminals"] = 1

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


_ValueTable = dict[str, tuple[int, int, str | None]]
_SCORED: dict[tuple[str, int, int, int], ScoredItem] = {}
"""Scored items are values: equal ones are shared (interned) rather than rebuilt."""
_TABLES: dict[int, tuple[RuleSet, _ValueTable]] = {}


def _value_table(rules: RuleSet) -> _ValueTable:
    """Item id -> (points, doublings, group) for the items ``rules`` values."""
    entry = _TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_TABLES) > 64:
            _TABLES.clear()
        points, doublings = rules.scoring.points, rules.scoring.doublings
        table: _ValueTable = {}
        for item_id, item in ITEMS.items():
            p, d = points.get(item_id, 0), doublings.get(item_id, 0)
            if p or d:
                table[item_id] = (p, d, item.group)
        entry = (rules, table)
        _TABLES[id(rules)] = entry
    return entry[1]


@dataclass(slots=True)
class _Candidate:
    points: int
    doublings: int
    base: int
    cap: int | None
    score: int
    allowed: bool
    refusal: str | None
    limit_hand: str | None
    items: list[ScoredItem] | None
    """Set for limit hands; regular candidates keep ``found``/``chosen`` instead."""
    found: dict[str, int]
    chosen: list[str]
    describe: Callable[[], tuple[str, ...]]

    def key(self) -> tuple[bool, bool, int, int, int]:
        """Best first: allowed, then a limit hand (which is always worth its limit value,
        whatever its parts would count), then the highest score."""
        return (self.allowed, self.limit_hand is not None, self.score, self.points, -self.doublings)


class _Scorer:
    """Scores one hand; holds what every arrangement shares."""

    def __init__(self, hand: Hand, situation: Situation, rules: RuleSet) -> None:
        self.hand = hand
        self.rules = rules
        self.sr = rules.scoring
        self.table = _value_table(rules)
        self.win = situation.win
        self.self_drawn = situation.win is not None and situation.win.source.self_drawn
        self.seat = int(situation.seat_wind)
        self.round = int(situation.round_wind)
        self.meld_sets: list[_Set] = [(int(m.kind), int(m.tile), not m.open) for m in hand.melds]
        self.has_open_meld = any(m.open for m in hand.melds)
        self.best: _Candidate | None = None

    @property
    def meld_text(self) -> tuple[str, ...]:
        return tuple(
            f"[{_block_text(int(m.kind), int(m.tile))}]"
            if m.open
            else f"({_block_text(int(m.kind), int(m.tile))})"
            for m in self.hand.melds
        )

    def consider(self, cand: _Candidate) -> None:
        if self.best is None or cand.key() > self.best.key():
            self.best = cand

    def held(self, counts: Sequence[int]) -> list[int]:
        held = list(counts)
        for kind, tile, _ in self.meld_sets:
            if kind == _CHOW:
                held[tile] += 1
                held[tile + 1] += 1
                held[tile + 2] += 1
            else:
                held[tile] += 4 if kind == _KONG else 3
        return held

    def bonus_items(self, found: dict[str, int]) -> None:
        bonus = self.hand.bonus
        if not bonus:
            return
        found["bonus_tile"] = len(bonus)
        own = self.seat - Tile.EAST  # 0 East .. 3 North
        if Tile.F1 + own in bonus:
            found["own_flower"] = 1
        if Tile.S1 + own in bonus:
            found["own_season"] = 1
        if sum(1 for t in bonus if t < Tile.S1) == 4:
            found["all_flowers"] = 1
        if sum(1 for t in bonus if t >= Tile.S1) == 4:
            found["all_seasons"] = 1

    def set_items(self, sets: Sequence[_Set], pair: int | None, found: dict[str, int]) -> list[int]:
        """Items of the sets and the pair; returns [chows, pungs+kongs, wind pungs,
        dragon pungs, kongs, concealed kongs] for the hand-level checks."""
        chows = identical = winds = dragons = kongs = c_kongs = c_pungs = 0
        seat, rnd = self.seat, self.round
        for kind, tile, concealed in sets:
            if kind == _CHOW:
                chows += 1
                continue
            identical += 1
            key = _SET_KEY[kind, tile, concealed]
            found[key] = found.get(key, 0) + 1
            if kind == _KONG:
                kongs += 1
                c_kongs += concealed
            c_pungs += concealed
            if tile >= _GREEN:
                dragons += 1
                found["pung_dragon"] = found.get("pung_dragon", 0) + 1
                if tile == rnd:
                    found["pung_ruling_dragon"] = 1
            elif tile >= _EAST:
                winds += 1
                if tile == seat:
                    found["pung_own_wind"] = 1
                if tile == rnd:
                    found["pung_round_wind"] = 1
        if pair is not None and pair >= _EAST:
            if pair >= _GREEN:
                found["pair_dragon"] = 1
            else:
                if pair == seat:
                    found["pair_own_wind"] = 1
                if pair == rnd:
                    found["pair_round_wind"] = 1
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
        return [chows, identical, winds, dragons, kongs, c_kongs]

    def evaluate(self, found: dict[str, int]) -> tuple[int, int, list[str]]:
        """Total points and doublings of the items found (id -> count); of each
        exclusive group only the most valuable member counts."""
        table = self.table
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

    def regular(
        self,
        found: dict[str, int],
        describe: Callable[[], tuple[str, ...]],
        cap: int | None,
        winner: bool,
    ) -> _Candidate:
        points, doublings, chosen = self.evaluate(found)
        base = points << doublings
        score = base if cap is None or base <= cap else cap
        allowed, refusal = True, None
        if winner and doublings < self.sr.min_doublings:
            may_clean = self.sr.clean_hand_may_win
            if not (may_clean and any(ITEMS[i].group == "clean" for i in chosen)):
                allowed = False
                need = self.sr.min_doublings
                refusal = (
                    f"{doublings} doubling{'' if doublings == 1 else 's'}: a mahjong needs "
                    f"at least {need}" + (" or a clean hand" if may_clean else "")
                )
        return _Candidate(
            points,
            doublings,
            base,
            cap,
            score,
            allowed,
            refusal,
            None,
            None,
            found,
            chosen,
            describe,
        )

    def limit(
        self, limit_id: str, value: int, describe: Callable[[], tuple[str, ...]], detail: str
    ) -> _Candidate:
        hand = LIMIT_HANDS[limit_id]
        items = [ScoredItem(limit_id, hand.nl, hand.en, value, 0, 1, detail)]
        doublings = 0
        extra = self.sr.limit_hand_concealed_doublings
        win = self.win
        if extra and win is not None and win.source.self_drawn and not self.has_open_meld:
            item = ITEMS["fully_concealed"]
            items.append(
                ScoredItem("fully_concealed", item.nl, item.en, 0, extra, 1, "limit hand concealed")
            )
            doublings = extra
        base = value << doublings
        return _Candidate(
            value, doublings, base, None, base, True, None, limit_id, items, {}, [], describe
        )

    def items_of(self, cand: _Candidate) -> tuple[ScoredItem, ...]:
        if cand.items is not None:
            return tuple(cand.items)
        table, found = self.table, cand.found
        out: list[ScoredItem] = []
        for item_id in sorted(cand.chosen, key=_ITEM_ORDER.__getitem__):
            p, d, _ = table[item_id]
            n = found[item_id]
            key = (item_id, p * n, d * n, n)
            scored = _SCORED.get(key)
            if scored is None:
                item = ITEMS[item_id]
                scored = _SCORED[key] = ScoredItem(item_id, item.nl, item.en, p * n, d * n, n)
            out.append(scored)
        return tuple(out)


# (kind, tile, concealed) -> item id of a pung or kong.
_SET_KEY: Final = {
    (kind, tile, concealed): f"{name}_{'simple' if is_simple(tile) else 'major'}_"
    f"{'concealed' if concealed else 'open'}"
    for kind, name in ((_PUNG, "pung"), (_KONG, "kong"))
    for tile in range(NUM_KINDS)
    for concealed in (False, True)
}


def _const(text: tuple[str, ...]) -> Callable[[], tuple[str, ...]]:
    return lambda: text


def _limit_value(rules: RuleSet, limit_id: str, self_drawn: bool) -> int | None:
    lv = rules.scoring.limit_hands.get(limit_id)
    if lv is None:
        return None
    return lv.self_drawn if self_drawn else lv.claimed


def score_hand(hand: Hand, situation: Situation, rules: RuleSet) -> ScoreResult:
    """Score ``hand`` for the player described by ``situation`` under ``rules``.

    A winner (``situation.win`` set) needs ``hand.winning_tile``; his result says
    whether he may go mahjong and, if not, why.  Raises :class:`InvalidHand` for a
    wrong number of tiles (unless the hand is dead) and :class:`InvalidWin` for
    win circumstances that do not fit the hand.
    """
    winner = situation.win is not None
    if winner and hand.winning_tile is None:
        raise InvalidWin("a winning hand needs its winning tile")
    if not winner and hand.winning_tile is not None:
        raise InvalidWin(
            f"a winning tile ({hand.winning_tile.token}) was given, "
            "but no win (how the hand was won)"
        )
    if situation.dead:
        return ScoreResult(
            winner=winner,
            dead=True,
            items=(),
            points=0,
            doublings=0,
            limit_hand=None,
            base=0,
            cap=None,
            score=0,
            mahjong_allowed=False if winner else None,
            refusal="dead hand (dood spel): scores nothing and still pays",
            arrangement=(),
        )
    hand.check_size(winner)
    sc = _Scorer(hand, situation, rules)
    if winner:
        _winner(sc)
    else:
        _non_winner(sc)
    best = sc.best
    assert best is not None
    return ScoreResult(
        winner=winner,
        dead=False,
        items=sc.items_of(best),
        points=best.points,
        doublings=best.doublings,
        limit_hand=best.limit_hand,
        base=best.base,
        cap=best.cap,
        score=best.score,
        mahjong_allowed=best.allowed if winner else None,
        refusal=best.refusal,
        arrangement=best.describe(),
    )


def _non_winner(sc: _Scorer) -> None:
    """Only complete pungs/kongs and a scoring pair count; loose tiles count only for
    whole-hand doublings (ruling 2).  A pung always scores more than using its tiles
    otherwise, so every triple is a pung; the pair is the best one."""
    counts = sc.hand.counts
    common: dict[str, int] = {}
    _Profile(sc.held(counts)).clean_items(common)
    sc.bonus_items(common)
    pungs = [t for t in range(NUM_KINDS) if counts[t] >= 3]
    sets = sc.meld_sets + [(_PUNG, t, True) for t in pungs]
    cap = sc.sr.limit_non_winner
    pairs: list[int | None] = [None]
    pairs.extend(t for t in range(Tile.EAST, NUM_KINDS) if counts[t] == 2)
    for pair in pairs:
        found = dict(common)
        sc.set_items(sets, pair, found)

        def describe(pair: int | None = pair) -> tuple[str, ...]:
            text = sc.meld_text + tuple(_block_text(_PUNG, t) for t in pungs)
            return text + ((_block_text(_PAIR, pair),) if pair is not None else ())

        sc.consider(sc.regular(found, describe, cap, winner=False))
    if not sc.hand.melds:
        _waiting_limit(sc, counts)


def _waiting_limit(sc: _Scorer, counts: Sequence[int]) -> None:
    """A non-winner one tile short of an irregular limit hand scores its waiting
    value (ruling 12), if that is more than his sets."""
    dup = sc.sr.seven_pairs_duplicate
    limit_hands = sc.sr.limit_hands
    for w in analysis.waiting_tiles(counts, held=_NO_HELD, duplicate_pairs=dup):
        full = list(counts)
        full[w] += 1
        shapes = analysis.irregular_shapes(full, duplicate_pairs=dup)
        for limit_id in _shape_limits(shapes, full):
            lv = limit_hands.get(limit_id)
            if lv is None or lv.waiting is None:
                continue
            hand = LIMIT_HANDS[limit_id]
            item = ScoredItem(
                limit_id, hand.nl, hand.en, lv.waiting, 0, 1, f"waiting on {Tile(w).token}"
            )
            text = (_tiles_text(counts),)
            sc.consider(
                _Candidate(
                    lv.waiting,
                    0,
                    lv.waiting,
                    None,
                    lv.waiting,
                    True,
                    None,
                    limit_id,
                    [item],
                    {},
                    [],
                    _const(text),
                )
            )


def _shape_limits(shapes: Iterable[Shape], counts: Sequence[int]) -> list[str]:
    out: list[str] = []
    for shape in shapes:
        if shape is Shape.SEVEN_PAIRS:
            out.extend(_Profile(counts).seven_pair_kinds())
        else:
            out.append(shape.value)
    return out


def _winner(sc: _Scorer) -> None:
    hand, rules, win = sc.hand, sc.rules, sc.win
    assert win is not None and hand.winning_tile is not None
    w = int(hand.winning_tile)
    counts = hand.counts
    self_drawn = win.source.self_drawn
    dup = sc.sr.seven_pairs_duplicate
    n_melds = len(hand.melds)
    cap = sc.sr.limit if self_drawn else sc.sr.limit_claimed
    # The waits of the hand before the winning tile, counted structurally (ruling 4).
    pre = list(counts)
    pre[w] -= 1
    waits = analysis.waiting_tiles(pre, n_melds=n_melds, held=_NO_HELD, duplicate_pairs=dup)
    # Irregular limit hands: concealed up to the winning tile (ruling 12).
    if n_melds == 0:
        shapes = analysis.irregular_shapes(counts, duplicate_pairs=dup)
        if shapes:
            text = (_tiles_text(counts),)
            limit_ids = _shape_limits(shapes, counts)
            limit_ids += [
                i for i, on in (("heaven", win.heaven), ("earth", win.first_discard)) if on
            ]
            for limit_id in limit_ids:
                value = _limit_value(rules, limit_id, self_drawn)
                if value is not None:
                    sc.consider(sc.limit(limit_id, value, _const(text), "limit hand"))
    # Regular arrangements; Pe-ling eet cake lets circles 1 be bamboo 1 (ruling 9).
    variants: list[tuple[Sequence[int], int, bool]] = [(counts, w, False)]
    if w == Tile.K1 and 1 <= counts[Tile.B1] <= 3 and "peling_eats_cake" in sc.table:
        sub = list(counts)
        sub[Tile.K1] -= 1
        sub[Tile.B1] += 1
        variants.append((sub, int(Tile.B1), True))
    for vcounts, vw, peling in variants:
        arrangements = analysis.arrangements(vcounts)
        if not arrangements:
            continue
        profile = _Profile(sc.held(vcounts))
        whole: dict[str, int] = {}
        profile.clean_items(whole)
        sc.bonus_items(whole)
        _winner_hand_items(sc, whole, profile, peling, len(waits) == 1)
        for blocks in arrangements:
            _arrangement(sc, blocks, vw, peling, profile, whole, cap)
    if sc.best is None:
        note = "" if n_melds == 0 else " (irregular hands must be concealed)"
        sc.best = _Candidate(
            0,
            0,
            0,
            cap,
            0,
            False,
            "not a complete hand: no arrangement into four sets and a pair, nor a limit "
            f"hand of this rule set{note}",
            None,
            None,
            {},
            [],
            lambda: (),
        )


def _winner_hand_items(
    sc: _Scorer, found: dict[str, int], profile: _Profile, peling: bool, single_wait: bool
) -> None:
    """Winner items that do not depend on the arrangement."""
    win = sc.win
    assert win is not None
    w = sc.hand.winning_tile
    found["mahjong"] = 1
    if win.source.self_drawn:
        found["self_drawn"] = 1
        if not sc.has_open_meld:
            found["fully_concealed"] = 1
    if single_wait:
        found["only_possible_tile"] = 1
    if peling:
        found["peling_eats_cake"] = 1
    if profile.simples:
        found["pure_simples"] = 1
    if win.last_tile:
        found["last_tile"] = 1
        if w is Tile.K1:
            found["last_tile_circles1"] = 1
    if win.last_tile or win.last_discard:
        found["last_tile_points"] = 1
    if win.last_discard:
        found["last_discard"] = 1
    if win.source is WinSource.LOOSE_TILE:
        found["loose_tile"] = 1
        if w is Tile.K5:
            found["loose_tile_circles5"] = 1
        if win.kong_on_kong:
            found["kong_on_kong"] = 1
    elif win.source is WinSource.ROBBED_KONG:
        found["robbing_kong"] = 1
    if win.first_discard:
        found["earth_doublings"] = 1
    if win.lucky_thirteen:
        found["lucky_thirteen"] = 1


def _arrangement(
    sc: _Scorer,
    blocks: tuple[Block, ...],
    w: int,
    peling: bool,
    profile: _Profile,
    whole: dict[str, int],
    cap: int | None,
) -> None:
    win = sc.win
    assert win is not None
    claimed = not sc.self_drawn
    # Blocks come sorted by (kind, tile): the pair is the last one.
    pair = blocks[-1].tile
    concealed = blocks[:-1]
    # Which block did the winning tile complete?  Every distinct choice is legal.
    seen: set[tuple[int, int]] = set()
    for wb in blocks:
        wkind = wb.kind
        if wkind == _CHOW:
            if peling or not wb.tile <= w <= wb.tile + 2:
                continue
        elif wb.tile != w or (peling and wkind != BlockKind.PAIR):
            continue
        if seen and (wkind, wb.tile) in seen:
            continue
        seen.add((wkind, wb.tile))
        sets = sc.meld_sets + [
            (_CHOW if b.kind == _CHOW else _PUNG, b.tile, not (claimed and b is wb))
            for b in concealed
        ]
        found = dict(whole)
        chows, identical, winds, dragons, kongs, c_kongs = sc.set_items(sets, pair, found)
        if wkind == BlockKind.PAIR:
            found["completes_pair"] = 1
        if chows == 4:
            found["four_chows"] = 1
            found["chows_and_pair_points"] = 1
            if sc.sr.four_chows_simples_concealed and profile.simples and sc.has_open_meld:
                del found["four_chows"]
                found.pop("pure_simples", None)
        elif identical == 4:
            found["four_pungs"] = 1
            if profile.simples:
                found["all_pungs_simples"] = 1
        if winds == 3 and _EAST <= pair <= _NORTH:
            found["small_four_winds"] = 1
        if dragons == 2 and pair >= _GREEN:
            found["small_three_dragons"] = 1
        elif dragons == 3:
            found["three_wise_men"] = 1

        def describe(wb: Block = wb) -> tuple[str, ...]:
            text = list(sc.meld_text)
            for b in concealed:
                kind = _CHOW if b.kind is BlockKind.CHOW else _PUNG
                text.append(_block_text(kind, b.tile) + ("*" if b is wb else ""))
            text.append(_block_text(_PAIR, pair) + ("*" if wb.kind is BlockKind.PAIR else ""))
            return tuple(text)

        maybe_limit = (
            identical >= 2
            or profile.jade
            or win.heaven
            or win.first_discard
            or (pair == sc.seat and kongs)
        )
        for limit_id in (
            maybe_limit
            and _regular_limits(sc, sets, pair, profile, identical, winds, dragons, kongs, c_kongs)
        ) or ():
            value = _limit_value(sc.rules, limit_id, sc.self_drawn)
            if value is not None:
                sc.consider(sc.limit(limit_id, value, describe, "limit hand"))
        sc.consider(sc.regular(found, describe, cap, winner=True))


def _regular_limits(
    sc: _Scorer,
    sets: Sequence[_Set],
    pair: int,
    profile: _Profile,
    identical: int,
    winds: int,
    dragons: int,
    kongs: int,
    c_kongs: int,
) -> list[str]:
    win = sc.win
    assert win is not None
    out: list[str] = []
    if winds == 4:
        out.append("four_winds")
    if dragons == 3:
        out.append("three_dragons")
    if profile.jade:
        out.append("jade")
    if win.heaven:
        out.append("heaven")
    if win.first_discard:
        out.append("earth")
    if kongs == 4:
        out.append("four_kongs")
        if c_kongs == 4:
            out.append("four_concealed_kongs")
    if identical == 4:
        if profile.terminals:
            out.append("head_and_tail")
        if profile.suits == 0:
            out.append("only_honours")
    if identical == 2 and profile.suits == 1 and not profile.honours:
        base = profile.suit * 9
        pungs = sorted(s[1] - base for s in sets if s[0] != _CHOW)
        chows = sorted(s[1] - base + 1 for s in sets if s[0] == _CHOW)
        if pungs == [0, 8] and (chows[0], chows[1], pair - base + 1) in _SNAKE_LAYOUTS:
            out.append("twisting_snake")
    if (
        pair == sc.seat
        and any(s[0] == _KONG and s[1] == Tile.RED for s in sets)
        and sorted(s[1] for s in sets if s[0] == _CHOW) == [Tile.T1, Tile.T4, Tile.T7]
    ):
        out.append("red_dragon")
    return out
