"""Fuzzing hand logs: random and mutated files are refused with a LogFormatError or a
LogMismatch (replay: exit 2 or 1, a short message, no traceback); no changed byte
before the seal line ever verifies."""

from __future__ import annotations

import contextlib
import functools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mahjong_nts.cli import app
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.gamelog import LogFormatError, LogMismatch, parse_hand_log
from mahjong_nts.formats.rulefiles import load_ruleset

runner = CliRunner()


@functools.cache
def log_bytes() -> bytes:
    game = Game(load_ruleset("nts-2016"), SeedRng(9))
    pick = random.Random(9)
    while not game.is_over:
        game.apply(pick.choice(game.legal_actions()))
    text = gamelog.hand_log_text(game, ruleset="nts-2016", seed=9, players=["a", "b", "c", "d"])
    return text.encode("utf-8")


def refused(data: bytes) -> str:
    """``"format"`` or ``"mismatch"``: how the log was refused (anything else fails)."""
    try:
        gamelog.verify_hand_log(parse_hand_log(data))
    except LogFormatError:
        return "format"
    except LogMismatch:
        return "mismatch"
    raise AssertionError("a changed log verified")


def test_the_original_verifies() -> None:
    assert gamelog.verify_hand_log(parse_hand_log(log_bytes())).over


@settings(max_examples=300)
@given(st.data())
def test_any_changed_byte_before_the_seal_is_caught(data: st.DataObject) -> None:
    raw = log_bytes()
    seal_start = raw.rstrip(b"\n").rfind(b"\n") + 1
    at = data.draw(st.integers(0, seal_start - 1), label="at")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]), label="byte")
    refused(raw[:at] + bytes([new]) + raw[at + 1 :])


@settings(max_examples=200)
@given(st.data())
def test_deleted_or_repeated_spans_are_caught(data: st.DataObject) -> None:
    raw = log_bytes()
    start = data.draw(st.integers(0, len(raw) - 2), label="start")
    end = data.draw(st.integers(start + 1, min(len(raw), start + 400)), label="end")
    if data.draw(st.booleans(), label="repeat"):
        changed = raw[:end] + raw[start:end] + raw[end:]
    else:
        changed = raw[:start] + raw[end:]
    if changed.rstrip(b"\n") == raw.rstrip(b"\n"):
        return  # only the final line end was touched
    refused(changed)


@settings(max_examples=200)
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    try:
        parse_hand_log(data)
    except LogFormatError as exc:
        assert len(str(exc)) <= 320


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**100), 10**100)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lines_replaced_by_random_json(data: st.DataObject) -> None:
    """Without the chain recomputed, any changed line is refused; with it, the
    reader and the replay still answer only with their two errors (a change that
    no check can see, such as a player's name or the ``program`` field, may verify:
    only a signature covers those)."""
    lines = [json.loads(x) for x in log_bytes().decode().splitlines()]
    at = data.draw(st.integers(0, len(lines) - 1), label="at")
    value = data.draw(JSON, label="value")
    if data.draw(st.booleans(), label="merge") and isinstance(value, dict):
        value = {**lines[at], **value}
    lines[at] = value
    text = "".join(json.dumps(x) + "\n" for x in lines).encode()
    if text != log_bytes():
        refused(text)
    if all(isinstance(x, dict) for x in lines):
        text = gamelog.log_text(gamelog.chain(lines)).encode()
        with contextlib.suppress(LogFormatError, LogMismatch):
            gamelog.verify_hand_log(parse_hand_log(text))


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=5))
def test_replay_command_on_mutated_logs(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[int, int]]
) -> None:
    raw = bytearray(log_bytes())
    for at, new in edits:
        raw[at % len(raw)] = new
    path = tmp_path_factory.mktemp("fuzz") / "h.jsonl"
    path.write_bytes(bytes(raw))
    for args in (["replay", str(path)], ["replay", "--verify", str(path)]):
        res = runner.invoke(app, args)
        assert res.exit_code in (0, 1, 2), (res.exit_code, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
        assert "\x1b" not in res.output and "Traceback" not in res.output
        if args[1] == "--verify" or res.exit_code:
            assert len(res.output) < 1000
