"""Hand logs: written from a game, read back, verified by replay; tampering is caught
at the first bad line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.core.actions import ActionKind
from mahjong_nts.core.game import Game
from mahjong_nts.core.match import Match
from mahjong_nts.core.seeding import SeedRng
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.gamelog import LogFormatError, LogMismatch, parse_hand_log, verify_hand_log
from mahjong_nts.formats.rulefiles import load_ruleset


def greedy_hand(spec: str, seed: int, *, limit: int | None = None) -> Game:
    """A hand played by a simple policy: mahjong, else a meld, else a seeded random
    choice; ``limit`` stops after that many actions."""
    game = Game(load_ruleset(spec), SeedRng(seed))
    pick = random.Random(seed)
    steps = 0
    while not game.is_over and (limit is None or steps < limit):
        legal = game.legal_actions()
        best = [a for a in legal if a.kind is ActionKind.MAHJONG] or [
            a for a in legal if a.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.CHOW)
        ]
        game.apply(best[0] if best else pick.choice(legal))
        steps += 1
    return game


def won_hand(spec: str = "nts-2016", claimed: bool = True) -> tuple[int, Game]:
    """The first seed whose greedy hand is won on a discard (or self-drawn)."""
    for seed in range(2000):
        game = greedy_hand(spec, seed)
        res = game.result
        if res is not None and res.winner is not None and (res.discarder is not None) == claimed:
            return seed, game
    raise AssertionError("no won hand in 2000 seeds")


def lines_of(game: Game, spec: str, seed: int) -> list[dict[str, Any]]:
    return gamelog.hand_log(game, ruleset=spec, seed=seed)


def text_of(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def verify(lines: list[dict[str, Any]]) -> gamelog.Verified:
    return verify_hand_log(parse_hand_log(text_of(lines)))


@pytest.fixture(scope="module")
def won() -> tuple[int, Game]:
    return won_hand()


# --------------------------------------------------------------------------- format


def test_header_rebuilds_the_game(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    head = lines[0]
    assert head["type"] == "header"
    assert head["format"] == "mahjong-nts/hand-log" and head["version"] == 1
    assert (head["ruleset"], head["seed"], head["round_wind"], head["dominant"]) == (
        "nts-2016",
        seed,
        "E",
        None,
    )
    again = Game(load_ruleset(head["ruleset"]), SeedRng(head["seed"]))
    assert [e for e in again.events] == game.events[: len(again.events)]


def test_one_line_per_event_then_the_result(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    events = lines[1:-1]
    assert len(events) == len(game.events)
    for i, (line, event) in enumerate(zip(events, game.events, strict=True)):
        assert line["n"] == i and line["kind"] == event.kind and line["seat"] == event.seat
        assert [parse_tile(t) for t in line["tiles"].split()] == list(event.tiles)
        assert line["decided"] is event.decided
    result = lines[-1]
    res = game.result
    assert res is not None
    assert result["type"] == "result" and result["over"] is True
    assert result["events"] == len(game.events)
    assert (result["winner"], result["discarder"]) == (res.winner, res.discarder)
    assert result["winning_tile"] == res.winning_tile.token  # type: ignore[union-attr]
    assert result["win"]["source"] == "discard"
    assert [s["score"] for s in result["scores"]] == [r.score for r in res.scores]
    assert result["settlement"]["balances"] == list(res.settlement.balances)
    assert sum(result["settlement"]["balances"]) == 0
    assert "+" + res.winning_tile.token in result["hands"][res.winner]  # type: ignore[union-attr,index]


def test_write_read_verify_roundtrip(tmp_path: Path, won: tuple[int, Game]) -> None:
    seed, game = won
    path = gamelog.write_hand_log(
        tmp_path / "logs" / "h.jsonl", game, ruleset="nts-2016", seed=seed
    )
    log = gamelog.read_hand_log(path)
    checked = verify_hand_log(log)
    assert checked.events == len(game.events) and checked.over
    assert list(tmp_path.joinpath("logs").iterdir()) == [path]  # no temp file left


@pytest.mark.parametrize(
    "spec", ["nts-2016+flowers", "nmb-2009", "rode-draak", "nts-2002+three-players"]
)
def test_many_hands_verify(spec: str) -> None:
    for seed in range(6):
        game = greedy_hand(spec, seed)
        assert verify(lines_of(game, spec, seed)).over


def test_match_hands_verify_with_their_setup() -> None:
    rules = load_ruleset("nts-2016+three-players")
    match = Match(rules, SeedRng(3), SeedRng)
    pick = random.Random(3)
    while not match.is_over and len(match.history) < 12:
        setup, game = match.next_hand()
        while not game.is_over:
            game.apply(pick.choice(game.legal_actions()))
        lines = gamelog.hand_log(
            game,
            ruleset="nts-2016+three-players",
            seed=setup.seed,
            setup=setup,
            players=["ann", "bob", "cas"],
        )
        assert lines[0]["hand"]["number"] == setup.number
        assert lines[0]["round_wind"] == setup.round_wind.token
        verify(lines)
        match.record(game)
    # the green-dragon hand (dominant seat, round wind F) was among them
    assert any(r.setup.dominant is not None for r in match.history)


def test_unfinished_hand_verifies_as_stopped() -> None:
    game = greedy_hand("nts-2016", 4, limit=7)
    assert not game.is_over
    lines = gamelog.hand_log(game, ruleset="nts-2016", seed=4, stopped="quit by the player")
    assert lines[-1]["over"] is False and lines[-1]["reason"] == "quit by the player"
    assert not verify(lines).over


def test_house_rule_file_as_ruleset(tmp_path: Path) -> None:
    house = tmp_path / "club.toml"
    house.write_text('base = "nts-2016"\nname = "club"\n[points]\ncompletes_pair = 4\n')
    spec = str(house)
    game = greedy_hand(spec, 2)
    lines = lines_of(game, spec, 2)
    assert lines[0]["ruleset"] == spec
    verify(lines)
    # a changed house file no longer fits the log
    house.write_text('base = "nts-2016"\nname = "club"\n[points]\ncompletes_pair = 6\n')
    with pytest.raises(LogMismatch) as err:
        verify(lines)
    assert err.value.line == 1 and "rules_digest" in str(err.value)


# --------------------------------------------------------------------------- tampering


def first(lines: list[dict[str, Any]], kind: str, start: int = 1) -> int:
    return next(i for i in range(start, len(lines)) if lines[i].get("kind") == kind)


def mismatch(lines: list[dict[str, Any]]) -> LogMismatch:
    with pytest.raises(LogMismatch) as err:
        verify(lines)
    return err.value


def other_tile(token: str) -> str:
    return "k9" if token != "k9" else "b1"


def test_changed_drawn_tile(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "draw", 10)
    lines[i]["tiles"] = other_tile(lines[i]["tiles"])
    err = mismatch(lines)
    assert err.line == i + 1  # file lines count from 1
    assert err.expected.startswith(f"event {i - 1}: seat")


def test_changed_dealt_tile(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    tiles = lines[2]["tiles"].split()
    tiles[5] = other_tile(tiles[5])
    lines[2]["tiles"] = " ".join(tiles)
    assert mismatch(lines).line == 3


def test_discard_of_a_tile_not_held(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard")
    seat = lines[i]["seat"]
    # every tile the seat has had so far: its deal and what it drew
    seen = {
        t
        for x in lines[1:i]
        if x["seat"] == seat and x["kind"] in ("deal", "draw", "loose")
        for t in x["tiles"].split()
    }
    lines[i]["tiles"] = next(
        t for t in ("b1", "b5", "k1", "k5", "t1", "t5", "N", "P") if t not in seen
    )
    err = mismatch(lines)
    assert err.line == i + 1 and "an action of seat" in err.expected


def test_discard_swapped_for_another_held_tile(won: tuple[int, Game]) -> None:
    """A changed discard that is itself legal makes another (possible) hand: the
    log is reported where it stops fitting, never accepted unchanged."""
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard")
    seat = lines[i]["seat"]
    dealt = lines[1 + seat]["tiles"].split()
    held = next(t for t in dealt if t != lines[i]["tiles"] and not t.startswith(("f", "s")))
    lines[i]["tiles"] = held
    assert mismatch(lines).line > i + 1


def test_changed_score(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    winner = lines[-1]["winner"]
    lines[-1]["scores"][winner]["score"] += 2
    err = mismatch(lines)
    assert err.line == len(lines)
    assert f"scores[{winner}].score" in err.expected


def test_changed_balance(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[-1]["settlement"]["balances"][0] += 10
    assert mismatch(lines).line == len(lines)


def test_deleted_line(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    # a line the replay makes itself (a draw, a deal): its place is where the log breaks
    i = next(k for k in range(20, len(lines)) if lines[k].get("decided") is False)
    n = lines[i]["n"]
    del lines[i]
    err = mismatch(lines)
    assert err.line == i + 1 and err.expected.startswith(f"event {n}:")


def test_inserted_line(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines.insert(15, dict(lines[14]))
    assert mismatch(lines).line == 16


def test_truncated_at_a_line_end(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    # after a discard that nobody claims, the next seat's draw is missing
    i = next(
        i
        for i in range(10, len(lines))
        if lines[i]["kind"] == "discard" and lines[i + 1]["kind"] == "draw"
    )
    err = mismatch(lines[: i + 1])
    assert err.line == i + 2 and err.expected.startswith(f"event {i}: seat")
    # after a draw, the seat's action (or a stopped hand's result line) is missing
    err = mismatch(lines[: i + 2])
    assert err.line == i + 3 and err.expected.startswith("an action of seat")
    err = mismatch(lines[:-1])
    assert err.line == len(lines) and err.expected == "the result line"


def test_truncated_mid_line(won: tuple[int, Game]) -> None:
    seed, game = won
    text = text_of(lines_of(game, "nts-2016", seed))
    cut = text[: text.index("\n", 2000) - 10]
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(cut)
    assert err.value.line == cut.count("\n") + 1 and "invalid JSON" in str(err.value)


def test_line_after_the_result(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines.append(dict(lines[-2]))
    assert mismatch(lines).line == len(lines)


def test_claimed_over_while_still_in_play() -> None:
    game = greedy_hand("nts-2016", 4, limit=7)
    lines = gamelog.hand_log(game, ruleset="nts-2016", seed=4)
    lines[-1]["over"] = True
    assert mismatch(lines).line == len(lines)


# --------------------------------------------------------------------------- not a log


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", None, "empty"),
        ("not json\n", 1, "invalid JSON"),
        ("[1, 2]\n", 1, "expected a JSON object"),
        ('{"type": "event"}\n', 1, "not a hand log"),
        ('{"type": "header", "format": "other"}\n', 1, "not a hand log"),
        ('{"type": "header", "format": "mahjong-nts/hand-log", "version": 9}\n', 1, "version 9"),
        ('{"type": "header", "format": "mahjong-nts/hand-log", "version": 1}\n', 1, "missing"),
    ],
)
def test_not_a_hand_log(text: str, line: int | None, words: str) -> None:
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text)
    assert err.value.line == line and words in str(err.value)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ('{"type": "thing"}', "unknown line type"),
        (
            '{"type": "result", "over": true, "events": 0, "reason": "x", "extra": 1}',
            "unknown field",
        ),
        ('{"type": "event", "n": 0, "kind": "sneeze", "seat": 0}', "unknown event kind"),
        ('{"type": "event", "n": 0, "kind": "draw", "seat": 7}', "seat"),
        ("", "empty line"),
    ],
)
def test_bad_line_after_the_header(won: tuple[int, Game], bad: str, words: str) -> None:
    seed, game = won
    lines = text_of(lines_of(game, "nts-2016", seed)).splitlines()
    lines.insert(3, bad)
    with pytest.raises(LogFormatError) as err:
        parse_hand_log("\n".join(lines) + "\n")
    assert err.value.line == 4 and words in str(err.value)


def test_first_line_must_be_the_header(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(lines[1:]))
    assert err.value.line == 1 and "header" in str(err.value)
    with pytest.raises(LogMismatch) as mis:  # a second header later on
        verify([*lines[:5], lines[0], *lines[5:]])
    assert mis.value.line == 6 and mis.value.found == "a header line"


def test_bad_field_names_line_and_field(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[7]["tiles"] = "b0"
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(lines))
    assert err.value.line == 8 and "tiles" in str(err.value)
    lines = lines_of(game, "nts-2016", seed)
    lines[3]["seat"] = "one"
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(lines))
    assert err.value.line == 4 and "seat" in str(err.value)


def test_unknown_ruleset_is_a_format_error(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[0]["ruleset"] = "no-such-rules"
    with pytest.raises(LogFormatError) as err:
        verify(lines)
    assert err.value.line == 1 and "no-such-rules" in str(err.value)


def test_seed_must_match_setup() -> None:
    match = Match(load_ruleset("nts-2016"), SeedRng(1), SeedRng)
    setup, game = match.next_hand()
    with pytest.raises(ValueError, match="seed"):
        gamelog.hand_log(game, ruleset="nts-2016", seed=setup.seed + 1, setup=setup)
