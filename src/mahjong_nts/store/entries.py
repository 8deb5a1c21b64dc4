"""A sheet's hand entries as JSON: checked, turned into the sheet's entries, and
scored with the JSON contract (:mod:`mahjong_nts.formats.wire`).

An entry is one JSON object, per player (the sheet knows who sits where):

- bare scores: ``{"scores": [40, 10, 0, 8], "winner": 0, "discarder": null}``
- hands from the calculator: ``{"hands": [{...}, {...}, null, ...], "winner": 1,
  "discarder": 2}``, each hand a ``settle`` request's hand object without
  ``ruleset``, ``seat_wind`` and ``round_wind`` (the sheet gives those), ``null``
  for the dreamer.

``winner`` is a player (``null``: a remise), ``discarder`` the player whose
discard gave the winning tile (``null`` or left out: self-drawn), ``dominant``
the dominant player the dice chose in a green-dragon hand.  An entry takes at
most :data:`MAX_ENTRY_BYTES` bytes as compact JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mahjong_nts.core.errors import MahjongError
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import wire
from mahjong_nts.sheet import (
    Entry,
    HandContext,
    HandsEntry,
    ScoredHands,
    ScoresEntry,
    SheetError,
)

__all__ = [
    "MAX_ENTRY_BYTES",
    "HandsEntryRequest",
    "ScoresEntryRequest",
    "entry_from_json",
    "entry_to_json",
    "score_hands",
]

MAX_ENTRY_BYTES: Final = 16 * 1024
"""Bytes of one entry as compact JSON: five calculator hands take about 2 KB."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ScoresEntryRequest(_Model):
    scores: list[int] = Field(max_length=wire.MAX_SEATS)
    winner: int | None
    discarder: int | None = None
    dominant: int | None = None


class HandsEntryRequest(_Model):
    hands: list[wire.HandRequest | None] = Field(max_length=wire.MAX_SEATS)
    winner: int | None
    discarder: int | None = None
    dominant: int | None = None


def _size(data: object) -> int:
    try:
        return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    except (TypeError, ValueError, RecursionError):
        raise SheetError("entry", "an entry is JSON data") from None


def entry_from_json(data: object) -> Entry:
    """A sheet entry from its JSON object (:class:`SheetError` naming the field
    when it is wrong).  Whether it fits in its place is the sheet's check."""
    if not isinstance(data, Mapping):
        raise SheetError("entry", f"an entry is an object, not {type(data).__name__}")
    if _size(data) > MAX_ENTRY_BYTES:
        raise SheetError("entry", f"an entry takes at most {MAX_ENTRY_BYTES} bytes as JSON")
    if ("scores" in data) == ("hands" in data):
        raise SheetError("entry", "give either scores (one per player) or hands (one per player)")
    try:
        if "scores" in data:
            s = ScoresEntryRequest.model_validate(data)
            return ScoresEntry(tuple(s.scores), s.winner, s.discarder, s.dominant)
        h = HandsEntryRequest.model_validate(data)
    except ValidationError as exc:
        raise SheetError("", wire.error_message(exc)) from None
    for i, hand in enumerate(h.hands):
        if hand is None:
            continue
        for key in ("ruleset", "seat_wind", "round_wind"):
            if getattr(hand, key) is not None:
                raise SheetError(
                    f"hands[{i}].{key}",
                    "the sheet gives every hand its rule set and winds: leave it out",
                )
    return HandsEntry(tuple(h.hands), h.winner, h.discarder, h.dominant)


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The JSON object of an entry, as the store keeps it (the inverse of
    :func:`entry_from_json`)."""
    out: dict[str, Any]
    if isinstance(entry, ScoresEntry):
        out = {"scores": list(entry.scores)}
    else:
        out = {
            "hands": [
                None
                if h is None
                else h.model_dump(mode="json", by_alias=True, exclude_defaults=True)
                for h in entry.hands
            ]
        }
    out["winner"] = entry.winner
    for key in ("discarder", "dominant"):
        value = getattr(entry, key)
        if value is not None:
            out[key] = value
    return out


def score_hands(entry: HandsEntry, ctx: HandContext) -> ScoredHands:
    """Score the calculator hands of ``entry`` in their place, exactly as the JSON
    contract's ``settle`` scores the hands of a settle request (players are the
    request's seats, the sheet's East its ``east``); each player's score response
    comes back as the details."""
    dominant = entry.dominant
    if ctx.round_wind is Tile.GREEN and dominant is None:
        # A remise in a green-dragon hand may leave the dice unthrown; the dominant
        # player only changes payments, and a remise has none.
        dominant = ctx.east
    try:
        request = wire.SettleRequest.model_validate(
            {
                "ruleset": ctx.rules.to_mapping(),
                "east": ctx.east,
                "winner": entry.winner,
                "discarder": entry.discarder,
                "dominant": dominant,
                "dreamer": ctx.dreamer,
                "round_wind": ctx.round_wind.token,
                "hands": list(entry.hands),
            }
        )
        job = wire.settle_request(request)
    except ValidationError as exc:
        raise SheetError("", wire.error_message(exc)) from None
    except MahjongError as exc:
        raise SheetError("", wire.short_text(exc.text)) from None
    details = job.hands if job.hands is not None else ()
    return ScoredHands(tuple(job.scores), tuple(details))
