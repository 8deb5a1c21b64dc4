"""Scoring: one hand, winner or not, under a rule set, explained item by item.

The hand is arranged every legal way (all arrangements of the concealed tiles,
every set the winning tile may have completed, the irregular shapes, Pe-ling
eet cake) and the highest score is kept (rulings 2 and 3).  What each item is
worth comes from the rule set; which items a hand has is decided here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mahjong_nts.core import analysis
from mahjong_nts.core.analysis import Block, BlockKind, Shape
from mahjong_nts.core.errors import InvalidWin
from mahjong_nts.core.hand import Hand, MeldKind, Win, WinSource
from mahjong_nts.core.items import ITEMS, LIMIT_HANDS
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import (
    GREEN_TILES,
    NUM_KINDS,
    Tile,
    is_dragon,
    is_honour,
    is_major,
    is_simple,
    is_terminal,
    is_wind,
)

__all__ = ["ScoreResult", "ScoredItem", "Situation", "score_hand"]

_CHOW, _PUNG, _KONG = int(MeldKind.CHOW), int(MeldKind.PUNG), int(MeldKind.KONG)
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


def _block_text(kind: int, tile: int) -> str:
    if tile < 27:
        suit = "bkt"[tile // 9]
        r = tile % 9 + 1
        digits = {_CHOW: f"{r}{r + 1}{r + 2}", _PUNG: str(r) * 3, _KONG: str(r) * 4}.get(
            kind, str(r) * 2
        )
        return suit + digits
    letter = Tile(tile).token
    return letter * {_PUNG: 3, _KONG: 4}.get(kind, 2)


@dataclass(slots=True)
class _Candidate:
    items: list[ScoredItem]
    points: int
    doublings: int
    limit_hand: str | None
    base: int
    cap: int | None
    score: int
    allowed: bool
    refusal: str | None
    arrangement: tuple[str, ...]

    def key(self) -> tuple[bool, int, int, int]:
        return (self.allowed, self.score, self.points, -self.doublings)


class _Scorer:
    """Scores one hand; holds what every arrangement shares."""

    def __init__(self, hand: Hand, situation: Situation, rules: RuleSet) -> None:
        self.hand = hand
        self.sit = situation
        self.rules = rules
        self.sr = rules.scoring
        self.win = situation.win
        self.seat = int(situation.seat_wind)
        self.round = int(situation.round_wind)
        self.meld_sets: list[_Set] = [(int(m.kind), int(m.tile), not m.open) for m in hand.melds]
        self.meld_text = tuple(
            ("[" if m.open else "(")
            + _block_text(int(m.kind), int(m.tile))
            + ("]" if m.open else ")")
            for m in hand.melds
        )
        self.has_open_meld = any(m.open for m in hand.melds)

    # -- item evaluation ---------------------------------------------------------------
    def evaluate(self, found: dict[str, int]) -> tuple[list[ScoredItem], int, int]:
        """Value the items found (id -> count) under the rule set, exclusive groups kept
        to their best member."""
        pts_table, dbl_table = self.sr.points, self.sr.doublings
        best_in_group: dict[str, tuple[int, str]] = {}
        chosen: list[str] = []
        for item_id, count in found.items():
            value = (pts_table.get(item_id, 0) + dbl_table.get(item_id, 0)) * count
            if value <= 0:
                continue
            group = ITEMS[item_id].group
            if group is None:
                chosen.append(item_id)
            elif group not in best_in_group or value > best_in_group[group][0]:
                best_in_group[group] = (value, item_id)
        chosen.extend(item_id for _, item_id in best_in_group.values())
        items: list[ScoredItem] = []
        points = doublings = 0
        order = _ITEM_ORDER
        for item_id in sorted(chosen, key=order.__getitem__):
            item = ITEMS[item_id]
            count = found[item_id]
            p = pts_table.get(item_id, 0) * count
            d = dbl_table.get(item_id, 0) * count
            points += p
            doublings += d
            items.append(ScoredItem(item_id, item.nl, item.en, p, d, count))
        return items, points, doublings

    # -- whole-hand properties -----------------------------------------------------------
    @staticmethod
    def clean_items(tiles: Sequence[int], found: dict[str, int]) -> None:
        suits = {t // 9 for t in tiles if t < 27}
        honours = any(t >= 27 for t in tiles)
        majors = all(is_major(t) for t in tiles)
        if len(suits) == 1:
            found["clean_suit"] = 1
            if not honours:
                found["pure_suit"] = 1
            if majors:
                found["very_clean"] = 1
        elif not suits:
            found["pure_honours"] = 1
        if majors:
            found["clean_terminals"] = 1
            if not honours:
                found["pure_terminals"] = 1

    def bonus_items(self, found: dict[str, int]) -> None:
        bonus = self.hand.bonus
        if not bonus:
            return
        found["bonus_tile"] = len(bonus)
        own = self.seat - 27  # 0 East .. 3 North
        if Tile.F1 + own in bonus:
            found["own_flower"] = 1
        if Tile.S1 + own in bonus:
            found["own_season"] = 1
        if sum(1 for t in bonus if t < Tile.S1) == 4:
            found["all_flowers"] = 1
        if sum(1 for t in bonus if t >= Tile.S1) == 4:
            found["all_seasons"] = 1

    # -- sets ----------------------------------------------------------------------------
    def set_items(self, sets: Iterable[_Set], pair: int | None, found: dict[str, int]) -> None:
        concealed_pungs = concealed_kongs = kongs = 0
        seat, rnd = self.seat, self.round
        for kind, tile, concealed in sets:
            if kind == _CHOW:
                continue
            size = "kong" if kind == _KONG else "pung"
            grade = "simple" if is_simple(tile) else "major"
            key = f"{size}_{grade}_{'concealed' if concealed else 'open'}"
            found[key] = found.get(key, 0) + 1
            if kind == _KONG:
                kongs += 1
                concealed_kongs += concealed
            concealed_pungs += concealed
            if is_dragon(tile):
                found["pung_dragon"] = found.get("pung_dragon", 0) + 1
                if tile == rnd:
                    found["pung_ruling_dragon"] = 1
            elif is_wind(tile):
                if tile == seat:
                    found["pung_own_wind"] = 1
                if tile == rnd:
                    found["pung_round_wind"] = 1
        if pair is not None:
            if is_dragon(pair):
                found["pair_dragon"] = 1
            if pair == seat:
                found["pair_own_wind"] = 1
            if pair == rnd and is_wind(pair):
                found["pair_round_wind"] = 1
        if concealed_pungs >= 3:
            found["three_concealed_pungs"] = 1
        if concealed_pungs >= 4:
            found["four_concealed_pungs"] = 1
        if kongs >= 3:
            found["three_kongs"] = 1
        if concealed_kongs >= 3:
            found["three_concealed_kongs"] = 1
        if kongs == 4:
            found["four_kongs"] = 1

    # -- the final figure ----------------------------------------------------------------
    def regular_candidate(
        self, found: dict[str, int], arrangement: tuple[str, ...], cap: int | None, winner: bool
    ) -> _Candidate:
        items, points, doublings = self.evaluate(found)
        base = points << doublings
        score = base if cap is None else min(base, cap)
        allowed, refusal = True, None
        if winner:
            need = self.sr.min_doublings
            clean = self.sr.clean_hand_may_win and any(ITEMS[i.id].group == "clean" for i in items)
            if doublings < need and not clean:
                allowed = False
                refusal = (
                    f"{doublings} doubling{'s' if doublings != 1 else ''}: a mahjong "
                    f"needs at least {need}"
                    + (" or a clean hand" if self.sr.clean_hand_may_win else "")
                )
        return _Candidate(
            items, points, doublings, None, base, cap, score, allowed, refusal, arrangement
        )

    def limit_candidate(
        self, limit_id: str, value: int, arrangement: tuple[str, ...], detail: str = ""
    ) -> _Candidate:
        hand = LIMIT_HANDS[limit_id]
        items = [ScoredItem(limit_id, hand.nl, hand.en, value, 0, 1, detail or "limit hand")]
        doublings = 0
        extra = self.sr.limit_hand_concealed_doublings
        win = self.win
        if extra and win is not None and win.source.self_drawn and not self.has_open_meld:
            item = ITEMS["fully_concealed"]
            items.append(
                ScoredItem(
                    "fully_concealed", item.nl, item.en, 0, extra, 1, "limit hand fully concealed"
                )
            )
            doublings = extra
        base = value << doublings
        return _Candidate(
            items, value, doublings, limit_id, base, None, base, True, None, arrangement
        )


_ITEM_ORDER = {item_id: i for i, item_id in enumerate(ITEMS)}


def _all_tiles(hand: Hand, counts: Sequence[int]) -> list[int]:
    tiles = [t for t in range(NUM_KINDS) for _ in range(counts[t])]
    for meld in hand.melds:
        tiles.extend(int(t) for t in meld.tiles)
    return tiles


def _seven_pair_kinds(tiles: Sequence[int]) -> list[str]:
    suits = {t // 9 for t in tiles if t < 27}
    honours = any(t >= 27 for t in tiles)
    majors = all(is_major(t) for t in tiles)
    kinds = ["seven_pairs"]
    if len(suits) == 1:
        kinds.append("seven_pairs_clean")
        if not honours:
            kinds.append("seven_pairs_pure")
        if majors:
            kinds.append("seven_pairs_very_clean")
    if not suits:
        kinds.append("seven_pairs_honours")
    if majors:
        kinds.append("seven_pairs_terminals_honours")
        if not honours:
            kinds.append("seven_pairs_terminals")
    return kinds


def _shape_limits(shapes: Iterable[Shape], tiles: Sequence[int]) -> list[str]:
    out: list[str] = []
    for shape in shapes:
        if shape is Shape.SEVEN_PAIRS:
            out.extend(_seven_pair_kinds(tiles))
        else:
            out.append(shape.value)
    return out


_SNAKE_LAYOUTS = ((3, 6, 2), (2, 6, 5), (2, 5, 8))  # chow starts and pair rank


def _regular_limits(
    sets: Sequence[_Set], pair: int, tiles: Sequence[int], seat: int, win: Win
) -> list[str]:
    out: list[str] = []
    identical = [s for s in sets if s[0] != _CHOW]
    winds = sum(1 for s in identical if is_wind(s[1]))
    dragons = sum(1 for s in identical if is_dragon(s[1]))
    kongs = [s for s in sets if s[0] == _KONG]
    if winds == 4:
        out.append("four_winds")
    if dragons == 3:
        out.append("three_dragons")
    if all(t in GREEN_TILES for t in tiles):
        out.append("jade")
    if win.heaven:
        out.append("heaven")
    if win.first_discard:
        out.append("earth")
    if len(kongs) == 4:
        out.append("four_kongs")
        if all(s[2] for s in kongs):
            out.append("four_concealed_kongs")
    if len(identical) == 4 and all(is_terminal(t) for t in tiles):
        out.append("head_and_tail")
    if len(identical) == 4 and all(is_honour(t) for t in tiles):
        out.append("only_honours")
    suits = {t // 9 for t in tiles if t < 27}
    if len(suits) == 1 and not any(is_honour(t) for t in tiles):
        base = next(iter(suits)) * 9
        ranks_p = sorted(s[1] - base + 1 for s in identical)
        chows = sorted(s[1] - base + 1 for s in sets if s[0] == _CHOW)
        layout = (chows[0], chows[1], pair - base + 1) if len(chows) == 2 else None
        if ranks_p == [1, 9] and layout in _SNAKE_LAYOUTS:
            out.append("twisting_snake")
    if (
        pair == seat
        and any(s[0] == _KONG and s[1] == Tile.RED for s in sets)
        and sorted(s[1] for s in sets if s[0] == _CHOW) == [Tile.T1, Tile.T4, Tile.T7]
    ):
        out.append("red_dragon")
    return out


def _limit_value(rules: RuleSet, limit_id: str, self_drawn: bool) -> int | None:
    lv = rules.scoring.limit_hands.get(limit_id)
    if lv is None:
        return None
    return lv.self_drawn if self_drawn else lv.claimed


def _dead_result(winner: bool) -> ScoreResult:
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


def _result(c: _Candidate, winner: bool) -> ScoreResult:
    return ScoreResult(
        winner=winner,
        dead=False,
        items=tuple(c.items),
        points=c.points,
        doublings=c.doublings,
        limit_hand=c.limit_hand,
        base=c.base,
        cap=c.cap,
        score=c.score,
        mahjong_allowed=c.allowed if winner else None,
        refusal=c.refusal,
        arrangement=c.arrangement,
    )


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
        return _dead_result(winner)
    hand.check_size(winner)
    scorer = _Scorer(hand, situation, rules)
    if winner:
        return _result(_best_winner(scorer), True)
    return _result(_best_non_winner(scorer), False)


def _best_non_winner(sc: _Scorer) -> _Candidate:
    hand, rules = sc.hand, sc.rules
    counts = hand.counts
    tiles = _all_tiles(hand, counts)
    common: dict[str, int] = {}
    sc.clean_items(tiles, common)
    sc.bonus_items(common)
    pungs: list[_Set] = [(_PUNG, t, True) for t in range(NUM_KINDS) if counts[t] >= 3]
    sets = sc.meld_sets + pungs
    pair_options: list[int | None] = [None]
    pair_options.extend(t for t in range(27, NUM_KINDS) if counts[t] == 2)
    best: _Candidate | None = None
    cap = rules.scoring.limit_non_winner
    for pair in pair_options:
        found = dict(common)
        sc.set_items(sets, pair, found)
        text = sc.meld_text + tuple(_block_text(_PUNG, s[1]) for s in pungs)
        if pair is not None:
            text += (_block_text(_PAIR, pair),)
        cand = sc.regular_candidate(found, text, cap, winner=False)
        if best is None or cand.key() > best.key():
            best = cand
    assert best is not None
    if not hand.melds:
        waiting = _waiting_limit(sc, counts)
        if waiting is not None and waiting.key() > best.key():
            best = waiting
    return best


def _waiting_limit(sc: _Scorer, counts: Sequence[int]) -> _Candidate | None:
    """A non-winner one tile short of an irregular limit hand scores its waiting value."""
    dup = sc.sr.seven_pairs_duplicate
    best: _Candidate | None = None
    for w in analysis.waiting_tiles(counts, held=[0] * NUM_KINDS, duplicate_pairs=dup):
        full = list(counts)
        full[w] += 1
        shapes = analysis.irregular_shapes(full, duplicate_pairs=dup)
        if not shapes:
            continue
        tiles = [t for t in range(NUM_KINDS) for _ in range(full[t])]
        for limit_id in _shape_limits(shapes, tiles):
            lv = sc.sr.limit_hands.get(limit_id)
            if lv is None or lv.waiting is None:
                continue
            hand = LIMIT_HANDS[limit_id]
            item = ScoredItem(
                limit_id, hand.nl, hand.en, lv.waiting, 0, 1, f"waiting on {Tile(w).token}"
            )
            cand = _Candidate(
                [item],
                lv.waiting,
                0,
                limit_id,
                lv.waiting,
                None,
                lv.waiting,
                True,
                None,
                (_tiles_text(counts),),
            )
            if best is None or cand.key() > best.key():
                best = cand
    return best


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


def _best_winner(sc: _Scorer) -> _Candidate:
    hand, rules, win = sc.hand, sc.rules, sc.win
    assert win is not None and hand.winning_tile is not None
    w = int(hand.winning_tile)
    counts = hand.counts
    self_drawn = win.source.self_drawn
    claimed = not self_drawn
    dup = sc.sr.seven_pairs_duplicate
    n_melds = len(hand.melds)
    cap = rules.scoring.limit if self_drawn else rules.scoring.limit_claimed
    candidates: list[_Candidate] = []

    # Waits of the hand before the winning tile, structurally (ruling 4).
    pre = list(counts)
    pre[w] -= 1
    waits = analysis.waiting_tiles(pre, n_melds=n_melds, held=[0] * NUM_KINDS, duplicate_pairs=dup)

    # Irregular limit hands: fully concealed up to the winning tile (ruling 12).
    if n_melds == 0:
        shapes = analysis.irregular_shapes(counts, duplicate_pairs=dup)
        if shapes:
            tiles = [t for t in range(NUM_KINDS) for _ in range(counts[t])]
            text = (_tiles_text(counts),)
            for limit_id in _shape_limits(shapes, tiles):
                value = _limit_value(rules, limit_id, self_drawn)
                if value is not None:
                    candidates.append(sc.limit_candidate(limit_id, value, text))
            if win.heaven or win.first_discard:
                for limit_id in (("heaven",) if win.heaven else ()) + (
                    ("earth",) if win.first_discard else ()
                ):
                    value = _limit_value(rules, limit_id, self_drawn)
                    if value is not None:
                        candidates.append(sc.limit_candidate(limit_id, value, text))

    # Regular arrangements, and Pe-ling eet cake (circles 1 as bamboo 1).
    variants: list[tuple[Sequence[int], int, bool]] = [(counts, w, False)]
    if (
        w == Tile.K1
        and counts[Tile.B1] >= 1
        and counts[Tile.B1] < 4
        and sc.sr.points.get("peling_eats_cake")
    ):
        sub = list(counts)
        sub[Tile.K1] -= 1
        sub[Tile.B1] += 1
        variants.append((sub, int(Tile.B1), True))
    for vcounts, vw, peling in variants:
        for blocks in analysis.arrangements(vcounts):
            _score_arrangement(sc, blocks, vcounts, vw, peling, waits, claimed, cap, candidates)
    if not candidates:
        shapes_note = "" if n_melds == 0 else " (irregular hands must be fully concealed)"
        return _Candidate(
            [],
            0,
            0,
            None,
            0,
            cap,
            0,
            False,
            f"not a complete hand: no arrangement into four sets and a pair, "
            f"nor a limit hand of this rule set{shapes_note}",
            (),
        )
    return max(candidates, key=_Candidate.key)


def _score_arrangement(
    sc: _Scorer,
    blocks: tuple[Block, ...],
    counts: Sequence[int],
    w: int,
    peling: bool,
    waits: Sequence[int],
    claimed: bool,
    cap: int | None,
    out: list[_Candidate],
) -> None:
    win = sc.win
    assert win is not None
    rules = sc.rules
    pair = next(b.tile for b in blocks if b.kind is BlockKind.PAIR)
    concealed_sets = [b for b in blocks if b.kind is not BlockKind.PAIR]
    # Which block did the winning tile complete?  Every distinct choice is legal.
    choices: list[int] = []
    seen: set[tuple[int, int]] = set()
    for i, b in enumerate(blocks):
        inside = (b.tile == w) if b.kind is not BlockKind.CHOW else (b.tile <= w <= b.tile + 2)
        if inside and (b.kind, b.tile) not in seen:
            seen.add((b.kind, b.tile))
            choices.append(i)
    if peling:
        choices = [i for i in choices if blocks[i].kind is BlockKind.PAIR]
    tiles = _all_tiles(sc.hand, counts)
    whole: dict[str, int] = {}
    sc.clean_items(tiles, whole)
    sc.bonus_items(whole)
    all_simple = all(is_simple(t) for t in tiles)
    self_drawn = win.source.self_drawn
    for ci in choices:
        wblock = blocks[ci]
        sets: list[_Set] = list(sc.meld_sets)
        text = list(sc.meld_text)
        for b in concealed_sets:
            kind = _CHOW if b.kind is BlockKind.CHOW else _PUNG
            open_by_claim = claimed and b is wblock
            sets.append((kind, b.tile, not open_by_claim))
            text.append(_block_text(kind, b.tile) + ("*" if b is wblock else ""))
        text.append(_block_text(_PAIR, pair) + ("*" if wblock.kind is BlockKind.PAIR else ""))
        arrangement = tuple(text)
        # Regular limit hands.
        for limit_id in _regular_limits(sets, pair, tiles, sc.seat, win):
            value = _limit_value(rules, limit_id, self_drawn)
            if value is not None:
                out.append(sc.limit_candidate(limit_id, value, arrangement))
        found = dict(whole)
        sc.set_items(sets, pair, found)
        _winner_items(sc, found, sets, pair, wblock, peling, waits, all_simple, tiles)
        out.append(sc.regular_candidate(found, arrangement, cap, winner=True))


def _winner_items(
    sc: _Scorer,
    found: dict[str, int],
    sets: Sequence[_Set],
    pair: int,
    wblock: Block,
    peling: bool,
    waits: Sequence[int],
    all_simple: bool,
    tiles: Sequence[int],
) -> None:
    win = sc.win
    assert win is not None
    w_physical = sc.hand.winning_tile
    found["mahjong"] = 1
    if win.source.self_drawn:
        found["self_drawn"] = 1
    if len(waits) == 1:
        found["only_possible_tile"] = 1
    if wblock.kind is BlockKind.PAIR:
        found["completes_pair"] = 1
    if peling:
        found["peling_eats_cake"] = 1
    chows = sum(1 for s in sets if s[0] == _CHOW)
    identical = [s for s in sets if s[0] != _CHOW]
    if chows == 4:
        found["four_chows"] = 1
        found["chows_and_pair_points"] = 1
    if len(identical) == 4:
        found["four_pungs"] = 1
        if all_simple:
            found["all_pungs_simples"] = 1
    if all_simple:
        found["pure_simples"] = 1
    if sc.sr.four_chows_simples_concealed and chows == 4 and all_simple and sc.has_open_meld:
        found.pop("four_chows", None)
        found.pop("pure_simples", None)
    wind_pungs = sum(1 for s in identical if is_wind(s[1]))
    dragon_pungs = sum(1 for s in identical if is_dragon(s[1]))
    if wind_pungs == 3 and is_wind(pair):
        found["small_four_winds"] = 1
    if dragon_pungs == 2 and is_dragon(pair):
        found["small_three_dragons"] = 1
    if dragon_pungs == 3:
        found["three_wise_men"] = 1
    if win.source.self_drawn and not sc.has_open_meld:
        found["fully_concealed"] = 1
    if win.last_tile:
        found["last_tile"] = 1
        if w_physical is Tile.K1:
            found["last_tile_circles1"] = 1
    if win.last_tile or win.last_discard:
        found["last_tile_points"] = 1
    if win.last_discard:
        found["last_discard"] = 1
    if win.source is WinSource.LOOSE_TILE:
        found["loose_tile"] = 1
        if w_physical is Tile.K5:
            found["loose_tile_circles5"] = 1
        if win.kong_on_kong:
            found["kong_on_kong"] = 1
    if win.source is WinSource.ROBBED_KONG:
        found["robbing_kong"] = 1
    if win.first_discard:
        found["earth_doublings"] = 1
    if win.lucky_thirteen:
        found["lucky_thirteen"] = 1
