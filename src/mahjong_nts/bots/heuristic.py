"""A heuristic bot: plays for a hand that may go mahjong, from its observation only.

A mahjong needs the rule set's minimum doublings (two in every shipped set) or a limit
hand, so the bot weighs *plans*, each a way to get there, and measures each by the
shanten of the tiles that fit it:

* ``pure`` in one suit (three doublings under nts-2016): only that suit's tiles count;
* ``clean`` in one suit (one doubling): that suit and the honours;
* ``simples``: only tiles 2-8 (one doubling, with a chance of four chows or pungs);
* ``free``: any tiles, the doublings to come from pungs of dragons, the own wind and the
  round wind;
* ``seven pairs``, a limit hand, while no meld is declared.

An undeclared hand counts part of the fully-concealed doublings it earns when won
self-drawn.  A plan costs ``cost_per_doubling`` shanten steps for every doubling it still
lacks (a pair of a value tile that can still become a pung counts as part of one); plans
that the declared melds rule out are dropped.  A hand's value is a soft minimum over the
plans (keeping several open is worth a little), and every choice compares values:

* discard: the tile whose removal leaves the best value; ties go to the tile least
  connected to the rest of the hand.  A ready hand prefers waits with live tiles.  While
  the hand is far from ready, tiles that an opponent's open melds show he collects (his
  suit in a clean-looking hand, the neighbours of his chows) are avoided;
* claims (pung, kong, chow): taken when the value after the claim and the best discard
  beats passing by ``claim_margin``; a pung of a value tile usually does;
* kongs on the own turn: when they do not make the hand worse;
* the lucky thirteen (where the rule set scores it): announced when the discard it would
  choose anyway leaves the dealt hand ready, with live winning tiles, and lacking no
  doubling once the announcement's are counted;
* mahjong: always, whenever it is legal.

Tiles seen (own tiles, every discard, every open meld) give each kind's live count: a
pair of a value tile whose other two copies are gone is no pung in the making, and a
wait on dead tiles is no wait.  The doubling values come from the rule set when the bot
is given one (they are public), else from nts-2016.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from mahjong_nts.bots._mypyc import mypyc_attr
from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.game import Phase
from mahjong_nts.core.hand import MeldKind
from mahjong_nts.core.observation import Observation
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.shanten import (
    EMPTY_GROUP,
    GROUP_TABLES,
    GroupRecord,
    group_record,
    records_seven_pairs,
    records_shanten,
    seven_pairs_shanten,
)
from mahjong_nts.core.tiles import NUM_KINDS, Tile

__all__ = ["HeuristicBot", "Weights"]


@dataclass(frozen=True, slots=True)
class Weights:
    """The bot's tunable judgement (defaults chosen by simulation, see docs/simulate.md)."""

    cost_per_doubling: float = 1.5
    """Shanten steps a plan pays for each doubling it still lacks."""
    concealed_share: float = 0.75
    """Share of the fully-concealed doublings an undeclared hand counts on (they need a
    self-drawn winning tile)."""
    value_pair: float = 0.6
    """Share of a pung's doublings counted for a pair of a value tile with a live copy."""
    simples_extra: float = 0.5
    """Doublings the simples plan hopes for beyond all-simples (four chows or pungs)."""
    seven_pairs_penalty: float = 0.7
    """Seven pairs waits on single tiles with few live copies: a slower plan."""
    claim_margin: float = 0.25
    value_claim_bonus: float = 0.0
    """Taken off the value after claiming a pung or kong of a value tile (a sure doubling,
    where the plan values count a concealed hand's hope of one)."""
    danger_weight: float = 0.6
    prune: float = 2.0
    """Plans whose best case is this much worse than the best plan's are left out."""
    pungs_penalty: float | None = None
    """``None``: no plan of four pungs (the heuristic bot's).  Else the steps its value
    is charged beyond its shanten (its waits are on pairs: two tiles of a kind at most),
    as ``seven_pairs_penalty`` is for seven pairs."""


@dataclass(frozen=True, slots=True)
class _Values:
    """The doublings that matter to the plans, from the rule set."""

    need: int = 2
    clean: int = 1
    pure: int = 3
    concealed: int = 2
    simples: int = 1
    four_sets: int = 1
    four_pungs: int = 1
    three_concealed: int = 1
    dragon: int = 1
    own_wind: int = 1
    round_wind: int = 1
    ruling_dragon: int = 1
    lucky: int = 0
    clean_may_win: bool = False
    seven_pairs: bool = True
    duplicate_pairs: bool = True
    simples_concealed: bool = False

    @classmethod
    def of(cls, rules: RuleSet | None) -> _Values:
        if rules is None:
            return cls()
        d, sc = rules.doublings, rules.scoring
        return cls(
            need=sc.min_doublings,
            clean=d("clean_suit"),
            pure=d("pure_suit"),
            concealed=d("fully_concealed"),
            simples=d("pure_simples"),
            four_sets=min(d("four_chows"), d("four_pungs")),
            four_pungs=d("four_pungs"),
            three_concealed=d("three_concealed_pungs"),
            dragon=d("pung_dragon"),
            own_wind=d("pung_own_wind"),
            round_wind=d("pung_round_wind"),
            ruling_dragon=d("pung_ruling_dragon"),
            lucky=d("lucky_thirteen"),
            clean_may_win=sc.clean_hand_may_win,
            seven_pairs="seven_pairs" in sc.limit_hands,
            duplicate_pairs=sc.seven_pairs_duplicate,
            simples_concealed=sc.four_chows_simples_concealed,
        )


MAX_WAIT_BONUS = 0.24
"""A ready hand with 8 or more live winning tiles is worth this much more (fewer: less)."""
NO_LIVE_WAIT = 0.8
"""A ready hand whose winning tiles are all in sight is worth this much less."""
SOFTMIN = 2.0
"""Sharpness of the soft minimum over plans (higher: closer to the plain minimum)."""

_HONOURS = range(27, NUM_KINDS)
_SUITS = (range(0, 9), range(9, 18), range(18, 27))
_EXP = tuple(math.exp(-SOFTMIN * i / 20.0) for i in range(61))
"""exp(-SOFTMIN d) for d in steps of 0.05 up to 3 (differences between plan values)."""
_EMPTY = 7
"""Index of the empty group in :func:`_records`."""
_GROUP = tuple(3 if t >= 27 else t // 9 for t in range(NUM_KINDS))
"""The group of each tile kind: 0-2 its suit, 3 the honours."""
_NO_TERMINALS = bytes(1)
"""A terminal's count in a suit's key without its terminals."""

# The enum members of the hot paths as module constants (reading one off its class costs
# about 0.08 us in Python 3.11, and a decision read a few dozen).
_MAHJONG: Final = ActionKind.MAHJONG
_DISCARD: Final = ActionKind.DISCARD
_ANNOUNCE: Final = ActionKind.ANNOUNCE
_KONG: Final = ActionKind.KONG
_PUNG: Final = ActionKind.PUNG
_CHOW: Final = ActionKind.CHOW
_PASS: Final = ActionKind.PASS
_CLAIMS: Final = (_PUNG, _KONG, _CHOW)
_CHOW_MELD: Final = MeldKind.CHOW
_PUNG_MELD: Final = MeldKind.PUNG
_KONG_MELD: Final = MeldKind.KONG
_TURN: Final = Phase.TURN
_EAST: Final = int(Tile.EAST)
_GREEN: Final = int(Tile.GREEN)
_DRAGONS: Final = (int(Tile.GREEN), int(Tile.RED), int(Tile.WHITE))


def _records(counts: Sequence[int], simples: bool = True) -> list[GroupRecord]:
    """The shanten records of the hand's groups: 0-2 the suits, 3 the honours, 4-6 the
    suits without their terminals (the empty group unless ``simples``), 7 the empty group
    (see :attr:`_Plan.slots`)."""
    b = bytes(counts)
    out = [EMPTY_GROUP] * 8
    tables = GROUP_TABLES
    for g in range(3):
        lo = 9 * g
        key = b[lo : lo + 9]
        out[g] = rec = tables[g].get(key) or group_record(g, key)
        if simples:
            out[4 + g] = _simples_record(g, key, rec) if key[0] or key[8] else rec
    key = b[27:34]
    out[3] = tables[3].get(key) or group_record(3, key)
    return out


def _simples_record(g: int, key: bytes, rec: GroupRecord) -> GroupRecord:
    """The record of suit ``g`` holding ``key`` without its terminals (``rec``: with)."""
    if key[0] or key[8]:
        key = _NO_TERMINALS + key[1:8] + _NO_TERMINALS
        return GROUP_TABLES[g].get(key) or group_record(g, key)
    return rec


class _Plan:
    """One plan: the tile kinds it keeps and the doublings it brings by itself."""

    __slots__ = ("doublings", "honours", "keep", "kind", "slots")

    def __init__(self, kind: str, keep: Callable[[int], bool], doublings: float) -> None:
        self.kind = kind
        self.keep = k = tuple(keep(t) for t in range(NUM_KINDS))
        self.honours = all(k[t] for t in _HONOURS)
        self.doublings = doublings
        slots: list[int] = []
        for g, kinds in enumerate(_SUITS):
            kept = [k[t] for t in kinds]
            if all(kept):
                slots.append(g)
            elif kept == [False] + [True] * 7 + [False]:
                slots.append(4 + g)
            elif any(kept):
                raise ValueError(f"plan {kind!r} keeps part of suit {g} (all, 2-8 or none)")
            else:
                slots.append(_EMPTY)
        if self.honours:
            slots.append(3)
        elif any(k[t] for t in _HONOURS):
            raise ValueError(f"plan {kind!r} keeps some honours (all or none)")
        else:
            slots.append(_EMPTY)
        self.slots: tuple[int, int, int, int] = (slots[0], slots[1], slots[2], slots[3])
        """Where the plan's four groups are in :func:`_records`: its shanten is
        ``records_shanten`` of those (a group it leaves out is the empty one)."""

    def shanten(self, recs: Sequence[GroupRecord], n_melds: int) -> int:
        """The regular shanten of the hand's tiles that the plan keeps (``recs`` from
        :func:`_records`)."""
        s0, s1, s2, s3 = self.slots
        return records_shanten(recs[s0], recs[s1], recs[s2], recs[s3], n_melds)


def _suit_keeper(suit: int, honours: bool) -> Callable[[int], bool]:
    def keep(t: int) -> bool:
        return t // 9 == suit or (honours and t >= 27)

    return keep


def _plans(v: _Values, w: Weights) -> dict[str, _Plan]:
    plans = {"free": _Plan("free", lambda t: True, 0.0)}
    clean = v.need if v.clean_may_win else v.clean
    for s in range(3):
        plans[f"clean{s}"] = _Plan("clean", _suit_keeper(s, honours=True), clean)
        plans[f"pure{s}"] = _Plan("pure", _suit_keeper(s, honours=False), v.pure)
    simples = v.simples + w.simples_extra * v.four_sets
    plans["simples"] = _Plan("simples", lambda t: t < 27 and 0 < t % 9 < 8, simples)
    return plans


def _pung_plans(v: _Values) -> tuple[_Plan, _Plan]:
    """The plan of four pungs (or kongs) and a pair, declared or not: its doublings while
    the hand has an open meld, and while it is concealed (three concealed pungs too)."""
    return (
        _Plan("pungs", lambda t: True, float(v.four_pungs)),
        _Plan("pungs", lambda t: True, float(v.four_pungs + v.three_concealed)),
    )


def _build_cost(rest: int, live_pairs: int, singles: int) -> int:
    """Tiles to draw for ``rest`` more pungs: one for a pair with a live copy, two for a
    single with two live copies, three for a kind not held."""
    a = live_pairs if live_pairs < rest else rest
    rest -= a
    b = singles if singles < rest else rest
    return a + 2 * b + 3 * (rest - b)


def _pungs_shanten(counts: tuple[int, int, int, int, int], need: int) -> int:
    """Shanten towards ``need`` more pungs (or kongs) and a pair, from :func:`pungs_counts`
    of the concealed tiles: the fewest tiles to draw, less one, over where the pair comes
    from (a spare pung, a pair without a live copy, a pair that could have become a pung,
    a single, or a kind not held)."""
    p, lp, dp, s2, s1 = counts
    if p > need:  # a spare pung holds the pair
        return -1
    rest = need - p
    if dp:
        best = _build_cost(rest, lp, s2)
    else:
        best = 2 + _build_cost(rest, lp, s2)
        if lp:
            best = min(best, _build_cost(rest, lp - 1, s2))
        if s1:
            best = min(best, 1 + _build_cost(rest, lp, s2))
        elif s2:
            best = min(best, 1 + _build_cost(rest, lp, s2 - 1))
    return best - 1


def pungs_counts(counts: Sequence[int], live: Sequence[int]) -> tuple[int, int, int, int, int]:
    """The pungs held (three or four of a kind), the pairs with a live copy, the pairs
    without one, the single tiles with two or more live copies and those with one."""
    p = lp = dp = s2 = s1 = 0
    for t in range(NUM_KINDS):
        c = counts[t]
        if c >= 3:
            p += 1
        elif c == 2:
            if live[t]:
                lp += 1
            else:
                dp += 1
        elif c == 1:
            n = live[t]
            if n >= 2:
                s2 += 1
            elif n:
                s1 += 1
    return p, lp, dp, s2, s1


def pungs_shanten(counts: Sequence[int], live: Sequence[int], n_melds: int) -> int:
    """Shanten of the concealed ``counts`` towards four pungs and a pair, ``n_melds``
    pungs or kongs declared (:func:`_pungs_shanten`)."""
    return _pungs_shanten(pungs_counts(counts, live), 4 - n_melds)


_SETUPS: dict[tuple[int, Weights], tuple[RuleSet | None, _Values, dict[str, _Plan]]] = {}


def _setup(rules: RuleSet | None, weights: Weights) -> tuple[_Values, dict[str, _Plan]]:
    """The doubling values and plans for a rule set, made once per rule set and weights
    (a simulation makes new bots every hand)."""
    key = (id(rules), weights)
    hit = _SETUPS.get(key)
    if hit is None or hit[0] is not rules:
        if len(_SETUPS) > 64:
            _SETUPS.clear()
        values = _Values.of(rules)
        hit = _SETUPS[key] = (rules, values, _plans(values, weights))
    return hit[1], hit[2]


_Saved = tuple[int, bool, int, tuple[_Plan, ...], bool, bool]
"""A context's ``n_melds``, ``concealed``, ``meld_value``, ``plans``, ``sevens`` and
``pungs`` (:meth:`_Context.save`)."""


class _Context:
    """What one decision needs to know, read off the observation once."""

    __slots__ = (
        "_danger",
        "concealed",
        "costs_memo",
        "hand",
        "live",
        "meld_value",
        "n_melds",
        "obs",
        "plans",
        "pungs",
        "sevens",
        "v",
        "w",
        "worth",
    )

    def __init__(self, obs: Observation, v: _Values, w: Weights, plans: dict[str, _Plan]) -> None:
        self.v, self.w = v, w
        seat = obs.seat
        worth = [0] * NUM_KINDS
        for t in _DRAGONS:
            worth[t] = v.dragon
        worth[_EAST + seat] += v.own_wind
        rw = obs.round_wind
        worth[rw] += v.ruling_dragon if rw == _GREEN else v.round_wind
        self.worth = worth

        self.hand = counts = list(obs.concealed_counts)
        """The seat's concealed tiles, counted by kind (read only: copy it to change it)."""
        seen = list(counts)
        for view in obs.seats:
            for t in view.discards:
                seen[t] += 1
            for m in view.melds:
                if m is None:
                    continue
                if m.kind is _CHOW_MELD:
                    seen[m.tile] += 1
                    seen[m.tile + 1] += 1
                    seen[m.tile + 2] += 1
                else:
                    seen[m.tile] += 4 if m.kind is _KONG_MELD else 3
        self.live = [4 - x if x < 4 else 0 for x in seen]

        melds = [m for m in obs.me.melds if m is not None]  # own melds always show
        self.n_melds = len(melds)
        if melds:
            self.concealed = not any(m.open for m in melds)
            self.meld_value = sum(worth[m.tile] for m in melds if m.kind is not _CHOW_MELD)
            self.plans = tuple(
                p for p in plans.values() if all(_fits(p, m.kind, m.tile) for m in melds)
            )
        else:
            self.concealed = True
            self.meld_value = 0
            self.plans = tuple(plans.values())
        self.sevens = v.seven_pairs and not melds
        self.pungs = w.pungs_penalty is not None and all(m.kind is not _CHOW_MELD for m in melds)
        """Whether the plan of four pungs is weighed (a weight of it and no chow declared)."""
        self.obs = obs
        self._danger: list[float] | None = None
        self.costs_memo: dict[_CostKey, list[float]] = {}
        """The plan costs by what they follow from (:meth:`plan_costs`); a bot hands
        each of its decisions its own, so they share it."""

    def save(self) -> _Saved:
        """The fields a claim's what-if changes (the hand as if the meld were declared),
        for :meth:`restore` to put back."""
        return (self.n_melds, self.concealed, self.meld_value, self.plans, self.sevens, self.pungs)

    def restore(self, saved: _Saved) -> None:
        """Put back the fields :meth:`save` gave."""
        self.n_melds, self.concealed, self.meld_value, self.plans, self.sevens, self.pungs = saved

    def pungs_cost(self, held_value: float) -> float:
        """The steps the plan of four pungs is charged beyond its shanten: the weights'
        ``pungs_penalty`` and the plan's :meth:`lack_cost` (concealed or not, as the hand
        is).  Asked only while :attr:`pungs`, which a penalty given implies."""
        pen = self.w.pungs_penalty
        assert pen is not None
        v = self.v
        hit = _PUNG_PLANS.get(id(v))
        if hit is None or hit[0] is not v:
            if len(_PUNG_PLANS) >= 64:
                _PUNG_PLANS.clear()
            hit = _PUNG_PLANS[id(v)] = (v, _pung_plans(v))
        return pen + self.lack_cost(hit[1][1 if self.concealed else 0], held_value)

    @property
    def danger(self) -> list[float]:
        """How much each tile kind looks needed by an opponent (worked out when asked)."""
        if self._danger is None:
            self._danger = _danger(self.obs)
        return self._danger

    def held_value(self, counts: Sequence[int]) -> float:
        """Doublings that the concealed value tiles bring or promise."""
        worth, live = self.worth, self.live
        value = 0.0
        for t in _HONOURS:
            w = worth[t]
            if w:
                k = counts[t]
                if k >= 3:
                    value += w
                elif k == 2 and live[t]:
                    value += self.w.value_pair * w
        return value

    def doublings(self, plan: _Plan, held_value: float) -> float:
        """The doublings the plan counts on: its own, the declared melds', the held value
        tiles' (when it keeps honours) and part of the fully-concealed ones."""
        doublings = plan.doublings + self.meld_value
        if plan.honours:
            doublings += held_value
        if self.concealed:
            doublings += self.w.concealed_share * self.v.concealed
        elif plan.kind == "simples" and self.v.simples_concealed:
            doublings = float(self.meld_value)  # a float variable (the compiled build)
        return doublings

    def lack_cost(self, plan: _Plan, held_value: float) -> float:
        """Shanten steps charged for the doublings the plan still lacks."""
        lack = self.v.need - self.doublings(plan, held_value)
        return self.w.cost_per_doubling * lack if lack > 0 else 0.0

    def plan_costs(self, held_value: float) -> list[float]:
        """:meth:`lack_cost` of each plan of :attr:`plans`, in order, for ``held_value``.

        A plan's cost follows from the plan, the held value, the declared melds' value
        and whether the hand is concealed (and what stays fixed for the bot: its rule set,
        weights and kind of context), so the costs are remembered by those in
        :attr:`costs_memo` (the bot's, shared by its decisions: a hand asks for the same
        few again and again; at most :data:`COSTS_BOUND` entries).
        """
        key = (type(self), self.plans, self.meld_value, self.concealed, held_value)
        memo = self.costs_memo
        costs = memo.get(key)
        if costs is None:
            if len(memo) >= COSTS_BOUND:
                memo.clear()
            costs = memo[key] = [self.lack_cost(p, held_value) for p in self.plans]
        return costs


_PUNG_PLANS: dict[int, tuple[_Values, tuple[_Plan, _Plan]]] = {}
"""The plans of four pungs (:func:`_pung_plans`) by the identity of the doubling values they
follow from (:func:`_setup` makes those once per rule set and weights; at most 64
entries, then emptied)."""


COSTS_BOUND: Final = 256
"""Entries of a bot's memo of plan costs (:meth:`_Context.plan_costs`); then emptied."""

_CostKey = tuple[type, tuple[_Plan, ...], int, bool, float]


def _fits(plan: _Plan, kind: MeldKind, tile: int) -> bool:
    """Whether a meld (chow starting at ``tile``, or pung/kong of it) keeps the plan."""
    keep = plan.keep
    if kind is _CHOW_MELD:
        return keep[tile] and keep[tile + 1] and keep[tile + 2]
    return keep[tile]


def _danger(obs: Observation) -> list[float]:
    """How much each tile kind looks needed by an opponent, from his open melds."""
    danger = [0.0] * NUM_KINDS
    for view in obs.seats:
        if view.seat == obs.seat:
            continue
        shown = [m for m in view.melds if m is not None and m.open]
        if not shown:
            continue
        suits = {m.tile // 9 for m in shown if m.tile < 27}
        weight = 1.5 if view.concealed_count <= 4 else 1.0  # close to mahjong
        if len(suits) == 1 and len(shown) >= 2:  # a clean-looking hand
            (s,) = suits
            for t in _SUITS[s]:
                danger[t] += weight
            for t in _HONOURS:
                danger[t] += 0.4 * weight
        for m in shown:
            if m.kind is _CHOW_MELD:
                rank = m.tile % 9
                if rank > 0:
                    danger[m.tile - 1] += 0.5 * weight
                if rank < 6:
                    danger[m.tile + 3] += 0.5 * weight
        for t in set(view.discards):  # he let it go once
            danger[t] *= 0.5
    return danger


def _softmin(values: list[float]) -> float:
    """``-log(sum(exp(-k v))) / k``: the minimum, lowered a little by near-equal values."""
    lo = min(values)
    total = 0.0
    for v in values:
        d = v - lo
        if d < 3.0:
            total += _EXP[int(d * 20.0)]
    return lo - math.log(total) / SOFTMIN


def _waits_adjustment(counts: list[int], ctx: _Context) -> float:
    """A ready hand: worse without a live wait, a little better with many live tiles."""
    waits = waiting_tiles(counts, n_melds=ctx.n_melds, duplicate_pairs=ctx.v.duplicate_pairs)
    if not waits:
        return 0.0
    live = sum(ctx.live[w] for w in waits)
    return NO_LIVE_WAIT if live == 0 else -MAX_WAIT_BONUS * min(live, 8) / 8


def evaluate(counts: list[int], ctx: _Context) -> float:
    """The value of a hand between turns (lower is better): soft minimum over the plans."""
    recs = _records(counts)
    n = ctx.n_melds
    return _evaluate(counts, ctx, recs, [p.shanten(recs, n) for p in ctx.plans])


def _evaluate(
    counts: list[int], ctx: _Context, recs: list[GroupRecord], shanten: list[int]
) -> float:
    """:func:`evaluate`, given the hand's records and the shanten of each plan."""
    hv = ctx.held_value(counts)
    costs = ctx.plan_costs(hv)
    values = [sh + cost for sh, cost in zip(shanten, costs, strict=True)]
    ready = 0 in shanten
    if ctx.sevens:
        sh = records_seven_pairs(recs[0], recs[1], recs[2], recs[3], ctx.v.duplicate_pairs)
        ready = ready or sh == 0
        values.append(sh + ctx.w.seven_pairs_penalty)
    if ctx.pungs:
        sh = pungs_shanten(counts, ctx.live, ctx.n_melds)
        ready = ready or sh == 0
        values.append(sh + ctx.pungs_cost(hv))
    if not values:
        return math.inf
    value = _softmin(values)
    return value + _waits_adjustment(counts, ctx) if ready else value


class _Bases:
    """The plans' shanten before a discard, for valuing every discard of one hand.

    A plan's shanten changes only when the discard is one of its tiles, and discarding
    never lowers shanten, so each plan is computed once for all the other tiles; plans
    whose best case cannot come near the best plan's are left out.  A plan's shanten is
    at least ``2 * sets_needed - (2 * tiles_it_keeps) // 3`` (a set of 3 tiles is worth 2
    steps, a pair or partial set of 2 tiles 1), so plans with few tiles are dropped
    without computing their shanten (exactly those the cut would drop).
    """

    __slots__ = ("far", "floor", "hv", "kept", "pungs", "pungs_shanten", "recs", "sevens")

    def __init__(self, counts: list[int], ctx: _Context) -> None:
        all_plans = ctx.plans
        simples = False
        for p in all_plans:
            if p.slots[0] >= 4:
                simples = True
                break
        self.recs = recs = _records(counts, simples)
        """The hand's group records (:func:`_records`)."""
        n = ctx.n_melds
        w = ctx.w
        self.hv = hv = ctx.held_value(counts)
        costs = ctx.plan_costs(hv)
        two_n = 2 * (4 - n)
        tiles = [r[2] for r in recs]
        # (bound, plan's index): sorted, the plans in order of bound, ties in plan order
        order: list[tuple[float, int]] = []
        for i, p in enumerate(all_plans):
            s0, s1, s2, s3 = p.slots
            steps = two_n - 2 * (tiles[s0] + tiles[s1] + tiles[s2] + tiles[s3]) // 3
            order.append(((steps if steps > -1 else -1) + costs[i], i))
        order.sort()
        best = math.inf
        sevens_base = 99
        if ctx.sevens:
            sevens_base = records_seven_pairs(
                recs[0], recs[1], recs[2], recs[3], ctx.v.duplicate_pairs
            )
            best = sevens_base + w.seven_pairs_penalty
        pungs: tuple[tuple[int, int, int, int, int], float] | None = None
        pungs_value = math.inf
        self.pungs_shanten = 99
        """The shanten towards four pungs (99 when the plan is not weighed)."""
        if ctx.pungs:
            held = pungs_counts(counts, ctx.live)
            cost = ctx.pungs_cost(hv)
            pungs = (held, cost)
            self.pungs_shanten = psh = _pungs_shanten(held, 4 - n)
            pungs_value = psh + cost
            if pungs_value < best:
                best = pungs_value
        prune = w.prune
        plans: list[tuple[_Plan, int, tuple[int, int, int, int], float]] = []
        for least, i in order:
            if least > best + prune:
                break
            p = all_plans[i]
            slots = p.slots
            s0, s1, s2, s3 = slots
            base = records_shanten(recs[s0], recs[s1], recs[s2], recs[s3], n)
            cost = costs[i]
            plans.append((p, base, slots, cost))
            if base + cost < best:
                best = base + cost
        cut = best + w.prune
        self.kept = kept = [x for x in plans if x[1] + x[3] <= cut]
        """(plan, its shanten, where its groups are in ``recs``, its cost) of each plan
        kept, in the order they were valued."""
        self.sevens = sevens = sevens_base + w.seven_pairs_penalty <= cut
        kept_bounds = [x[1] + x[3] for x in kept]
        if sevens:
            kept_bounds.append(sevens_base + w.seven_pairs_penalty)
        if pungs is not None and pungs_value > cut:
            pungs = None
        self.pungs = pungs
        """The plan of four pungs, when kept: :func:`pungs_counts` of the hand and the
        plan's cost (penalty and lack)."""
        if pungs is not None:
            kept_bounds.append(pungs_value)
        self.floor = _softmin(kept_bounds) if kept_bounds else math.inf
        """The value of discarding a tile that no kept plan uses: no discard does better."""
        self.far = (
            all(x[1] >= 1 for x in kept)
            and (not sevens or sevens_base >= 1)
            and (pungs is None or self.pungs_shanten >= 1)
        )
        """No discard can leave the hand ready."""


def _isolated(counts: Sequence[int], t: int) -> bool:
    """A single tile with no tile of its suit within two ranks: it is in no set, partial
    set or pair of any plan, so discarding it leaves every plan's shanten as it was."""
    if counts[t] != 1:
        return False
    if t >= 27:
        return True
    r = t % 9
    if r >= 1 and (counts[t - 1] or (r >= 2 and counts[t - 2])):
        return False
    return not (r <= 7 and (counts[t + 1] or (r <= 6 and counts[t + 2])))


def _isolated_tiles(
    counts: Sequence[int], ctx: _Context, bases: _Bases, choices: Sequence[int]
) -> set[int]:
    """The tiles of ``choices`` whose discard leaves every kept plan's shanten as it was:
    the isolated ones (:func:`_isolated`), and when the plan of four pungs is kept, only
    those it would not start a pung from (a single with two live copies may be one)."""
    isolated = {t for t in choices if _isolated(counts, t)}
    pungs = bases.pungs
    if pungs is not None and isolated:
        live = ctx.live
        need = 4 - ctx.n_melds
        sh = bases.pungs_shanten
        isolated = {t for t in isolated if _pungs_after(pungs, 0, live[t], need) == sh}
    return isolated


def _discard_values(
    counts: list[int],
    ctx: _Context,
    bases: _Bases,
    choices: Sequence[int],
    isolated: frozenset[int] | set[int] = frozenset(),
) -> list[float]:
    """The value after discarding each tile of ``choices`` (counts: the hand with it);
    ``isolated``: tiles whose discard leaves every kept plan's shanten as it was
    (:func:`_isolated_tiles`; worth the floor when the hand is far)."""
    n = ctx.n_melds
    w = ctx.w
    dup = ctx.v.duplicate_pairs
    kept, sevens, hv_all = bases.kept, bases.sevens, bases.hv
    floor = bases.floor if bases.far else None
    pungs = bases.pungs
    live = ctx.live
    need = 4 - n
    pairs = 0
    if sevens and dup:  # sum(c // 2), counts 0 to 4 (more: the plain sum)
        pairs = counts.count(2) + counts.count(3) + 2 * counts.count(4)
        if len(counts) - counts.count(0) > pairs + counts.count(1) - counts.count(4):
            pairs = sum(c >> 1 for c in counts)
    worth = ctx.worth
    base_recs = bases.recs
    recs = list(base_recs)
    # the groups some kept plan takes whole (0-3) or without its terminals (4-6)
    used = [False] * 8
    for x in kept:
        for slot in x[2]:
            used[slot] = True
    # A discard that changes no kept plan's groups (and no held value) leaves every plan
    # at its shanten before the discard: its plan values are these, whatever the tile,
    # and its value follows from them and the seven pairs' shanten alone (remembered by
    # that shanten, -9 without seven pairs).
    unchanged = [x[1] + x[3] for x in kept]
    ready_before = [x[0].keep for x in kept if x[1] == 0]
    """What each plan ready before the discard keeps.  As in the loop's other branch, a
    discard makes the hand count as ready (its waits weighed) only through a plan that
    keeps the discarded tile's kind (or seven pairs), not through one that never
    needed it."""
    unchanged_value: dict[int, float] = {}
    softmins: dict[tuple[float, ...], float] = {}
    """:func:`_softmin` by plan values (at most one entry a discard)."""
    tables = GROUP_TABLES
    penalty = w.seven_pairs_penalty
    out: list[float] = []
    for t in choices:
        if floor is not None and t in isolated:
            out.append(floor)
            continue
        counts[t] -= 1
        recost = worth[t] and counts[t] >= 1  # a value pung or pair is broken up
        # The records of the groups that lose the tile: its suit (or the honours), and
        # its suit without terminals when it is 2-8.  A plan's shanten follows from its
        # groups' fronts alone, so where a front stays the same the plan's shanten does.
        g = _GROUP[t]
        lo = 9 * g
        whole = simple = False
        simples = g < 3 and used[4 + g] and 0 < t - lo < 8
        if used[g] or simples:
            key = bytes(counts[lo : lo + 9])
            rec = tables[g].get(key) or group_record(g, key)
            if used[g] and rec[0] != base_recs[g][0]:
                recs[g] = rec
                whole = True
            if simples:
                if key[0] or key[8]:
                    rec = _simples_record(g, key, rec)
                if rec[0] != base_recs[4 + g][0]:
                    recs[4 + g] = rec
                    simple = True
        if not (whole or simple or recost):
            ready = False
            for keep in ready_before:
                if keep[t]:
                    ready = True
                    break
            sh = -9
            if sevens:
                if dup:
                    sh = 6 - min(pairs - (counts[t] & 1), 7)
                else:
                    sh = seven_pairs_shanten(counts, duplicate_pairs=False)
                if sh == 0:
                    ready = True
            ukey = sh
            if pungs is not None:
                psh = _pungs_after(pungs, counts[t], live[t], need)
                if psh == 0:
                    ready = True
                ukey = 16 * sh + psh
            known = unchanged_value.get(ukey)
            if known is None:
                if sevens:
                    values = [*unchanged, sh + penalty]
                else:
                    values = list(unchanged) if pungs is not None else unchanged
                if pungs is not None:
                    values.append(psh + pungs[1])
                value = _softmin(values) if len(values) > 1 else values[0]
                unchanged_value[ukey] = value
            else:
                value = known
            if ready:
                value += _waits_adjustment(counts, ctx)
            counts[t] += 1
            out.append(value)
            continue
        hv = ctx.held_value(counts) if recost else hv_all
        values = []
        ready = False
        for p, base, slots, cost in kept:
            if p.keep[t]:
                slot = slots[g]
                if (whole and slot == g) or (simple and slot != g):
                    s0, s1, s2, s3 = slots
                    sh = records_shanten(recs[s0], recs[s1], recs[s2], recs[s3], n)
                else:
                    sh = base
                if sh == 0:
                    ready = True
            else:
                sh = base
            values.append(sh + (ctx.lack_cost(p, hv) if recost else cost))
        if whole:
            recs[g] = base_recs[g]
        if simple:
            recs[4 + g] = base_recs[4 + g]
        if sevens:
            if dup:  # 6 - pairs, the pairs counted with duplicates (see seven_pairs_shanten)
                sh = 6 - min(pairs - (counts[t] & 1), 7)
            else:
                sh = seven_pairs_shanten(counts, duplicate_pairs=False)
            if sh == 0:
                ready = True
            values.append(sh + w.seven_pairs_penalty)
        if pungs is not None:
            sh = _pungs_after(pungs, counts[t], live[t], need)
            if sh == 0:
                ready = True
            values.append(sh + (ctx.pungs_cost(hv) if recost else pungs[1]))
        if len(values) > 1:
            # the same plan values recur (most discards of a group raise the same plans)
            values_key = tuple(values)
            known = softmins.get(values_key)
            if known is None:
                value = softmins[values_key] = _softmin(values)
            else:
                value = known
        else:
            value = values[0]
        if ready:
            value += _waits_adjustment(counts, ctx)
        counts[t] += 1
        out.append(value)
    return out


def _pungs_after(
    pungs: tuple[tuple[int, int, int, int, int], float], left: int, live: int, need: int
) -> int:
    """The shanten towards four pungs after a discard that leaves ``left`` tiles of its kind
    (``live`` copies of it unseen), from the counts before it (:attr:`_Bases.pungs`)."""
    p, lp, dp, s2, s1 = pungs[0]
    if left == 0:  # a single
        if live >= 2:
            s2 -= 1
        elif live:
            s1 -= 1
    elif left == 1:  # a pair broken: a single left
        if live:
            lp -= 1
        else:
            dp -= 1
        if live >= 2:
            s2 += 1
        elif live:
            s1 += 1
    elif left == 2:  # a pung broken into a pair
        p -= 1
        if live:
            lp += 1
        else:
            dp += 1
    return _pungs_shanten((p, lp, dp, s2, s1), need)


def _connection(counts: Sequence[int], t: int, live: Sequence[int]) -> float:
    """How much a tile works with the rest of the hand (to break ties between discards).

    An isolated tile (see :func:`_isolated`) scores below 0.3, any other tile 0.3 or more.
    """
    score = 2.0 * (counts[t] - 1) + 0.1 * live[t]
    if t < 27:
        r = t % 9
        for d, w in ((1, 1.0), (2, 0.5)):
            if r - d >= 0 and counts[t - d]:
                score += w
            if r + d <= 8 and counts[t + d]:
                score += w
        if r in (0, 8):
            score -= 0.2
    return score


def _best_discard(
    counts: list[int],
    ctx: _Context,
    choices: Sequence[int],
    careful: bool = False,
    cutoff: float = math.inf,
) -> tuple[float, int | None]:
    """The best discard among ``choices`` and the value it leaves (``inf, None`` when
    nothing gets below ``cutoff``).

    ``careful``: while the hand is far from ready (value 2 or more), a tile that an
    opponent visibly collects costs up to twice ``danger_weight`` times its danger.
    Ties go to the tile least connected to the rest of the hand.
    """
    bases = _Bases(counts, ctx)
    if not choices or bases.floor - MAX_WAIT_BONUS >= cutoff:
        return math.inf, None
    isolated: set[int] = set()
    if bases.far:
        # An isolated tile leaves the floor value, the best there is.  If one of them is
        # safe and less connected than any other tile can be, it is the choice.
        isolated = _isolated_tiles(counts, ctx, bases, choices)
        weight = _danger_weight(ctx, bases.floor, careful)
        danger = ctx.danger if weight else None
        safe = [t for t in isolated if not (danger and danger[t])]
        if safe:
            connection, tile = min((_connection(counts, t, ctx.live), t) for t in safe)
            if connection < 0.3:
                return bases.floor, tile
    values = _discard_values(counts, ctx, bases, choices, isolated)
    weight = _danger_weight(ctx, min(values), careful)
    if weight:
        danger = ctx.danger
        values = [v + weight * danger[t] for t, v in zip(choices, values, strict=True)]
    return _pick(counts, ctx, choices, values, values)


def _pick(
    counts: Sequence[int],
    ctx: _Context,
    choices: Sequence[int],
    scores: Sequence[float],
    values: Sequence[float],
) -> tuple[float, int]:
    """The discard of the best (lowest) score, ties going to the tile least connected to
    the rest of the hand, then the lowest tile; with its value."""
    top = min(scores) + 1e-9
    _, tile = min(
        (_connection(counts, t, ctx.live), t)
        for t, s in zip(choices, scores, strict=True)
        if s <= top
    )
    return values[choices.index(tile)], tile


def _danger_weight(ctx: _Context, value: float, careful: bool) -> float:
    """How much danger counts: only when careful and far from ready (value 2 or more)."""
    if not careful or value < 2.0:
        return 0.0
    return ctx.w.danger_weight * min(value - 1.0, 2.0)


def _gained(counts: list[int], tile: int, plans: Sequence[_Plan], n_melds: int) -> list[int]:
    """The shanten of each of ``plans`` for the hand with one more ``tile``."""
    counts[tile] += 1
    recs = _records(counts)
    counts[tile] -= 1
    return [p.shanten(recs, n_melds) for p in plans]


SOFTMIN_ERROR: Final = 0.0501
"""How far below the exact soft minimum :func:`_softmin` can fall: its table rounds each
difference down to a step of 0.05, which raises each term by at most ``exp(0.05 *
SOFTMIN)`` and the sum with it, lowering the result by at most 0.05 (whatever
:data:`SOFTMIN` is); dropping the terms of differences of 3 or more only raises it."""


def _claim_bound(after: list[int], ctx: _Context, shanten: list[int]) -> float:
    """A lower bound of the value that claiming a pung or chow leaves, whatever the
    discard after it: ``after`` is the hand after the claim (the meld set aside), ``ctx``
    set for it (its plans those the meld keeps, ``n_melds`` one more, not concealed), and
    ``shanten`` a lower bound of each plan's shanten *before* the claim with the claimed
    tile added (``inf`` when no plan is left: the slow way values such a claim so too).

    Why it is a bound:

    * a plan's shanten after the claim and any discard is at least its shanten of the
      hand before the claim with the claimed tile added (the meld is a set of that hand,
      and taking a tile away never lowers shanten), and never below 0;
      the shanten of the hand before, less one, is a weaker bound (one tile lowers
      shanten by at most one);
    * a plan's cost after the discard is at least its cost for ``after``: the held value
      only falls with a discard, and a cost never rises with the doublings (a context's
      :meth:`_Context.lack_cost` must keep to that);
    * the value of a discard is :func:`_softmin` over some of those plans (the kept ones;
      no seven pairs once a meld is declared), at least the exact soft minimum over all of
      them less :data:`SOFTMIN_ERROR` (fewer terms and larger values only raise it), with
      :data:`MAX_WAIT_BONUS` off at most, and only when a plan may be ready.
    """
    pungs = ctx.pungs
    if not ctx.plans and not pungs:
        return math.inf
    hv = ctx.held_value(after)
    costs = ctx.plan_costs(hv)
    values = [(s if s > 0 else 0) + c for s, c in zip(shanten, costs, strict=True)]
    least = min(shanten) if shanten else 99
    if pungs:
        sh = pungs_shanten(after, ctx.live, ctx.n_melds)
        values.append((sh if sh > 0 else 0) + ctx.pungs_cost(hv))
        if sh < least:
            least = sh
    lo = min(values)
    total = 0.0
    for v in values:
        total += math.exp(-SOFTMIN * (v - lo))
    bound = lo - math.log(total) / SOFTMIN - SOFTMIN_ERROR
    return bound - MAX_WAIT_BONUS if least <= 0 else bound


LUCKY_READY = 0.5
"""An announcement is made when the hand's value after it, the announcement's doublings
counted, is below this: ready, and lacking at most part of a doubling."""


def _as_claimed(
    ctx: _Context, counts: list[int], kind: ActionKind, t: int, offered: int, saved: _Saved
) -> tuple[list[int], MeldKind, list[int]]:
    """The what-if of a claim: the concealed tiles after the chow, pung or kong ``kind``
    of ``t`` (the tile ``offered`` taken; before the discard that follows), the kind of
    meld the plans see (a kong is a pung to them) and the indices in ``saved[3]`` of the
    plans it keeps; ``ctx`` is set for the hand with that meld declared (``saved``:
    :meth:`_Context.save` before, which the caller puts back with
    :meth:`_Context.restore`)."""
    after = list(counts)
    if kind is _CHOW:
        for x in (t, t + 1, t + 2):
            if x != offered:
                after[x] -= 1
        meld = _CHOW_MELD
        ctx.pungs = False
    else:
        after[t] -= 3 if kind is _KONG else 2
        meld = _PUNG_MELD
        ctx.meld_value = saved[2] + ctx.worth[t]
    ctx.n_melds = saved[0] + 1
    ctx.concealed = ctx.sevens = False
    fits = [i for i, p in enumerate(saved[3]) if _fits(p, meld, t)]
    ctx.plans = tuple(saved[3][i] for i in fits)
    return after, meld, fits


def _announce_pays(counts: list[int], a: Action, ctx: _Context) -> bool:
    """Whether to announce the lucky thirteen with ``a``: the hand it leaves is ready, some
    winning tile is still live, and its doublings are enough once the announcement's are
    counted (it fixes the hand: no better one can be built afterwards)."""
    assert a.tile is not None
    after = list(counts)
    after[a.tile] -= 1
    waits = waiting_tiles(after, n_melds=ctx.n_melds, duplicate_pairs=ctx.v.duplicate_pairs)
    if not waits or not any(ctx.live[w] for w in waits):
        return False
    return evaluate(after, ctx) - ctx.w.cost_per_doubling * ctx.v.lucky < LUCKY_READY


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """Plans for a hand that may go mahjong; claims with sense; avoids feeding opponents."""

    name = "heuristic"

    def __init__(
        self, seed: int = 0, rules: RuleSet | None = None, weights: Weights | None = None
    ) -> None:
        self._rng = random.Random(seed)  # the bot is deterministic; kept for the interface
        self.weights = weights if weights is not None else Weights()
        self._values, self._plans = _setup(rules, self.weights)
        self._costs_memo: dict[_CostKey, list[float]] = {}

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        for a in legal:
            if a.kind is _MAHJONG:
                return a
        if len(legal) == 1:
            return legal[0]
        ctx = self._context(obs)
        ctx.costs_memo = self._costs_memo
        counts = list(ctx.hand)
        if obs.phase is _TURN:
            return self._turn(obs, ctx, counts)
        return self._claim(obs, ctx, counts)

    def _context(self, obs: Observation) -> _Context:
        """What a decision needs, read off ``obs`` (a stronger bot values plans its way)."""
        return _Context(obs, self._values, self.weights, self._plans)

    def _turn(self, obs: Observation, ctx: _Context, counts: list[int]) -> Action:
        discards: dict[int, Action] = {}
        announces: list[Action] = []
        kongs: list[Action] = []
        for a in obs.legal:
            kind = a.kind
            if kind is _DISCARD:
                if a.tile is not None:
                    discards[a.tile] = a
            elif kind is _ANNOUNCE:
                announces.append(a)
            elif kind is _KONG:
                kongs.append(a)
        choices = list(discards)
        value, tile = self._pick_discard(ctx, counts, choices)
        for a in announces:
            if a.tile == tile and _announce_pays(counts, a, ctx):
                return a
        for k in kongs:
            if k.tile is None:
                continue
            t = k.tile
            after = list(counts)
            if after[t] == 4:  # a concealed kong: one more (concealed) meld
                after[t] = 0
                added = 1
            else:  # promoting an open pung: the meld count stays
                after[t] -= 1
                added = 0
            ctx.n_melds += added
            v = evaluate(after, ctx)
            ctx.n_melds -= added
            if v <= value + 0.01:
                return k
        assert tile is not None
        return discards[tile]

    def _pick_discard(
        self, ctx: _Context, counts: list[int], choices: list[int]
    ) -> tuple[float, int | None]:
        """The discard among ``choices`` on the own turn and the value it leaves (a
        stronger bot overrides this)."""
        return _best_discard(counts, ctx, choices, careful=True)

    def _claim(self, obs: Observation, ctx: _Context, counts: list[int]) -> Action:
        legal = obs.legal
        offered = obs.offered
        assert offered is not None
        best_action: Action | None = None
        n = ctx.n_melds
        recs = _records(counts)
        shanten = [p.shanten(recs, n) for p in ctx.plans]
        best = _evaluate(counts, ctx, recs, shanten) - ctx.w.claim_margin
        saved = ctx.save()
        gained: list[int] | None = None  # each plan's shanten with the offered tile added
        for a in legal:
            kind = a.kind
            t = a.tile
            if t is None or kind not in _CLAIMS:
                continue
            after, meld, fits = _as_claimed(ctx, counts, kind, t, offered, saved)
            bonus = ctx.w.value_claim_bonus if meld is _PUNG_MELD and ctx.worth[t] else 0.0
            if kind is _KONG:
                v = evaluate(after, ctx) - 0.3 - bonus  # a loose tile comes with it
            else:
                # Most claims are proved no better than passing by a bound (_claim_bound):
                # from each plan's shanten now less one, else with the offered tile added.
                v = math.inf
                if _claim_bound(after, ctx, [shanten[i] - 1 for i in fits]) - bonus < best:
                    if gained is None:
                        gained = _gained(counts, offered, saved[3], n)
                    if _claim_bound(after, ctx, [gained[i] for i in fits]) - bonus < best:
                        choices = [x for x in range(NUM_KINDS) if after[x]]
                        v, _ = _best_discard(after, ctx, choices, cutoff=best + bonus)
                        v -= bonus
            ctx.restore(saved)
            if v < best:
                best, best_action = v, a
        if best_action is not None:
            return best_action
        for a in legal:
            if a.kind is _PASS:
                return a
        return legal[0]
