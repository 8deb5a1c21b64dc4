"""A hand as JSON values for a client: tiles, melds, events, the end of a hand, hints.

Shared by the game against the bots (``web/bottable.py``) and the online tables
(:mod:`mahjong_nts.online.view`): both draw the same objects, so one table page can show
either.  These functions only turn what they are given into JSON; what a seat may see is
decided before, by the core's observation (``core/observation.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mahjong_nts.bots import make_bot
from mahjong_nts.core.analysis import waiting_tiles
from mahjong_nts.core.game import Event, Game, HandResult
from mahjong_nts.core.hand import Hand, Meld
from mahjong_nts.core.notation import format_hand
from mahjong_nts.core.observation import Observation, SeatView
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.core.shanten import shanten
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import wire

__all__ = [
    "HINT_BOT",
    "WIN_FLAGS",
    "event_state",
    "hand_order",
    "hint",
    "meld_state",
    "result_state",
    "seat_state",
    "tokens",
]

HINT_BOT = "heuristic"
"""The bot whose choice a hint shows."""
WIN_FLAGS = (
    "last_tile",
    "last_discard",
    "kong_on_kong",
    "first_discard",
    "heaven",
    "lucky_thirteen",
)
"""The win's flags, in the order of the hand logs."""


def tokens(tiles: Sequence[int]) -> list[str]:
    return [Tile(t).token for t in tiles]


def meld_state(meld: Meld | None) -> dict[str, Any] | None:
    """A meld as the client gets it; ``None`` for another seat's face-down kong."""
    if meld is None:
        return None
    return {"kind": meld.kind.name.lower(), "tiles": tokens(meld.tiles), "open": meld.open}


def seat_state(v: SeatView, **who: Any) -> dict[str, Any]:
    """A seat of an observation as the client gets it: what lies open there and how
    many tiles it holds; ``who`` (the player at an online table, the name at a game
    against the bots) comes after its wind."""
    return {
        "seat": v.seat,
        "wind": v.wind.token,
        **who,
        "melds": [meld_state(m) for m in v.melds],
        "bonus": tokens(v.bonus),
        "discards": tokens(v.discards),
        "concealed_count": v.concealed_count,
        "dead": v.dead,
        "announced": v.announced,
    }


def event_state(e: Event) -> dict[str, Any]:
    """An event as a seat sees it (after ``visible_events``)."""
    out: dict[str, Any] = {"kind": e.kind, "seat": e.seat, "tiles": tokens(e.tiles)}
    if e.note:
        out["note"] = e.note
    return out


def _shown(hand: Hand) -> dict[str, Any]:
    return {
        "concealed": tokens(sorted(hand.concealed)),
        "melds": [meld_state(m) for m in hand.melds],
        "bonus": tokens(hand.bonus),
    }


def result_state(result: HandResult, game: Game, rules: RuleSet) -> dict[str, Any]:
    """The end of a hand: every hand, each scored and explained (the objects of
    ``score --json``), and the settlement.  Only for a hand that is over."""
    st = result.settlement
    win = result.win
    return {
        "reason": result.reason,
        "winner": result.winner,
        "discarder": result.discarder,
        "winning_tile": None if result.winning_tile is None else result.winning_tile.token,
        "win": None
        if win is None
        else {
            "source": str(win.source),
            "flags": [f for f in WIN_FLAGS if getattr(win, f)],
        },
        "hands": [
            format_hand(game.hand_of(s, result.winning_tile if s == result.winner else None))
            for s in range(game.n)
        ],
        "tiles": [_shown(game.hand_of(s)) for s in range(game.n)],
        "scores": [wire.score_response(res, rules) for res in result.scores],
        "settlement": {
            "scores": list(st.scores),
            "balances": list(st.balances),
            "payments": [
                {"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in st.payments
            ],
        },
    }


def hint(obs: Observation, rules: RuleSet) -> dict[str, Any]:
    """Help for the seat that must decide: how far its hand is from ready (shanten),
    the tiles it waits on (or, on its turn, which discards leave it waiting and on
    what), and the heuristic bot's choice.  Computed by the core and the bot from the
    seat's own observation."""
    dup = rules.scoring.seven_pairs_duplicate
    counts = [0] * 34
    for tile in obs.concealed:
        if tile < 34:
            counts[tile] += 1
    melds = len(obs.me.melds)
    held = list(counts)
    for m in obs.me.melds:
        if m is not None:
            for t in m.tiles:
                held[t] += 1
    out: dict[str, Any] = {"shanten": shanten(counts, n_melds=melds, duplicate_pairs=dup)}
    if sum(counts) % 3 == 1:
        waits = waiting_tiles(counts, n_melds=melds, held=held, duplicate_pairs=dup)
        out["waits"] = tokens(waits)
        out["discards"] = []
    else:
        out["waits"] = []
        discards = []
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                held[k] -= 1
                waits = waiting_tiles(counts, n_melds=melds, held=held, duplicate_pairs=dup)
                counts[k] += 1
                held[k] += 1
                if waits:
                    discards.append({"discard": Tile(k).token, "waits": tokens(waits)})
        out["discards"] = discards
    suggestion = make_bot(HINT_BOT, 0, rules).act(obs) if obs.to_act and obs.legal else None
    out["suggestion"] = None if suggestion is None else str(suggestion)
    return out


def hand_order(obs: Observation) -> list[str]:
    """A seat's concealed tiles as shown: sorted, the tile just drawn last."""
    tiles = sorted(obs.concealed)
    if obs.drawn is not None and obs.drawn in tiles:
        tiles.remove(obs.drawn)
        tiles.append(obs.drawn)
    return tokens(tiles)
