"""``mahjong-nts play``: scripted sessions through piped input; the choice parser."""

from __future__ import annotations

import builtins
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli import app
from mahjong_nts.cli import play as cli_play
from mahjong_nts.cli.play import QUIT, Choice, parse_choice
from mahjong_nts.core.actions import ActionKind, parse_action
from mahjong_nts.core.game import Game
from mahjong_nts.core.seeding import SeedRng, seed_commitment
from mahjong_nts.core.tiles import parse_tile
from mahjong_nts.formats import gamelog
from mahjong_nts.formats.rulefiles import load_ruleset

runner = CliRunner()


def play(*args: str, input: str) -> Any:
    result = runner.invoke(app, ["play", *args], input=input)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def saved_log(output: str) -> Path:
    match = re.search(r"(?:Log saved|Log of the unfinished hand): (\S+\.jsonl)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


# --------------------------------------------------------------------------- choices

LEGAL = tuple(
    parse_action(t) for t in ("mahjong", "kong b3", "discard b3", "discard k5", "discard E")
)
CLAIM = tuple(parse_action(t) for t in ("pung k5", "chow k3", "chow k4", "pass"))


@pytest.mark.parametrize(
    ("text", "legal", "want"),
    [
        ("1", LEGAL, "mahjong"),
        ("5", LEGAL, "discard E"),
        (" 3 ", LEGAL, "discard b3"),
        ("d b3", LEGAL, "discard b3"),
        ("discard k5", LEGAL, "discard k5"),
        ("D O", LEGAL, "discard E"),  # Dutch O for East
        ("k5", LEGAL, "discard k5"),  # a bare tile discards it
        ("k b3", LEGAL, "kong b3"),
        ("kong", LEGAL, "kong b3"),  # the only kong
        ("m", LEGAL, "mahjong"),
        ("p", CLAIM, "pung k5"),
        ("PUNG", CLAIM, "pung k5"),
        ("Discard E", LEGAL, "discard E"),
        ("c k4", CLAIM, "chow k4"),
        ("x", CLAIM, "pass"),
        ("pass", CLAIM, "pass"),
    ],
)
def test_parse_choice(text: str, legal: tuple[Any, ...], want: str) -> None:
    assert parse_choice(text, legal) == parse_action(want)


@pytest.mark.parametrize(
    ("text", "legal", "hint"),
    [
        ("", LEGAL, "number"),
        ("0", LEGAL, "choose 1 to 5"),
        ("6", LEGAL, "choose 1 to 5"),
        ("d t9", LEGAL, "you may: discard b3, discard k5, discard E"),
        ("discard", LEGAL, "which tile"),
        ("c", CLAIM, "which tile"),
        ("pung", LEGAL, "cannot pung"),
        ("zz", LEGAL, "no action or tile"),
        ("d b3 b4", LEGAL, "too many words"),
        ("c k5", CLAIM, "you may: chow k3, chow k4"),
        ("?", LEGAL, "'q' quits"),
    ],
)
def test_parse_choice_hints(text: str, legal: tuple[Any, ...], hint: str) -> None:
    with pytest.raises(Choice) as err:
        parse_choice(text, legal)
    assert hint in str(err.value)


def test_quit_words() -> None:
    for text in ("q", "Q", "quit", "exit"):
        assert parse_choice(text, LEGAL) == QUIT


# --------------------------------------------------------------------------- sessions


def test_whole_hand_choosing_the_first_option(tmp_path: Path) -> None:
    res = play("--seed", "11", "--bots", "random", "--log", str(tmp_path), input="1\n" * 500)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Hand over" in out
    path = saved_log(out)
    assert path.parent == tmp_path
    assert path.name == f"play-{seed_commitment(11)[:12]}-hand01.jsonl"
    log = gamelog.read_hand_log(path)
    checked = gamelog.verify_hand_log(log)
    assert checked.over
    assert log.header.players[0] == "you"
    # every decision of East (you) was prompted once and was the first legal action
    head = log.header
    assert log.result is not None
    game = Game(load_ruleset(head.ruleset), SeedRng(log.result.seed))
    mine = 0
    for line in log.events:
        if line.decided and len(game.events) == line.n:
            if line.seat == 0:
                mine += 1
                assert str(game.legal_actions()[0]) == f"{line.kind} {line.tiles}".strip()
            game.apply(f"{line.kind} {line.tiles}".strip())
    assert out.count("\n> ") + out.startswith("> ") == mine
    # the score and settlement tables are shown
    assert "Balance" in out
    if log.result is not None and log.result.winner is not None:
        assert "Total points" in out and "Payments" in out
    else:
        assert "Remise" in out


def test_other_seats_draws_are_hidden(tmp_path: Path) -> None:
    res = play("--seed", "11", "--bots", "random", "--log", str(tmp_path), input="1\n" * 30)
    out = res.output
    assert re.search(r"^  S random-1 draws$", out, re.M)
    assert not re.search(r"^  [SWN] random-\d draws \S", out, re.M)
    assert re.search(r"^  E you draws \S+ [a-zA-Z]\d?$", out, re.M)


def test_wrong_keys_get_hints(tmp_path: Path) -> None:
    res = play(
        "--seed",
        "4",
        "--bots",
        "random",
        "--log",
        str(tmp_path),
        input="zz\n999\ndiscard\nd b3 b4\n\nq\n",
    )
    assert res.exit_code == 0, res.output
    assert "no action or tile" in res.output
    assert "there is no action 999" in res.output
    assert "which tile" in res.output
    assert "too many words" in res.output
    assert "type the number of an action" in res.output
    assert "Traceback" not in res.output


def test_q_saves_a_log_that_verifies(tmp_path: Path) -> None:
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="1\n1\n1\nq\n")
    assert res.exit_code == 0, res.output
    assert "quit by the player" in res.output
    path = saved_log(res.output)
    check = runner.invoke(app, ["replay", "--verify", str(path)])
    assert check.exit_code == 0, check.output
    assert check.output.startswith("OK: ") and "stopped before its end" in check.output
    result = gamelog.read_hand_log(path).result
    assert result is not None and not result.over and result.reason == "quit by the player"


def test_end_of_input_saves_the_log(tmp_path: Path) -> None:
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="1\n2\n")
    assert res.exit_code == 0, res.output
    assert "end of input" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert not gamelog.verify_hand_log(log).over


def test_ctrl_c_saves_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = iter(["1", "1"])

    def fake_input(prompt: str = "") -> str:
        try:
            return next(calls)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(builtins, "input", fake_input)
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="")
    assert res.exit_code == 130
    assert "interrupted" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert gamelog.verify_hand_log(log).events > 0


def test_default_log_file_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    res = play("--seed", "5", "--bots", "random", input="q\n")
    assert res.exit_code == 0, res.output
    assert (tmp_path / f"play-{seed_commitment(5)[:12]}-hand01.jsonl").is_file()


def test_two_hands_then_balances(tmp_path: Path) -> None:
    res = play(
        "--seed",
        "2",
        "--bots",
        "random",
        "--hands",
        "2",
        "--log",
        str(tmp_path),
        input="1\n" * 1000,
    )
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in tmp_path.iterdir())
    tag = seed_commitment(2)[:12]
    assert files == [f"play-{tag}-hand01.jsonl", f"play-{tag}-hand02.jsonl"]
    for name in files:
        log = gamelog.read_hand_log(tmp_path / name)
        assert gamelog.verify_hand_log(log).over
        assert log.header.hand is not None
    assert "Balances" in res.output and "Hand 2" in res.output


def test_three_player_table_as_west(tmp_path: Path) -> None:
    res = play(
        "--ruleset",
        "nts-2016+three-players",
        "--seed",
        "6",
        "--bots",
        "random,random",
        "--seat",
        "W",
        "--log",
        str(tmp_path),
        input="1\n" * 500,
    )
    assert res.exit_code == 0, res.output
    assert "you are W" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert log.header.players[2] == "you" and log.header.seats == 3
    assert gamelog.verify_hand_log(log).over


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,random"], "one bot name or 3"),
        (["--ruleset", "nts-2016+three-players", "--seat", "N"], "has no N"),
        (["--seat", "X"], "--seat"),
        (["--hands", "2", "--match"], "not both"),
        (["--ruleset", "no-such"], "no-such"),
        (["--lang", "fr"], "--lang"),
    ],
)
def test_bad_options_exit_2(args: list[str], words: str) -> None:
    res = play(*args, input="q\n")
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ") and words in res.stderr


def test_default_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_play, "BOTS", {"random": object()})
    assert cli_play._bot_names(None, 3) == ["random"] * 3
    monkeypatch.setattr(cli_play, "BOTS", {"random": object(), "heuristic": object()})
    assert cli_play._bot_names(None, 2) == ["heuristic"] * 2


def test_glyph_and_token_shown_for_the_drawn_tile(tmp_path: Path) -> None:
    res = play("--seed", "11", "--bots", "random", "--log", str(tmp_path), input="q\n")
    match = re.search(r"drew (\S) ([a-zA-Z]\d?)", res.output)
    assert match
    assert parse_tile(match.group(2)).glyph == match.group(1)


def test_score_table_keeps_open_melds_in_its_title() -> None:
    """The explained score (shared with 'score') shows a hand's [..] melds, not as markup."""
    res = runner.invoke(app, ["score", "F [k777] [b444] [k666] [CCC] +F"])
    assert res.exit_code == 0, res.output
    assert "Hand: F [k777] [b444] [k666] [CCC] +F" in res.output


def test_feed_hides_what_a_seat_cannot_see() -> None:
    """Another seat's drawn tiles, its concealed kong's tile and its decisions on a
    discard are hidden from East; the seat itself (and a spectator) sees them."""
    rules = load_ruleset("nts-2016")
    for seed in range(500):
        game = Game(rules, SeedRng(seed))
        pick = random.Random(seed)
        feeds = {me: cli_play.Feed(me, ["a", "b", "c", "d"]) for me in (0, 1, 2, 3, None)}
        kong_seat = None
        while not game.is_over and kong_seat is None:
            legal = game.legal_actions()
            seat = game.current_seat
            kongs = [a for a in legal if a.kind is ActionKind.KONG]
            concealed = [a for a in kongs if game.hands[seat][a.tile] == 4]  # type: ignore[index]
            act = concealed[0] if concealed and seat != 0 else pick.choice(legal)
            for feed in feeds.values():
                feed.before_apply(game, act)
            game.apply(act)
            if act in concealed:
                kong_seat, tile = seat, act.tile
        if kong_seat is None:
            continue
        seen = {me: "\n".join(feed.lines(game)) for me, feed in feeds.items()}
        assert tile is not None
        label = f"{'ESWN'[kong_seat]} {'abcd'[kong_seat]}"
        assert f"{label} kong (concealed)" in seen[0]
        assert f"{label} kong {tile.glyph} {tile.token}" in seen[kong_seat]
        assert f"{label} kong {tile.glyph} {tile.token}" in seen[None]
        assert re.search(r"^[SWN] \w draws$", seen[0], re.M)
        assert not re.search(r"^[SWN] \w draws ", seen[0], re.M)
        decided_claims = [e for e in game.events if e.kind == "pass" and e.seat != 0]
        if decided_claims:
            assert " passes" not in seen[0].replace("E a passes", "")
            assert " passes" in seen[None]
        return
    raise AssertionError("no concealed kong in 500 seeds")
