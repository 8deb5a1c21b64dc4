"""The answers of the HTTP API as pydantic models, for the OpenAPI document.

The routes answer exactly the objects of :mod:`mahjong_nts.formats.wire` (built
there as dictionaries, the same as ``score --json`` and ``settle --json`` write);
these models describe them for ``/docs``.  ``tests/web/test_api_models.py``
validates real answers against them (unknown fields refused), so a field added
to the contract and not documented here fails a test.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ErrorBody", "ScoreResponse", "SettleResponse"]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorBody(_Doc):
    """Every 4xx answer: one line saying what is wrong and where (the field path)."""

    error: str = Field(
        max_length=500,
        examples=["melds[1].tiles: b1 b2 b4 is not a chow, pung or kong"],
    )


class Names(_Doc):
    nl: str
    en: str


class ScoredItemBody(_Doc):
    id: str
    nl: str
    en: str
    points: int
    doublings: int
    count: int
    detail: str = Field(description="What it counted (English), e.g. 'pung of k7 (concealed)'.")


class NotCountedBody(_Doc):
    id: str
    nl: str
    en: str
    reason: str = Field(description="Why the item did not count (English).")


class ScoreResponse(_Doc):
    """The answer of ``POST /api/score``: the same object as a line of ``score --json``."""

    score: int = Field(description="The final score (after the limit).")
    points: int
    doublings: int
    limit_hand: str | None
    limit_hand_name: Names | None
    base: int = Field(description="Points x 2**doublings, or the limit hand's value.")
    cap: int | None = Field(description="The cap that applied (null: none).")
    winner: bool
    mahjong_allowed: bool | None = Field(
        description="For a winner: may he go mahjong with this hand; null for other players."
    )
    refusal: str | None = Field(description="Why the winner may not go mahjong.")
    dead: bool
    items: list[ScoredItemBody]
    arrangement: list[str] = Field(
        description="The sets that produced the score; * marks the set the winning tile completed."
    )
    not_counted: list[NotCountedBody]
    ruleset: str


class SettleResponse(_Doc):
    """The answer of ``POST /api/settle``: the same object as a line of ``settle --json``."""

    balances: list[int] = Field(description="What each seat gains (+) or loses (-).")
    payments: list[list[int]] = Field(
        description="Net payments as [payer, payee, amount], one per pair of seats."
    )
    scores: list[int] = Field(description="The scores as settled (after rounding).")
    ruleset: str
    hands: list[ScoreResponse | None] | None = Field(
        default=None,
        description="With hands in the request: each seat's score answer (null: the dreamer).",
    )
