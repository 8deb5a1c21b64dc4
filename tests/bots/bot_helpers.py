"""Helpers for bot tests: observations built by hand, and a loop that plays hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from mahjong_nts.bots import Player
from mahjong_nts.core.actions import Action, parse_action
from mahjong_nts.core.game import Discard, Game, Phase
from mahjong_nts.core.notation import parse_meld, parse_tiles
from mahjong_nts.core.observation import Observation, SeatView, observe
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.tiles import NUM_KINDS, WINDS, Tile
from mahjong_nts.core.wall import tile_set
from mahjong_nts.formats.rulefiles import load_ruleset


def make_obs(
    concealed: str,
    legal: Sequence[str],
    *,
    seat: int = 0,
    phase: Phase = Phase.TURN,
    offered: str | None = None,
    melds: dict[int, Sequence[str]] | None = None,
    discards: dict[int, str] | None = None,
    round_wind: Tile = Tile.EAST,
    seats: int = 4,
    rules: RuleSet | None = None,
    live_left: int = 50,
) -> Observation:
    """An observation for ``seat``: its concealed tiles, its options (text), and what
    lies open on the table (``melds`` like ``{1: ["[b234]"]}``, ``discards`` by seat)."""
    melds = melds or {}
    discards = discards or {}
    rules = rules if rules is not None else load_ruleset("nts-2016")
    hand = tuple(sorted(parse_tiles(concealed)))
    views = []
    for s in range(seats):
        ms = tuple(parse_meld(m) for m in melds.get(s, ()))
        views.append(
            SeatView(
                seat=s,
                wind=WINDS[s],
                melds=ms,
                claimed_from=tuple((s - 1) % seats for _ in ms),
                bonus=(),
                discards=parse_tiles(discards.get(s, "")),
                concealed_count=len(hand) if s == seat else 13 - 3 * len(ms),
                dead=False,
                announced=False,
            )
        )
    return Observation(
        seat=seat,
        rules=rules,
        round_wind=round_wind,
        dominant=None,
        phase=phase,
        seq=0,
        turn=seat if phase is Phase.TURN else (seat - 1) % seats,
        to_act=True,
        legal=tuple(parse_action(a) for a in legal),
        concealed=hand,
        drawn=None,
        offered=parse_tiles(offered)[0] if offered else None,
        seats=tuple(views),
        live_left=live_left,
        dead_left=14,
        kongs=0,
        discard_count=sum(len(v.discards) for v in views),
        history=tuple(Discard(v.seat, t) for v in views for t in v.discards),
        result=None,
        revealed=(),
    )


def discards_of(concealed: str) -> list[str]:
    """Every distinct ``discard X`` of a hand, as text."""
    return [f"discard {t.token}" for t in sorted(set(parse_tiles(concealed)))]


def dealt_with(rules: RuleSet, seat: int, concealed: str, seed: int) -> Game:
    """A hand in which ``seat`` (not East) is dealt ``concealed`` (13 tiles); the other
    tiles of the table's set are shuffled with ``seed`` and dealt around it."""
    mine = [int(t) for t in parse_tiles(concealed)]
    rest = [int(t) for t in tile_set(rules.table)]
    for t in mine:
        rest.remove(t)
    random.Random(seed).shuffle(rest)
    n = rules.table.players
    dealt: list[list[int]] = []
    for s in range(n):
        if s == seat:
            dealt.append(mine)
        else:
            size = 14 if s == 0 else 13
            dealt.append(rest[:size])
            rest = rest[size:]
    dead = rules.table.dead_wall
    return Game.from_deal(rules, dealt, rest[dead:], rest[:dead])


def play(
    rules: RuleSet,
    players: Sequence[Player],
    seed: int,
    check: Callable[[Observation, Action], None] | None = None,
    game: Game | None = None,
) -> Game:
    """Play one hand with ``players`` (one per seat) from observations only (the hand
    dealt from ``seed``, or ``game`` when given)."""
    if game is None:
        game = Game(rules, random.Random(seed))
    while not game.is_over:
        seat = game.current_seat
        obs = observe(game, seat)
        act = players[seat].act(obs)
        if check is not None:
            check(obs, act)
        game.apply(act)
    return game


LATE_DISCARDS = {
    1: "k3 t2 t6 k6 t3 W",
    2: "k2 k6 t3 t8 k3 t2 t7 k8 S t1 t6",
    3: "t9 k3 t2 t5 S N W",
}
"""A table late in the hand: West (seat 2) has let go eleven tiles, South among them;
two more South tiles lie on the table, so the fourth is the one in our hand."""


def counts_of(text: str) -> list[int]:
    """The count of each tile kind in ``text`` (tiles in the notation)."""
    counts = [0] * NUM_KINDS
    for t in parse_tiles(text):
        counts[t] += 1
    return counts
