"""``mahjong-nts replay``: a hand log shown move by move; ``--verify`` exit codes 0/1/2."""

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
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.rulefiles import load_ruleset

runner = CliRunner()


def invoke(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
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


def log_lines(won: tuple[int, Game]) -> list[dict[str, Any]]:
    seed, game = won
    return gamelog.hand_log(
        game, ruleset="nts-2016", seed=seed, players=["ann", "bob", "cas", "dan"]
    )


def test_replay_shows_every_move_and_the_result(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    res = invoke("replay", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "seed" in out and "E ann" in out
    # the first discard, with its glyph and token
    first = next(x for x in lines if x.get("kind") == "discard")
    tile = first["tiles"]
    from mahjong_nts.core.tiles import parse_tile

    assert f"discards {parse_tile(tile).glyph} {tile}" in out
    winner = lines[-1]["winner"]
    assert f"Mahjong: {'ESWN'[winner]} {['ann', 'bob', 'cas', 'dan'][winner]} wins" in out
    for payment in lines[-1]["settlement"]["payments"]:
        assert f" {payment['amount']}\n" in out


def test_verify_ok(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 0, res.output
    assert res.output.strip() == f"OK: {len(lines) - 2} events, result matches"


def test_verify_reports_the_first_bad_line(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    i = next(i for i in range(10, len(lines)) if lines[i].get("kind") == "draw")
    lines[i]["tiles"] = "k9" if lines[i]["tiles"] != "k9" else "k8"
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 1
    assert res.output.startswith(f"line {i + 1}: expected event {i - 1}: seat")
    assert "log says" in res.output and lines[i]["tiles"] in res.output


def test_verify_changed_score(tmp_path: Path, won: tuple[int, Game]) -> None:
    lines = log_lines(won)
    lines[-1]["scores"][1]["points"] += 4
    res = invoke("replay", "--verify", str(write(tmp_path / "h.jsonl", lines)))
    assert res.exit_code == 1
    assert res.output.startswith(f"line {len(lines)}: expected scores[1].points")


@pytest.mark.parametrize(
    ("mangle", "line", "words"),
    [
        (lambda t: t.replace("\n", "\n{oops\n", 1), 2, "invalid JSON"),
        (lambda t: t[: t.index("\n", 1500) - 5], None, "invalid JSON"),
        (lambda t: '{"type": "event"}\n' + t, 1, "not a hand log"),
        (lambda t: "", None, "empty"),
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
        assert words in res.stderr and "Traceback" not in res.output


def test_missing_and_binary_files_exit_2(tmp_path: Path) -> None:
    res = invoke("replay", "--verify", str(tmp_path / "nope.jsonl"))
    assert res.exit_code == 2 and "error:" in res.stderr and "nope.jsonl" in res.stderr
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b'{"type": "header"}\n\xff\xfe\n')
    res = invoke("replay", str(binary))
    assert res.exit_code == 2 and "line 2: not UTF-8" in res.stderr


def test_house_rule_file_log_verifies(tmp_path: Path) -> None:
    house = tmp_path / "club.toml"
    house.write_text('base = "nmb-2009"\nname = "club"\n[points]\ncompletes_pair = 4\n')
    game = played(str(house), 5)
    path = gamelog.write_hand_log(tmp_path / "h.jsonl", game, ruleset=str(house), seed=5)
    res = invoke("replay", "--verify", str(path))
    assert res.exit_code == 0, res.output
    assert res.output.startswith("OK: ")
