"""The socket's message parser (online/protocol.py): whatever arrives, it answers a
message model or a ProtocolError with a short printable line, never anything else."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_nts.online.limits import MAX_CHAT_CHARS, MAX_MESSAGE_BYTES, RATE_BURST
from mahjong_nts.online.protocol import (
    ERROR_CODES,
    Act,
    Chat,
    Next,
    ProtocolError,
    TokenBucket,
    error,
    parse_message,
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
VALID = st.one_of(
    st.builds(
        lambda h, q, a: {"type": "act", "hand": h, "seq": q, "action": a},
        st.integers(0, 10_000),
        st.integers(0, 2**31 - 1),
        st.text(min_size=1, max_size=100),
    ),
    st.builds(lambda h: {"type": "next", "hand": h}, st.integers(0, 10_000)),
    st.just({"type": "back"}),
    st.just({"type": "ping"}),
    st.builds(
        lambda t: {"type": "chat", "text": t},
        st.text(st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=200),
    ),
)


def _parsed_or_refused(raw: str | bytes) -> Any:
    try:
        return parse_message(raw)
    except ProtocolError as exc:
        assert exc.code in ("malformed", "too_big")
        message = error(exc.code, exc.message)["message"]
        assert len(message) <= 500 and message.isprintable()
        return None


@settings(max_examples=400)
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_any_text_or_bytes(raw: str | bytes) -> None:
    _parsed_or_refused(raw)


@settings(max_examples=400)
@given(JSON)
def test_any_json(value: Any) -> None:
    _parsed_or_refused(json.dumps(value))


@settings(max_examples=300)
@given(VALID)
def test_valid_messages_are_read_as_sent(data: dict[str, Any]) -> None:
    message = parse_message(json.dumps(data))
    assert message.model_dump() == data


@settings(max_examples=300)
@given(VALID, st.sampled_from(["drop", "extra", "retype", "seat"]), JSON)
def test_a_mutated_message_is_malformed(data: dict[str, Any], how: str, value: Any) -> None:
    data = dict(data)  # (st.just gives the same object every time)
    fields = [k for k in data if k != "type"]
    if how == "drop" and fields:
        del data[fields[0]]
    elif how == "retype" and fields:
        data[fields[0]] = [value]  # no field takes a list
    elif how == "seat":
        data["seat"] = 0  # the seat never comes from a message
    else:
        data["extra"] = value
    try:
        parse_message(json.dumps(data))
    except ProtocolError as exc:
        assert exc.code == "malformed"
    else:
        raise AssertionError(f"taken: {data}")


def test_the_kinds_and_their_bounds() -> None:
    act = parse_message('{"type": "act", "hand": 2, "seq": 40, "action": "discard b3"}')
    assert act == Act(type="act", hand=2, seq=40, action="discard b3")
    assert parse_message('{"type": "next", "hand": 1}') == Next(type="next", hand=1)
    assert parse_message(json.dumps({"type": "chat", "text": "x" * MAX_CHAT_CHARS})) == Chat(
        type="chat", text="x" * MAX_CHAT_CHARS
    )
    for raw, where in [
        (json.dumps({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)}), "text"),
        ('{"type": "chat", "text": " padded"}', "text"),
        ('{"type": "chat", "text": "two\\nlines"}', "text"),
        ('{"type": "act", "hand": 0, "seq": 2147483648, "action": "pass"}', "seq"),
        ('{"type": "act", "hand": 0, "seq": true, "action": "pass"}', "seq"),
        ('{"type": "act", "hand": 0, "seq": 1.0, "action": "pass"}', "seq"),
        ('{"type": "act", "hand": 0, "seq": 1, "action": ""}', "action"),
        ('{"type": 1}', "type"),
        ("{}", "type"),
    ]:
        try:
            parse_message(raw)
        except ProtocolError as exc:
            assert exc.code == "malformed" and where in exc.message, (raw, exc.message)
        else:
            raise AssertionError(raw)
    big = "x" * (MAX_MESSAGE_BYTES + 1)
    try:
        parse_message(big)
    except ProtocolError as exc:
        assert exc.code == "too_big" and str(MAX_MESSAGE_BYTES) in exc.message
    assert set(ERROR_CODES) >= {"malformed", "too_big", "stale", "not_your_turn"}


def test_the_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=RATE_BURST, clock=lambda: now[0])
    assert all(bucket.take() for _ in range(RATE_BURST))  # the burst at once
    assert not bucket.take()
    now[0] += 0.1  # a tenth of a second: one more
    assert bucket.take() and not bucket.take()
    now[0] += 100  # never more than the burst saved up
    assert sum(bucket.take() for _ in range(RATE_BURST + 5)) == RATE_BURST
