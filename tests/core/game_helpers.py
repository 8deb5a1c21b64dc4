"""Helpers for the game-engine tests: hands dealt as chosen, scripted play, full state
snapshots, the engine's invariants, and positions perturbed where a seat cannot see.

A position is dealt with :meth:`Game.from_deal`; :func:`deal` fills in whatever a test does
not name (the rest of the tile set, shuffled by a fixed seed), so a test names only the
tiles that matter: the hands, the next draws, the last tiles of the live wall, the first
loose tiles.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from core_helpers import load

from mahjong_nts.core.actions import Action, ActionKind
from mahjong_nts.core.game import Game, Phase, Source
from mahjong_nts.core.hand import Meld, MeldKind
from mahjong_nts.core.notation import parse_tiles
from mahjong_nts.core.observation import observe
from mahjong_nts.core.rules import RuleSet, TableRules
from mahjong_nts.core.shanten import regular_shanten
from mahjong_nts.core.tiles import NUM_KINDS, Tile
from mahjong_nts.core.wall import Wall, tile_set


def tiles(text: str) -> list[Tile]:
    """``"b111 k234 EE"`` -> tiles in the order written."""
    return list(parse_tiles(text)) if text.strip() else []


def chosen_deal(
    rules: RuleSet,
    hands: Sequence[str | None],
    *,
    draws: str = "",
    last: str = "",
    loose: str = "",
    filler: int = 0,
) -> tuple[list[list[Tile]], list[Tile], list[Tile]]:
    """The deal, live wall and dead wall of :func:`deal` (arguments as there)."""
    table = rules.table
    pool = Counter(int(t) for t in tile_set(table))
    named = [tiles(h) if h is not None else None for h in hands]
    parts = [tiles(draws), tiles(last), tiles(loose)]
    for group in [*(h for h in named if h is not None), *parts]:
        for t in group:
            if pool[int(t)] <= 0:
                raise ValueError(f"deal: one {t.token} too many for this table")
            pool[int(t)] -= 1
    rest = sorted(pool.elements())
    random.Random(filler).shuffle(rest)
    dealt: list[list[Tile]] = []
    for s, h in enumerate(named):
        if h is None:
            size = 14 if s == 0 else 13
            h, rest = [Tile(t) for t in rest[:size]], rest[size:]
        dealt.append(list(h))
    draws_t, last_t, loose_t = parts
    n_dead = table.dead_wall - len(loose_t)
    dead = [*loose_t, *map(Tile, rest[:n_dead])]
    live = [*draws_t, *map(Tile, rest[n_dead:]), *last_t]
    return dealt, live, dead


def deal(
    rules: str | RuleSet,
    hands: Sequence[str | None],
    *,
    draws: str = "",
    last: str = "",
    loose: str = "",
    filler: int = 0,
    round_wind: Tile = Tile.EAST,
    dominant: int | None = None,
) -> Game:
    """A hand dealt as chosen.

    ``hands[s]``: seat ``s``'s dealt tiles in dealing order (East 14, the others 13), or
    ``None`` for tiles from the filler.  ``draws``: the first tiles of the live wall after
    the deal, in drawing order; ``last``: its last tiles; ``loose``: the first tiles of the
    dead wall in loose-tile order.  Every other tile of the table's set is shuffled with
    ``random.Random(filler)`` and fills the remaining places.
    """
    rs = load(rules) if isinstance(rules, str) else rules
    dealt, live, dead = chosen_deal(rs, hands, draws=draws, last=last, loose=loose, filler=filler)
    return Game.from_deal(rs, dealt, live, dead, round_wind=round_wind, dominant=dominant)


class _Numbered:
    """Chance that numbers the tiles instead of shuffling them (dice all 1s)."""

    def shuffle(self, x: list[Any]) -> None:
        x[:] = range(len(x))

    def randint(self, a: int, b: int) -> int:
        return a

    def getrandbits(self, k: int) -> int:
        return 0


class RiggedRng:
    """Chance under which ``Game(rules, rng)`` deals exactly the hand :func:`deal` would
    (arguments as there), so that a test can steer a hand that someone else deals, such
    as a match.  The wall is laid out once with numbered tiles; the shuffle then puts
    each chosen tile at the number that lands where it must be."""

    def __init__(self, rules: str | RuleSet, hands: Sequence[str | None], **kw: Any) -> None:
        rs = load(rules) if isinstance(rules, str) else rules
        dealt, live, dead = chosen_deal(rs, hands, **kw)
        order: list[Tile] = []  # dealing order, as the book deals: 3 x 4 tiles, 1, East 1
        for r in range(3):
            for d in dealt:
                order.extend(d[4 * r : 4 * r + 4])
        order.extend(d[12] for d in dealt)
        order.append(dealt[0][13])
        numbered_live, numbered_dead = Wall(rs.table, _Numbered()).remaining()
        self._order: list[Tile] = [Tile.B1] * (len(numbered_live) + len(numbered_dead))
        for k, t in zip((*numbered_live, *numbered_dead), (*order, *live, *dead), strict=True):
            self._order[k] = t
        assert Wall(rs.table, self).remaining() == (tuple([*order, *live]), tuple(dead))

    def shuffle(self, x: list[Any]) -> None:
        x[:] = self._order

    def randint(self, a: int, b: int) -> int:
        return a

    def getrandbits(self, k: int) -> int:
        return 0


def play(game: Game, *acts: str) -> None:
    """Apply actions in order (text notation)."""
    for a in acts:
        game.apply(a)


def pass_claims(game: Game) -> None:
    """Every seat asked in an open claim or rob window passes."""
    while game.phase in (Phase.CLAIM, Phase.ROB):
        game.apply("pass")


def autoplay(game: Game, until: Callable[[Game], bool]) -> None:
    """Quiet play until ``until(game)`` or the hand is over: on turn discard the tile just
    drawn (else the first discard allowed), pass every claim.  Never a mahjong or a meld,
    so the hands named in a test stay as they are."""
    while not game.is_over and not until(game):
        if game.phase is Phase.TURN:
            drawn = game.tile
            legal = game.legal_actions()
            choice = next(
                (a for a in legal if a.kind is ActionKind.DISCARD and a.tile == drawn),
                next(a for a in legal if a.kind is ActionKind.DISCARD),
            )
            game.apply(choice)
        else:
            game.apply("pass")


def concealed_text(game: Game, seat: int) -> str:
    return " ".join(t.token for t in game.concealed(seat))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a move could change, as comparable values."""
    live, dead = game.wall.remaining()
    return (
        game.phase,
        game.turn,
        game.current_seat,
        game.tile,
        game.source,
        game.kongs,
        game.turn_kongs,
        game.discard_count,
        tuple(tuple(h) for h in game.hands),
        tuple(tuple(m) for m in game.melds),
        tuple(tuple(b) for b in game.bonus),
        tuple(tuple(d) for d in game.discards),
        tuple(game.dead),
        live,
        dead,
        tuple(game.events),
        game.result,
        game.legal_actions(),
        game.seq,
        tuple(game.announced),
        tuple(game._fresh),
    )


# -- invariants -------------------------------------------------------------------------


def meld_tiles(m: Meld) -> list[int]:
    if m.kind is MeldKind.CHOW:
        return [m.tile, m.tile + 1, m.tile + 2]
    return [m.tile] * (4 if m.kind is MeldKind.KONG else 3)


def tiles_on_table(game: Game) -> Counter[int]:
    """Every tile of the hand wherever it lies: hands, melds, flowers, discards, walls."""
    c: Counter[int] = Counter()
    for s in range(game.n):
        for t, k in enumerate(game.hands[s]):
            c[t] += k
        for m in game.melds[s]:
            c.update(meld_tiles(m))
        c.update(int(t) for t in game.bonus[s])
        c.update(int(t) for t in game.discards[s])
    live, dead = game.wall.remaining()
    c.update(int(t) for t in (*live, *dead))
    return +c


def hand_size(game: Game, seat: int) -> int:
    """Concealed tiles plus three for every meld (a kong counts as a set of three)."""
    return sum(game.hands[seat]) + 3 * len(game.melds[seat])


def expected_size(game: Game, seat: int) -> int:
    """14 for the seat holding the extra tile (on turn, or the winner), else 13."""
    if game.phase is Phase.TURN and seat == game.turn:
        return 14
    if game.is_over and game.result is not None and game.result.winner == seat:
        return 14
    return 13


@functools.cache
def _tile_counts(table: TableRules) -> Counter[int]:
    return Counter(int(t) for t in tile_set(table))


def check_invariants(game: Game) -> None:
    want = _tile_counts(game.rules.table)
    got = tiles_on_table(game)
    assert got == want, f"tiles lost {want - got} or made {got - want}"
    for s in range(game.n):
        assert hand_size(game, s) == expected_size(game, s), (s, game.phase, game.turn)
        assert all(0 <= k <= 4 for k in game.hands[s])
        assert all(t >= NUM_KINDS for t in game.bonus[s])
    if game.is_over:
        res = game.result
        assert res is not None
        assert sum(res.settlement.balances) == 0
        assert game.legal_actions() == ()
    else:
        legal = game.legal_actions()
        assert legal, "a seat must always have something to do"
        if game.phase is not Phase.TURN:
            assert Action(ActionKind.PASS) in legal


def check_rules(game: Game) -> None:
    """What the books allow, checked on the options offered and on the end of the hand."""
    table = game.rules.table
    if game.is_over:
        res = game.result
        assert res is not None
        if res.winner is None or res.win is None:
            return
        win, w = res.win, res.winner
        assert not game.dead[w], "a dead hand cannot win"
        assert (res.discarder is None) == win.source.self_drawn
        if win.heaven:
            assert w == 0 and game.discard_count == 0
        if win.first_discard:
            assert res.discarder == 0 and game.discard_count == 1
        if win.last_tile or win.last_discard:
            assert game.wall.live_left == 0
        if win.kong_on_kong:
            assert len(game.melds[w]) >= 2
        assert win.lucky_thirteen == game.announced[w]
        if win.lucky_thirteen:  # the hand as dealt, closed, but for the winning tile
            assert not game.melds[w] and not win.heaven and not win.first_discard
        return
    seat = game.current_seat
    hand = game.hands[seat]
    lucky = game.rules.doublings("lucky_thirteen") > 0
    for a in game.legal_actions():
        if a.kind is ActionKind.MAHJONG:
            assert not game.dead[seat]
        if game.announced[seat]:  # the hand stays as it is
            assert a.kind in (ActionKind.MAHJONG, ActionKind.DISCARD, ActionKind.PASS)
            assert a.kind is not ActionKind.DISCARD or a.tile == game.tile
        if game.phase is Phase.TURN:
            assert a.kind in (
                ActionKind.MAHJONG,
                ActionKind.DISCARD,
                ActionKind.KONG,
                ActionKind.ANNOUNCE,
            )
            if a.kind is ActionKind.ANNOUNCE:
                assert lucky and not game.announced[seat] and not game.dead[seat]
                assert not game.melds[seat] and not game.discards[seat]
                assert a.tile is not None and hand[a.tile] >= 1
                if seat != 0:
                    assert a.tile == game.tile and game.source is not Source.CLAIM
            elif a.kind is ActionKind.MAHJONG:
                assert game.source is not Source.CLAIM, "a claimed tile is no self-drawn win"
            elif a.kind is ActionKind.DISCARD:
                assert a.tile is not None and hand[a.tile] >= 1
            else:
                assert a.tile is not None
                promoted = Meld(MeldKind.PUNG, a.tile, True) in game.melds[seat]
                assert hand[a.tile] == 4 or (promoted and hand[a.tile] == 1)
            continue
        assert seat != game.turn
        assert game.tile is not None
        if game.phase is Phase.ROB:
            assert a.kind in (ActionKind.MAHJONG, ActionKind.PASS)
        elif a.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.CHOW):
            assert game.wall.live_left > 0, "the last discard is only for mahjong"
            if a.kind is ActionKind.CHOW:
                assert table.open_chows and seat == (game.turn + 1) % game.n
                assert a.tile is not None and a.tile <= game.tile <= a.tile + 2
            else:
                assert a.tile == game.tile
                assert hand[game.tile] >= (3 if a.kind is ActionKind.KONG else 2)


# -- positions that differ only where a seat cannot look ------------------------------


def perturbed(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which the other seats' concealed tiles (their concealed kongs
    too, where a whole kind can be exchanged) and the order of both walls are shuffled
    among themselves, keeping every count ``seat`` could know."""
    g = game.clone()
    live, dead = g.wall.remaining()
    walls = [int(t) for t in (*live, *dead)]
    others = [s for s in range(g.n) if s != seat]
    pool: list[int] = [t for t in walls if t < NUM_KINDS]  # flowers stay where they lie
    for s in others:
        pool.extend(t for t in range(NUM_KINDS) for _ in range(g.hands[s][t]))
    # exchange the kind of another seat's concealed kong with a kind whose four tiles
    # are all in the pool
    for s in others:
        for i, m in enumerate(g.melds[s]):
            if m.kind is MeldKind.KONG and not m.open:
                counts = Counter(pool)
                kinds = [t for t in range(NUM_KINDS) if counts[t] == 4 and t != m.tile]
                if kinds:
                    k = rng.choice(kinds)
                    for _ in range(4):
                        pool.remove(k)
                    pool.extend([m.tile] * 4)
                    g.melds[s][i] = Meld(MeldKind.KONG, Tile(k), open=False)
    rng.shuffle(pool)
    for s in others:
        size = sum(g.hands[s])
        hand = [0] * NUM_KINDS
        for t in pool[:size]:
            hand[t] += 1
        pool = pool[size:]
        g.hands[s] = hand
        if g.phase is Phase.TURN and g.turn == s and g.tile is not None:
            g.tile = Tile(next(t for t in range(NUM_KINDS) if hand[t]))
    rest = iter(pool)
    walls = [t if t >= NUM_KINDS else next(rest) for t in walls]
    wall = g.wall
    wall._live = [*wall._live[: wall._pos], *map(Tile, walls[: len(live)])]
    wall._end = wall._pos + len(live)
    wall._dead = list(map(Tile, walls[len(live) :]))
    g._waits = [None] * g.n
    return g


def assert_no_leak(game: Game, rng: random.Random) -> None:
    for seat in range(game.n):
        want = observe(game, seat)
        got = observe(perturbed(game, seat, rng), seat)
        assert got == want, f"seat {seat} sees a difference"


# -- random play -------------------------------------------------------------------------------


def random_action(game: Game, rng: random.Random, false_mahjong: float = 0.0) -> Action:
    """A random but purposeful move: a mahjong when there is one; with probability
    ``false_mahjong`` a false mahjong where the table accepts it (a dead hand); claims
    and kongs at random; on turn, usually a discard that keeps the hand nearest to
    complete (so that hands are won, not only drawn)."""
    legal = game.legal_actions()
    mahjong = Action(ActionKind.MAHJONG)
    if mahjong in legal:
        return mahjong
    if (
        false_mahjong
        and game.rules.table.false_mahjong == "dead_hand"
        and not game.dead[game.current_seat]
        and rng.random() < false_mahjong
    ):
        return mahjong
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    melds = [a for a in legal if a.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.CHOW)]
    if melds:  # honours are worth a doubling; other melds only now and then
        honours = [a for a in melds if a.tile is not None and a.tile >= 27]
        if honours and rng.random() < 0.8:
            return rng.choice(honours)
        if rng.random() < 0.15:
            return rng.choice(melds)
    if not discards:
        return Action(ActionKind.PASS)
    if rng.random() < 0.15:
        return rng.choice(discards)
    seat = game.current_seat
    counts = list(game.hands[seat])
    n_melds = len(game.melds[seat])
    best: list[Action] = []
    best_value = 99
    for a in discards:
        assert a.tile is not None
        counts[a.tile] -= 1
        value = regular_shanten(counts, n_melds)
        counts[a.tile] += 1
        if value < best_value:
            best, best_value = [a], value
        elif value == best_value:
            best.append(a)
    return rng.choice(best)


def random_hand(
    rules: RuleSet,
    seed: int,
    *,
    false_mahjong: float = 0.0,
    each: Callable[[Game], None] | None = None,
) -> tuple[Game, list[Action]]:
    """A hand played by random moves from ``seed`` (the wall's seed and the moves' seed),
    calling ``each`` on every state; returns the game and the moves."""
    game = Game(rules, random.Random(seed))
    rng = random.Random(f"moves {seed}")  # (the int seed + 1 gave oddly few wins on this wall)
    moves: list[Action] = []
    if each is not None:
        each(game)
    while not game.is_over:
        act = random_action(game, rng, false_mahjong)
        game.apply(act)
        moves.append(act)
        if each is not None:
            each(game)
    return game, moves


def game_after(spec: str, seed: int, steps: int, window: bool = False) -> Game:
    """A reachable state: ``steps`` random moves (fewer if the hand ends first), then with
    ``window`` on to the next claim window."""
    game = Game(load(spec), random.Random(seed))
    rng = random.Random(f"moves {seed}")
    for i in itertools.count():
        if game.is_over or (i >= steps and (not window or game.phase is not Phase.TURN)):
            break
        game.apply(random_action(game, rng, false_mahjong=0.01))
    return game
