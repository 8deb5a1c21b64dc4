"""``mahjong-nts replay``: a hand log shown move by move; ``--verify`` exit codes 0/1/2;
``--key`` signatures; text from a log never reaches the terminal raw."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli import app
from mahjong_nts.core.actions import ActionKind
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats import gamelog, logkeys
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.formats.safejson import printable

runner = CliRunner()


def invoke(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def played(spec: str, seed: int) -> Game:
    """Mahjong when possible, else a meld, else a seeded random action."""
    game = Game(load_ruleset(spec), SeedRng(seed))
    pick = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        best = [a for a in legal if a.kind is ActionKind.MAHJONG] or [
            a for a in legal if a.kind in (ActionKind.PUNG, ActionKind.CHOW)
        ]
        game.apply(best[0] if best else pick.choice(legal))
    return game


@pytest.fixture(scope="module")
def won() -> tuple[int, Game]:
    for seed in range(2000):
        game = played("nts-2016", seed)
        if game.result is not None and game.result.winner is not None:
            return seed, game
    raise AssertionError("no won hand")


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return path


def log_lines(
    won: tuple[int, Game], names: list[str] | None = None, **kw: Any
) -> list[dict[str, Any]]:
    seed, game = won
    return gamelog.hand_log(
        game, ruleset="nts-2016", seed=seed, players=names or ["ann", "bob", "cas", "dan"], **kw
    )


def test_replay_shows_every_move_and_the_result(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    res = invoke("replay", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 0, res.output
    out = res.output
    assert f"Seed commitment: {lines[0]['seed_commitment']}" in out and "E ann" in out
    assert f"Seed (revealed): {won[0]}" in out and "Not signed." in out
    first = next(x for x in lines if x.get("kind") == "discard")
    tile = first["tiles"]
    assert f"discards {parse_tile(tile).glyph} {tile}" in out
    winner = lines[-2]["winner"]
    assert f"Mahjong: {'ESWN'[winner]} {['ann', 'bob', 'cas', 'dan'][winner]} wins" in out
    for payment in lines[-2]["settlement"]["payments"]:
        assert f" {payment['amount']}\n" in out


def test_verify_ok(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 0, res.output
    first, second = res.output.splitlines()
    assert first == (
        f"OK: {len(lines) - 3} events, result matches; "
        "hash chain intact, seed matches its commitment"
    )
    assert second.startswith("signature: none (the log is not signed")


def test_verify_reports_the_broken_chain(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    i = next(i for i in range(10, len(lines)) if lines[i].get("kind") == "draw")
    lines[i]["tiles"] = "k9" if lines[i]["tiles"] != "k9" else "k8"
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 1
    assert res.output.startswith(f"line {i + 2}: expected prev ")
    assert f"the hash chain is broken: line {i + 1} or line {i + 2} was changed" in res.output


def test_verify_changed_score_with_a_recomputed_chain(
    tmp_path: Path, won: tuple[int, Game]
) -> None:
    lines = log_lines(won)
    lines[-2]["scores"][1]["points"] += 4
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", gamelog.chain(lines))))
    assert res.exit_code == 1
    assert res.output.startswith(f"line {len(lines) - 1}: expected scores[1].points")


def test_verify_discard_of_two_tiles_exits_1(tmp_path: Path, won: tuple[int, Game]) -> None:
    """Regression: InvalidTile escaped replay --verify as a traceback."""
    lines = log_lines(won)
    i = next(i for i, x in enumerate(lines) if x.get("kind") == "discard")
    lines[i]["tiles"] = "b1 b2"
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", gamelog.chain(lines))))
    assert res.exit_code == 1, res.output
    assert res.output.startswith(f"line {i + 1}: expected an action of seat")


@pytest.mark.parametrize(
    ("mangle", "line", "words"),
    [
        (lambda t: t.replace("\n", "\n{oops\n", 1), 2, "invalid JSON"),
        (lambda t: t[: t.index("\n", 1500) - 5], None, "invalid JSON"),
        (lambda t: '{"type": "event"}\n' + t, 1, "not a hand log"),
        (lambda t: "", None, "empty"),
        (lambda t: t.replace('"n": 3,', '"n": 3, "n": 3,'), 5, "duplicate key"),
        (lambda t: t.replace('"n": 3,', '"n": ' + "9" * 5000 + ","), 5, "digits"),
        (lambda t: t.replace('"n": 3,', '"n": [[[[[[[[[]]]]]]]]],'), 5, "nested"),
    ],
)
def test_unreadable_log_exits_2(
    tmp_path: Path, won: tuple[int, Game], mangle: Any, line: int | None, words: str
) -> None:
    text = "".join(json.dumps(x) + "\n" for x in log_lines(won))
    bad = mangle(text)
    path = tmp_path / "bad.jsonl"
    path.write_text(bad, "utf-8")
    for args in (["replay", str(path)], ["replay", "--verify", str(path)]):
        res = invoke(*args)
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"error: {path}: ")
        if line is None and words == "invalid JSON":
            line = bad.count("\n") + 1
        if line is not None:
            assert f": line {line}: " in res.stderr
        assert words in res.stderr and len(res.stderr) < 500


def test_missing_and_binary_files_exit_2(tmp_path: Path, won: tuple[int, Game]) -> None:
    res = invoke("replay", "--verify", str(tmp_path / "nope.jsonl"))
    assert res.exit_code == 2 and "error:" in res.stderr and "nope.jsonl" in res.stderr
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(json.dumps(log_lines(won)[0]).encode() + b"\n\xff\xfe\n")
    res = invoke("replay", str(binary))
    assert res.exit_code == 2 and "line 2: not UTF-8" in res.stderr


def test_version_1_log_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    head = {"type": "header", "format": "mahjong-nts/hand-log", "version": 1, "seed": 5}
    path.write_text(json.dumps(head) + "\n")
    res = invoke("replay", "--verify", str(path))
    assert res.exit_code == 2
    assert "line 1: hand-log version 1 cannot be replayed or verified" in res.stderr
    assert "old generator" in res.stderr


def test_short_balances_exit_2(tmp_path: Path, won: tuple[int, Game]) -> None:
    """Regression: a result whose balances were short raised IndexError in replay."""
    lines = log_lines(won)
    lines[-2]["settlement"]["balances"] = [5, -5]
    path = write(tmp_path / "h.jsonl", gamelog.chain(lines))
    for args in (["replay", str(path)], ["replay", "--verify", str(path)]):
        res = invoke(*args)
        assert res.exit_code == 2, res.output
        assert f"line {len(lines) - 1}: result line: settlement.balances has 2 entries" in (
            res.stderr
        )


NASTY = ["\x1b[2J\x1b[31mann", "[bold red]bob[/]", "cas\u202eevil", ":thumbs_up: dan\x07"]


def test_terminal_escapes_and_markup_are_shown_escaped(
    tmp_path: Path, won: tuple[int, Game]
) -> None:
    """Regression: player names reached the terminal raw."""
    lines = log_lines(won, NASTY, stopped="x")
    path = write(tmp_path / "h.jsonl", lines)
    res = invoke("replay", str(path))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "\\x1b[2J\\x1b[31mann" in out
    assert "[bold red]bob[/]" in out  # shown as written, not read as markup
    assert "cas\\u202eevil" in out and ":thumbs_up: dan\\x07" in out
    # and in what --verify says about a line
    lines[5]["note"] = "\x1b]0;pwned\x07"
    res = invoke("replay", "--verify", str(write(tmp_path / "h2.jsonl", gamelog.chain(lines))))
    assert res.exit_code == 1 and "\x1b" not in res.output and "\\x1b]0;pwned" in res.output


def test_stopped_hand_note_and_reason_escaped(tmp_path: Path) -> None:
    game = Game(load_ruleset("nts-2016"), SeedRng(3))
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    path = tmp_path / "s.jsonl"
    gamelog.write_hand_log(path, game, ruleset="nts-2016", seed=3, stopped="bye\x1b[0m")
    res = invoke("replay", str(path))
    assert "Stopped before the end: bye\\x1b[0m" in res.output
    res = invoke("replay", "--verify", str(path))
    assert res.exit_code == 0 and "(a hand stopped before its end)" in res.output


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("plain ann", "plain ann"),
        ("tab\there", "tab\\x09here"),
        ("\x00\x7f\x9b", "\\x00\\x7f\\x9b"),
        ("\u200b\u2028", "\\u200b\\u2028"),
        ("🀄 tiles ok", "🀄 tiles ok"),
    ],
)
def test_printable(text: str, want: str) -> None:
    assert printable(text) == want


# --------------------------------------------------------------------------- rule sets, keys


def test_house_rule_log_needs_the_rule_set_given(tmp_path: Path) -> None:
    house = tmp_path / "club.toml"
    house.write_text('base = "nmb-2009"\nname = "club"\n[points]\ncompletes_pair = 4\n')
    game = played(str(house), 5)
    path = gamelog.write_hand_log(tmp_path / "h.jsonl", game, ruleset=str(house), seed=5)
    res = invoke("replay", "--verify", str(path))
    assert res.exit_code == 2 and "give the rule set (replay --ruleset FILE)" in res.stderr
    res = invoke("replay", "--verify", "--ruleset", str(house), str(path))
    assert res.exit_code == 0, res.output
    assert res.output.startswith("OK: ")
    res = invoke("replay", "--verify", "--ruleset", "nmb-2009", str(path))
    assert res.exit_code == 1 and "line 1: expected ruleset_name 'nmb-2009'" in res.output
    res = invoke("replay", "--verify", "--ruleset", str(tmp_path / "none.toml"), str(path))
    assert res.exit_code == 2 and res.stderr.startswith("error: --ruleset: ")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("keys")
    out = {}
    for name in ("a", "b"):
        private, public = logkeys.new_ed25519_key()
        out[name] = folder / f"{name}.pem"
        out[name].write_bytes(private)
        out[f"{name}.pub"] = folder / f"{name}.pub.pem"
        out[f"{name}.pub"].write_bytes(public)
    out["hmac"] = folder / "hmac.pem"
    out["hmac"].write_bytes(logkeys.new_hmac_key())
    return out


def test_verify_with_a_key(tmp_path: Path, won: tuple[int, Game], keys: dict[str, Path]) -> None:
    a = logkeys.load_key(keys["a"])
    signed = write(tmp_path / "s.jsonl", log_lines(won, key=a))
    res = invoke("replay", "--verify", str(signed))
    assert res.exit_code == 0
    assert res.output.splitlines()[1] == (
        f"signature: by ed25519 key {a.key_id}, not checked (give --key PUBLIC.pem)"
    )
    res = invoke("replay", "--verify", "--key", str(keys["a.pub"]), str(signed))
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[1] == f"signature: valid, ed25519 key {a.key_id}"
    res = invoke("replay", "--verify", "--key", str(keys["b.pub"]), str(signed))
    assert res.exit_code == 1 and "(signed by another key)" in res.output
    unsigned = write(tmp_path / "u.jsonl", log_lines(won))
    res = invoke("replay", "--verify", "--key", str(keys["a.pub"]), str(unsigned))
    assert res.exit_code == 1 and "(the log is not signed)" in res.output
    hmac_signed = write(tmp_path / "h.jsonl", log_lines(won, key=logkeys.load_key(keys["hmac"])))
    res = invoke("replay", "--verify", "--key", str(keys["hmac"]), str(hmac_signed))
    assert res.exit_code == 0 and "signature: valid, hmac-sha256 key" in res.output
    # the signed log shown without --verify says who signed, unchecked
    res = invoke("replay", str(signed))
    assert f"Signed by ed25519 key {a.key_id} (not checked" in res.output


def test_bad_key_file_exits_2(tmp_path: Path, won: tuple[int, Game]) -> None:
    log = write(tmp_path / "u.jsonl", log_lines(won))
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key\n")
    for key in (bad, tmp_path / "missing.pem", tmp_path):
        res = invoke("replay", "--verify", "--key", str(key), str(log))
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"error: --key: {key}: ")
    res = invoke("replay", "--key", str(bad), str(log))
    assert res.exit_code == 2 and "go with --verify" in res.stderr
