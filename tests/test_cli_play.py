"""``mahjong-nts play``: scripted sessions through piped input; the choice parser."""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli_helpers import run_cli
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
        ("d O", LEGAL, "discard E"),  # Dutch O for East
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
        ("?", LEGAL, "'P' is the white dragon, 'C' the red one"),
        # '²' is a digit to str.isdigit, and int('²') raised ValueError (the game was lost)
        ("²", LEGAL, "'²' is no action or tile"),
        ("1²", LEGAL, "'1²' is no action or tile"),
        ("٣", LEGAL, "no action or tile"),  # an Arabic-Indic three: not an action number
        ("9" * 5000, LEGAL, "characters"),  # past int()'s 4300-digit limit: no ValueError
        ("9" * 150, LEGAL, "there is no action 999999999...: choose 1 to 5"),
        ("D O", LEGAL, "the shortcuts are lowercase ('d')"),
        ("Q", LEGAL, "'Q' is no tile; the shortcuts are lowercase ('q')"),
        ("P", CLAIM, "you cannot discard now"),  # a tile, never a pung
        ("C", CLAIM, "you cannot discard now"),  # a tile, never a chow
        ("C k4", CLAIM, "the shortcuts are lowercase ('c')"),
        ("grab b3", LEGAL, "'grab' is no action: one of"),
    ],
)
def test_parse_choice_hints(text: str, legal: tuple[Any, ...], hint: str) -> None:
    with pytest.raises(Choice) as err:
        parse_choice(text, legal)
    assert hint in str(err.value)


def test_quit_words() -> None:
    for text in ("q", "quit", "QUIT", "exit", "Exit"):
        assert parse_choice(text, LEGAL) == QUIT


DRAGONS = tuple(parse_action(t) for t in ("discard P", "discard C", "discard b3", "pass"))
DRAGON_CLAIMS = tuple(parse_action(t) for t in ("pung P", "chow b2", "pass"))


@pytest.mark.parametrize(
    ("text", "legal", "want"),
    [
        # capital letters are tiles: P the white dragon, C the red one (they were read
        # as pung and chow, so those tiles could not be discarded by name)
        ("P", DRAGONS, "discard P"),
        ("C", DRAGONS, "discard C"),
        ("d P", DRAGONS, "discard P"),
        ("discard C", DRAGONS, "discard C"),
        ("wit", DRAGONS, "discard P"),
        ("rood", DRAGONS, "discard C"),
        # lowercase p and c are the shortcuts; the words in any case
        ("p", DRAGON_CLAIMS, "pung P"),
        ("p P", DRAGON_CLAIMS, "pung P"),
        ("Pung P", DRAGON_CLAIMS, "pung P"),
        ("c", DRAGON_CLAIMS, "chow b2"),
        ("CHOW b2", DRAGON_CLAIMS, "chow b2"),
    ],
)
def test_dragons_by_name_and_the_lowercase_shortcuts(
    text: str, legal: tuple[Any, ...], want: str
) -> None:
    assert parse_choice(text, legal) == parse_action(want)


def test_parse_choice_never_fails_but_with_a_hint() -> None:
    """Any text at the prompt is an action, ``QUIT`` or a :class:`Choice` hint of one
    bounded line: never another exception (a typed '²' lost the game)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = st.sampled_from(
        [
            "1",
            "5",
            "0",
            "²",
            "p",
            "P",
            "c",
            "C",
            "d",
            "D",
            "q",
            "x",
            "b3",
            "k5",
            "E",
            "O",
            "pung",
            "discard",
            "chow",
            "kong",
            "mahjong",
            "pass",
            "?",
            "٣",
            "🀄",
            "\x1b[2J",
        ]
    )
    texts = st.one_of(
        st.text(max_size=300),
        st.lists(st.one_of(words, st.text(max_size=12)), max_size=4).map(" ".join),
    )

    @settings(max_examples=400)
    @given(text=texts, legal=st.sampled_from([LEGAL, CLAIM, DRAGONS, DRAGON_CLAIMS]))
    def check(text: str, legal: tuple[Any, ...]) -> None:
        try:
            out = parse_choice(text, legal)
        except Choice as hint:
            message = str(hint)
            assert message and (message == cli_play.KEYS or len(message) <= 300), message
            assert "\n" not in message and "\x1b" not in message
        else:
            assert out == QUIT or out in legal

    check()


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

    def fake_input(console: Console, prompt: str, stream: Any = None) -> str:
        try:
            return next(calls)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(cli_play, "read_line", fake_input)
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
    # the first hand's report stays until Enter: the prompt comes between the hands
    first_saved = res.output.index("Log saved:")
    wait = res.output.index("Press Enter for the next hand (q quits)")
    assert first_saved < wait < res.output.index("Hand 2")
    assert res.output.count("Press Enter for the next hand") == 1  # not after the last


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
    rules = load_ruleset("nts-2016")
    monkeypatch.setattr(cli_play, "BOTS", {"random": object()})
    assert cli_play._bot_names(None, 3, rules) == ["random"] * 3
    monkeypatch.setattr(cli_play, "BOTS", {"random": object(), "heuristic": object()})
    assert cli_play._bot_names(None, 2, rules) == ["heuristic"] * 2


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


# --------------------------------------------------------------------------- ending cleanly


def scripted(monkeypatch: pytest.MonkeyPatch, answer: Any) -> list[str]:
    """Answer the session's prompts with ``answer(prompt)`` (a line, or it raises as
    Ctrl-D or Ctrl-C would); the prompts seen, in order."""
    prompts: list[str] = []

    def fake_input(console: Console, prompt: str, stream: Any = None) -> str:
        prompts.append(prompt)
        return str(answer(prompt))

    monkeypatch.setattr(cli_play, "read_line", fake_input)
    return prompts


def test_a_huge_line_at_the_prompt_is_skipped_with_one_short_hint(tmp_path: Path) -> None:
    """Issue 8: a line of megabytes at a prompt was read whole (a 200 MB one hung the
    game) and echoed whole; now at most MAX_INPUT + 1 characters are kept, the rest of
    the line is skipped, one bounded hint is shown and the game goes on."""
    huge = "d" * 3_000_000
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input=f"{huge}\n1\nq\n")
    assert res.exit_code == 0, res.output[-2000:]
    assert len(res.output) < 50_000
    hint = "a line of more than 200 characters, starting 'dddddddddddddddddddd': type"
    assert " ".join(res.output.split()).count(hint) == 1
    log = gamelog.read_hand_log(saved_log(res.output))
    assert any(e.decided and e.seat == 0 for e in log.events)  # the '1' after it was played


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("1\n", ["1"]),
        ("1\r\nq", ["1", "q"]),  # a last line without its line end
        ("x" * 200 + "\n2\n", ["x" * 200, "2"]),  # exactly the bound
        ("x" * 201 + "\n2\n", [None, "2"]),
        ("x" * 200_000 + "\n\n", [None, ""]),
        ("x" * 200_000, [None]),  # too long, then end of input
    ],
)
def test_read_line_keeps_at_most_the_bound(text: str, lines: list[str | None]) -> None:
    import io

    stream = io.StringIO(text)
    console = Console(file=io.StringIO())
    for want in lines:
        if want is None:
            with pytest.raises(cli_play.TooLong) as info:
                cli_play.read_line(console, "> ", stream)
            assert info.value.start == "x" * cli_play.MAX_INPUT
        else:
            assert cli_play.read_line(console, "> ", stream) == want
    with pytest.raises(EOFError):
        cli_play.read_line(console, "> ", stream)


def test_typing_a_superscript_two_keeps_the_game(tmp_path: Path) -> None:
    """'²' is a digit to str.isdigit: int('²') raised and the game was lost, with no log."""
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="²\n1\nq\n")
    assert res.exit_code == 0, res.output
    assert "'²' is no action or tile" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert any(e.decided and e.seat == 0 for e in log.events)  # the '1' after it was played


@pytest.mark.parametrize(
    ("stop", "code", "reason"),
    [(EOFError, 0, "end of input"), (KeyboardInterrupt, 130, "interrupted")],
)
def test_ctrl_d_and_ctrl_c_at_the_action_prompt(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stop: type[BaseException],
    code: int,
    reason: str,
) -> None:
    answers = iter(["1", "1"])

    def answer(prompt: str) -> str:
        for line in answers:
            return line
        raise stop

    scripted(monkeypatch, answer)
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="")
    assert res.exit_code == code, res.output
    assert f"Stopped ({reason}). Log of the unfinished hand" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert not gamelog.verify_hand_log(log).over
    assert log.result is not None and log.result.reason == reason
    assert sum(1 for e in log.events if e.decided and e.seat == 0) == 2


@pytest.mark.parametrize(
    ("stop", "code", "reason"),
    [
        (EOFError, 0, "end of input"),
        (KeyboardInterrupt, 130, "interrupted"),
        ("q", 0, "quit by the player"),
    ],
)
def test_the_report_waits_for_enter_and_ctrl_d_or_ctrl_c_there_end_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: Any, code: int, reason: str
) -> None:
    def answer(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            if isinstance(stop, str):
                return stop
            raise stop
        return "1"

    prompts = scripted(monkeypatch, answer)
    args = ("--seed", "2", "--bots", "random", "--hands", "3", "--log", str(tmp_path))
    res = play(*args, input="")
    assert res.exit_code == code, res.output
    assert prompts[-1] == "Press Enter for the next hand (q quits) "
    assert prompts.count(prompts[-1]) == 1
    assert f"Stopped ({reason})." in res.output and "Balances" in res.output
    assert "Hand 2" not in res.output
    (only,) = tmp_path.iterdir()  # the finished first hand, and nothing half-written
    assert only.name == f"play-{seed_commitment(2)[:12]}-hand01.jsonl"
    assert gamelog.verify_hand_log(gamelog.read_hand_log(only)).over


def test_ctrl_c_while_a_bot_thinks_keeps_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mahjong_nts.bots.base import RandomBot

    real = RandomBot.act
    calls = []

    def act(self: RandomBot, obs: Any) -> Any:
        calls.append(1)
        if len(calls) == 7:
            raise KeyboardInterrupt
        return real(self, obs)

    monkeypatch.setattr(RandomBot, "act", act)
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="1\n" * 50)
    assert res.exit_code == 130, res.output
    assert "Stopped (interrupted). Log of the unfinished hand" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert gamelog.verify_hand_log(log).events > 0
    assert sum(1 for e in log.events if e.decided and e.seat != 0) == 6


def test_ctrl_c_while_the_report_is_shown_keeps_the_finished_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(self: Any, game: Any, names: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_play.Session, "_show_result", interrupted)
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="1\n" * 500)
    assert res.exit_code == 130, res.output
    match = re.search(r"Stopped \(interrupted\)\. Log saved: (\S+)", res.output)
    assert match, res.output[-500:]
    assert gamelog.verify_hand_log(gamelog.read_hand_log(Path(match.group(1)))).over


@pytest.fixture
def sigint_default() -> Iterator[None]:
    """Ctrl-C as an interactive Python process has it (a run started in the background
    inherits it ignored), put back as it was afterwards."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("sigint_default")
def test_held_interrupts_finish_their_step_first() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt), cli_play._held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        steps.append("after the signal")
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_held_interrupts_leave_an_ignored_ctrl_c_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        steps = []
        with cli_play._held_interrupts():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("after the signal")
        assert steps == ["after the signal"]  # and no KeyboardInterrupt
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_stdin_closed_in_the_middle_of_a_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["1"])

    def answer(prompt: str) -> str:
        for line in answers:
            return line
        raise ValueError("I/O operation on closed file.")

    scripted(monkeypatch, answer)
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="")
    assert res.exit_code == 2, res.output
    assert "Stopped (input closed)" in res.output
    assert not gamelog.verify_hand_log(gamelog.read_hand_log(saved_log(res.output))).over


def test_play_with_stdin_from_dev_null(tmp_path: Path) -> None:
    import subprocess

    res = run_cli(
        "play",
        "--seed",
        "8",
        "--bots",
        "random",
        cwd=tmp_path,
        columns=100,
        stdin=subprocess.DEVNULL,
    )
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    assert "Stopped (end of input)" in res.stdout
    assert (tmp_path / f"play-{seed_commitment(8)[:12]}-hand01.jsonl").is_file()


def test_play_with_stdin_closed_outright(tmp_path: Path) -> None:
    """``mahjong-nts play <&-``: sys.stdin is None (AttributeError on isatty before)."""
    import os

    res = run_cli(
        "play",
        "--seed",
        "8",
        "--bots",
        "random",
        cwd=tmp_path,
        columns=100,
        preexec_fn=lambda: os.close(0),
    )
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stderr == (
        "error: stdin is closed: play reads your moves from it (a terminal or a pipe)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_seed_out_of_range_and_bad_bots_and_files(tmp_path: Path) -> None:
    folder = tmp_path / "rules.toml"
    folder.mkdir()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cases = [
        (["--seed", str(2**256)], "error: --seed: a seed is a whole number from 0 to 2**256 - 1"),
        (["--seed", "9" * 6000], "--seed"),
        (["--seed", "-1"], "error: --seed: a seed is a whole number from 0 to 2**256 - 1"),
        (["--bots", "random,,random"], "error: --bots: an empty bot name"),
        (["--bots", ""], "error: --bots: an empty bot name"),
        (["--bots", "r" * 5000], "error: --bots: 5000 characters is too long"),
        (["--bots", "[bold]x[/]"], "error: --bots: unknown bot '[bold]x[/]': one of"),
        (["--ruleset", str(folder)], "error: --ruleset:"),
        (["--log", str(blocker / "logs")], "error: --log: cannot write hand logs to"),
    ]
    for args, message in cases:
        res = play(*args, input="1\n" * 10)
        assert res.exit_code == 2, (args, res.output)
        assert message in res.stderr, (args, res.stderr)
        assert "Traceback" not in res.output and len(res.stderr) < 400
        assert res.stdout == "", args  # checked before any hand is dealt
    assert not (blocker / "logs").exists()


@pytest.mark.parametrize("name", ["[bold red]x[/]", "x[/]", "[link=http://a]y"])
def test_house_rule_names_are_never_markup(tmp_path: Path, name: str) -> None:
    house = tmp_path / "house.toml"
    house.write_text(f'base = "nts-2016"\nname = "{name}"\n', encoding="utf-8")
    res = play(
        "--ruleset",
        str(house),
        "--seed",
        "3",
        "--bots",
        "random",
        "--log",
        str(tmp_path),
        input="1\n" * 500,
    )
    assert res.exit_code == 0, res.output[-1500:]
    assert f"Rule set: {name}" in res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    assert gamelog.verify_hand_log(log, rules=load_ruleset(str(house))).over


def _first_hand(seed: int) -> Game:
    """The first hand ``play --seed`` deals (the match's first hand)."""
    from mahjong_nts.core.match import Match

    match = Match(load_ruleset("nts-2016"), SeedRng(seed, "match"), SeedRng)
    return match.next_hand()[1]


@pytest.mark.parametrize(("typed", "token"), [("P", "P"), ("C", "C")])
def test_discarding_a_dragon_by_its_capital_letter(tmp_path: Path, typed: str, token: str) -> None:
    tile = parse_tile(token)
    seed = next(s for s in range(200) if _first_hand(s).hands[0][tile])
    res = play(
        "--seed", str(seed), "--bots", "random", "--log", str(tmp_path), input=f"{typed}\nq\n"
    )
    assert res.exit_code == 0, res.output
    log = gamelog.read_hand_log(saved_log(res.output))
    mine = [e for e in log.events if e.decided and e.seat == 0]
    assert [(e.kind, e.tiles) for e in mine] == [("discard", token)]


def test_fuzzed_sessions_end_cleanly_with_a_log(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Random lines at the prompts: the session ends with exit 0 (end of input or q),
    never a traceback, and the hand's log verifies."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    line = st.one_of(
        st.sampled_from(["1", "2", "13", "p", "P", "c", "C", "x", "m", "d", "k", "?", "", "Q"]),
        st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t),
    )

    @settings(max_examples=25)
    @given(lines=st.lists(line, max_size=40), seed=st.integers(0, 2**256 - 1))
    def check(lines: list[str], seed: int) -> None:
        folder = tmp_path_factory.mktemp("fuzz")
        text = "".join(f"{x}\n" for x in lines)
        res = play("--seed", str(seed), "--bots", "random", "--log", str(folder), input=text)
        assert res.exit_code == 0, res.output[-800:]
        assert "Traceback" not in res.output
        (log,) = folder.iterdir()
        gamelog.verify_hand_log(gamelog.read_hand_log(log))

    check()


def test_piped_input_is_echoed_without_its_escapes(tmp_path: Path) -> None:
    """Found by the fuzz suite: a line from a pipe was echoed raw, so a terminal
    escape in it reached the terminal."""
    res = play(
        "--seed", "5", "--bots", "random", "--log", str(tmp_path), input="\x1b[2J\x1b[31mred\n"
    )
    assert "\x1b" not in res.output
    assert "\\x1b[2J\\x1b[31mred" in res.output


def test_the_same_seed_twice_keeps_both_logs(tmp_path: Path) -> None:
    """Issue 8: play with the same seed twice replaced the first log (same name); the
    second takes the next free name and the first stays as it was."""
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="1\nq\n")
    first = saved_log(res.output)
    text = first.read_bytes()
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="2\nq\n")
    second = saved_log(res.output)
    assert second.name == first.name.removesuffix(".jsonl") + "-2.jsonl"
    assert first.read_bytes() == text != second.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])


def test_no_free_log_name_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_NAME_ATTEMPTS taken names the log is refused with one line, exit 2, and
    no temporary file is left behind."""
    monkeypatch.setattr(gamelog, "MAX_NAME_ATTEMPTS", 3)
    name = f"play-{seed_commitment(8)[:12]}-hand01"
    taken = [f"{name}.jsonl", f"{name}-2.jsonl", f"{name}-3.jsonl"]
    for n in taken:
        (tmp_path / n).write_text("mine\n")
    res = play("--seed", "8", "--bots", "random", "--log", str(tmp_path), input="q\n")
    assert res.exit_code == 2, res.output
    assert f"-2.jsonl .. {name}-3.jsonl are all taken" in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(taken)
    assert all((tmp_path / n).read_text() == "mine\n" for n in taken)


def test_undecodable_input_is_a_word_that_is_no_move(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 (a lone surrogate's encoding) at the prompt are answered
    like any other word that names no move; the game goes on to the end of input."""
    from cli_helpers import invoke_main

    with contextlib.chdir(tmp_path):
        res = invoke_main(["play", "--seed", "3", "--bots", "random"], input=b"\xed\xa0\x80\nq\n")
    assert res.exit_code == 0, (res.stdout[-500:], res.stderr)
    assert "is no action or tile" in res.stdout
    assert "Stopped (quit by the player)" in res.stdout
    assert res.stderr == ""


@pytest.mark.parametrize(
    ("count", "says"),
    [("0", "at least 1, not 0"), ("1001", "at most 1000, not 1001"), ("9" * 100, "at most 1000")],
)
def test_play_hands_out_of_range_is_one_error_line(count: str, says: str) -> None:
    from cli_helpers import invoke_main

    res = invoke_main(["play", "--hands", count, "--bots", "random"], input=b"")
    assert res.exit_code == 2
    assert res.stderr.startswith(f"error: --hands must be {says}")
    assert res.stderr.count("\n") == 1 and len(res.stderr) < 200
