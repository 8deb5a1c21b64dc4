"""``except MahjongError`` is the one catch for bad input: every error the package
raises for input from outside is a MahjongError with a clear message, the core's and
the formats' (hand logs, key files, JSON)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from build_helpers import COMPILED, DECLARED_TYPES_ONLY
from mahjong_nts.core.errors import (
    InvalidSeat,
    InvalidSeed,
    InvalidWin,
    MahjongError,
)
from mahjong_nts.core.game import Game
from mahjong_nts.core.hand import Win
from mahjong_nts.core.observation import observe
from mahjong_nts.core.scoring import Situation
from mahjong_nts.core.seeding import SeedRng, check_seed
from mahjong_nts.core.tiles import Tile
from mahjong_nts.formats import gamelog, logkeys, safejson
from mahjong_nts.formats.rulefiles import load_ruleset


def _game() -> Game:
    return Game(load_ruleset("nts-2016"), SeedRng(11))


def _log_text() -> str:
    game = _game()
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    return gamelog.hand_log_text(game, ruleset="nts-2016", seed=11)


def _tampered_log() -> gamelog.HandLog:
    """A log whose revealed seed is not the one it was dealt from: it reads, but
    does not verify."""
    lines = [json.loads(line) for line in _log_text().splitlines()]
    for line in lines:
        if "seed" in line:
            line["seed"] += 1
    return gamelog.parse_hand_log("\n".join(json.dumps(x) for x in lines) + "\n")


CASES: list[tuple[str, Callable[[], Any], type[MahjongError], str]] = [
    ("observe a seat not at the table", lambda: observe(_game(), 7), InvalidSeat, "seat 7"),
    ("observe a bool seat", lambda: observe(_game(), True), InvalidSeat, "seat True"),
    ("a negative seed", lambda: SeedRng(-1), InvalidSeed, "from 0 to 2**256 - 1"),
    ("a seed too large", lambda: SeedRng(2**256), InvalidSeed, "from 0 to 2**256 - 1"),
    ("a seed that is text", lambda: check_seed("12", "--seed"), InvalidSeed, "--seed"),
    ("an unknown win source", lambda: Win("bogus"), InvalidWin, "'bogus' is not one of"),  # type: ignore[arg-type]
    (
        "a wind given as a token",
        lambda: Situation("E", "E"),  # type: ignore[arg-type]
        InvalidWin,
        "seat_wind is a Tile",
    ),
    (
        "a round wind that is no tile",
        lambda: Situation(Tile.EAST, 99),  # type: ignore[arg-type]
        InvalidWin,
        "round_wind is a Tile",
    ),
    (
        "a file that is no hand log",
        lambda: gamelog.parse_hand_log(b"not json\n"),
        gamelog.LogFormatError,
        "line 1",
    ),
    (
        "a log that does not verify",
        lambda: gamelog.verify_hand_log(_tampered_log()),
        gamelog.LogMismatch,
        "line",
    ),
    (
        "a key file that is no key",
        lambda: logkeys.parse_key(b"hello", "k.pem"),
        logkeys.InvalidKeyFile,
        "k.pem",
    ),
    (
        "malformed JSON",
        lambda: safejson.loads("{", max_bytes=100),
        safejson.JsonInputError,
        "",
    ),
]


DECLARED_TYPES_CASES = {
    "an unknown win source",
    "a wind given as a token",
    "a round wind that is no tile",
}
"""Cases of a core constructor given another type than it declares (docs/speed.md)."""


@pytest.mark.parametrize(
    ("call", "kind", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_is_a_mahjong_error(
    call: Callable[[], Any], kind: type[MahjongError], words: str, request: pytest.FixtureRequest
) -> None:
    if COMPILED and request.node.callspec.id in DECLARED_TYPES_CASES:
        pytest.skip(f"pure build only: {DECLARED_TYPES_ONLY}")
    with pytest.raises(MahjongError) as info:
        call()
    assert isinstance(info.value, kind), repr(info.value)
    message = str(info.value)
    assert words in message and "\n" not in message and 0 < len(message) <= 500, message


def test_the_formats_errors_are_mahjong_errors() -> None:
    for kind in (
        gamelog.LogFormatError,
        gamelog.LogMismatch,
        logkeys.InvalidKeyFile,
        safejson.JsonInputError,
    ):
        assert issubclass(kind, MahjongError), kind
