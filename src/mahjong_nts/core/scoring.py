"""Scoring: one hand, winner or not, under a rule set, explained item by item.

The hand is arranged every legal way (all arrangements of the concealed tiles,
every set the winning tile may have completed, the irregular shapes, Pe-ling
eet cake) and the highest score is kept (rulings 2 and 3).  What each item is
worth comes from the rule set; which items a hand has is decided by
:mod:`mahjong_nts.core.scoring_tables`, whose tables value a winner's candidate in a
few look-ups.  Only the best candidate is explained: its items, with their Dutch and
English names, come from the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Final

from mahjong_nts.core import analysis
from mahjong_nts.core.analysis import Block, Shape
from mahjong_nts.core.errors import InvalidWin
from mahjong_nts.core.hand import Hand, Win, WinSource
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.scoring_tables import (
    BIT,
    CHOW,
    KONG,
    LIMIT_SETS,
    LIMIT_SNAKE,
    PUNG,
    SUMMARY_BITS,
    Profile,
    RuleTables,
    WindTables,
    fields,
    profile_of,
    rule_tables,
    set_items,
    unpack_set_items,
    whole_found,
)
from mahjong_nts.core.tiles import NUM_KINDS, Tile, is_wind

__all__ = ["ScoreResult", "ScoredItem", "Situation", "score_hand"]

_PAIR = 3  # a pair, for its text


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
# A candidate's rank, best first: allowed, then a limit hand (which is always worth its
# limit value, whatever its parts would count), then the highest score, points, fewest
# doublings.  On a tie the first candidate stays.
_Key = tuple[bool, bool, int, int, int]
# How to explain a candidate: ``func(scorer, *args)``, called for the best one only.
_Make = tuple[Callable[..., "ScoreResult"], tuple[Any, ...]]
_NO_HELD: Final = (0,) * NUM_KINDS
_ITEM_ORDER: Final = {item_id: i for i, item_id in enumerate(ITEMS)}
_SNAKE_LAYOUTS: Final = ((3, 6, 2), (2, 6, 5), (2, 5, 8))  # two chow starts, pair rank


def _make_block_text(kind: int, tile: int) -> str:
    size = {CHOW: 0, PUNG: 3, KONG: 4}.get(kind, 2)
    if tile < 27:
        r = tile % 9 + 1
        if size == 0:
            return "bkt"[tile // 9] + (f"{r}{r + 1}{r + 2}" if r <= 7 else "")
        return "bkt"[tile // 9] + str(r) * size
    return Tile(tile).token * size


_BLOCK_TEXT: Final = [
    _make_block_text(kind, tile) for kind in (CHOW, PUNG, KONG, _PAIR) for tile in range(NUM_KINDS)
]
"""A set in notation (``b123``, ``k555``, ``EEEE``, ``FF``), index kind * NUM_KINDS + tile."""


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


_SCORED: dict[tuple[str, int, int, int], ScoredItem] = {}
"""Scored items are values: equal ones are shared (interned) rather than rebuilt."""
_Ranked = tuple[int, ScoredItem]  # an item with its place in the catalogue
_SECOND: Final = itemgetter(1)
_MAHJONG: Final = BIT["mahjong"]
_SELF_DRAWN: Final = _MAHJONG | BIT["self_drawn"]
_CONCEALED_SELF_DRAWN: Final = _SELF_DRAWN | BIT["fully_concealed"]
_ONLY_POSSIBLE: Final = BIT["only_possible_tile"]
_PELING: Final = BIT["peling_eats_cake"]


def _scored(item_id: str, points: int, doublings: int, count: int) -> ScoredItem:
    key = (item_id, points, doublings, count)
    scored = _SCORED.get(key)
    if scored is None:
        item = ITEMS[item_id]
        scored = _SCORED[key] = ScoredItem(item_id, item.nl, item.en, points, doublings, count)
    return scored


class _Explainer:
    """The scored items of one rule set's tables, built as they are first needed."""

    def __init__(self, rt: RuleTables) -> None:
        self.rt = rt
        self._items: dict[tuple[str, ...], tuple[_Ranked, ...]] = {}
        self._whole: dict[int, tuple[_Ranked, ...]] = {}
        self._derived: dict[int, tuple[tuple[_Ranked, ...], bool]] = {}
        self._sets: dict[int, tuple[_Ranked, ...]] = {}

    def item(self, item_id: str, count: int) -> _Ranked:
        p, d, _ = self.rt.values[item_id]
        return (_ITEM_ORDER[item_id], _scored(item_id, p * count, d * count, count))

    def items(self, item_ids: tuple[str, ...]) -> tuple[_Ranked, ...]:
        """Items that count once each."""
        ranked = self._items.get(item_ids)
        if ranked is None:
            ranked = self._items[item_ids] = tuple(self.item(i, 1) for i in item_ids)
        return ranked

    def whole(self, bits: int) -> tuple[_Ranked, ...]:
        """The whole-hand items of ``bits`` that count (:attr:`RuleTables.whole`)."""
        ranked = self._whole.get(bits)
        if ranked is None:
            ranked = self._whole[bits] = self.items(self.rt.whole_items[bits])
        return ranked

    def derived(self, key: int) -> tuple[tuple[_Ranked, ...], bool]:
        """The set-count items of ``key`` (:attr:`RuleTables.derived`) that count, and
        whether they take "all simples" away."""
        entry = self._derived.get(key)
        if entry is None:
            item_ids, dropped = self.rt.derived_items[key]
            entry = self._derived[key] = (self.items(item_ids), dropped)
        return entry

    def sets(self, packed: int) -> tuple[_Ranked, ...]:
        """The items of the sets, packed by :func:`pack_set_items`."""
        ranked = self._sets.get(packed)
        if ranked is None:
            counts = unpack_set_items(packed)
            ranked = self._sets[packed] = tuple(self.item(i, n) for i, n in counts.items())
        return ranked


_EXPLAINERS: dict[int, _Explainer] = {}


def _explainer(rules: RuleSet) -> _Explainer:
    """The explainer of ``rules``'s tables (kept per rule-set object)."""
    ex = _EXPLAINERS.get(id(rules))
    if ex is None or ex.rt.rules is not rules:
        if len(_EXPLAINERS) > 64:
            _EXPLAINERS.clear()
        ex = _EXPLAINERS[id(rules)] = _Explainer(rule_tables(rules))
    return ex


class _Scorer:
    """Scores one hand: holds what every candidate shares, and the best one so far."""

    # A hand without melds or bonus tiles keeps these.
    meld_sets: tuple[_Set, ...] = ()
    meld_text: tuple[str, ...] = ()
    has_open_meld = False
    meld_value = 0  # the melds' values, packed (WindTables)
    meld_counts = 0  # the melds' items, packed
    bonus_p = bonus_d = 0
    bonus: tuple[tuple[str, int], ...] = ()  # the bonus items that count, with their count
    best_key: _Key | None = None
    best_make: _Make | None = None

    def __init__(self, hand: Hand, situation: Situation, rules: RuleSet, winner: bool) -> None:
        self.hand = hand
        self.winner = winner
        self.ex = ex = _explainer(rules)
        self.rt = rt = ex.rt
        self.sr = rules.scoring
        self.win = win = situation.win
        self.self_drawn = win is not None and win.source.self_drawn
        self.seat = seat = int(situation.seat_wind)
        self.round = rnd = int(situation.round_wind)
        self.wt = wt = rt.winds(seat, rnd)
        if hand.melds:
            self._melds(hand, wt)
        if hand.bonus:
            found: dict[str, int] = {}
            self.bonus_items(found)
            self.bonus_p, self.bonus_d, chosen = rt.evaluate(found)
            self.bonus = tuple((i, found[i]) for i in chosen)

    def _melds(self, hand: Hand, wt: WindTables) -> None:
        sets: list[_Set] = []
        text: list[str] = []
        for m in hand.melds:
            kind, tile, concealed = int(m.kind), int(m.tile), not m.open
            sets.append((kind, tile, concealed))
            block = _BLOCK_TEXT[kind * NUM_KINDS + tile]
            text.append(f"({block})" if concealed else f"[{block}]")
            self.has_open_meld |= m.open
            i = kind * NUM_KINDS + tile
            self.meld_value += (wt.concealed if concealed else wt.open)[i]
            self.meld_counts += (wt.concealed_items if concealed else wt.open_items)[i]
        self.meld_sets = tuple(sets)
        self.meld_text = tuple(text)

    def consider(self, key: _Key, make: _Make) -> None:
        if self.best_key is None or key > self.best_key:
            self.best_key = key
            self.best_make = make

    def held(self, counts: Sequence[int]) -> Sequence[int]:
        if not self.meld_sets:
            return counts
        held = list(counts)
        for kind, tile, _ in self.meld_sets:
            if kind == CHOW:
                held[tile] += 1
                held[tile + 1] += 1
                held[tile + 2] += 1
            else:
                held[tile] += 4 if kind == KONG else 3
        return held

    def bonus_items(self, found: dict[str, int]) -> None:
        bonus = self.hand.bonus
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

    def regular_key(self, points: int, doublings: int, cap: int | None) -> _Key:
        """The rank of a non-winner's candidate."""
        base = points << doublings
        return (True, False, base if cap is None or base <= cap else cap, points, -doublings)

    @property
    def limit_doublings(self) -> int:
        """A limit hand's doublings: a self-drawn concealed one may have some."""
        extra = self.sr.limit_hand_concealed_doublings
        return extra if extra and self.self_drawn and not self.has_open_meld else 0

    def limit_key(self, value: int) -> _Key:
        doublings = self.limit_doublings
        return (True, True, value << doublings, value, -doublings)

    def result(
        self,
        items: tuple[ScoredItem, ...],
        points: int,
        doublings: int,
        limit_hand: str | None,
        base: int,
        cap: int | None,
        score: int,
        allowed: bool,
        refusal: str | None,
        arrangement: tuple[str, ...],
    ) -> ScoreResult:
        return ScoreResult(
            self.winner,
            False,
            items,
            points,
            doublings,
            limit_hand,
            base,
            cap,
            score,
            allowed if self.winner else None,
            refusal,
            arrangement,
        )

    def explain_found(
        self, found: dict[str, int], cap: int | None, arrangement: tuple[str, ...]
    ) -> ScoreResult:
        """A regular candidate from all the items found (id -> count)."""
        points, doublings, chosen = self.rt.evaluate(found)
        clean = any(ITEMS[i].group == "clean" for i in chosen)
        items = tuple(map(_SECOND, sorted(self.ex.item(i, found[i]) for i in chosen)))
        return self.finish(items, points, doublings, clean, cap, arrangement)

    def finish(
        self,
        items: tuple[ScoredItem, ...],
        points: int,
        doublings: int,
        clean: bool,
        cap: int | None,
        arrangement: tuple[str, ...],
    ) -> ScoreResult:
        """A regular candidate from its items and their total; ``clean``: a clean-hand
        item is among them."""
        base = points << doublings
        score = base if cap is None or base <= cap else cap
        allowed, refusal = True, None
        sr = self.sr
        if self.winner and doublings < sr.min_doublings:
            may_clean = sr.clean_hand_may_win
            if not (may_clean and clean):
                allowed = False
                refusal = (
                    f"{doublings} doubling{'' if doublings == 1 else 's'}: a mahjong needs "
                    f"at least {sr.min_doublings}" + (" or a clean hand" if may_clean else "")
                )
        return self.result(
            items, points, doublings, None, base, cap, score, allowed, refusal, arrangement
        )

    def explain_limit(
        self, limit_id: str, value: int, detail: str, arrangement: tuple[str, ...]
    ) -> ScoreResult:
        hand = LIMIT_HANDS[limit_id]
        items = [ScoredItem(limit_id, hand.nl, hand.en, value, 0, 1, detail)]
        doublings = self.limit_doublings
        if doublings:
            item = ITEMS["fully_concealed"]
            items.append(
                ScoredItem(
                    "fully_concealed", item.nl, item.en, 0, doublings, 1, "limit hand concealed"
                )
            )
        base = value << doublings
        return self.result(
            tuple(items), value, doublings, limit_id, base, None, base, True, None, arrangement
        )


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
    sc = _Scorer(hand, situation, rules, winner)
    if winner:
        _winner(sc)
    else:
        _non_winner(sc)
    assert sc.best_make is not None
    explain, args = sc.best_make
    return explain(sc, *args)


def _non_winner(sc: _Scorer) -> None:
    """Only complete pungs/kongs and a scoring pair count; loose tiles count only for
    whole-hand doublings (ruling 2).  A pung always scores more than using its tiles
    otherwise, so every triple is a pung; the pair is the best one."""
    counts = sc.hand.counts
    bits = profile_of(sc.held(counts)).clean_bits
    pungs = [t for t in range(NUM_KINDS) if counts[t] >= 3]
    sets = [*sc.meld_sets, *((PUNG, t, True) for t in pungs)]
    text = sc.meld_text + tuple(_BLOCK_TEXT[PUNG * NUM_KINDS + t] for t in pungs)
    cap = sc.sr.limit_non_winner
    pairs: list[int | None] = [None]
    pairs.extend(t for t in range(Tile.EAST, NUM_KINDS) if counts[t] == 2)
    for pair in pairs:
        found = whole_found(bits)
        found.update(sc.bonus)
        set_items(sets, pair, sc.seat, sc.round, found)
        points, doublings, _ = sc.rt.evaluate(found)
        pair_text = (_BLOCK_TEXT[_PAIR * NUM_KINDS + pair],) if pair is not None else ()
        sc.consider(
            sc.regular_key(points, doublings, cap),
            (_Scorer.explain_found, (found, cap, text + pair_text)),
        )
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
        for limit_id in _shape_limits(shapes, profile_of(full)):
            lv = limit_hands.get(limit_id)
            if lv is None or lv.waiting is None:
                continue
            hand = LIMIT_HANDS[limit_id]
            v = lv.waiting
            item = ScoredItem(limit_id, hand.nl, hand.en, v, 0, 1, f"waiting on {Tile(w).token}")
            text = (_tiles_text(counts),)
            args = ((item,), v, 0, limit_id, v, None, v, True, None, text)
            sc.consider((True, True, v, v, 0), (_Scorer.result, args))


def _shape_limits(shapes: Iterable[Shape], profile: Profile) -> list[str]:
    out: list[str] = []
    for shape in shapes:
        if shape is Shape.SEVEN_PAIRS:
            out.extend(profile.seven_pair_kinds())
        else:
            out.append(shape.value)
    return out


def _winner(sc: _Scorer) -> None:
    hand, rt = sc.hand, sc.rt
    assert hand.winning_tile is not None
    w = int(hand.winning_tile)
    counts = bytes(hand.counts)  # read faster by the analysis and the tables
    n_melds = len(hand.melds)
    cap = sc.sr.limit if sc.self_drawn else sc.sr.limit_claimed
    arrangements = analysis.arrangements(counts)
    indices = _indices(arrangements)
    bits = _win_bits(sc)
    if "only_possible_tile" in rt.values and _single_wait(sc, counts, w, arrangements, indices):
        bits |= _ONLY_POSSIBLE
    profile = profile_of(sc.held(counts))
    if n_melds == 0 and profile.irregular:
        _irregular(sc, counts, profile)
    if arrangements:
        _arrangements(sc, arrangements, indices, w, False, profile, bits, cap)
    # Pe-ling eet cake lets circles 1 be bamboo 1 (ruling 9).
    if w == Tile.K1 and 1 <= counts[Tile.B1] <= 3 and "peling_eats_cake" in rt.values:
        sub = list(counts)
        sub[Tile.K1] -= 1
        sub[Tile.B1] += 1
        arrangements = analysis.arrangements(sub)
        if arrangements:
            profile, bits = profile_of(sc.held(sub)), bits | _PELING
            indices = _indices(arrangements)
            _arrangements(sc, arrangements, indices, int(Tile.B1), True, profile, bits, cap)
    if sc.best_key is None:
        note = "" if n_melds == 0 else " (irregular hands must be concealed)"
        refusal = (
            "not a complete hand: no arrangement into four sets and a pair, nor a limit "
            f"hand of this rule set{note}"
        )
        sc.best_make = (_Scorer.result, ((), 0, 0, None, 0, cap, 0, False, refusal, ()))


def _indices(arrangements: tuple[tuple[Block, ...], ...]) -> list[list[int]]:
    """The sets of each arrangement as table indices, kind * NUM_KINDS + tile: they
    ascend, as the blocks come sorted by (kind, tile) (the pair, last, is left out)."""
    return [[b.kind * NUM_KINDS + b.tile for b in blocks[:-1]] for blocks in arrangements]


def _single_wait(
    sc: _Scorer,
    counts: Sequence[int],
    w: int,
    arrangements: tuple[tuple[Block, ...], ...],
    indices: list[list[int]],
) -> bool:
    """The hand before the winning tile waits on one tile kind only, counting every
    completion structurally (ruling 4)."""
    # A quick proof of a second wait: in some arrangement the winning tile completed a
    # pung (the pair could have been completed instead), or a chow at one end whose
    # other side is in the suit too; unless that other tile would be a fifth copy.
    rank = w % 9
    for blocks, idx in zip(arrangements, indices, strict=True):
        if PUNG * NUM_KINDS + w in idx and counts[blocks[-1].tile] < 4:
            return False
        if rank <= 5 and w in idx and counts[w + 3] < 4:  # w+1 w+2 also wait on w+3
            return False
        if rank >= 3 and w - 2 in idx and counts[w - 3] < 4:  # w-2 w-1 also wait on w-3
            return False
    pre = list(counts)
    pre[w] -= 1
    n_melds, dup = len(sc.hand.melds), sc.sr.seven_pairs_duplicate
    return (
        len(analysis.waiting_tiles(pre, n_melds=n_melds, held=_NO_HELD, duplicate_pairs=dup)) == 1
    )


def _irregular(sc: _Scorer, counts: Sequence[int], profile: Profile) -> None:
    """Irregular limit hands: concealed up to the winning tile (ruling 12)."""
    win = sc.win
    assert win is not None
    shapes = analysis.irregular_shapes(counts, duplicate_pairs=sc.sr.seven_pairs_duplicate)
    if not shapes:
        return
    text = (_tiles_text(counts),)
    limit_ids = _shape_limits(shapes, profile)
    limit_ids += [i for i, on in (("heaven", win.heaven), ("earth", win.first_discard)) if on]
    for limit_id in limit_ids:
        value = _limit_value(sc.rt.rules, limit_id, sc.self_drawn)
        if value is not None:
            sc.consider(
                sc.limit_key(value), (_Scorer.explain_limit, (limit_id, value, "limit hand", text))
            )


def _win_bits(sc: _Scorer) -> int:
    """The winner's whole-hand items that come from how he won."""
    win = sc.win
    assert win is not None
    if not sc.self_drawn:
        bits = _MAHJONG
    else:
        bits = _SELF_DRAWN if sc.has_open_meld else _CONCEALED_SELF_DRAWN
    source = win.source
    if (source is WinSource.WALL or source is WinSource.DISCARD) and not (
        win.last_tile or win.last_discard or win.first_discard or win.lucky_thirteen
    ):
        return bits  # the usual win: nothing more
    w = sc.hand.winning_tile
    if win.last_tile:
        bits |= BIT["last_tile"]
        if w is Tile.K1:
            bits |= BIT["last_tile_circles1"]
    if win.last_tile or win.last_discard:
        bits |= BIT["last_tile_points"]
    if win.last_discard:
        bits |= BIT["last_discard"]
    if source is WinSource.LOOSE_TILE:
        bits |= BIT["loose_tile"]
        if w is Tile.K5:
            bits |= BIT["loose_tile_circles5"]
        if win.kong_on_kong:
            bits |= BIT["kong_on_kong"]
    elif source is WinSource.ROBBED_KONG:
        bits |= BIT["robbing_kong"]
    if win.first_discard:
        bits |= BIT["earth_doublings"]
    if win.lucky_thirteen:
        bits |= BIT["lucky_thirteen"]
    return bits


def _arrangements(
    sc: _Scorer,
    arrangements: tuple[tuple[Block, ...], ...],
    indices: list[list[int]],
    w: int,
    peling: bool,
    profile: Profile,
    bits: int,
    cap: int | None,
) -> None:
    """Every arrangement, with every set the winning tile ``w`` may have completed,
    valued from the tables: the hot path.  ``bits``: the winner's items from how he
    won."""
    win, rt, wt = sc.win, sc.rt, sc.wt
    assert win is not None
    bits |= profile.whole_bits
    whole_p, whole_d, clean = rt.whole.get(bits) or rt.fill_whole(bits)
    p0 = whole_p + sc.bonus_p
    d0 = whole_d + sc.bonus_d
    meld_value = sc.meld_value
    concealed, opened, pair_values, pair_class = wt.concealed, wt.open, wt.pairs, wt.pair_class
    p_shift, d_mask, x_mask = wt.point_shift, wt.doubling_mask, (1 << SUMMARY_BITS) - 1
    derived, fill_derived = rt.derived, rt.fill_derived
    claimed = not sc.self_drawn
    hand_key = profile.simples << 30 | sc.has_open_meld << 31
    check_limits = profile.jade or win.heaven or win.first_discard
    min_d = sc.sr.min_doublings
    clean_wins = clean and sc.sr.clean_hand_may_win
    # The sets (table index kind * NUM_KINDS + tile) that hold the winning tile: chows
    # from w-2 to w (no chow of an arrangement starts on an 8 or 9), the pung, in the
    # order of an arrangement's sets; in Pe-ling only the pair takes the tile.
    holds_w = () if peling else (w - 2, w - 1, w, PUNG * NUM_KINDS + w)
    for blocks, idx in zip(arrangements, indices, strict=True):
        pair = blocks[-1].tile
        value = meld_value + pair_values[pair] + sum(map(concealed.__getitem__, idx))
        # The sets the winning tile may have completed, -1 for the pair: every distinct
        # choice is legal, but self-drawn (all sets concealed) they are all worth the
        # same and the first one stands.
        wbs: list[int] = []
        for i in holds_w:
            if i in idx:
                wbs.append(i)
                if not claimed:
                    break
        if pair == w:
            wbs.append(-1)
        pair_key = pair_class[pair] << SUMMARY_BITS | hand_key
        for i in wbs:
            v = value
            if claimed and i >= 0:  # the set the claimed tile completed is open
                v += opened[i] - concealed[i]
            x = v & x_mask
            key = x | pair_key
            dp, dd, limits = derived.get(key) or fill_derived(key)
            p = p0 + (v >> p_shift) + dp
            d = d0 + (v >> 32 & d_mask) + dd
            if i < 0:
                p += rt.completes_pair[0]
                d += rt.completes_pair[1]
            if check_limits or limits & LIMIT_SETS or (limits & LIMIT_SNAKE and profile.snake):
                _limits(sc, blocks, idx, i, profile, x)
            base = p << d
            cand = (
                d >= min_d or clean_wins,
                False,
                base if cap is None or base <= cap else cap,
                p,
                -d,
            )
            if sc.best_key is None or cand > sc.best_key:
                sc.best_key = cand
                sc.best_make = (_explain, (blocks, idx, i, bits, key, cap, p, d))


def _describe(sc: _Scorer, blocks: tuple[Block, ...], idx: list[int], i: int) -> tuple[str, ...]:
    """The arrangement in notation, melds first; ``*`` marks the set ``i`` (-1: the
    pair) that the winning tile completed."""
    text = list(map(_BLOCK_TEXT.__getitem__, idx))
    pair = _BLOCK_TEXT[_PAIR * NUM_KINDS + blocks[-1].tile]
    if i >= 0:
        pos = idx.index(i)
        text[pos] += "*"
    text.append(pair if i >= 0 else pair + "*")
    return sc.meld_text + tuple(text)


def _explain(
    sc: _Scorer,
    blocks: tuple[Block, ...],
    idx: list[int],
    i: int,
    bits: int,
    key: int,
    cap: int | None,
    points: int,
    doublings: int,
) -> ScoreResult:
    """The best regular candidate, item by item, from the tables that valued it (the
    items add up to ``points`` and ``doublings``)."""
    rt, wt, ex = sc.rt, sc.wt, sc.ex
    packed = sc.meld_counts + sum(map(wt.concealed_items.__getitem__, idx))
    if i >= 0 and not sc.self_drawn:
        packed += wt.open_items[i] - wt.concealed_items[i]
    derived, dropped = ex.derived(key)
    ranked = ex.whole(bits) + ex.sets(packed) + ex.items(wt.pair_items[blocks[-1].tile]) + derived
    if dropped:
        ranked = tuple(r for r in ranked if r[1].id != "pure_simples")
    if i < 0 and "completes_pair" in rt.values:
        ranked += (ex.item("completes_pair", 1),)
    if sc.bonus:
        ranked += tuple(ex.item(item_id, n) for item_id, n in sc.bonus)
    items = tuple(map(_SECOND, sorted(ranked)))
    clean = rt.whole[bits][2]
    return sc.finish(items, points, doublings, clean, cap, _describe(sc, blocks, idx, i))


def _limits(
    sc: _Scorer, blocks: tuple[Block, ...], idx: list[int], i: int, profile: Profile, x: int
) -> None:
    """Consider the regular limit hands of an arrangement whose set ``i`` (-1: the pair)
    the winning tile completed."""
    opened = idx.index(i) if i >= 0 and not sc.self_drawn else -1
    sets = [
        *sc.meld_sets,
        *(
            (CHOW if b.kind == CHOW else PUNG, b.tile, k != opened)
            for k, b in enumerate(blocks[:-1])
        ),
    ]
    for limit_id in _regular_limits(sc, sets, blocks[-1].tile, profile, x):
        value = _limit_value(sc.rt.rules, limit_id, sc.self_drawn)
        if value is not None:
            sc.consider(sc.limit_key(value), (_explain_limit, (limit_id, value, blocks, idx, i)))


def _explain_limit(
    sc: _Scorer, limit_id: str, value: int, blocks: tuple[Block, ...], idx: list[int], i: int
) -> ScoreResult:
    return sc.explain_limit(limit_id, value, "limit hand", _describe(sc, blocks, idx, i))


def _regular_limits(
    sc: _Scorer, sets: Sequence[_Set], pair: int, profile: Profile, x: int
) -> list[str]:
    win = sc.win
    assert win is not None
    _, identical, winds, dragons, kongs, c_kongs, _ = fields(x)
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
        pungs = sorted(s[1] - base for s in sets if s[0] != CHOW)
        chows = sorted(s[1] - base + 1 for s in sets if s[0] == CHOW)
        if pungs == [0, 8] and (chows[0], chows[1], pair - base + 1) in _SNAKE_LAYOUTS:
            out.append("twisting_snake")
    if (
        pair == sc.seat
        and any(s[0] == KONG and s[1] == Tile.RED for s in sets)
        and sorted(s[1] for s in sets if s[0] == CHOW) == [Tile.T1, Tile.T4, Tile.T7]
    ):
        out.append("red_dragon")
    return out
