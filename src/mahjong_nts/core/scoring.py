"""Scoring: one hand, winner or not, under a rule set, explained item by item.

The hand is arranged every legal way (all arrangements of the concealed tiles,
every set the winning tile may have completed, the irregular shapes, Pe-ling
eet cake) and the highest score is kept (rulings 2 and 3).  What each item is
worth comes from the rule set; which items a hand has is decided by
:mod:`mahjong_nts.core.scoring_tables`, whose tables value a winner's candidate in a
few look-ups.  Only the best candidate is explained: its items, with their Dutch and
English names and what each counted (``detail``), come from the same tables, and so do
the notes on items the player may expect that did not count (``not_counted``).

Before scoring, :func:`check_situation` refuses what cannot happen: a way of winning
that contradicts itself or the hand, and what the rule set's table does not have.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Any, ClassVar, Final

from mahjong_nts.core import analysis
from mahjong_nts.core.analysis import Block, Shape
from mahjong_nts.core.build import COMPILED
from mahjong_nts.core.errors import InvalidHand, InvalidWin, quote
from mahjong_nts.core.hand import Hand, MeldKind, Win, WinSource
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
    WHOLE_IDS,
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
from mahjong_nts.core.text import N_, Text, join
from mahjong_nts.core.tiles import NUM_KINDS, Tile, is_simple, is_wind

__all__ = [
    "NotCounted",
    "ScoreResult",
    "ScoredItem",
    "Situation",
    "check_situation",
    "score_hand",
]

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
        for name in ("seat_wind", "round_wind"):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, Tile(value))
            except ValueError:
                raise InvalidWin(
                    N_("{name} is a Tile (Tile.EAST, or parse_tile('E')), not {value}"),
                    name=name,
                    value=quote(value),
                ) from None
        if not is_wind(self.seat_wind):
            raise InvalidWin(
                N_("the seat wind must be E, S, W or N, not {tile}"), tile=self.seat_wind.token
            )
        if not (is_wind(self.round_wind) or self.round_wind is Tile.GREEN):
            raise InvalidWin(
                N_("the round wind must be E, S, W, N (or F in the green-dragon hand), not {tile}"),
                tile=self.round_wind.token,
            )
        win = self.win
        if win is not None and win.heaven and self.seat_wind is not Tile.EAST:
            raise InvalidWin(N_("only East can win the heavenly hand (heaven)"))
        if win is not None and win.first_discard and self.seat_wind is Tile.EAST:
            raise InvalidWin(N_("East cannot win on his own first discard (first_discard)"))

    def __reduce__(self) -> tuple[type[Situation], tuple[Tile, Tile, Win | None, bool]]:
        # pickled and copied as its fields (compiled, a frozen dataclass cannot be rebuilt
        # by setting its attributes one by one)
        return (Situation, (self.seat_wind, self.round_wind, self.win, self.dead))


@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One item that counted: its id and names, its total value (``count`` times the
    rule set's value), and ``detail``, what it counted: ``"pung of k7 (concealed)"``,
    ``"k5 completed the pair"``, a limit hand's shape (English, a
    :class:`~mahjong_nts.core.text.Text` that a page can say in Dutch)."""

    id: str
    nl: str
    en: str
    points: int
    doublings: int
    count: int = 1
    detail: str = ""

    def __reduce__(self) -> tuple[type[ScoredItem], tuple[str, str, str, int, int, int, str]]:
        # pickled as its fields (compiled, a frozen dataclass cannot be unpickled by
        # setting its attributes one by one)
        return (
            ScoredItem,
            (self.id, self.nl, self.en, self.points, self.doublings, self.count, self.detail),
        )


@dataclass(frozen=True, slots=True)
class NotCounted:
    """An item the player may expect that did not count, and why (``reason``: English, a
    :class:`~mahjong_nts.core.text.Text` that a page can say in Dutch).

    Only the arguments a table actually has are noted: "only possible tile" when another
    tile would also have completed the hand, "fully concealed" after a claimed tile, a
    set completed by a claimed tile that counts as open, a wind pung or pair of a wind
    that is neither the own nor the round wind, points and doublings a limit hand does
    not add, four chows with all simples played open (``nmb-2009``).  A note about one
    set (a claimed pung, a wind pung) may name an item that counted for another set.
    """

    id: str
    nl: str
    en: str
    reason: str

    def __reduce__(self) -> tuple[type[NotCounted], tuple[str, str, str, str]]:
        # pickled as its fields, as ScoredItem
        return (NotCounted, (self.id, self.nl, self.en, self.reason))


_Explained = tuple[tuple["ScoredItem", ...], tuple[str, ...], tuple["NotCounted", ...]]
"""A result's explanation: its items, arrangement and notes (``not_counted``)."""
_FIELDS: Final = (
    "winner",
    "dead",
    "items",
    "points",
    "doublings",
    "limit_hand",
    "base",
    "cap",
    "score",
    "mahjong_allowed",
    "refusal",
    "arrangement",
    "not_counted",
)


class ScoreResult:
    """A hand's score and its explanation: a value (equal, hashed and shown as its
    fields, in this order), read-only.

    ``ScoreResult(winner, dead, items, points, doublings, limit_hand, base, cap, score,
    mahjong_allowed, refusal, arrangement, not_counted=())`` builds one from every field.
    The scorer leaves the explanation of a regular hand (``items``, ``arrangement``,
    ``not_counted``: the texts) to be worked out when first read, from what valued the
    hand; it reads the same as when built at once, and the score fields never wait for it.

    Fields:

    - ``winner``, ``dead``: whether the player won, and whether the hand is dead.
    - ``items``: the :class:`ScoredItem` s that counted (catalogue order).
    - ``points``, ``doublings``: their total.
    - ``limit_hand``: the limit hand's id, or ``None``.
    - ``base``: points x 2**doublings, or the limit hand's value (with its doublings).
    - ``cap``: the cap that applied to this hand (``None``: no cap).
    - ``score``: what the hand is worth (``base`` up to the cap).
    - ``mahjong_allowed``: for a winner, whether he may go mahjong with this hand;
      ``None`` for other players.
    - ``refusal``: why not (a :class:`~mahjong_nts.core.text.Text`), or ``None``.
    - ``arrangement``: the sets that produced the score; ``*`` marks the set the winning
      tile completed.
    - ``not_counted``: items the player may expect that did not count here, and why
      (:class:`NotCounted`, catalogue order).
    """

    __slots__ = (
        "_base",
        "_cap",
        "_dead",
        "_doublings",
        "_explain",
        "_explained",
        "_limit_hand",
        "_mahjong_allowed",
        "_points",
        "_refusal",
        "_score",
        "_winner",
    )
    __match_args__: ClassVar[tuple[str, ...]] = _FIELDS
    """(A class variable: compiled by mypyc, a plain assignment would be an attribute.)"""

    def __init__(
        self,
        winner: bool,
        dead: bool,
        items: tuple[ScoredItem, ...],
        points: int,
        doublings: int,
        limit_hand: str | None,
        base: int,
        cap: int | None,
        score: int,
        mahjong_allowed: bool | None,
        refusal: str | None,
        arrangement: tuple[str, ...],
        not_counted: tuple[NotCounted, ...] = (),
    ) -> None:
        self._winner = winner
        self._dead = dead
        self._points = points
        self._doublings = doublings
        self._limit_hand = limit_hand
        self._base = base
        self._cap = cap
        self._score = score
        self._mahjong_allowed = mahjong_allowed
        self._refusal = refusal
        self._explained: _Explained | None = (items, arrangement, not_counted)
        self._explain: Callable[[], _Explained] | None = None

    @property
    def winner(self) -> bool:
        return self._winner

    @property
    def dead(self) -> bool:
        return self._dead

    @property
    def points(self) -> int:
        return self._points

    @property
    def doublings(self) -> int:
        return self._doublings

    @property
    def limit_hand(self) -> str | None:
        return self._limit_hand

    @property
    def base(self) -> int:
        """Points x 2**doublings, or the limit hand's value (with its doublings)."""
        return self._base

    @property
    def cap(self) -> int | None:
        """The cap that applied to this hand (``None``: no cap)."""
        return self._cap

    @property
    def score(self) -> int:
        return self._score

    @property
    def mahjong_allowed(self) -> bool | None:
        """For a winner: may he go mahjong with this hand.  ``None`` for other players."""
        return self._mahjong_allowed

    @property
    def refusal(self) -> str | None:
        return self._refusal

    def _explanation(self) -> _Explained:
        explained = self._explained
        if explained is None:
            explain = self._explain
            assert explain is not None
            explained = self._explained = explain()
            self._explain = None  # (what it held is no longer needed)
        return explained

    @property
    def items(self) -> tuple[ScoredItem, ...]:
        return self._explanation()[0]

    @property
    def arrangement(self) -> tuple[str, ...]:
        """The sets that produced the score; ``*`` marks the set the winning tile
        completed."""
        return self._explanation()[1]

    @property
    def not_counted(self) -> tuple[NotCounted, ...]:
        """Items the player may expect that did not count here, and why (catalogue
        order)."""
        return self._explanation()[2]

    def _values(self) -> tuple[Any, ...]:
        items, arrangement, not_counted = self._explanation()
        return (
            self._winner,
            self._dead,
            items,
            self._points,
            self._doublings,
            self._limit_hand,
            self._base,
            self._cap,
            self._score,
            self._mahjong_allowed,
            self._refusal,
            arrangement,
            not_counted,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreResult):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        values = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._values(), strict=True))
        return f"ScoreResult({values})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScoreResult, self._values())


def _lazy_result(
    winner: bool,
    points: int,
    doublings: int,
    base: int,
    cap: int | None,
    score: int,
    mahjong_allowed: bool | None,
    refusal: str | None,
    explain: Callable[[], _Explained],
) -> ScoreResult:
    """A regular hand's result (not dead, no limit hand) whose explanation ``explain()``
    gives when first read."""
    result = ScoreResult(
        winner, False, (), points, doublings, None, base, cap, score, mahjong_allowed, refusal, ()
    )
    result._explained = None
    result._explain = explain
    return result


# Fast constructors for the hot path.  A frozen dataclass's generated ``__init__`` sets
# each field through ``object.__setattr__``; setting the slots through their descriptors
# builds the same value in about half the time.  tests/core/test_scoring_explain.py
# checks that these stay equal to the generated constructors (same fields, same order).

_NEW: Final = object.__new__


def _slot_setters(cls: type) -> tuple[Any, ...]:
    """The ``__set__`` of each field's slot, in field order (none when compiled)."""
    if COMPILED:
        return ()
    return tuple(cls.__dict__[f.name].__set__ for f in dataclasses.fields(cls))


# Compiled (mypyc), the classes are native and have no such slots: their own
# constructors are the fast way there (core/build.py).
_ITEM_SLOTS: Final = _slot_setters(ScoredItem)


def _new_item(
    it: ScoredItem, detail: str, points: int = -1, doublings: int = 0, count: int = 0
) -> ScoredItem:
    """``it`` with ``detail``: ``ScoredItem(it.id, it.nl, it.en, it.points, it.doublings,
    it.count, detail)``; or with ``points``, ``doublings`` and ``count`` instead of its
    own, when ``points`` is given (not -1)."""
    if COMPILED:
        if points < 0:
            return ScoredItem(it.id, it.nl, it.en, it.points, it.doublings, it.count, detail)
        return ScoredItem(it.id, it.nl, it.en, points, doublings, count, detail)
    s_id, s_nl, s_en, s_points, s_doublings, s_count, s_detail = _ITEM_SLOTS
    new = _NEW(ScoredItem)
    s_id(new, it.id)
    s_nl(new, it.nl)
    s_en(new, it.en)
    if points < 0:
        s_points(new, it.points)
        s_doublings(new, it.doublings)
        s_count(new, it.count)
    else:
        s_points(new, points)
        s_doublings(new, doublings)
        s_count(new, count)
    s_detail(new, detail)
    return new


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
"""Scored items are values: equal ones are shared (interned) rather than rebuilt
(bounded by :data:`_EXPLAINER_BOUND`, cleared when full)."""
_EXPLAINER_BOUND: Final = 1 << 12
"""Entries of each of an explainer's tables of items without details (by the items'
ids, whole-hand bits, set-count key, sets' items packed) and of the interned scored items;
a full table starts again empty (a long run of nts-2016 hands fills about 100)."""
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
        if len(_SCORED) >= _EXPLAINER_BOUND:
            _SCORED.clear()
        item = ITEMS[item_id]
        scored = _SCORED[key] = ScoredItem(item_id, item.nl, item.en, points, doublings, count)
    return scored


_DETAILED: dict[tuple[str, int, int, int, str], ScoredItem] = {}
"""Scored items with their details, interned too (bounded: cleared when full)."""
_DETAILED_BOUND: Final = 1 << 16


def _detailed(it: ScoredItem, detail: str) -> ScoredItem:
    """``it`` (a scored item without detail) with ``detail``."""
    key = (it.id, it.points, it.doublings, it.count, detail)
    scored = _DETAILED.get(key)
    if scored is None:
        if len(_DETAILED) >= _DETAILED_BOUND:
            _DETAILED.clear()
        scored = _DETAILED[key] = _new_item(it, detail)
    return scored


# ---------------------------------------------------------------- explanations
#
# The best candidate's items say what they counted (``ScoredItem.detail``), and the result
# notes the items a player may expect that did not count (``NotCounted``).  Both are built
# for the explained candidate only, from its sets: (kind, tile, state) with the states
# below.  The texts are English :class:`Text` values: a layer above says them in Dutch.

_CONCEALED, _OPEN, _CLAIMED = 0, 1, 2
"""A set's state: concealed, declared open, or completed by the claimed winning tile (and
so open)."""
_SetFact = tuple[int, int, int]
_BY_TILE: Final = itemgetter(1, 0)
_SET_OF: Final = (N_("chow of {tile}"), N_("pung of {tile}"), N_("kong of {tile}"))
"""A set named by its kind and tile (by kind: chow, pung, kong)."""
_TOKEN: Final = tuple(Tile(t).token for t in range(len(Tile)))
_SUIT_NAME: Final = (Text(N_("bamboo")), Text(N_("circles")), Text(N_("characters")))
_SOURCE_TEXT: Final = {
    WinSource.WALL: Text(N_("drawn from the wall")),
    WinSource.DISCARD: Text(N_("claimed from a discard")),
    WinSource.LOOSE_TILE: Text(N_("the loose tile after a kong")),
    WinSource.ROBBED_KONG: Text(N_("robbed from a kong")),
}


_SET_TEXT: Final = tuple(
    tuple(Text(template, tile=_TOKEN[t]) for t in range(NUM_KINDS)) for template in _SET_OF
)
"""Every set named (``pung of k7``), by kind and tile: made once."""


def _set_of(kind: int, tile: int) -> Text:
    """``pung of k7``."""
    return _SET_TEXT[kind][tile]


class _Facts:
    """What one candidate is made of, for its explanation."""

    __slots__ = ("bonus", "pair", "profile", "rnd", "seat", "sets", "source", "w")

    def __init__(
        self,
        sets: list[_SetFact],
        pair: int | None,
        profile: Profile | None,
        sc: _Scorer,
        w: int | None,
        order: bool = True,
    ) -> None:
        """``order``: put the sets in tile order (the same text whatever the order of the
        melds); sets already sorted by kind and tile need not be (each detail lists sets
        of one kind)."""
        if order:
            sets.sort(key=_BY_TILE)
        self.sets = sets
        self.pair = pair
        self.profile = profile
        self.seat: int = sc.seat
        self.rnd: int = sc.round
        self.bonus = sc.hand.bonus
        self.w = w
        self.source = sc.win.source if sc.win is not None else None

    def phrase(self, kind: int, tile: int, state: int) -> Text:
        """``pung of k7 (concealed)``."""
        what = _set_of(kind, tile)
        if state == _CLAIMED:
            return Text(
                N_("{set} (open: the claimed {tile} completed it)"),
                set=what,
                tile=_TOKEN[self.w or 0],
            )
        if state == _OPEN:
            return Text(N_("{set} (open)"), set=what)
        return Text(N_("{set} (concealed)"), set=what)

    def won_with(self) -> Text:
        assert self.w is not None and self.source is not None
        return Text(N_("{tile}, {how}"), tile=_TOKEN[self.w], how=_SOURCE_TEXT[self.source])


def _set_item_detail(kind: int, simple: bool, concealed: bool) -> Callable[[_Facts], str]:
    def detail(f: _Facts) -> str:
        return join(
            ", ",
            [
                f.phrase(k, t, st)
                for k, t, st in f.sets
                if k == kind and is_simple(t) == simple and (st == _CONCEALED) == concealed
            ],
        )

    return detail


def _honour_sets(f: _Facts, tiles: Callable[[int], bool], note: str) -> str:
    """The pungs and kongs of ``tiles``, each with ``note`` (a template, or "")."""
    sets = [_set_of(k, t) for k, t, _ in f.sets if k != CHOW and tiles(t)]
    if note:
        sets = [Text(note, set=s) for s in sets]
    return join(", ", sets)


def _clean_detail(f: _Facts) -> str:
    pr = f.profile
    assert pr is not None
    if pr.suits == 1:
        suit = _SUIT_NAME[pr.suit]
        if pr.majors:
            suit = Text(N_("1s and 9s of {suit}"), suit=suit)
        if pr.honours:
            return Text(N_("{suit} with winds and dragons"), suit=suit)
        return Text(N_("only {suit}"), suit=suit)
    if pr.suits == 0:
        return Text(N_("only winds and dragons"))
    if pr.honours:
        return Text(N_("only 1s, 9s, winds and dragons"))
    return Text(N_("only 1s and 9s"))


def _w(template: str) -> Callable[[_Facts], str]:
    """A detail about the winning tile: ``template`` with ``{w}`` for its token."""
    return lambda f: Text(template, w=_TOKEN[f.w or 0])


def _fixed(template: str) -> Callable[[_Facts], str]:
    """A detail that says the same for every hand."""
    text = Text(template)
    return lambda f: text


def _bonus_detail(f: _Facts) -> str:
    return " ".join(_TOKEN[t] for t in f.bonus)


def _own_bonus(base: int, template: str) -> Callable[[_Facts], str]:
    def detail(f: _Facts) -> str:
        return Text(template, tile=_TOKEN[base + f.seat - Tile.EAST], seat=_TOKEN[f.seat])

    return detail


def _last_tile(f: _Facts) -> str:
    if f.source is WinSource.DISCARD:
        return Text(N_("{w}, the last discard before a remise"), w=_TOKEN[f.w or 0])
    return Text(N_("{w}, the last tile of the wall"), w=_TOKEN[f.w or 0])


# Functions, not lambdas holding lambdas: mypyc (the compiled build) fails on the latter.
def _dragon_sets(f: _Facts) -> str:
    return _honour_sets(f, lambda t: t >= Tile.GREEN, "")


def _own_wind_sets(f: _Facts) -> str:
    return _honour_sets(f, lambda t: t == f.seat, N_("{set} (own wind)"))


def _round_wind_sets(f: _Facts) -> str:
    return _honour_sets(f, lambda t: t == f.rnd, N_("{set} (round wind)"))


def _ruling_dragon_sets(f: _Facts) -> str:
    return _honour_sets(f, lambda t: t == f.rnd, N_("{set} (the ruling green dragon)"))


_DETAILS: Final[dict[str, Callable[[_Facts], str]]] = {
    **{
        f"{name}_{'simple' if simple else 'major'}_{'concealed' if concealed else 'open'}": (
            _set_item_detail(kind, simple, concealed)
        )
        for kind, name in ((PUNG, "pung"), (KONG, "kong"))
        for simple in (True, False)
        for concealed in (True, False)
    },
    "pung_dragon": _dragon_sets,
    "pung_own_wind": _own_wind_sets,
    "pung_round_wind": _round_wind_sets,
    "pung_ruling_dragon": _ruling_dragon_sets,
    "pair_dragon": lambda f: Text(N_("pair of {tile}"), tile=_TOKEN[f.pair or 0]),
    "pair_own_wind": lambda f: Text(N_("pair of {tile} (own wind)"), tile=_TOKEN[f.pair or 0]),
    "pair_round_wind": lambda f: Text(N_("pair of {tile} (round wind)"), tile=_TOKEN[f.pair or 0]),
    **{
        item_id: _clean_detail
        for item_id in (
            "clean_suit",
            "clean_terminals",
            "very_clean",
            "pure_suit",
            "pure_honours",
            "pure_terminals",
        )
    },
    "mahjong": _Facts.won_with,
    "self_drawn": _Facts.won_with,
    "fully_concealed": _fixed(N_("every tile self-drawn, no meld played open")),
    "only_possible_tile": _w(N_("only {w} completed the hand")),
    "completes_pair": _w(N_("{w} completed the pair")),
    "peling_eats_cake": _w(N_("{w} completed the pair of b1")),
    "last_tile_points": _last_tile,
    "pure_simples": _fixed(N_("only tiles 2-8")),
    "last_tile": _last_tile,
    "last_tile_circles1": _last_tile,
    "last_discard": _last_tile,
    "loose_tile": _w(N_("{w}, the loose tile after a kong")),
    "loose_tile_circles5": _w(N_("{w}, the loose tile after a kong")),
    "kong_on_kong": _w(N_("{w}, the loose tile after a second kong in one turn")),
    "robbing_kong": _w(N_("{w}, robbed from a kong")),
    "earth_doublings": _w(N_("{w}, East's first discard")),
    "lucky_thirteen": _fixed(N_("waiting since the deal, announced")),
    "bonus_tile": _bonus_detail,
    "own_flower": _own_bonus(Tile.F1, N_("{tile} (the flower of {seat})")),
    "own_season": _own_bonus(Tile.S1, N_("{tile} (the season of {seat})")),
    "all_flowers": lambda f: "f1 f2 f3 f4",
    "all_seasons": lambda f: "s1 s2 s3 s4",
}
"""What each item counted, from the candidate's facts (items of several sets below)."""

# Items of several sets, described from the sets as the scorer's tables know them: the
# pungs and kongs as (table index, state) in tile order, the chows' table indices, the
# pair.

_Keys = list[tuple[int, int]]


_LISTED: dict[tuple[str, str], Text] = {}
"""The texts :func:`_listed` made, by template and sets (bounded: cleared when full)."""


def _listed(template: str, indices: Iterable[int]) -> Text:
    """``template`` (``"{n} kongs: {sets}"``) with the sets ``indices`` and their number."""
    texts = [_BLOCK_TEXT[i] for i in indices]
    sets = " ".join(texts)
    made = _LISTED.get((template, sets))
    if made is None:
        if len(_LISTED) >= _DETAIL_CACHE:
            _LISTED.clear()
        made = _LISTED[template, sets] = Text(template, n=len(texts), sets=sets)
    return made


def _honour_pungs(keys: _Keys, pair: int, lo: int, hi: int) -> str:
    tiles = " ".join(_TOKEN[i % NUM_KINDS] for i, _ in keys if lo <= i % NUM_KINDS < hi)
    if lo <= pair < hi:
        return Text(N_("pungs of {tiles}, pair of {pair}"), tiles=tiles, pair=_TOKEN[pair])
    return Text(N_("pungs of {tiles}"), tiles=tiles)


_KONG_INDEX: Final = KONG * NUM_KINDS
_MANY_SETS: Final[dict[str, Callable[[_Keys, list[int], int], str]]] = {
    "three_concealed_pungs": lambda keys, chows, pair: _listed(
        N_("{n} concealed pungs: {sets}"), [i for i, st in keys if st == _CONCEALED]
    ),
    "four_concealed_pungs": lambda keys, chows, pair: _listed(
        N_("{n} concealed pungs: {sets}"), [i for i, st in keys if st == _CONCEALED]
    ),
    "three_kongs": lambda keys, chows, pair: _listed(
        N_("{n} kongs: {sets}"), [i for i, _ in keys if i >= _KONG_INDEX]
    ),
    "four_kongs": lambda keys, chows, pair: _listed(
        N_("{n} kongs: {sets}"), [i for i, _ in keys if i >= _KONG_INDEX]
    ),
    "three_concealed_kongs": lambda keys, chows, pair: _listed(
        N_("{n} concealed kongs: {sets}"),
        [i for i, st in keys if i >= _KONG_INDEX and st == _CONCEALED],
    ),
    "chows_and_pair_points": lambda keys, chows, pair: Text(
        N_("{chows} and the pair {pair}"),
        chows=_listed(N_("{n} chows: {sets}"), chows),
        pair=_BLOCK_TEXT[_PAIR * NUM_KINDS + pair],
    ),
    "four_chows": lambda keys, chows, pair: _listed(N_("{n} chows: {sets}"), chows),
    "four_pungs": lambda keys, chows, pair: _listed(N_("{n} pungs: {sets}"), [i for i, _ in keys]),
    "all_pungs_simples": lambda keys, chows, pair: _listed(
        N_("{n} pungs of 2-8: {sets}"), [i for i, _ in keys]
    ),
    "small_four_winds": lambda keys, chows, pair: _honour_pungs(keys, pair, Tile.EAST, Tile.GREEN),
    "small_three_dragons": lambda keys, chows, pair: _honour_pungs(
        keys, pair, Tile.GREEN, NUM_KINDS
    ),
    "three_wise_men": lambda keys, chows, pair: _honour_pungs(keys, pair, Tile.GREEN, NUM_KINDS),
}
"""What each item of several sets counted: from (pung and kong keys, chows, pair)."""


def _keys_of(f: _Facts) -> tuple[_Keys, list[int]]:
    """The facts' sets as the tables know them: pungs and kongs, chows."""
    keys = [(k * NUM_KINDS + t, st) for k, t, st in f.sets if k != CHOW]
    return keys, [t for k, t, _ in f.sets if k == CHOW]


def _many_sets_detail(item_id: str) -> Callable[[_Facts], str]:
    describe = _MANY_SETS[item_id]

    def detail(f: _Facts) -> str:
        keys, chows = _keys_of(f)
        return describe(keys, chows, f.pair or 0)

    return detail


_DETAILS.update({item_id: _many_sets_detail(item_id) for item_id in _MANY_SETS})


def _with_details(items: Iterable[ScoredItem], f: _Facts) -> tuple[ScoredItem, ...]:
    return tuple(_detailed(it, _DETAILS[it.id](f)) for it in items)


_NOTE_SLOTS: Final = _slot_setters(NotCounted)


def _note(item_id: str, reason: str) -> NotCounted:
    """``NotCounted(item_id, nl, en, reason)`` with the item's names (built as
    :func:`_new_item` builds a scored item)."""
    item = ITEMS[item_id]
    if COMPILED:
        return NotCounted(item_id, item.nl, item.en, reason)
    s_id, s_nl, s_en, s_reason = _NOTE_SLOTS
    note = _NEW(NotCounted)
    s_id(note, item_id)
    s_nl(note, item.nl)
    s_en(note, item.en)
    s_reason(note, reason)
    return note


def _sorted_notes(notes: list[NotCounted]) -> tuple[NotCounted, ...]:
    return tuple(sorted(notes, key=lambda n: _ITEM_ORDER[n.id]))


def _which_winds(seat: int, rnd: int) -> Text:
    """Which winds count for a player: ``the own wind (S) or the round wind (E)``."""
    if rnd == Tile.GREEN:
        return Text(
            N_("the own wind ({seat}); in the green-dragon hand no wind rules"),
            seat=_TOKEN[seat],
        )
    if rnd == seat:
        return Text(N_("the own wind or the round wind (both {seat} here)"), seat=_TOKEN[seat])
    return Text(
        N_("the own wind ({seat}) or the round wind ({round})"),
        seat=_TOKEN[seat],
        round=_TOKEN[rnd],
    )


def _is_other_wind(tile: int, seat: int, rnd: int) -> bool:
    return Tile.EAST <= tile <= Tile.NORTH and tile != seat and tile != rnd


def _only_note(w: int, others: tuple[int, ...]) -> NotCounted:
    return _note(
        "only_possible_tile",
        Text(
            N_("{w} was not the only tile that completed the hand: {others} also did"),
            w=_TOKEN[w],
            others=join(_AND, [_TOKEN[t] for t in others]),
        ),
    )


_AND: Final = Text(N_(" and "))
"""The separator of a list read as "b1 and b4"."""


def _concealed_note(w: int, how: str) -> NotCounted:
    return _note(
        "fully_concealed",
        Text(
            N_(
                "{w} was {how}: a fully concealed hand draws every tile itself, "
                "the winning tile too"
            ),
            w=_TOKEN[w],
            how=how,
        ),
    )


def _claimed_note(t: int) -> NotCounted:
    item_id = f"pung_{'simple' if is_simple(t) else 'major'}_concealed"
    return _note(
        item_id,
        Text(
            N_("{set} was completed by the claimed {tile}, so it counts as an open pung"),
            set=_BLOCK_TEXT[PUNG * NUM_KINDS + t],
            tile=_TOKEN[t],
        ),
    )


_OTHER_WIND: Final = {
    (seat, rnd): tuple(
        Tile.EAST <= t <= Tile.NORTH and t != seat and t != rnd for t in range(NUM_KINDS)
    )
    for seat in range(Tile.EAST, Tile.NORTH + 1)
    for rnd in (*range(Tile.EAST, Tile.NORTH + 1), Tile.GREEN)
}
"""Per (seat, round wind): which tiles are a wind that is neither."""


def _pair_note(pair: int, seat: int, rnd: int) -> NotCounted:
    return _note(
        "pair_own_wind",
        Text(
            N_("pair of {tile}: a wind pair counts only for {which}"),
            tile=_TOKEN[pair],
            which=_which_winds(seat, rnd),
        ),
    )


def _wind_pung_note(indices: Iterable[int], seat: int, rnd: int) -> NotCounted:
    """The note that the pungs and kongs ``indices`` (``kind * NUM_KINDS + tile``), of
    winds that are neither the own nor the round wind, score no wind doubling."""
    sets = join(", ", [_set_of(i // NUM_KINDS, i % NUM_KINDS) for i in indices])
    return _note(
        "pung_own_wind",
        Text(
            N_("{sets}: a wind pung counts only for {which}"),
            sets=sets,
            which=_which_winds(seat, rnd),
        ),
    )


class _Explainer:
    """The scored items of one rule set's tables, built as they are first needed."""

    def __init__(self, rt: RuleTables) -> None:
        self.rt = rt
        self.sr = rt.rules.scoring
        self.limits = _TableLimits(rt.rules)
        self.contexts: dict[int, _Context] = {}
        """The situations scored under this rule set, by ``id`` (bounded)."""
        self.wind_tables: dict[tuple[int, int], WindTables] = {}
        """The winds' tables, for the seat and round winds the table has (checked once)."""
        self._items: dict[tuple[str, ...], tuple[_Ranked, ...]] = {}
        self._whole: dict[int, tuple[_Ranked, ...]] = {}
        self.derived_made: dict[int, tuple[tuple[_Ranked, ...], bool, bool, tuple[str, ...]]] = {}
        """What :meth:`derived` gave, by its key (read directly on the hot path)."""
        self._sets: dict[int, tuple[_Ranked, ...]] = {}
        # The same items with their details, for the explained candidates (bounded).
        self.whole_details: dict[int, tuple[_Ranked, ...]] = {}
        self._whole_items: dict[Any, ScoredItem] = {}
        """A whole-hand item with its detail, by its catalogue place and what the detail
        depends on (:data:`_WHOLE_DEPENDS`)."""
        self._completes: list[_Ranked | None] = [None] * NUM_KINDS
        self._notes: dict[tuple[Any, ...], NotCounted] = {}
        self.only_notes_made: dict[tuple[int, tuple[int, ...]], NotCounted] = {}
        values = rt.values
        self.pair_notes = "pair_own_wind" in values
        self.only_possible = self.only_notes = "only_possible_tile" in values
        """The rule set counts "only possible tile" (and notes when it does not count)."""
        self.concealed_notes = "fully_concealed" in values

    def item(self, item_id: str, count: int) -> _Ranked:
        p, d, _ = self.rt.values[item_id]
        return (_ITEM_ORDER[item_id], _scored(item_id, p * count, d * count, count))

    def items(self, item_ids: tuple[str, ...]) -> tuple[_Ranked, ...]:
        """Items that count once each."""
        ranked = self._items.get(item_ids)
        if ranked is None:
            if len(self._items) >= _EXPLAINER_BOUND:
                self._items.clear()
            ranked = self._items[item_ids] = tuple(self.item(i, 1) for i in item_ids)
        return ranked

    def whole(self, bits: int) -> tuple[_Ranked, ...]:
        """The whole-hand items of ``bits`` that count (:attr:`RuleTables.whole`)."""
        ranked = self._whole.get(bits)
        if ranked is None:
            if len(self._whole) >= _EXPLAINER_BOUND:
                self._whole.clear()
            ranked = self._whole[bits] = self.items(self.rt.items_of_whole(bits))
        return ranked

    def derived(self, key: int) -> tuple[tuple[_Ranked, ...], bool, bool, tuple[str, ...]]:
        """The set-count items of ``key`` (:attr:`RuleTables.derived`) that count,
        whether they take "all simples" away, whether what they counted depends on the
        chows or the pair too (not only on the pungs and kongs), and their ids."""
        entry = self.derived_made.get(key)
        if entry is None:
            if len(self.derived_made) >= _EXPLAINER_BOUND:
                self.derived_made.clear()
            item_ids, dropped = self.rt.items_of_derived(key)
            needs = any(i in _NEEDS_CHOWS_OR_PAIR for i in item_ids)
            entry = self.derived_made[key] = (self.items(item_ids), dropped, needs, item_ids)
        return entry

    def sets(self, packed: int) -> tuple[_Ranked, ...]:
        """The items of the sets, packed by :func:`pack_set_items`."""
        ranked = self._sets.get(packed)
        if ranked is None:
            if len(self._sets) >= _EXPLAINER_BOUND:
                self._sets.clear()
            counts = unpack_set_items(packed)
            ranked = self._sets[packed] = tuple(self.item(i, n) for i, n in counts.items())
        return ranked

    # -- with details -------------------------------------------------------------------

    @staticmethod
    def detailed(
        ranked: Iterable[_Ranked], f: _Facts, make: Callable[[ScoredItem, str], ScoredItem]
    ) -> tuple[_Ranked, ...]:
        """``ranked`` with each item's detail, from the facts ``f``; ``make`` builds an
        item with its detail (:func:`_detailed` interns it)."""
        return tuple((o, make(it, _DETAILS[it.id](f))) for o, it in ranked)

    def fill_set(self, sc: _Scorer, index: int, state: int) -> tuple[_Ranked, ...]:
        """The items of one set (table index ``kind * NUM_KINDS + tile``) in ``state``
        for the scorer's winds, with their details, kept in ``sc.wt.explained``."""
        wt = sc.wt
        packed = (wt.concealed_items if state == _CONCEALED else wt.open_items)[index]
        kind, tile = divmod(index, NUM_KINDS)
        f = _Facts([(kind, tile, state)], None, None, sc, tile)
        ranked = self.detailed(self.sets(packed), f, _detailed)
        wt.explained[state][index] = ranked
        return ranked

    def fill_pair(self, sc: _Scorer, pair: int) -> tuple[_Ranked, ...]:
        """The items of the pair of ``pair`` for the scorer's winds, with details, kept
        in ``sc.wt.pair_explained``."""
        f = _Facts([], pair, None, sc, None)
        ranked = self.detailed(self.items(sc.wt.pair_items[pair]), f, _detailed)
        sc.wt.pair_explained[pair] = ranked
        return ranked

    def fill_whole(
        self, sc: _Scorer, key: int, bits: int, w: int, profile: Profile
    ) -> tuple[_Ranked, ...]:
        """The whole-hand items of ``bits`` with details, kept in ``whole_details``
        under ``key = bits << 16 | w << 8 | profile.clean_id``: they depend on the
        winning tile ``w``, on how it was won, which the bits tell, and on what makes the
        hand clean."""
        if len(self.whole_details) >= _DETAIL_CACHE:
            self.whole_details.clear()
        assert sc.win is not None
        source = sc.win.source
        clean_id = profile.clean_id
        items = self._whole_items
        f = None
        out: list[_Ranked] = []
        for o, it in self.whole(bits):
            depends = _WHOLE_DEPENDS[it.id]
            k = (o, w, source) if depends == _ON_TILE else (o, clean_id) if depends else o
            done = items.get(k)
            if done is None:
                if len(items) >= _DETAIL_CACHE:
                    items.clear()
                if f is None:
                    f = _Facts([], None, profile, sc, w)
                done = items[k] = _detailed(it, _DETAILS[it.id](f))
            out.append((o, done))
        ranked = self.whole_details[key] = tuple(out)
        return ranked

    def completes_detailed(self, w: int) -> _Ranked:
        ranked = self._completes[w]
        if ranked is None:
            o, it = self.item("completes_pair", 1)
            detail = Text(N_("{w} completed the pair"), w=_TOKEN[w])
            ranked = self._completes[w] = (o, _detailed(it, detail))
        return ranked

    def only_note(self, w: int, others: tuple[int, ...]) -> NotCounted:
        """The note that ``w`` was not the only possible tile (``others`` also were),
        kept in ``only_notes_made``."""
        if len(self.only_notes_made) >= _DETAIL_CACHE:
            self.only_notes_made.clear()
        note = self.only_notes_made[w, others] = _only_note(w, others)
        return note

    def note(self, key: tuple[Any, ...], make: Callable[..., NotCounted], *args: Any) -> NotCounted:
        """The note ``make(*args)``, kept under ``key`` (which says all it depends on)."""
        note = self._notes.get(key)
        if note is None:
            if len(self._notes) >= _DETAIL_CACHE:
                self._notes.clear()
            note = self._notes[key] = make(*args)
        return note


_ON_CLEAN, _ON_TILE = 1, 2
_WHOLE_DEPENDS: Final = {
    **dict.fromkeys(
        (
            "clean_suit",
            "clean_terminals",
            "very_clean",
            "pure_suit",
            "pure_honours",
            "pure_terminals",
        ),
        _ON_CLEAN,
    ),
    **dict.fromkeys(("fully_concealed", "pure_simples", "lucky_thirteen"), 0),
}
"""What the detail of a whole-hand item depends on: nothing (0), what makes the hand clean
(``_ON_CLEAN``), or the winning tile and how it was won (``_ON_TILE``: every other one)."""
_WHOLE_DEPENDS.update({i: _ON_TILE for i in WHOLE_IDS if i not in _WHOLE_DEPENDS})

_SUIT_NAMES: Final = {"b": _SUIT_NAME[0], "k": _SUIT_NAME[1], "t": _SUIT_NAME[2]}
_WIND_LETTERS: Final = "ESWN"


class _TableLimits:
    """What exists at a table playing a rule set (from ``rules.table``): its tile kinds,
    flowers and seasons, open chows, seat winds and round winds."""

    __slots__ = (
        "absent",
        "absent_set",
        "flowers",
        "name",
        "open_chows",
        "round_east",
        "round_winds",
        "seat_winds",
        "tiles",
    )

    def __init__(self, rules: RuleSet) -> None:
        table = rules.table
        self.name = rules.name
        in_play = [False] * NUM_KINDS
        for letter in table.suits:
            base = "bkt".index(letter) * 9
            in_play[base : base + 9] = [True] * 9
        seats = [int(Tile.EAST) + _WIND_LETTERS.index(w) for w in table.winds]
        for wind in seats:
            in_play[wind] = True
        in_play[Tile.GREEN :] = [True] * (NUM_KINDS - Tile.GREEN)
        self.absent = tuple(t for t in range(NUM_KINDS) if not in_play[t])
        """Tile kinds not in play (characters and North at three players)."""
        self.absent_set = frozenset(self.absent)
        self.flowers = table.flowers
        self.open_chows = table.open_chows
        self.seat_winds = frozenset(seats)
        self.round_east = table.round_wind == "east"
        rounds = {int(Tile.EAST)} if self.round_east else set(seats)
        if table.green_dragon != "none":
            rounds.add(int(Tile.GREEN))
        self.round_winds = frozenset(rounds)
        suits = join(", ", [_SUIT_NAMES[letter] for letter in table.suits])
        self.tiles = Text(
            N_("{suits}, winds {winds} and the dragons"), suits=suits, winds=" ".join(table.winds)
        )

    def check(self, hand: Hand, situation: Situation) -> None:
        """Raise :class:`InvalidHand` / :class:`InvalidWin` for what the table does not
        have: a seat or round wind, a tile kind, a flower, an open chow."""
        self.check_winds(situation)
        self.check_hand(hand)

    def check_winds(self, situation: Situation) -> None:
        """Raise :class:`InvalidWin` for a seat or round wind the table does not have."""
        seat, rnd = situation.seat_wind, situation.round_wind
        if seat not in self.seat_winds:
            winds = " ".join(Tile(w).token for w in sorted(self.seat_winds))
            raise InvalidWin(
                N_("seat wind {wind} does not exist under {rules}: its seats are {winds}"),
                wind=seat.token,
                rules=self.name,
                winds=winds,
            )
        if rnd not in self.round_winds:
            raise InvalidWin(self._round_problem(rnd))

    def check_hand(self, hand: Hand) -> None:
        """Raise :class:`InvalidHand` for a tile kind, a flower or an open chow the table
        does not have."""
        name = self.name
        if self.absent:
            absent = self.absent_set
            for t in hand.concealed:
                if t in absent:
                    raise InvalidHand(
                        N_("{tile} is not played under {rules}: its tiles are {tiles}"),
                        tile=t.token,
                        rules=name,
                        tiles=self.tiles,
                    )
            for m in hand.melds:
                if m.tile in absent:
                    raise InvalidHand(
                        N_("the meld {meld} is not possible under {rules}: its tiles are {tiles}"),
                        meld=_meld_text(m.kind, m.tile, m.open),
                        rules=name,
                        tiles=self.tiles,
                        tile=m.tile.token,
                    )
        if hand.bonus and not self.flowers:
            raise InvalidHand(
                N_("{tile}: {rules} is played without flowers and seasons"),
                tile=hand.bonus[0].token,
                rules=name,
            )
        if not self.open_chows:
            for m in hand.melds:
                if m.open and m.kind is MeldKind.CHOW:
                    raise InvalidHand(
                        N_(
                            "the open chow {meld} is not possible under {rules}: no chow is "
                            "played open at this table (a chow stays concealed, or completes "
                            "the hand on a mahjong claim)"
                        ),
                        meld=_meld_text(m.kind, m.tile, True),
                        rules=name,
                    )

    def _round_problem(self, rnd: Tile) -> Text:
        name = self.name
        if rnd is Tile.GREEN:
            return Text(
                N_(
                    "round wind F (the green-dragon hand) does not exist under {rules}: "
                    "it plays no green-dragon hands"
                ),
                rules=name,
            )
        if self.round_east:
            return Text(
                N_("round wind {wind} does not exist under {rules}: the round wind is always E"),
                wind=rnd.token,
                rules=name,
            )
        winds = " ".join(Tile(w).token for w in sorted(self.round_winds))
        return Text(
            N_("round wind {wind} does not exist under {rules}: its round winds are {winds}"),
            wind=rnd.token,
            rules=name,
            winds=winds,
        )


def _meld_text(kind: int, tile: int, open: bool) -> str:
    """A declared meld in notation: ``[b123]`` open, ``(CCCC)`` concealed."""
    block = _BLOCK_TEXT[kind * NUM_KINDS + tile]
    return f"[{block}]" if open else f"({block})"


def _check_win(hand: Hand, win: Win) -> None:
    """Raise :class:`InvalidWin` when the way of winning contradicts the hand: a loose
    tile without a kong (two for kong on kong), a robbed kong whose tile the hand holds
    again, a meld before heaven or earth, an open meld with the lucky thirteen."""
    source = win.source
    w = hand.winning_tile
    assert w is not None
    if source is WinSource.LOOSE_TILE:
        kongs = sum(1 for m in hand.melds if m.kind is MeldKind.KONG)
        if win.kong_on_kong and kongs < 2:
            raise InvalidWin(
                N_(
                    "kong_on_kong (the loose tile of a second kong in one turn) needs two "
                    "declared kongs, and the hand has {kongs}"
                ),
                kongs=kongs,
            )
        if not kongs:
            raise InvalidWin(
                N_(
                    "from=loose_tile (the loose tile after a kong) needs a declared kong, "
                    "and the hand has none"
                )
            )
    elif source is WinSource.ROBBED_KONG:
        held = hand.counts[w] + sum(m.tiles.count(w) for m in hand.melds)
        if held != 1:
            raise InvalidWin(
                N_(
                    "from=robbed_kong: the robbed player's pung holds the other three "
                    "{tile}, so this hand can hold only the robbed one, not {held}"
                ),
                tile=w.token,
                held=held,
            )
    for flag, on, what, why in (
        (
            "heaven",
            win.heaven,
            N_("East wins on the 14 dealt tiles"),
            N_("nothing is claimed or declared before, and a kong would take a loose tile"),
        ),
        (
            "first_discard",
            win.first_discard,
            N_("the earthly hand, won on East's first discard"),
            N_("no one claims or declares anything before it"),
        ),
        (
            "lucky_thirteen",
            win.lucky_thirteen,
            N_("waiting since the deal, the hand unchanged"),
            N_("claiming a tile changes the hand"),
        ),
    ):
        if not on:
            continue
        for m in hand.melds:
            if m.open or (m.kind is MeldKind.KONG and flag != "lucky_thirteen"):
                raise InvalidWin(
                    N_("{flag} ({what}) contradicts the open meld {meld}: {why}")
                    if m.open
                    else N_("{flag} ({what}) contradicts the concealed kong {meld}: {why}"),
                    flag=flag,
                    what=Text(what),
                    meld=_meld_text(m.kind, m.tile, m.open),
                    why=Text(why),
                )


def check_situation(hand: Hand, situation: Situation, rules: RuleSet) -> None:
    """Raise :class:`InvalidHand` or :class:`InvalidWin` when ``hand`` and ``situation``
    cannot occur at a table playing ``rules``.

    The table's limits (``rules.table``): every tile kind, flower and season, open chow,
    seat and round wind must exist there; characters or North at three players, an open
    chow where chows are not played open, a flower without the flowers option, the green
    dragon as round wind where no green-dragon hand is played, or a round wind other than
    East where every round is East's, are refused.  The way of winning must fit the hand
    (see :func:`_check_win`).  :func:`score_hand` runs these checks first; a fifth copy
    of a tile and a flower twice are refused when the :class:`Hand` is built.
    """
    _explainer(rules).limits.check(hand, situation)
    win = situation.win
    if win is not None and hand.winning_tile is not None:
        _check_win(hand, win)


class _Context:
    """What scoring reads from one situation under one rule set, worked out once per
    :class:`Situation` object and kept by the rule set's explainer (:func:`_context`):
    the situation itself (so the ``id`` it is kept under stays its own), whether the
    hand won and how, the seat and round wind, their tables (``None``: the table has no
    such winds, which the caller reports), whether the way of winning must be checked
    against the hand, the winner's cap, and the usual win's whole-hand bits."""

    __slots__ = (
        "cap",
        "check_win",
        "dead",
        "round",
        "seat",
        "self_drawn",
        "situation",
        "usual_bits",
        "win",
        "winds",
        "winner",
        "wt",
    )

    def __init__(self, situation: Situation, ex: _Explainer) -> None:
        self.situation = situation
        self.win = win = situation.win
        self.winner = win is not None
        self.dead = situation.dead
        self.check_win = win is not None and win.needs_hand_check
        self.self_drawn = self_drawn = win is not None and win.source.self_drawn
        self.seat = seat = int(situation.seat_wind)
        self.round = rnd = int(situation.round_wind)
        self.winds = winds = (seat, rnd)
        limits = ex.limits
        wt = ex.wind_tables.get(winds)
        if wt is None and seat in limits.seat_winds and rnd in limits.round_winds:
            wt = ex.wind_tables[winds] = ex.rt.winds(seat, rnd)
        self.wt = wt
        sr = ex.sr
        self.cap = sr.limit if self_drawn else sr.limit_claimed
        self.usual_bits: tuple[int, int] | None = None
        """The winner's bits from how he won (:func:`_win_bits`) without and with an open
        meld, when he won the usual way (nothing but the source to say)."""
        if win is not None and _usual_win(win):
            if self_drawn:
                self.usual_bits = (_CONCEALED_SELF_DRAWN, _SELF_DRAWN)
            else:
                self.usual_bits = (_MAHJONG, _MAHJONG)


_CONTEXTS: Final = 64
"""Bound of an explainer's situations (:attr:`_Explainer.contexts`)."""


def _context(ex: _Explainer, situation: Situation) -> _Context:
    """The context of ``situation`` under ``ex``'s rule set (kept, bounded)."""
    ctx = ex.contexts.get(id(situation))
    if ctx is None or ctx.situation is not situation:
        if len(ex.contexts) >= _CONTEXTS:
            ex.contexts.clear()
        ctx = ex.contexts[id(situation)] = _Context(situation, ex)
    return ctx


def _usual_win(win: Win) -> bool:
    """From the wall or a discard, with no flag: its whole-hand bits are those of its
    source (and whether the hand has an open meld) alone."""
    source = win.source
    return (source is WinSource.WALL or source is WinSource.DISCARD) and not (
        win.last_tile or win.last_discard or win.first_discard or win.lucky_thirteen
    )


_DETAIL_CACHE: Final = 4096
"""Bound of the explainer's caches keyed by the winning tile or a note's tiles."""
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

    __slots__ = (
        "best_key",
        "best_make",
        "bonus",
        "bonus_d",
        "bonus_p",
        "ctx",
        "ex",
        "hand",
        "has_open_meld",
        "meld_counts",
        "meld_sets",
        "meld_slots",
        "meld_text",
        "meld_value",
        "other_waits",
        "round",
        "rt",
        "seat",
        "self_drawn",
        "sr",
        "w",
        "win",
        "winds",
        "winner",
        "wt",
    )

    def __init__(self, hand: Hand, ctx: _Context, ex: _Explainer, winner: bool) -> None:
        self.hand = hand
        self.winner = winner
        self.ex = ex
        self.ctx = ctx
        self.rt = rt = ex.rt
        self.sr = ex.sr
        self.win = ctx.win
        self.self_drawn = ctx.self_drawn
        self.seat = ctx.seat
        self.round = ctx.round
        self.winds = ctx.winds
        wt = ctx.wt
        assert wt is not None  # (score_hand checked the winds)
        self.wt = wt
        self.w = -1 if hand.winning_tile is None else int(hand.winning_tile)
        self.best_key: _Key | None = None
        self.best_make: _Make | None = None
        self.other_waits: tuple[int, ...] = ()
        """Tiles other than the winning one that would also have completed the hand
        (some or all of them: what proved "only possible tile" wrong)."""
        # The melds' sets, their slots (pungs and kongs: table index * 3 + state), their
        # text, values and items packed (WindTables); the bonus items that count.
        self.meld_sets: tuple[_Set, ...] = ()
        self.meld_slots: tuple[int, ...] = ()
        self.meld_text: tuple[str, ...] = ()
        self.has_open_meld = False
        self.meld_value = self.meld_counts = 0
        self.bonus_p = self.bonus_d = 0
        self.bonus: tuple[tuple[str, int], ...] = ()
        if hand.melds:
            self._melds(hand, wt)
        if hand.bonus:
            found: dict[str, int] = {}
            self.bonus_items(found)
            self.bonus_p, self.bonus_d, chosen = rt.evaluate(found)
            self.bonus = tuple((i, found[i]) for i in chosen)

    def _melds(self, hand: Hand, wt: WindTables) -> None:
        sets: list[_Set] = []
        slots: list[int] = []
        text: list[str] = []
        for m in hand.melds:
            kind, tile, concealed = int(m.kind), int(m.tile), not m.open
            sets.append((kind, tile, concealed))
            if kind != CHOW:
                slots.append((kind * NUM_KINDS + tile) * 3 + (_CONCEALED if concealed else _OPEN))
            block = _BLOCK_TEXT[kind * NUM_KINDS + tile]
            text.append(f"({block})" if concealed else f"[{block}]")
            self.has_open_meld |= m.open
            i = kind * NUM_KINDS + tile
            self.meld_value += (wt.concealed if concealed else wt.open)[i]
            self.meld_counts += (wt.concealed_items if concealed else wt.open_items)[i]
        self.meld_sets = tuple(sets)
        self.meld_slots = tuple(slots)
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
        not_counted: tuple[NotCounted, ...] = (),
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
            not_counted,
        )

    def facts(self, sets: list[_SetFact], pair: int | None, profile: Profile) -> _Facts:
        w = self.hand.winning_tile
        return _Facts(sets, pair, profile, self, None if w is None else int(w))

    def non_winner_notes(self, f: _Facts) -> tuple[NotCounted, ...]:
        """A non-winner's notes: pungs and a pair of a wind that is neither his own nor
        the round wind."""
        values = self.rt.values
        notes: tuple[NotCounted, ...] = ()
        if (
            f.pair is not None
            and "pair_own_wind" in values
            and _is_other_wind(f.pair, f.seat, f.rnd)
        ):
            notes = (_pair_note(f.pair, f.seat, f.rnd),)
        if "pung_own_wind" in values:
            other = _OTHER_WIND[f.seat, f.rnd]
            winds = [i for i, _ in _keys_of(f)[0] if other[i % NUM_KINDS]]
            if winds:
                notes = _sorted_notes([*notes, _wind_pung_note(winds, f.seat, f.rnd)])
        return notes

    def winner_notes(
        self, w: int, pair: int, claimed: Block | None, dropped: bool
    ) -> tuple[NotCounted, ...]:
        """A winner's notes, but for wind pungs (:func:`_wind_pung_note`): a pair of a
        wind that is neither his own nor the round wind, "only possible tile" when
        another tile would also have completed the hand, "fully concealed" and the
        claimed set's pung after a claimed tile, four chows and all simples played open
        (``dropped``, nmb-2009).  ``claimed``: the set the claimed tile completed."""
        ex = self.ex
        notes: list[NotCounted] = []
        if ex.pair_notes and self.wt.other_wind[pair]:
            notes.append(ex.note(("pair", pair, self.winds), _pair_note, pair, *self.winds))
        others = self.other_waits  # (not empty: "only possible tile" did not count)
        if others and ex.only_notes:
            note = ex.only_notes_made.get((w, others))
            notes.append(ex.only_note(w, others) if note is None else note)
        if not self.self_drawn:
            assert self.win is not None
            how = _SOURCE_TEXT[self.win.source]
            if ex.concealed_notes and not self.has_open_meld:
                notes.append(ex.note(("concealed", w, how), _concealed_note, w, how))
            if claimed is not None and claimed.kind == PUNG:
                t = claimed.tile
                if f"pung_{'simple' if is_simple(t) else 'major'}_concealed" in self.rt.values:
                    notes.append(ex.note(("claimed", t), _claimed_note, t))
        if dropped:
            values = self.rt.values
            opened = " ".join(t for t in self.meld_text if t.startswith("["))
            for item_id in ("four_chows", "pure_simples"):
                if item_id in values:
                    notes.append(
                        _note(
                            item_id,
                            Text(
                                N_(
                                    "four chows with only simples count only in a hand "
                                    "concealed but for the winning tile, and {opened} was "
                                    "played open"
                                ),
                                opened=opened,
                            ),
                        )
                    )
        if not notes:
            return ()
        return _sorted_notes(notes) if len(notes) > 1 else (notes[0],)

    def limit_notes(self) -> tuple[NotCounted, ...]:
        """What a limit hand does not add: its value is fixed (ruling 16)."""
        values = self.rt.values
        notes: list[NotCounted] = []
        if self.winner and self.self_drawn:
            if "self_drawn" in values:
                notes.append(_note("self_drawn", _FIXED_SELF_DRAWN))
            if "fully_concealed" in values and not self.has_open_meld and not self.limit_doublings:
                notes.append(_note("fully_concealed", _FIXED_CONCEALED))
        if self.hand.bonus and "bonus_tile" in values:
            notes.append(_note("bonus_tile", _FIXED_BONUS))
        return _sorted_notes(notes) if notes else ()

    def explain_found(
        self,
        found: dict[str, int],
        cap: int | None,
        arrangement: tuple[str, ...],
        sets: list[_Set],
        pair: int | None,
        profile: Profile,
    ) -> ScoreResult:
        """A non-winner's candidate from all the items found (id -> count), its sets
        and pair."""
        points, doublings, chosen = self.rt.evaluate(found)
        clean = any(ITEMS[i].group == "clean" for i in chosen)
        items = tuple(map(_SECOND, sorted(self.ex.item(i, found[i]) for i in chosen)))
        f = self.facts([(k, t, _CONCEALED if c else _OPEN) for k, t, c in sets], pair, profile)
        items = _with_details(items, f)
        return self.finish(
            items, points, doublings, clean, cap, arrangement, self.non_winner_notes(f)
        )

    def explain_waiting(
        self, limit_id: str, value: int, w: int, arrangement: tuple[str, ...]
    ) -> ScoreResult:
        """A non-winner one tile (``w``) short of an irregular limit hand."""
        hand = LIMIT_HANDS[limit_id]
        detail = Text(N_("waiting on {w}: {shape}"), w=_TOKEN[w], shape=arrangement[0])
        item = ScoredItem(limit_id, hand.nl, hand.en, value, 0, 1, detail)
        return self.result(
            (item,),
            value,
            0,
            limit_id,
            value,
            None,
            value,
            True,
            None,
            arrangement,
            self.limit_notes(),
        )

    def outcome(
        self, points: int, doublings: int, clean: bool, cap: int | None
    ) -> tuple[int, int, bool | None, str | None]:
        """A regular candidate's base, score, whether he may go mahjong (``None``: not a
        winner) and why not, from its total; ``clean``: a clean-hand item is among its
        items."""
        base = points << doublings
        score = base if cap is None or base <= cap else cap
        if not self.winner:
            return base, score, None, None
        sr = self.sr
        if doublings < sr.min_doublings:
            may_clean = sr.clean_hand_may_win
            if not (may_clean and clean):
                refusal = Text(
                    _TOO_FEW[doublings == 1][may_clean], n=doublings, least=sr.min_doublings
                )
                return base, score, False, refusal
        return base, score, True, None

    def finish(
        self,
        items: tuple[ScoredItem, ...],
        points: int,
        doublings: int,
        clean: bool,
        cap: int | None,
        arrangement: tuple[str, ...],
        not_counted: tuple[NotCounted, ...] = (),
    ) -> ScoreResult:
        """A regular candidate from its items and their total; ``clean``: a clean-hand
        item is among them."""
        base, score, allowed, refusal = self.outcome(points, doublings, clean, cap)
        return ScoreResult(
            self.winner,
            False,
            items,
            points,
            doublings,
            None,
            base,
            cap,
            score,
            allowed,
            refusal,
            arrangement,
            not_counted,
        )

    def finish_later(
        self,
        points: int,
        doublings: int,
        clean: bool,
        cap: int | None,
        explain: Callable[[], _Explained],
    ) -> ScoreResult:
        """:meth:`finish`, the explanation (items, arrangement, notes) left to
        ``explain()`` when first read."""
        base, score, allowed, refusal = self.outcome(points, doublings, clean, cap)
        return _lazy_result(
            self.winner, points, doublings, base, cap, score, allowed, refusal, explain
        )

    def explain_limit(self, limit_id: str, value: int, arrangement: tuple[str, ...]) -> ScoreResult:
        """A winner's limit hand; its detail is the hand's shape."""
        hand = LIMIT_HANDS[limit_id]
        n = len(self.meld_text)  # the melds come first: in tile order, whatever was given
        order = sorted(range(n), key=lambda m: _BY_TILE(self.meld_sets[m]))
        parts = [arrangement[m] for m in order] + list(arrangement[n:])
        shape = " ".join(a.rstrip("*") for a in parts)
        detail: str
        if limit_id == "heaven":
            detail = Text(N_("East's 14 dealt tiles: {shape}"), shape=shape)
        elif limit_id == "earth":
            detail = Text(
                N_("{w}, East's first discard: {shape}"),
                w=_TOKEN[self.hand.winning_tile or 0],
                shape=shape,
            )
        else:
            detail = shape
        items = [ScoredItem(limit_id, hand.nl, hand.en, value, 0, 1, detail)]
        doublings = self.limit_doublings
        if doublings:
            item = ITEMS["fully_concealed"]
            items.append(
                ScoredItem(
                    "fully_concealed",
                    item.nl,
                    item.en,
                    0,
                    doublings,
                    1,
                    Text(N_("a limit hand, concealed and self-drawn")),
                )
            )
        base = value << doublings
        return self.result(
            tuple(items),
            value,
            doublings,
            limit_id,
            base,
            None,
            base,
            True,
            None,
            arrangement,
            self.limit_notes(),
        )


_TOO_FEW: Final = (
    (
        N_("{n} doublings: a mahjong needs at least {least}"),
        N_("{n} doublings: a mahjong needs at least {least} or a clean hand"),
    ),
    (
        N_("{n} doubling: a mahjong needs at least {least}"),
        N_("{n} doubling: a mahjong needs at least {least} or a clean hand"),
    ),
)
"""Why a winner may not go mahjong with too few doublings: by (one doubling, whether
a clean hand may win)."""
_DEAD_REFUSAL: Final = Text(N_("dead hand (dood spel): scores nothing and still pays"))
_INCOMPLETE: Final = Text(
    N_(
        "not a complete hand: no arrangement into four sets and a pair, nor a limit "
        "hand of this rule set"
    )
)
_INCOMPLETE_MELDS: Final = Text(
    N_(
        "not a complete hand: no arrangement into four sets and a pair, nor a limit "
        "hand of this rule set (irregular hands must be concealed)"
    )
)
_FIXED_SELF_DRAWN: Final = Text(
    N_("a limit hand is worth its fixed value: the self-drawn winning tile adds no points")
)
_FIXED_CONCEALED: Final = Text(
    N_("a limit hand is worth its fixed value: a fully concealed hand adds no doublings to it")
)
_FIXED_BONUS: Final = Text(
    N_("a limit hand is worth its fixed value: flowers and seasons add nothing to it")
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
    wrong number of tiles (unless the hand is dead) or a hand the table cannot hold,
    and :class:`InvalidWin` for win circumstances that do not fit the hand or the
    table (:func:`check_situation`; a dead hand is checked too).
    """
    ex = _explainer(rules)
    ctx = _context(ex, situation)
    winner = ctx.winner
    if winner and hand.winning_tile is None:
        raise InvalidWin(N_("a winning hand needs its winning tile"))
    if not winner and hand.winning_tile is not None:
        raise InvalidWin(
            N_("a winning tile ({tile}) was given, but no win (how the hand was won)"),
            tile=hand.winning_tile.token,
        )
    limits = ex.limits
    if hand.melds or hand.bonus or limits.absent:
        limits.check_hand(hand)
    if ctx.check_win:
        assert ctx.win is not None
        _check_win(hand, ctx.win)
    if ctx.dead:
        if ctx.wt is None:  # the table has no such seat or round wind
            limits.check_winds(situation)
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
            refusal=_DEAD_REFUSAL,
            arrangement=(),
        )
    if hand.tile_count != (14 if winner else 13):
        hand.check_size(winner)
    if ctx.wt is None:
        limits.check_winds(situation)
    sc = _Scorer(hand, ctx, ex, winner)
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
    profile = profile_of(sc.held(counts))
    # A partial hand shows only its scoring sets: whole-hand doublings need every tile.
    bits = 0 if sc.hand.partial else profile.clean_bits
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
            (_Scorer.explain_found, (found, cap, text + pair_text, sets, pair, profile)),
        )
    if not sc.hand.melds and not sc.hand.partial:
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
            v = lv.waiting
            args = (limit_id, v, w, (_tiles_text(counts),))
            sc.consider((True, True, v, v, 0), (_Scorer.explain_waiting, args))


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
    w = sc.w  # the winning tile
    counts = bytes(hand.counts)  # read faster by the analysis and the tables
    n_melds = len(hand.melds)
    ctx = sc.ctx
    cap = ctx.cap
    arrangements = analysis.arrangements(counts)
    indices = _indices(arrangements)
    usual = ctx.usual_bits
    bits = _win_bits(sc) if usual is None else usual[sc.has_open_meld]
    if sc.ex.only_possible and _single_wait(sc, counts, w, arrangements, indices):
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
        refusal = _INCOMPLETE if n_melds == 0 else _INCOMPLETE_MELDS
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
    # The tile that proves it is kept for the explanation.
    rank = w % 9
    for blocks, idx in zip(arrangements, indices, strict=True):
        if PUNG * NUM_KINDS + w in idx and counts[blocks[-1].tile] < 4:
            sc.other_waits = (blocks[-1].tile,)
            return False
        if rank <= 5 and w in idx and counts[w + 3] < 4:  # w+1 w+2 also wait on w+3
            sc.other_waits = (w + 3,)
            return False
        if rank >= 3 and w - 2 in idx and counts[w - 3] < 4:  # w-2 w-1 also wait on w-3
            sc.other_waits = (w - 3,)
            return False
    pre = list(counts)
    pre[w] -= 1
    n_melds, dup = len(sc.hand.melds), sc.sr.seven_pairs_duplicate
    waits = analysis.waiting_tiles(pre, n_melds=n_melds, held=_NO_HELD, duplicate_pairs=dup)
    if len(waits) == 1:
        return True
    sc.other_waits = tuple(t for t in waits if t != w)
    return False


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
            sc.consider(sc.limit_key(value), (_Scorer.explain_limit, (limit_id, value, text)))


def _win_bits(sc: _Scorer) -> int:
    """The winner's whole-hand items that come from how he won."""
    win = sc.win
    assert win is not None
    if not sc.self_drawn:
        bits = _MAHJONG
    else:
        bits = _SELF_DRAWN if sc.has_open_meld else _CONCEALED_SELF_DRAWN
    source = win.source
    if _usual_win(win):
        return bits  # nothing more
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
                sc.best_make = (_explain, (blocks, idx, i, bits, key, cap, p, d, profile))


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
    profile: Profile,
) -> ScoreResult:
    """The best regular candidate: its score at once, its explanation
    (:func:`_explanation`) when first read."""
    clean = (sc.rt.whole.get(bits) or sc.rt.fill_whole(bits))[2]
    return sc.finish_later(
        points,
        doublings,
        clean,
        cap,
        partial(_explanation, sc, blocks, idx, i, bits, key, profile),
    )


def _explanation(
    sc: _Scorer,
    blocks: tuple[Block, ...],
    idx: list[int],
    i: int,
    bits: int,
    key: int,
    profile: Profile,
) -> _Explained:
    """The best regular candidate's items, arrangement and notes: item by item, from
    the tables that valued it (the items add up to its points and doublings), each item
    with what it counted, and the items the player may expect that did not count.

    The items of a set, of the pair and of the whole hand come with their details from
    the explainer's tables; only items made of several sets (three concealed pungs, four
    chows, an item two sets share, ...) are described afresh."""
    rt, wt, ex = sc.rt, sc.wt, sc.ex
    self_drawn = sc.self_drawn
    claimed = -1 if self_drawn or i < 0 else idx.index(i)
    pair = blocks[-1].tile
    w = sc.w
    # The pungs and kongs: the arrangement's sets come sorted by kind and tile, chows
    # first; their items and details depend on nothing else (for these winds).
    first = bisect_left(idx, NUM_KINDS)
    part: _Part | None
    if sc.meld_slots or claimed >= first:
        slots = [j * 3 for j in idx[first:]]
        if claimed >= first:
            slots[claimed - first] += _CLAIMED
        slots += sc.meld_slots
        slots.sort(key=_SLOT_ORDER.__getitem__)
        sig = tuple(slots)
        part = wt.set_parts.get(sig)
        if part is None:
            part = _set_part(sc, sig, wt.set_parts, sig)
    else:  # all concealed: the pungs' table indices say it all
        pungs = tuple(idx[first:])
        part = wt.concealed_parts.get(pungs)
        if part is None:
            part = _set_part(sc, tuple(j * 3 for j in pungs), wt.concealed_parts, pungs)
    part_ranked, wind_note, by_pungs, sig = part
    whole_key = bits << 16 | w << 8 | profile.clean_id
    whole = ex.whole_details.get(whole_key)
    if whole is None:
        whole = ex.fill_whole(sc, whole_key, bits, w, profile)
    pair_ranked = wt.pair_explained[pair]
    if pair_ranked is None:
        pair_ranked = ex.fill_pair(sc, pair)
    ranked = [*whole, *part_ranked, *pair_ranked]
    derived, dropped, needs, ids = ex.derived_made.get(key) or ex.derived(key)
    if derived:
        if needs:  # four chows, small winds, ...: they list the chows or the pair too
            ranked += _many_sets(sc, derived, sig, idx[:first], pair)
        else:  # they list only pungs and kongs: kept with those
            described = by_pungs.get(ids)
            if described is None:
                described = by_pungs[ids] = _many_sets(sc, derived, sig, idx[:first], pair)
            ranked += described
    if dropped:
        ranked = [r for r in ranked if r[1].id != "pure_simples"]
    if i < 0 and "completes_pair" in rt.values:
        ranked.append(ex.completes_detailed(w))
    if sc.bonus:
        facts = _Facts([], pair, profile, sc, w)
        ranked += ex.detailed((ex.item(b, n) for b, n in sc.bonus), facts, _detailed)
    ranked.sort(key=_FIRST)
    items = tuple(map(_SECOND, ranked))
    # What did not count (the common case, "only possible tile", first).
    others = sc.other_waits
    notes: tuple[NotCounted, ...] = ()
    if others and ex.only_notes:
        note = ex.only_notes_made.get((w, others))
        notes = (ex.only_note(w, others) if note is None else note,)
    if not self_drawn or dropped or wt.other_wind[pair]:
        notes = sc.winner_notes(w, pair, blocks[claimed] if claimed >= 0 else None, dropped)
    if wind_note is not None:
        notes = _sorted_notes([*notes, wind_note])
    return items, _describe(sc, blocks, idx, i), notes


_FIRST: Final = itemgetter(0)
_PART_BOUND: Final = 1 << 14
"""Bound of the per-winds caches of explained pungs (keyed by which pungs a hand has:
a few thousand cover most hands)."""


_SLOTS: Final = 3 * NUM_KINDS * 3  # kinds CHOW, PUNG, KONG; three states
_SLOT_ORDER: Final = [slot // 3 % NUM_KINDS * _SLOTS + slot for slot in range(_SLOTS)]
"""The sort key of a set's slot ``(kind * NUM_KINDS + tile) * 3 + state``: its tile,
then its kind and state, as one int per slot (``sort`` reads it from this list)."""


_Part = tuple[
    tuple[_Ranked, ...],
    "NotCounted | None",
    dict[tuple[str, ...], tuple[_Ranked, ...]],
    tuple[int, ...],
]


def _set_part(
    sc: _Scorer,
    sig: tuple[int, ...],
    store: dict[tuple[int, ...], Any],
    key: tuple[int, ...],
) -> _Part:
    """The items of the pungs and kongs ``sig`` (their slots, in tile order) with their
    details (an item two sets have counts for both, its details joined), the note on
    those of a wind that is neither the seat nor the round wind, room for the items of
    several sets that list only these (three concealed pungs, ...), and ``sig``; kept
    per winds in ``store`` under ``key`` (bounded)."""
    wt, ex = sc.wt, sc.ex
    explained = wt.explained
    parts = []
    for slot in sig:
        index = slot // 3
        state = slot - 3 * index
        ranked = explained[state][index]
        parts.append(ex.fill_set(sc, index, state) if ranked is None else ranked)
    set_ranked = parts[0] if len(parts) == 1 else _merged(parts)
    note = None
    if "pung_own_wind" in sc.rt.values:
        winds = tuple(slot // 3 for slot in sig if wt.other_wind[slot // 3 % NUM_KINDS])
        if winds:
            note = _wind_pung_note(winds, sc.seat, sc.round)
    if len(store) >= _PART_BOUND:
        store.clear()
    part: _Part = (set_ranked, note, {}, sig)
    store[key] = part
    return part


def _many_sets(
    sc: _Scorer,
    derived: tuple[_Ranked, ...],
    sig: tuple[int, ...],
    chows: list[int],
    pair: int,
) -> tuple[_Ranked, ...]:
    """The items of several sets (``derived``: three concealed pungs, four chows, ...)
    with their details, from the pungs' and kongs' slots ``sig``, the arrangement's
    chows (table indices) and its pair."""
    keys = [divmod(slot, 3) for slot in sig]
    if sc.meld_sets:
        chows = sorted(chows + [t for k, t, _ in sc.meld_sets if k == CHOW])
    return tuple((o, _new_item(it, _MANY_SETS[it.id](keys, chows, pair))) for o, it in derived)


_NEEDS_CHOWS_OR_PAIR: Final = frozenset(
    {"four_chows", "chows_and_pair_points", "small_four_winds", "small_three_dragons"}
)


def _merged(parts: list[tuple[_Ranked, ...]]) -> tuple[_Ranked, ...]:
    """The items of several sets, each set's items with its details (in tile order): an
    item two sets have counts for both, its details joined."""
    out: list[_Ranked] = []
    at: dict[str, int] = {}
    for ranked in parts:
        for r in ranked:
            it = r[1]
            j = at.get(it.id)
            if j is None:
                at[it.id] = len(out)
                out.append(r)
            else:
                order, was = out[j]
                both = _new_item(
                    was,
                    join(", ", (was.detail, it.detail)),
                    was.points + it.points,
                    was.doublings + it.doublings,
                    was.count + it.count,
                )
                out[j] = (order, both)
    return tuple(out)


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
    return sc.explain_limit(limit_id, value, _describe(sc, blocks, idx, i))


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
