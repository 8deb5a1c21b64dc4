"""Hand logs (format version 2): written from a game, read back, verified by replay.

Expected values are worked out here independently of the code under test: the
commitment and the chain digests with :mod:`hashlib` as ``docs/logs.md`` defines
them, the events from the engine itself.  An edited line breaks the hash chain at
the line after it; a log whose chain was recomputed after an edit is still caught
by the commitment, the header checks or the replay, and a signature catches what
those cannot."""

from __future__ import annotations

import hashlib
import itertools
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
from mahjong_nts.formats.gamelog import (
    LogFormatError,
    LogMismatch,
    Signed,
    parse_hand_log,
    verify_hand_log,
)
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


def lines_of(game: Game, spec: str, seed: int, **kw: Any) -> list[dict[str, Any]]:
    return gamelog.hand_log(game, ruleset=spec, seed=seed, **kw)


def text_of(lines: list[dict[str, Any]]) -> str:
    """The file as written: one compact-but-spaced JSON object a line, UTF-8."""
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def rechain(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What someone who edits a log and recomputes its chain writes (unsigned)."""
    return gamelog.chain(lines)


def verify(lines: list[dict[str, Any]], **kw: Any) -> gamelog.Verified:
    return verify_hand_log(parse_hand_log(text_of(lines)), **kw)


def mismatch(lines: list[dict[str, Any]], **kw: Any) -> LogMismatch:
    with pytest.raises(LogMismatch) as err:
        verify(lines, **kw)
    return err.value


def commitment(seed: int) -> str:
    """docs/logs.md: SHA-256 of "mahjong-nts/seed/v1/" and the seed as 32 bytes big-endian."""
    return hashlib.sha256(b"mahjong-nts/seed/v1/" + seed.to_bytes(32, "big")).hexdigest()


@pytest.fixture(scope="module")
def won() -> tuple[int, Game]:
    return won_hand()


# --------------------------------------------------------------------------- format


def test_header_commits_to_the_seed_and_the_result_reveals_it(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    head, result = lines[0], lines[-2]
    assert head["type"] == "header"
    assert head["format"] == "mahjong-nts/hand-log" and head["version"] == 2
    assert "seed" not in head
    assert head["seed_commitment"] == commitment(seed)
    assert (head["ruleset"], head["round_wind"], head["dominant"]) == ("nts-2016", "E", None)
    assert result["type"] == "result" and result["seed"] == seed
    again = Game(load_ruleset(head["ruleset"]), SeedRng(result["seed"]))
    assert list(again.events) == game.events[: len(again.events)]


def test_every_line_carries_the_digest_of_the_line_before(won: tuple[int, Game]) -> None:
    seed, game = won
    text = gamelog.hand_log_text(game, ruleset="nts-2016", seed=seed)
    raw = text.encode("utf-8").split(b"\n")
    assert raw[-1] == b""
    raw.pop()
    assert "prev" not in json.loads(raw[0])
    for before, line in itertools.pairwise(raw):
        assert json.loads(line)["prev"] == hashlib.sha256(before).hexdigest()
    # the prev is the second field of a line, after its type
    assert list(json.loads(raw[1]))[:2] == ["type", "prev"]
    assert json.loads(raw[-1]) == {
        "type": "seal",
        "prev": hashlib.sha256(raw[-2]).hexdigest(),
        "signature": None,
    }
    # hand_log's dicts are the same text
    assert text_of(lines_of(game, "nts-2016", seed)) == text


def test_one_line_per_event_then_the_result_and_the_seal(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    events = lines[1:-2]
    assert len(events) == len(game.events)
    for i, (line, event) in enumerate(zip(events, game.events, strict=True)):
        assert line["n"] == i and line["kind"] == event.kind and line["seat"] == event.seat
        assert [parse_tile(t) for t in line["tiles"].split()] == list(event.tiles)
        assert line["decided"] is event.decided
    result = lines[-2]
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
    assert lines[-1]["type"] == "seal"


def test_write_read_verify_roundtrip(tmp_path: Path, won: tuple[int, Game]) -> None:
    seed, game = won
    path = gamelog.write_hand_log(
        tmp_path / "logs" / "h.jsonl", game, ruleset="nts-2016", seed=seed
    )
    log = gamelog.read_hand_log(path)
    checked = verify_hand_log(log)
    assert checked.events == len(game.events) and checked.over
    assert checked.seed == seed and checked.signed is Signed.UNSIGNED
    assert list(tmp_path.joinpath("logs").iterdir()) == [path]  # no temp file left


@pytest.mark.parametrize(
    "spec", ["nts-2016+flowers", "nmb-2009", "rode-draak", "nts-2002+three-players"]
)
def test_many_hands_verify(spec: str) -> None:
    for seed in range(6):
        game = greedy_hand(spec, seed)
        assert verify(lines_of(game, spec, seed)).over


def play_match(spec: str, seed: int, hands: int) -> list[list[dict[str, Any]]]:
    """The logs of the first ``hands`` hands of a match, played at random."""
    match = Match(load_ruleset(spec), SeedRng(seed), SeedRng)
    pick = random.Random(seed)
    logs = []
    while not match.is_over and len(match.history) < hands:
        setup, game = match.next_hand()
        while not game.is_over:
            game.apply(pick.choice(game.legal_actions()))
        names = [f"p{p}" for p in setup.players]
        logs.append(lines_of(game, spec, setup.seed, setup=setup, players=names))
        match.record(game)
    return logs


def test_match_hands_verify_with_their_setup() -> None:
    logs = play_match("nts-2016+three-players", 3, 12)
    for lines in logs:
        verify(lines)
    # the green-dragon hand (dominant seat, round wind F) was among them
    assert any(lines[0]["round_wind"] == "F" for lines in logs)
    green = next(lines for lines in logs if lines[0]["round_wind"] == "F")
    head = green[0]
    assert head["hand"]["dominant"] == head["hand"]["players"][head["dominant"]]


def test_five_player_match_hands_verify() -> None:
    """Five players: the dreamer is the player before East; the last round is the
    green dragon's (NMB 2009, Vijf spelers)."""
    logs = play_match("nts-2016+five-players", 2, 100)
    for lines in logs:
        verify(lines)
        hand = lines[0]["hand"]
        assert hand["dreamer"] == (hand["players"][0] - 1) % 5
    assert any(lines[0]["round_wind"] == "F" for lines in logs)


def test_unfinished_hand_verifies_as_stopped_and_reveals_its_seed() -> None:
    game = greedy_hand("nts-2016", 4, limit=7)
    assert not game.is_over
    lines = lines_of(game, "nts-2016", 4, stopped="quit by the player")
    result = lines[-2]
    assert result["over"] is False and result["reason"] == "quit by the player"
    assert result["seed"] == 4
    checked = verify(lines)
    assert not checked.over and checked.events == len(game.events)


def test_house_rule_file_is_given_never_read_from_the_log(tmp_path: Path) -> None:
    house = tmp_path / "club.toml"
    house.write_text('base = "nts-2016"\nname = "club"\n[points]\ncompletes_pair = 4\n')
    spec = str(house)
    game = greedy_hand(spec, 2)
    lines = lines_of(game, spec, 2)
    assert lines[0]["ruleset"] == spec
    with pytest.raises(LogFormatError) as err:
        verify(lines)
    assert err.value.line == 1 and "--ruleset" in str(err.value)
    verify(lines, rules=load_ruleset(spec))
    # a changed house file no longer fits the log
    house.write_text('base = "nts-2016"\nname = "club"\n[points]\ncompletes_pair = 6\n')
    err2 = mismatch(lines, rules=load_ruleset(spec))
    assert err2.line == 1 and "rules_digest" in str(err2)


def test_a_bare_name_that_is_a_file_here_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, won: tuple[int, Game]
) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nts-2016").write_text("not rules")
    verify(lines)  # the shipped rule set, never the file of that name
    lines[0]["ruleset"] = "club"
    (tmp_path / "club").write_text('base = "nts-2016"\n')
    with pytest.raises(LogFormatError, match="no shipped rule set"):
        verify(rechain(lines))


# --------------------------------------------------------------------------- the chain


def first(lines: list[dict[str, Any]], kind: str, start: int = 1) -> int:
    return next(i for i in range(start, len(lines)) if lines[i].get("kind") == kind)


def chain_break(lines: list[dict[str, Any]]) -> int:
    err = mismatch(lines)
    assert "hash chain is broken" in str(err)
    return err.line


def test_rewritten_player_names_break_the_chain(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed, players=["ann", "bob", "cas", "dan"])
    lines[0]["players"] = ["ann", "bob", "cas", "eve"]
    assert chain_break(lines) == 2


def test_changed_hand_block_breaks_the_chain() -> None:
    lines = play_match("nts-2016", 1, 2)[1]
    lines[0]["hand"]["number"] = 5
    assert chain_break(lines) == 2


def test_edited_discard_breaks_the_chain(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard", 20)
    lines[i]["tiles"] = "k9" if lines[i]["tiles"] != "k9" else "b1"
    assert chain_break(lines) == i + 2  # file lines count from 1: line i+1 is edited


def test_finished_hand_rewritten_as_stopped_breaks_the_chain(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    stopped = lines_of(greedy_hand("nts-2016", seed, limit=3), "nts-2016", seed)[-2]
    lines[-2] = {**stopped, "prev": lines[-2]["prev"], "events": lines[-2]["events"]}
    assert chain_break(lines) == len(lines)  # the seal's prev


@pytest.mark.parametrize("where", [3, 40, -3])
def test_deleted_or_inserted_line_breaks_the_chain(won: tuple[int, Game], where: int) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    at = where % len(lines)
    deleted = lines[:at] + lines[at + 1 :]
    assert chain_break(deleted) == at + 1
    inserted = [*lines[:at], dict(lines[at - 1]), *lines[at:]]
    assert chain_break(inserted) in (at + 1, at + 2)


def test_a_second_header_breaks_the_chain(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    err = mismatch([*lines[:5], lines[0], *lines[5:]])
    assert err.line == 6 and err.found == "no prev"


def test_crlf_line_ends_break_the_chain(won: tuple[int, Game]) -> None:
    seed, game = won
    text = gamelog.hand_log_text(game, ruleset="nts-2016", seed=seed)
    with pytest.raises(LogMismatch) as err:
        verify_hand_log(parse_hand_log(text.replace("\n", "\r\n")))
    assert err.value.line == 2


# --------------------------------------------------------------------------- recomputed chains


def other_tile(token: str) -> str:
    return "k9" if token != "k9" else "b1"


def test_recomputed_chain_changed_drawn_tile(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "draw", 10)
    lines[i]["tiles"] = other_tile(lines[i]["tiles"])
    err = mismatch(rechain(lines))
    assert err.line == i + 1
    assert err.expected.startswith(f"event {i - 1}: seat")


def test_recomputed_chain_changed_dealt_tile(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    tiles = lines[2]["tiles"].split()
    tiles[5] = other_tile(tiles[5])
    lines[2]["tiles"] = " ".join(tiles)
    assert mismatch(rechain(lines)).line == 3


def test_recomputed_chain_discard_of_a_tile_not_held(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard")
    seat = lines[i]["seat"]
    seen = {
        t
        for x in lines[1:i]
        if x["seat"] == seat and x["kind"] in ("deal", "draw", "loose")
        for t in x["tiles"].split()
    }
    lines[i]["tiles"] = next(
        t for t in ("b1", "b5", "k1", "k5", "t1", "t5", "N", "P") if t not in seen
    )
    err = mismatch(rechain(lines))
    assert err.line == i + 1 and "an action of seat" in err.expected


def test_recomputed_chain_discard_of_two_tiles_is_a_mismatch(won: tuple[int, Game]) -> None:
    """Regression: a decided event with two tiles made parse_tile raise InvalidTile
    out of verify_hand_log (its contract: LogMismatch or LogFormatError)."""
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard")
    lines[i]["tiles"] = "b1 b2"
    err = mismatch(rechain(lines))
    assert err.line == i + 1 and "an action of seat" in err.expected


def test_recomputed_chain_discard_swapped_for_another_held_tile(won: tuple[int, Game]) -> None:
    """A changed discard that is itself legal makes another (possible) hand: the
    log is reported where it stops fitting, never accepted unchanged."""
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    i = first(lines, "discard")
    seat = lines[i]["seat"]
    dealt = lines[1 + seat]["tiles"].split()
    held = next(t for t in dealt if t != lines[i]["tiles"] and not t.startswith(("f", "s")))
    lines[i]["tiles"] = held
    assert mismatch(rechain(lines)).line > i + 1


def test_recomputed_chain_changed_score_and_balance(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    winner = lines[-2]["winner"]
    lines[-2]["scores"][winner]["score"] += 2
    err = mismatch(rechain(lines))
    assert err.line == len(lines) - 1
    assert f"scores[{winner}].score" in err.expected
    lines = lines_of(game, "nts-2016", seed)
    lines[-2]["settlement"]["balances"][0] += 10
    assert mismatch(rechain(lines)).line == len(lines) - 1


def test_recomputed_chain_finished_hand_written_as_stopped(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    result = lines[-2]
    lines[-2] = {
        "type": "result",
        "over": False,
        "events": result["events"],
        "reason": "quit by the player",
        "seed": seed,
        "hands": result["hands"],
    }
    err = mismatch(rechain(lines))
    assert err.line == len(lines) - 1
    assert err.expected.startswith("over true") and "written as stopped" in str(err)


def test_recomputed_chain_stopped_hand_claimed_over() -> None:
    game = greedy_hand("nts-2016", 4, limit=7)
    lines = lines_of(game, "nts-2016", 4)
    lines[-2]["over"] = True
    assert mismatch(rechain(lines)).line == len(lines) - 1


def test_recomputed_chain_another_seed(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[-2]["seed"] = seed + 1
    err = mismatch(rechain(lines))
    assert err.line == len(lines) - 1 and "commitment" in str(err)
    # a new commitment for the other seed too: its wall deals other tiles
    lines[0]["seed_commitment"] = commitment(seed + 1)
    assert mismatch(rechain(lines)).line == 2


@pytest.mark.parametrize("dominant", [1, 2])
def test_recomputed_chain_dominant_outside_a_green_dragon_hand(
    won: tuple[int, Game], dominant: int
) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[0]["dominant"] = dominant
    err = mismatch(rechain(lines))
    assert err.line == 1 and err.expected == "dominant null"


def test_impossible_dominant_seat_is_refused_on_reading(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    for bad in (7, -1):
        lines[0]["dominant"] = bad
        with pytest.raises(LogFormatError) as err:
            parse_hand_log(text_of(rechain(lines)))
        assert err.value.line == 1 and "dominant" in str(err.value)
    three = greedy_hand("nts-2016+three-players", 1)
    lines = lines_of(three, "nts-2016+three-players", 1)
    lines[0]["dominant"] = 3
    with pytest.raises(LogFormatError, match="dominant: no seat 3"):
        parse_hand_log(text_of(rechain(lines)))


def green_hand_log() -> list[dict[str, Any]]:
    logs = play_match("nts-2016+three-players", 3, 12)
    return next(lines for lines in logs if lines[0]["round_wind"] == "F")


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda h: h["hand"].update(players=list(reversed(h["hand"]["players"]))), "players"),
        (lambda h: h["hand"].update(dominant=(h["hand"]["dominant"] + 1) % 3), "hand.dominant"),
        (lambda h: h["hand"].update(dominant=None), "hand.dominant"),
        (lambda h: h["hand"].update(dreamer=0), "hand.dreamer"),
        (lambda h: h.update(dominant=None), "dominant"),
        (lambda h: h.update(round_wind="S"), "dominant null"),
        (lambda h: h["hand"].update(round=9), "hand.round"),
    ],
)
def test_recomputed_chain_hand_block_contradicts_the_header(edit: Any, words: str) -> None:
    lines = green_hand_log()
    verify(lines)
    edit(lines[0])
    err = mismatch(rechain(lines))
    assert err.line == 1 and words in str(err)


def test_recomputed_chain_round_wind_contradicts_the_round() -> None:
    lines = play_match("nts-2016", 1, 1)[0]
    assert lines[0]["hand"]["round"] == 0 and lines[0]["round_wind"] == "E"
    lines[0]["round_wind"] = "S"
    err = mismatch(rechain(lines))
    assert err.line == 1 and err.expected == "round_wind E"
    lines[0]["round_wind"] = "F"  # nts-2016 (four players) has no green-dragon hand
    err = mismatch(rechain(lines))
    assert err.line == 1 and "no green-dragon" in str(err)


def test_hand_block_with_the_wrong_number_of_seats_is_refused() -> None:
    lines = play_match("nts-2016", 1, 1)[0]
    lines[0]["hand"]["players"] = [0, 1, 2]
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(rechain(lines)))
    assert err.value.line == 1 and "hand.players has 3 entries" in str(err.value)


def test_truncated_at_a_line_end(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    err = mismatch(lines[:30])
    assert err.line == 31 and "result line" in err.expected and "cut short" in str(err)
    err = mismatch(lines[:-1])
    assert err.line == len(lines) and err.expected == "the seal line"


def test_truncated_mid_line(won: tuple[int, Game]) -> None:
    seed, game = won
    text = text_of(lines_of(game, "nts-2016", seed))
    cut = text[: text.index("\n", 2000) - 10]
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(cut)
    assert err.value.line == cut.count("\n") + 1 and "invalid JSON" in str(err.value)


def test_lines_after_the_seal_or_the_result(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    err = mismatch([*lines, dict(lines[-1])])
    assert "hash chain" in str(err)
    # a recomputed chain cannot put an event after the result
    moved = rechain([*lines[:-2], lines[-2], lines[-3]])
    err = mismatch(moved)
    assert err.line == len(lines) and err.expected.startswith("the seal line")


# --------------------------------------------------------------------------- not a log


def header_text(**fields: Any) -> str:
    return json.dumps({"type": "header", "format": "mahjong-nts/hand-log", **fields}) + "\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", None, "empty"),
        ("not json\n", 1, "invalid JSON"),
        ("[1, 2]\n", 1, "expected a JSON object"),
        ('{"type": "event"}\n', 1, "not a hand log"),
        ('{"type": "header", "format": "other"}\n', 1, "not a hand log"),
        (header_text(version=9), 1, "version 9"),
        (header_text(version=1, seed=5), 1, "old generator"),
        (header_text(version=2), 1, "missing"),
        ('{"type": "header", "type": "header"}\n', 1, "duplicate key"),
        ('{"type": "header", "x": ' + "[" * 50 + "]" * 50 + "}\n", 1, "nested"),
        ('{"type": "header", "x": ' + "9" * 5000 + "}\n", 1, "digits"),
        ('{"type": "header", "x": NaN}\n', 1, "NaN"),
    ],
)
def test_not_a_hand_log(text: str, line: int | None, words: str) -> None:
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text)
    assert err.value.line == line and words in str(err.value)
    assert len(str(err.value)) <= 320


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ('{"type": "thing"}', "unknown line type"),
        (
            '{"type": "result", "prev": "' + "0" * 64 + '", "over": true, "events": 0, '
            '"reason": "x", "seed": 1, "extra": 1}',
            "unknown field",
        ),
        ('{"type": "event", "prev": "x", "n": 0, "kind": "draw", "seat": 0}', "prev"),
        (
            '{"type": "event", "prev": "' + "0" * 64 + '", "n": 0, "kind": "sneeze", "seat": 0}',
            "unknown event kind",
        ),
        (
            '{"type": "event", "prev": "' + "0" * 64 + '", "n": 0, "kind": "draw", "seat": 7}',
            "seat",
        ),
        ('{"type": "event", "n": 1, "n": 2}', "duplicate key"),
        ('{"type": "event", "n": 1' + "0" * 100 + "}", "digits"),
        ("", "empty line"),
        ('{"type": "event", "note": "' + "x" * 20000 + '"}', "bytes long"),
    ],
)
def test_bad_line_after_the_header(won: tuple[int, Game], bad: str, words: str) -> None:
    seed, game = won
    lines = text_of(lines_of(game, "nts-2016", seed)).splitlines()
    lines.insert(3, bad)
    with pytest.raises(LogFormatError) as err:
        parse_hand_log("\n".join(lines) + "\n")
    assert err.value.line == 4 and words in str(err.value)
    assert len(str(err.value)) <= 320


def test_first_line_must_be_the_header(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(lines[1:]))
    assert err.value.line == 1 and "header" in str(err.value)


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


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda r: r.update(seed=2**256), "seed"),
        (lambda r: r.update(seed=-1), "seed"),
        (lambda r: r["settlement"].update(balances=[1, -1]), "settlement.balances has 2"),
        (lambda r: r.update(hands=r["hands"][:3]), "hands has 3"),
        (lambda r: r.update(winner=4), "winner"),
        (
            lambda r: r["settlement"]["payments"].append({"payer": 9, "payee": 0, "amount": 1}),
            "payer",
        ),
        (lambda r: r["scores"][0].update(score=10**16), "score"),
        (lambda r: r["scores"][0].update(items=["x"] * 65), "items"),
        (lambda r: r.update(reason="x" * 201), "reason"),
    ],
)
def test_result_fields_are_bounded(won: tuple[int, Game], edit: Any, words: str) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    edit(lines[-2])
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(rechain(lines)))
    assert err.value.line == len(lines) - 1 and words in str(err.value)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda h: h.update(players=["x" * 65, "b", "c", "d"]), "players[0]"),
        (lambda h: h.update(players=["a", "b", "c"]), "players has 3 names"),
        (lambda h: h.update(seed_commitment="ab" * 31), "seed_commitment"),
        (lambda h: h.update(ruleset="x" * 5000), "ruleset"),
        (lambda h: h.update(seats=5), "seats"),
    ],
)
def test_header_fields_are_bounded(won: tuple[int, Game], edit: Any, words: str) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    edit(lines[0])
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(rechain(lines)))
    assert err.value.line == 1 and words in str(err.value)


def test_event_seat_beyond_the_table(tmp_path: Path) -> None:
    game = greedy_hand("nts-2016+three-players", 1)
    lines = lines_of(game, "nts-2016+three-players", 1)
    lines[5]["seat"] = 3
    with pytest.raises(LogFormatError) as err:
        parse_hand_log(text_of(rechain(lines)))
    assert err.value.line == 6 and "no seat 3" in str(err.value)


def test_file_bounds(tmp_path: Path, won: tuple[int, Game]) -> None:
    seed, game = won
    lines = text_of(lines_of(game, "nts-2016", seed)).splitlines()
    many = [lines[0]] + [lines[1]] * gamelog.MAX_LINES
    with pytest.raises(LogFormatError) as err:
        parse_hand_log("\n".join(many))
    assert err.value.line == gamelog.MAX_LINES + 1 and "at most" in str(err.value)
    big = tmp_path / "big.jsonl"
    big.write_bytes(b" " * (gamelog.MAX_LOG_BYTES + 1))
    with pytest.raises(LogFormatError, match="larger than"):
        gamelog.read_hand_log(big)


def test_not_a_regular_file(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LogFormatError, match="not a regular file"):
        gamelog.read_hand_log(fifo)  # refused at once, without waiting for a writer
    with pytest.raises(LogFormatError, match="not a regular file"):
        gamelog.read_hand_log(tmp_path)


def test_unknown_ruleset_is_a_format_error(won: tuple[int, Game]) -> None:
    seed, game = won
    lines = lines_of(game, "nts-2016", seed)
    lines[0]["ruleset"] = "no-such-rules"
    with pytest.raises(LogFormatError) as err:
        verify(rechain(lines))
    assert err.value.line == 1 and "no-such-rules" in str(err.value)


def test_seed_must_match_setup() -> None:
    match = Match(load_ruleset("nts-2016"), SeedRng(1), SeedRng)
    setup, game = match.next_hand()
    with pytest.raises(ValueError, match="seed"):
        gamelog.hand_log(game, ruleset="nts-2016", seed=setup.seed + 1, setup=setup)


def test_writer_refuses_what_the_reader_would(won: tuple[int, Game]) -> None:
    seed, game = won
    with pytest.raises(ValueError, match="players"):
        gamelog.hand_log(game, ruleset="nts-2016", seed=seed, players=["x" * 65, "b", "c", "d"])


def test_the_documented_bounds_are_the_code_s() -> None:
    """docs/logs.md states each bound; the schema module holds the same numbers."""
    from mahjong_nts.formats import gamelog_schema as schema

    doc = (Path(__file__).resolve().parents[1] / "docs" / "logs.md").read_text("utf-8")
    table = doc[doc.index("## Bounds") : doc.index("## Version 1")]
    assert schema.MAX_LOG_BYTES == 2**20 and "| file | 1 MiB (`MAX_LOG_BYTES`" in table
    assert schema.MAX_LINES == 2003 and "| lines | 2003 (`MAX_LINES`" in table
    assert schema.MAX_LINE_BYTES == 16 * 1024 and "| one line | 16 KiB" in table
    assert schema.MAX_EVENTS == 2000 and "at most 2000 (`MAX_EVENTS`)" in table
    assert schema.MAX_NUMBER == 2**48 + 500 and "at most 2**48 + 500" in table
    assert schema.MAX_AMOUNT == 8 * (2**48 + 500) and "8 times that" in table
    assert schema.MAX_NAME_CHARS == 64 and "each at most 64 characters" in table
    assert schema.MAX_RULESET_CHARS == 4096 and "at most 4096 characters" in table
    assert schema.MAX_TEXT_CHARS == 200 and "| `note`, `reason` | at most 200" in table
    from mahjong_nts.formats import logkeys

    assert logkeys.MAX_KEY_FILE_BYTES == 16 * 1024 and "| key file | 16 KiB |" in table
