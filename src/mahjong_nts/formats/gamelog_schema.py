"""The lines of a hand log (``mahjong-nts/hand-log`` version 1), as pydantic models.

A hand log is JSON Lines: a :class:`HeaderLine`, one :class:`EventLine` per
entry of ``Game.events`` in order, and a :class:`ResultLine`.  The format is
documented in ``docs/logs.md``; :mod:`mahjong_nts.formats.gamelog` writes, reads and
verifies it.  Tiles are written as space-separated canonical tokens
(``"b3 b4 E"``); aliases are accepted on reading and normalised.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from mahjong_nts.core.errors import InvalidTile
from mahjong_nts.core.tiles import Tile, parse_tile

__all__ = [
    "EVENT_KINDS",
    "FORMAT",
    "VERSION",
    "EventLine",
    "HandInfo",
    "HeaderLine",
    "PaymentInfo",
    "ResultLine",
    "SeatScore",
    "SettlementInfo",
    "WinInfo",
]

FORMAT: Final = "mahjong-nts/hand-log"
VERSION: Final = 1

EVENT_KINDS: Final = frozenset(
    {
        # decided: a seat's action
        "discard",
        "kong",
        "chow",
        "pung",
        "pass",
        "mahjong",
        "announce",  # the lucky thirteen announced, with the discard it names
        # consequences of the actions and the wall
        "deal",
        "draw",
        "loose",
        "flower",
        "meld",
        "robbed",
        "dead",
        "mahjong_won",
        "remise",
    }
)
DECIDED_KINDS: Final = frozenset({"discard", "kong", "chow", "pung", "pass", "mahjong", "announce"})


def _tiles(text: str) -> str:
    """Normalise space-separated tile tokens to canonical ones."""
    out = []
    for word in text.split():
        try:
            out.append(parse_tile(word).token)
        except InvalidTile as exc:
            raise ValueError(str(exc)) from None
    return " ".join(out)


def _tile(text: str) -> str:
    normal = _tiles(text)
    if len(normal.split()) != 1:
        raise ValueError(f"expected one tile, got {text!r}")
    return normal


def _round_wind(text: str) -> str:
    tile = parse_tile(_tile(text))
    if tile not in (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.GREEN):
        raise ValueError(f"a round wind is E, S, W, N or F (green-dragon hand), not {text!r}")
    return tile.token


def _event_kind(text: str) -> str:
    if text not in EVENT_KINDS:
        raise ValueError(f"unknown event kind {text!r}: one of {', '.join(sorted(EVENT_KINDS))}")
    return text


Tiles = Annotated[str, AfterValidator(_tiles)]
OneTile = Annotated[str, AfterValidator(_tile)]
Seat = Annotated[int, Field(ge=0, le=3)]
Count = Annotated[int, Field(ge=0)]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class HandInfo(_Line):
    """Where the hand sits in a match (absent for a hand played alone)."""

    number: Count
    """0-based count of hands played before this one in the match."""
    round: Count
    players: list[Count]
    """The match player at each seat (index 0 is East)."""
    dreamer: Count | None = None
    dominant: Count | None = None
    """The dominant player (a player number) of a green-dragon hand."""


class HeaderLine(_Line):
    type: Literal["header"]
    format: Literal["mahjong-nts/hand-log"]
    version: Literal[1]
    program: str = ""
    ruleset: Annotated[str, Field(min_length=1)]
    """The rule-set spec as loaded: a shipped name with overlays, or a file path."""
    ruleset_name: str
    rules_digest: str
    """sha256 (first 16 hex digits) of the rule set's values, to notice a changed file."""
    seed: Count
    round_wind: Annotated[str, AfterValidator(_round_wind)]
    dominant: Seat | None = None
    """The dominant seat of a green-dragon hand."""
    seats: Annotated[int, Field(ge=3, le=4)]
    players: list[str]
    """A name for the player at each seat (index 0 is East)."""
    hand: HandInfo | None = None


class EventLine(_Line):
    type: Literal["event"]
    n: Count
    """The index of the event in ``Game.events``."""
    kind: Annotated[str, AfterValidator(_event_kind)]
    seat: Annotated[int, Field(ge=-1, le=3)]
    """The seat it concerns (-1 for a remise, which concerns the table)."""
    tiles: Tiles = ""
    decided: bool = False
    """A seat's action, which a replay re-applies; the others follow from it."""
    note: str = ""


class WinInfo(_Line):
    source: Literal["wall", "discard", "loose_tile", "robbed_kong"]
    flags: list[
        Literal["last_tile", "last_discard", "kong_on_kong", "first_discard", "heaven"]
        | Literal["lucky_thirteen"]
    ] = []


class SeatScore(_Line):
    seat: Seat
    score: Count
    points: Count
    doublings: Count
    limit_hand: str | None = None
    base: Count
    mahjong_allowed: bool | None = None
    dead: bool = False
    items: list[str] = []
    """The ids of the scoring items, an id repeated for each time it counts."""


class PaymentInfo(_Line):
    payer: Seat
    payee: Seat
    amount: Annotated[int, Field(gt=0)]


class SettlementInfo(_Line):
    scores: list[Count]
    balances: list[int]
    payments: list[PaymentInfo] = []


class ResultLine(_Line):
    type: Literal["result"]
    over: bool
    """False for a hand stopped before its end (the log of an interrupted game)."""
    events: Count
    """How many event lines came before (a truncated log is noticed)."""
    reason: str
    """``"mahjong"``, why the hand is a remise, or (not over) why it stopped."""
    winner: Seat | None = None
    discarder: Seat | None = None
    win: WinInfo | None = None
    winning_tile: OneTile | None = None
    hands: list[str] = []
    """Each seat's hand at the end (or when stopped), in notation; the winner's
    marks the winning tile with ``+``."""
    scores: list[SeatScore] = []
    settlement: SettlementInfo | None = None
