"""Signed hand logs: a signature that someone who recomputes the chain cannot make.

A log signed with a private key verifies with its public key; an unsigned log, one
signed by another key, or one changed after signing (chain recomputed or not) does
not.  The signature is Ed25519 (or HMAC-SHA256) over a fixed prefix and every byte
of the log before the seal line, as docs/logs.md says; the test checks those bytes
with the cryptography package directly."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.formats import gamelog, logkeys
from mahjong_nts.formats.gamelog import LogMismatch, Signed, parse_hand_log, verify_hand_log
from mahjong_nts.formats.logkeys import LogKey, parse_key
from mahjong_nts.formats.rulefiles import load_ruleset

PRIVATE_PEM, PUBLIC_PEM = logkeys.new_ed25519_key()
PRIVATE, PUBLIC = parse_key(PRIVATE_PEM), parse_key(PUBLIC_PEM)
OTHER = parse_key(logkeys.new_ed25519_key()[0])
HMAC = parse_key(logkeys.new_hmac_key())


@pytest.fixture(scope="module")
def game() -> Game:
    game = Game(load_ruleset("nts-2016"), SeedRng(21))
    pick = random.Random(21)
    while not game.is_over:
        game.apply(pick.choice(game.legal_actions()))
    return game


def signed_text(game: Game, key: LogKey | None) -> str:
    return gamelog.hand_log_text(game, ruleset="nts-2016", seed=21, key=key)


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def text_of(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def verify(text: str, key: LogKey | None = None) -> gamelog.Verified:
    return verify_hand_log(parse_hand_log(text), key=key)


def mismatch(text: str, key: LogKey | None) -> LogMismatch:
    with pytest.raises(LogMismatch) as err:
        verify(text, key)
    return err.value


def test_signature_covers_the_prefix_and_every_byte_before_the_seal(game: Game) -> None:
    text = signed_text(game, PRIVATE)
    body, seal = text.rsplit("\n", 2)[0] + "\n", json.loads(text.splitlines()[-1])
    sig = seal["signature"]
    assert sig["alg"] == "ed25519" and sig["key_id"] == PUBLIC.key_id
    key = Ed25519PublicKey.from_public_bytes(PUBLIC.public)
    message = b"mahjong-nts/hand-log/v2/signature\n" + body.encode("utf-8")
    key.verify(base64.b64decode(sig["value"]), message)  # raises if it does not fit


def test_signed_log_verifies_with_its_key(game: Game) -> None:
    text = signed_text(game, PRIVATE)
    unchecked = verify(text)
    assert unchecked.signed is Signed.UNCHECKED
    assert unchecked.signed_by == f"ed25519 key {PUBLIC.key_id}"
    for key in (PUBLIC, PRIVATE):
        checked = verify(text, key)
        assert checked.signed is Signed.VALID and checked.over


def test_hmac_signed_log(game: Game) -> None:
    text = signed_text(game, HMAC)
    assert verify(text, HMAC).signed is Signed.VALID
    err = mismatch(text, PUBLIC)
    assert "signed by another key" in str(err) and "hmac-sha256" in err.found


def test_unsigned_log_does_not_verify_with_a_key(game: Game) -> None:
    text = signed_text(game, None)
    assert verify(text).signed is Signed.UNSIGNED
    err = mismatch(text, PUBLIC)
    assert err.line == len(text.splitlines()) and "not signed" in str(err)


def test_signed_by_another_key(game: Game) -> None:
    err = mismatch(signed_text(game, OTHER), PUBLIC)
    assert "signed by another key" in str(err) and OTHER.key_id in err.found


def test_signature_stripped_after_an_edit(game: Game) -> None:
    """The attacker edits a line, recomputes the chain and drops the signature:
    without a key the log passes the chain (it cannot prove more); with the key
    it does not verify."""
    lines = lines_of(signed_text(game, PRIVATE))
    lines[0]["players"] = ["a", "b", "c", "mallory"]
    forged = gamelog.log_text(gamelog.chain(lines))
    assert verify(forged).signed is Signed.UNSIGNED
    assert "not signed" in str(mismatch(forged, PUBLIC))


def test_edit_after_signing_with_the_old_signature_kept(game: Game) -> None:
    lines = lines_of(signed_text(game, PRIVATE))
    signature = lines[-1]["signature"]
    lines[0]["players"] = ["a", "b", "c", "mallory"]
    forged = gamelog.chain(lines)
    forged[-1]["signature"] = signature
    err = mismatch(gamelog.log_text(forged), PUBLIC)
    assert "changed after it was signed" in str(err)


def test_re_signed_by_the_attacker(game: Game) -> None:
    lines = lines_of(signed_text(game, PRIVATE))
    lines[0]["players"] = ["a", "b", "c", "mallory"]
    forged = gamelog.log_text(gamelog.chain(lines, OTHER))
    assert "signed by another key" in str(mismatch(forged, PUBLIC))


def test_tampered_signature_value(game: Game) -> None:
    lines = lines_of(signed_text(game, PRIVATE))
    value = lines[-1]["signature"]["value"]
    lines[-1]["signature"]["value"] = ("B" if value[0] != "B" else "C") + value[1:]
    err = mismatch(text_of(lines), PUBLIC)
    assert err.line == len(lines) and "changed after it was signed" in str(err)


def test_truncated_finished_hand_rewritten_as_stopped(game: Game) -> None:
    """The one rewrite that the replay cannot tell from a real stop: cut the last
    actions and call the hand stopped.  The chain can be recomputed; the signature
    cannot."""
    lines = lines_of(signed_text(game, PRIVATE))
    cut = lines[:40]
    partial = Game(load_ruleset("nts-2016"), SeedRng(21))
    for line in cut[1:]:
        if line["decided"] and len(partial.events) == line["n"]:
            partial.apply(f"{line['kind']} {line['tiles']}".strip())
    result = gamelog.result_line(partial, seed=21, stopped="quit by the player")
    stopped = gamelog.log_text(
        gamelog.chain(
            [
                *lines[: 1 + len(partial.events)],
                {k: v for k, v in result.model_dump(mode="json").items() if k != "prev"},
            ]
        )
    )
    assert not verify(stopped).over  # a possible stopped hand, unsigned
    assert "not signed" in str(mismatch(stopped, PUBLIC))
