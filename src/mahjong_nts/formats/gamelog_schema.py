"""The lines of a hand log (``mahjong-nts/hand-log`` version 2), as pydantic models.

A hand log is JSON Lines: a :class:`HeaderLine`, one :class:`EventLine` per
entry of ``Game.events`` in order, a :class:`ResultLine` and a :class:`SealLine`.
Every line after the header carries ``prev``, the SHA-256 of the line before it
(its exact bytes as written), so the lines form a hash chain; the seal closes the
chain and may carry a signature.  The header holds the SHA-256 commitment of the
seed, the result line reveals the seed.  The format is documented in
``docs/logs.md``; :mod:`mahjong_nts.formats.gamelog` writes, reads and verifies it.
Tiles are written as space-separated canonical tokens (``"b3 b4 E"``); aliases
are accepted on reading and normalised.

Every field is bounded here (lengths of strings and lists, sizes of numbers), and
:data:`MAX_LOG_BYTES`, :data:`MAX_LINE_BYTES` and :data:`MAX_LINES` bound a file,
so that a log from anywhere is read in bounded memory and time.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from mahjong_nts.core.errors import InvalidTile
from mahjong_nts.core.seeding import MAX_SEED
from mahjong_nts.core.settlement import MAX_BALANCE, MAX_PAYMENT, MAX_SETTLED_SCORE
from mahjong_nts.core.tiles import Tile, parse_tile

__all__ = [
    "DECIDED_KINDS",
    "EVENT_KINDS",
    "FORMAT",
    "MAX_AMOUNT",
    "MAX_EVENTS",
    "MAX_LINES",
    "MAX_LINE_BYTES",
    "MAX_LOG_BYTES",
    "MAX_NAME_CHARS",
    "MAX_NUMBER",
    "MAX_RULESET_CHARS",
    "MAX_TEXT_CHARS",
    "VERSION",
    "EventLine",
    "HandInfo",
    "HeaderLine",
    "PaymentInfo",
    "ResultLine",
    "SealLine",
    "SeatScore",
    "SettlementInfo",
    "Signature",
    "WinInfo",
]

FORMAT: Final = "mahjong-nts/hand-log"
VERSION: Final = 2

MAX_EVENTS: Final = 2000
"""Events in one hand.  A hand has about 100 to 250 (a deal per seat, a draw and a
discard per turn, a pass per seat that could claim); a wall of 144 tiles cannot
make 2000."""

MAX_LINES: Final = MAX_EVENTS + 3
"""Lines in a log: the header, the events, the result and the seal."""

MAX_LINE_BYTES: Final = 16 * 1024
"""Bytes in one line (without its line end).  The longest line, the result line of a
won hand, takes about 2 KB; a header with a long house-rule path about 5 KB."""

MAX_LOG_BYTES: Final = 1024 * 1024
"""Bytes in one log file.  A hand's log takes 10 to 40 KB."""

MAX_NAME_CHARS: Final = 64
"""Characters in a player's name."""

MAX_RULESET_CHARS: Final = 4096
"""Characters in the rule-set spec (a house-rule file's path; PATH_MAX on Linux)."""

MAX_TEXT_CHARS: Final = 200
"""Characters in a note or a reason (why a remise, why a hand stopped)."""

MAX_NUMBER: Final = MAX_SETTLED_SCORE
"""The largest score, point count or base: what a hand can score under any valid rule
set, rounded (:data:`mahjong_nts.core.settlement.MAX_SETTLED_SCORE`)."""

MAX_AMOUNT: Final = MAX_BALANCE
"""The largest balance or payment in size (:data:`mahjong_nts.core.settlement.MAX_BALANCE`:
8 times the largest score)."""

MAX_TILES: Final = 18
"""Tiles in one event (a deal is 14)."""

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
    words = text.split()
    if len(words) > MAX_TILES:
        raise ValueError(f"at most {MAX_TILES} tiles, got {len(words)}")
    out = []
    for word in words:
        try:
            out.append(parse_tile(word).token)
        except InvalidTile as exc:
            raise ValueError(str(exc)) from None
    return " ".join(out)


def _tile(text: str) -> str:
    normal = _tiles(text)
    if len(normal.split()) != 1:
        raise ValueError("expected one tile")
    return normal


def _round_wind(text: str) -> str:
    tile = parse_tile(_tile(text))
    if tile not in (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.GREEN):
        raise ValueError("a round wind is E, S, W, N or F (green-dragon hand)")
    return tile.token


def _event_kind(text: str) -> str:
    if text not in EVENT_KINDS:
        raise ValueError(f"unknown event kind: one of {', '.join(sorted(EVENT_KINDS))}")
    return text


Tiles = Annotated[str, Field(max_length=120), AfterValidator(_tiles)]
OneTile = Annotated[str, Field(max_length=4), AfterValidator(_tile)]
Seat = Annotated[int, Field(ge=0, le=3)]
"""A seat (0 East .. 3 North); checked against the header's ``seats`` on reading."""
Player = Annotated[int, Field(ge=0, le=4)]
"""A match player (0 .. 4: a five-player match)."""
Count = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
Amount = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
EventIndex = Annotated[int, Field(ge=0, le=MAX_EVENTS)]
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Name = Annotated[str, Field(max_length=MAX_NAME_CHARS)]
Digest = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 as 64 lower-case hex digits."""
KeyId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
ItemId = Annotated[str, Field(max_length=40)]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class HandInfo(_Line):
    """Where the hand sits in a match (absent for a hand played alone)."""

    number: Annotated[int, Field(ge=0, le=10_000)]
    """0-based count of hands played before this one in the match."""
    round: Annotated[int, Field(ge=0, le=100)]
    players: Annotated[list[Player], Field(min_length=3, max_length=4)]
    """The match player at each seat (index 0 is East)."""
    dreamer: Player | None = None
    dominant: Player | None = None
    """The dominant player (a player number) of a green-dragon hand."""


class HeaderLine(_Line):
    type: Literal["header"]
    format: Literal["mahjong-nts/hand-log"]
    version: Literal[2]
    program: Annotated[str, Field(max_length=100)] = ""
    ruleset: Annotated[str, Field(min_length=1, max_length=MAX_RULESET_CHARS)]
    """The rule-set spec as loaded: a shipped name with overlays, or a file path."""
    ruleset_name: Annotated[str, Field(max_length=200)]
    rules_digest: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
    """sha256 (first 16 hex digits) of the rule set's values, to notice a changed file."""
    seed_commitment: Digest
    """``seed_commitment(seed)``: binds the log to the seed before it is revealed."""
    round_wind: Annotated[str, Field(max_length=4), AfterValidator(_round_wind)]
    dominant: Seat | None = None
    """The dominant seat of a green-dragon hand."""
    seats: Annotated[int, Field(ge=3, le=4)]
    players: Annotated[list[Name], Field(min_length=3, max_length=4)]
    """A name for the player at each seat (index 0 is East)."""
    hand: HandInfo | None = None


class EventLine(_Line):
    type: Literal["event"]
    prev: Digest
    n: EventIndex
    """The index of the event in ``Game.events``."""
    kind: Annotated[str, Field(max_length=20), AfterValidator(_event_kind)]
    seat: Annotated[int, Field(ge=-1, le=3)]
    """The seat it concerns (-1 for a remise, which concerns the table)."""
    tiles: Tiles = ""
    decided: bool = False
    """A seat's action, which a replay re-applies; the others follow from it."""
    note: Text = ""


class WinInfo(_Line):
    source: Literal["wall", "discard", "loose_tile", "robbed_kong"]
    flags: Annotated[
        list[
            Literal["last_tile", "last_discard", "kong_on_kong", "first_discard", "heaven"]
            | Literal["lucky_thirteen"]
        ],
        Field(max_length=6),
    ] = []


class SeatScore(_Line):
    seat: Seat
    score: Count
    points: Count
    doublings: Annotated[int, Field(ge=0, le=1000)]
    limit_hand: ItemId | None = None
    base: Count
    mahjong_allowed: bool | None = None
    dead: bool = False
    items: Annotated[list[ItemId], Field(max_length=64)] = []
    """The ids of the scoring items, an id repeated for each time it counts."""


class PaymentInfo(_Line):
    payer: Seat
    payee: Seat
    amount: Annotated[int, Field(gt=0, le=MAX_PAYMENT)]


class SettlementInfo(_Line):
    scores: Annotated[list[Count], Field(max_length=4)]
    balances: Annotated[list[Amount], Field(max_length=4)]
    payments: Annotated[list[PaymentInfo], Field(max_length=12)] = []


class ResultLine(_Line):
    type: Literal["result"]
    prev: Digest
    over: bool
    """False for a hand stopped before its end (the log of an interrupted game)."""
    events: EventIndex
    """How many event lines came before (a truncated log is noticed)."""
    reason: Text
    """``"mahjong"``, why the hand is a remise, or (not over) why it stopped."""
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    """The seed of the hand's wall, revealed now that the hand is over (or stopped)."""
    winner: Seat | None = None
    discarder: Seat | None = None
    win: WinInfo | None = None
    winning_tile: OneTile | None = None
    hands: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=4)] = []
    """Each seat's hand at the end (or when stopped), in notation; the winner's
    marks the winning tile with ``+``."""
    scores: Annotated[list[SeatScore], Field(max_length=4)] = []
    settlement: SettlementInfo | None = None


class Signature(_Line):
    alg: Literal["ed25519", "hmac-sha256"]
    key_id: KeyId
    """The first 16 hex digits of the SHA-256 of the public key (ed25519) or of the
    tagged secret (hmac-sha256): which key signed, without giving a secret away."""
    value: Annotated[str, Field(pattern=r"^[A-Za-z0-9+/=]{1,100}$")]
    """The signature (64 bytes) or MAC (32 bytes), base64."""


class SealLine(_Line):
    """The last line: closes the hash chain (``prev`` is the SHA-256 of the result
    line) and carries the log's signature, or ``null``."""

    type: Literal["seal"]
    prev: Digest
    signature: Signature | None = None
