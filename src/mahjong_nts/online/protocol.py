"""The messages of the online tables' WebSocket (docs/online.md): parsing what a client
sends, within its bounds, and the error answers.

:func:`parse_message` takes the text of one message and returns one of the message
models, or raises :class:`ProtocolError` with the code and one line to send back.  It
never raises anything else, whatever the text (a hypothesis test feeds it garbage).
The seat never comes from a message: it is the seat of the socket's cookie.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mahjong_nts.core.actions import MAX_ACTION_TEXT
from mahjong_nts.core.errors import quote
from mahjong_nts.core.game import MAX_SEQ
from mahjong_nts.formats import safejson, wire
from mahjong_nts.online.limits import (
    MAX_CHAT_CHARS,
    MAX_MESSAGE_BYTES,
    RATE_BURST,
    RATE_PER_SECOND,
)

__all__ = [
    "ERROR_CODES",
    "Act",
    "Back",
    "Chat",
    "Message",
    "Next",
    "Ping",
    "ProtocolError",
    "TokenBucket",
    "error",
    "parse_message",
]

ERROR_CODES: Final = (
    "malformed",
    "too_big",
    "rate_limited",
    "spectator",
    "not_your_turn",
    "stale",
    "answered",
    "illegal",
    "not_now",
    "closed",
    "unavailable",
    "moved",
)

MAX_HAND_NUMBER: Final = 10_000


class ProtocolError(Exception):
    """A message the table refuses: ``code`` (one of :data:`ERROR_CODES`) and one line."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Act(_Strict):
    type: Literal["act"]
    hand: Annotated[int, Field(ge=0, le=MAX_HAND_NUMBER)]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_TEXT)]


class Next(_Strict):
    type: Literal["next"]
    hand: Annotated[int, Field(ge=0, le=MAX_HAND_NUMBER)]


class Back(_Strict):
    type: Literal["back"]


class Chat(_Strict):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS)]


class Ping(_Strict):
    type: Literal["ping"]


Message = Act | Next | Back | Chat | Ping
_MODELS: Final[dict[str, type[_Strict]]] = {
    "act": Act,
    "next": Next,
    "back": Back,
    "chat": Chat,
    "ping": Ping,
}


def _size(raw: str | bytes) -> int:
    return len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)


def parse_message(raw: str | bytes) -> Message:
    """One client message, checked: :class:`ProtocolError` (``too_big``, ``malformed``)
    when it is not one."""
    size = _size(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_big", f"the message is {size} bytes long: at most {MAX_MESSAGE_BYTES}"
        )
    try:
        data = safejson.loads(raw, max_bytes=MAX_MESSAGE_BYTES)
    except safejson.JsonInputError as exc:
        raise ProtocolError("malformed", wire.error_message(exc)) from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a type")
    kind = data.get("type")
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError("malformed", f"type: one of {', '.join(_MODELS)}, not {quote(kind)}")
    try:
        message: Message = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError as exc:
        raise ProtocolError("malformed", wire.error_message(exc)) from None
    if isinstance(message, Chat) and not _printable(message.text):
        raise ProtocolError("malformed", "text: a chat line is printable text on one line")
    return message


def _printable(text: str) -> bool:
    return text.isprintable() and text.strip() == text and bool(text)


def error(
    code: str, message: str, *, hand: int | None = None, seq: int | None = None
) -> dict[str, Any]:
    """The ``error`` message: to the connection that sent what was refused, only."""
    assert code in ERROR_CODES, code
    return {
        "type": "error",
        "code": code,
        "message": wire.short_message(message),
        "hand": hand,
        "seq": seq,
    }


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    def __init__(
        self,
        rate: float = RATE_PER_SECOND,
        burst: int = RATE_BURST,
        clock: Any = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Spend one token; False when there is none (the message is refused)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
