"""Fuzzing the commands and the JSON handlers with random and mutated input.

Whatever comes in, a command ends with exit code 0 or 2 (never 1, never an uncaught
exception), prints no traceback, writes a bounded amount, and takes bounded time; a
JSON lines command answers every request line with exactly one JSON object.

The inputs start from valid requests and valid argument lists and are mutated: an
argument dropped, doubled, swapped or replaced by a hostile value (``'²'``, 6000
digits, rich markup, terminal escapes, a 70 KB word), a JSON field deleted, changed
or doubled, the line cut, a byte flipped.  Pure random input rides along.

To fuzz another command, add a :class:`Command` to :data:`COMMANDS`: its name (the
test id), a strategy for its argument list (usually :func:`mutated` over a few valid
lists, see :data:`SCORE_ARGS`), and for a command that reads stdin a strategy for it.
Set ``MAHJONG_FUZZ_SCALE`` to run more examples.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pathlib
import re
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli_helpers import invoke_main
from mahjong_nts.cli import app
from mahjong_nts.formats import wire
from wire_helpers import FIVE_HANDS

runner = CliRunner()

FUZZ_SCALE = int(os.environ.get("MAHJONG_FUZZ_SCALE", "1"))
"""Examples per test, as a multiple of the default (a few seconds for the whole file);
``MAHJONG_FUZZ_SCALE=50`` for a long hunt."""
MAX_OUTPUT_CHARS = 200_000
"""What one invocation may write (stdout and stderr together)."""
MAX_LINE_CHARS = 40_000
"""One JSON answer (a settle response with five scored hands is about 20 KB)."""
MAX_SECONDS = 20.0
"""One invocation: generous for a loaded machine; a hang or a quadratic blow-up is
far beyond it (a normal one takes well under 0.1 s)."""

# --------------------------------------------------------------------------- values

HOSTILE = [
    "",
    " ",
    "-",
    "--",
    "²",
    "٣",
    "1²",
    "-1",
    "0",
    "4",
    "5",
    "none",
    "9" * 6000,
    "0" * 5000 + "7",
    "1e400",
    "NaN",
    "[bold red]x[/]",
    "x[/]",
    "[link=file:///etc/passwd]x[/link]",
    "\x1b[2J\x1b[31mred",
    "a\nb",
    "\x00",
    "\ud800",
    "🀄" * 50,
    "b1 " * 2000,
    "x" * 70_000,
    "nts-2016",
    "nmb-2009+three-players",
    "nmb-2009+five-players",
    "nts-1999",
    "/dev/null",
    "E",
    "F",
    "+C",
    "[CCC]",
    "(CCCC)",
]
"""Strings that have broken commands or are likely to."""

OPTIONS = [
    "--seat",
    "--round",
    "--from",
    "--last-tile",
    "--last-discard",
    "--kong-on-kong",
    "--first-discard",
    "--heaven",
    "--lucky-thirteen",
    "--dead",
    "--ruleset",
    "--lang",
    "--json",
    "--scores",
    "--hand",
    "--east",
    "--winner",
    "--discarder",
    "--dominant",
    "--dreamer",
    "--round-to",
    "--help",
    "--bogus",
]

texts = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=30),
    st.text(st.sampled_from(list("bktESWNOZFCP0123456789[]()+,- ²")), max_size=30),
    st.integers(-(10**15), 10**15).map(str),
)


NUMBERS = ["²", "٣", "1²", "-1", "9" * 6000, "0" * 5000 + "7", "99999999999999", "", "1.5"]
"""What a number on the command line can be instead: digits Python's ``int`` or
``str.isdigit`` take but mean no number here, and numbers past every bound."""

_DIGITS = re.compile(r"[0-9]+")


@st.composite
def mutated(draw: st.DrawFn, bases: list[list[str]], max_steps: int = 3) -> list[str]:
    """One of ``bases`` (valid argument lists) after 0 to ``max_steps`` mutations.

    Values are hit more often than option names: a number inside a value (``1`` in
    ``128,1,0,40``) becomes one of :data:`NUMBERS`, or an option's value becomes a
    hostile string."""
    args = list(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(0, max_steps))):
        step = draw(st.sampled_from("dxsrocNNNVV"))
        where = draw(st.integers(0, len(args)))
        last = min(where, len(args) - 1)
        numbers = [i for i, a in enumerate(args) if _DIGITS.search(a)]
        values = [i for i in range(1, len(args)) if args[i - 1].startswith("-")]
        if step == "d" and args:  # drop one
            del args[last]
        elif step == "x" and args:  # double one
            args.insert(last, args[last])
        elif step == "s" and len(args) > 1:  # swap two
            i, j = sorted(draw(st.lists(st.integers(0, len(args) - 1), min_size=2, max_size=2)))
            args[i], args[j] = args[j], args[i]
        elif step == "r" and args:  # replace one by anything
            args[last] = draw(texts)
        elif step == "o":  # an option, maybe with a value
            args[where:where] = [draw(st.sampled_from(OPTIONS)), draw(texts)][
                : draw(st.integers(1, 2))
            ]
        elif step == "c":  # cut the list short
            args = args[:where]
        elif step == "N" and numbers:  # a number inside a value
            i = draw(st.sampled_from(numbers))
            runs = list(_DIGITS.finditer(args[i]))
            run = runs[draw(st.integers(0, len(runs) - 1))]
            number = draw(st.sampled_from(NUMBERS))
            args[i] = args[i][: run.start()] + number + args[i][run.end() :]
        elif step == "V" and values:  # an option's value
            args[draw(st.sampled_from(values))] = draw(st.sampled_from(HOSTILE))
    return args


# --------------------------------------------------------------------------- score, settle

WINNER = "b123 k456 t789 EEE C +C"
HANDS_4 = ["b111 k55 t23 [CCC] [t456]", "b222 k55 t23 [PPP] [t456]", "b333 k55 t23 [FFF] [t456]"]

SCORE_ARGS = [
    ["score", WINNER],
    ["score", WINNER, "--seat", "S", "--round", "W", "--from", "discard"],
    ["score", "b111 k55 t23 [CCC] [t456]", "--seat", "S", "--lang", "nl"],
    ["score", "b11 k55", "--dead", "-r", "nmb-2009"],
    ["score", WINNER, "--heaven", "--ruleset", "rode-draak"],
    ["score", "b123 b45 CCC k11 [SSS] +b6", "--seat", "S", "-r", "nmb-2009+three-players"],
    ["score", "b1 b9 k1 k9 t1 t9 E S W N F C P +P", "--from", "discard", "--seat", "W"],
]

SETTLE_ARGS = [
    ["settle", "--scores", "128,272,0,40", "--winner", "1", "--discarder", "2", "-r", "nmb-2009"],
    ["settle", "--scores", "1,2,3,4", "--winner", "none"],
    ["settle", "--scores", "125,0,0,0", "--winner", "0", "--round-to", "10", "--east", "3"],
    ["settle", "--scores", "16,64,4", "--winner", "1", "-r", "nmb-2009+three-players"],
    ["settle", "--scores", "40,8,24", "--winner", "0", "--dominant", "2", "--east", "1",
     "-r", "nmb-2009+three-players"],
    ["settle", "--scores", "10,0,60,0,20", "--winner", "2", "--discarder", "4", "--east", "1",
     "--dreamer", "3", "-r", "nmb-2009+five-players", "--lang", "nl"],
    ["settle", "--hand", WINNER, *(x for h in HANDS_4 for x in ("--hand", h))],
    ["settle", "--hand", HANDS_4[0], "--hand", WINNER, "--hand", HANDS_4[1], "--hand",
     HANDS_4[2], "--discarder", "0", "--dead", "3", "--east", "1"],
    ["settle", "-r", "nts-2016+five-players", "--dreamer", "4", "--round", "W",
     "--discarder", "3", "--hand", "[b555] k222 t12 b89 S E F", "--hand",
     "PPP k99 t135 b247 NN", "--hand", "b123 k456 t78 WWW CC +t9", "--hand",
     "[k333] [b666] t44 t67 F S E", "--hand", "-"],
]  # fmt: skip

# --------------------------------------------------------------------------- JSON lines

SCORE_REQUESTS: list[dict[str, Any]] = [
    {
        "seat_wind": "E",
        "round_wind": "E",
        "concealed": "b123 k456 t789 EEE CC",
        "winning_tile": "C",
        "win": {"from": "wall"},
    },
    {
        "seat_wind": "S",
        "round_wind": "E",
        "concealed": "b1 b1 b1 k5 k5 t2 t3",
        "melds": [
            {"kind": "pung", "tiles": "C C C", "open": True},
            {"kind": "chow", "tiles": ["t4", "t5", "t6"]},
        ],
        "ruleset": "nmb-2009",
    },
    {
        "seat_wind": "W",
        "round_wind": "S",
        "concealed": "b1 b1",
        "dead": True,
        "flowers": "f1 s3",
        "ruleset": "nts-2016+flowers",
    },
]
CHOW = {"kind": "chow", "tiles": "t456"}
SETTLE_REQUESTS: list[dict[str, Any]] = [
    {"ruleset": "nmb-2009", "winner": 1, "discarder": 2, "scores": [128, 272, 0, 40]},
    {"winner": None, "scores": [1, 2, 3, 4], "round_to": 10},
    {"ruleset": "nmb-2009+three-players", "winner": 0, "dominant": 2, "scores": [40, 8, 24]},
    {
        "ruleset": "nmb-2009+five-players",
        "east": 1,
        "dreamer": 0,
        "winner": 4,
        "discarder": 2,
        "scores": [0, 30, 20, 12, 100],
    },
    {
        "winner": 0,
        "hands": [
            {k: v for k, v in SCORE_REQUESTS[0].items() if k not in ("seat_wind", "round_wind")},
            {"concealed": "b111 k55 t23", "melds": [{"kind": "pung", "tiles": "CCC"}, CHOW]},
            {"concealed": "b222 k55 t23", "melds": [{"kind": "pung", "tiles": "PPP"}, CHOW]},
            {"concealed": "b333 k55 t23", "dead": True},
        ],
    },
    {
        "ruleset": "nts-2016+five-players",
        "dreamer": 4,
        "round_wind": "W",
        "winner": 2,
        "discarder": 3,
        "hands": FIVE_HANDS,
    },
]
FIELDS = sorted(
    {k for r in SCORE_REQUESTS + SETTLE_REQUESTS for k in r}
    | {"kind", "tiles", "open", "from", "heaven", "last_tile", "lucky_thirteen", "x"}
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 6),
    st.sampled_from([10**12, 10**12 + 1, 10**79, -(10**79), 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([h for h in HOSTILE if len(h) < 10_000]),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(FIELDS), inner),
    max_leaves=12,
)


def _mutate_value(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """``value`` with one change somewhere inside it."""
    if isinstance(value, dict) and value and depth < 4 and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: _mutate_value(draw, value[key], depth + 1)}
    if isinstance(value, list) and value and depth < 4 and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], _mutate_value(draw, value[i], depth + 1), *value[i + 1 :]]
    if isinstance(value, dict):
        step = draw(st.integers(0, 2))
        if step == 0 and value:
            key = draw(st.sampled_from(sorted(value)))
            return {k: v for k, v in value.items() if k != key}
        if step == 1:
            return {**value, draw(st.sampled_from(FIELDS)): draw(json_values)}
    if isinstance(value, list) and draw(st.booleans()):
        return value[: draw(st.integers(0, len(value)))] + draw(st.lists(json_values, max_size=2))
    return draw(json_values)


def _mutate_text(draw: st.DrawFn, text: str) -> str:
    """The JSON text with one change: cut, a character flipped, a key written twice,
    nesting wrapped around it."""
    step = draw(st.integers(0, 3))
    if step == 0:
        return text[: draw(st.integers(0, len(text)))]
    if step == 1:
        i = draw(st.integers(0, len(text)))
        return text[:i] + draw(st.text(min_size=1, max_size=3)) + text[i + 1 :]
    if step == 2 and text.startswith("{") and len(text) > 2:
        key = draw(st.sampled_from(FIELDS))
        return '{"' + key + '": 0, "' + key + '": 1, ' + text[1:]
    depth = draw(st.integers(1, 40))
    return "[" * depth + text + "]" * depth


@st.composite
def request_lines(draw: st.DrawFn, bases: list[dict[str, Any]]) -> str:
    """One request line: a valid request, mutated as a value and as text, or random."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.text(max_size=60))
    if kind == 1:
        return json.dumps(draw(json_values))
    request: Any = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(0, 3))):
        request = _mutate_value(draw, request)
    text = json.dumps(request, ensure_ascii=draw(st.booleans()))
    if kind == 2:
        text = _mutate_text(draw, text)
    return text


@st.composite
def line_streams(draw: st.DrawFn, bases: list[dict[str, Any]]) -> bytes:
    """What a client writes to stdin: a few lines, sometimes blank, CRLF, over-long
    (70 KB), not UTF-8, or without the last newline."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 11))
        if kind == 0:
            parts.append(draw(st.sampled_from([b"", b"   ", b"\t\r"])))
        elif kind == 1:
            parts.append(b'{"x": "' + b"y" * 70_000 + b'"}')
        elif kind == 2:
            parts.append(draw(st.binary(max_size=20)).replace(b"\n", b""))
        else:
            line = draw(request_lines(bases)).encode("utf-8", "surrogatepass")
            parts.append(line.replace(b"\n", b" ").replace(b"\r", b" "))
    ending = draw(st.sampled_from([b"\n", b"\r\n"]))
    data = ending.join(parts)
    return data + ending if draw(st.booleans()) else data


def answered_lines(data: bytes) -> int:
    """How many answers a stream gets: one per line that is not blank."""
    return sum(1 for line in data.split(b"\n") if line.rstrip(b"\r\n").strip())


# --------------------------------------------------------------------------- the table


@dataclasses.dataclass(frozen=True)
class Command:
    """A command to fuzz: its test id, its arguments, stdin when it reads it, and the
    files it finds in its working folder."""

    name: str
    args: st.SearchStrategy[list[str]]
    stdin: st.SearchStrategy[bytes] | None = None
    files: dict[str, st.SearchStrategy[bytes]] = dataclasses.field(default_factory=dict)
    """Files to lay in the (empty, temporary) working folder first."""
    examples: int = 50
    """Examples per run (fewer for commands that play whole hands)."""
    codes: tuple[int, ...] = (0, 2)
    """Exit codes it may end with (``replay --verify``: 1 for a log that does not verify)."""


# --------------------------------------------------------------------------- the other commands

RULES_ARGS = [
    ["rules", "list"],
    ["rules", "show", "nmb-2009"],
    ["rules", "show", "nts-2016+flowers", "--json"],
    ["rules", "diff", "nts-2016", "nmb-2009+three-players"],
]
SIMULATE_ARGS = [
    ["simulate", "--hands", "3", "--seed", "1"],
    ["simulate", "--hands", "2", "--seed", "7", "--bots", "random,random,random", "--json",
     "-r", "nmb-2009+three-players"],
    ["simulate", "--matches", "1", "--seed", "2", "--bots", "random,random,random,random",
     "-r", "nts-2002", "--log", "logs"],
    ["simulate", "--hands", "2", "--jobs", "2", "--seed", "3", "--log", "logs"],
]  # fmt: skip
PLAY_ARGS = [
    ["play", "--seed", "5", "--bots", "random"],
    ["play", "--seed", "6", "--bots", "random", "--seat", "S", "--lang", "nl", "--log", "logs"],
    ["play", "--seed", "7", "--bots", "random,random", "-r", "nmb-2009+three-players",
     "--hands", "2"],
    ["play", "--seed", "8", "--bots", "random", "-r", "rode-draak", "--match"],
]  # fmt: skip
REPLAY_ARGS = [
    ["replay", "play.jsonl"],
    ["replay", "play.jsonl", "--verify"],
    ["replay", "--verify", "play.jsonl", "--ruleset", "nts-2016"],
]
KEYGEN_ARGS = [["keygen", "private.pem", "public.pem"], ["keygen", "--hmac", "shared.key"]]
TOURNAMENT_ARGS = [
    ["tournament", "seat", "--players", "10", "--rounds", "3", "--seed", "1"],
    ["tournament", "seat", "-n", "13", "-r", "2", "--json", "--no-fives"],
    ["tournament", "seat", "-n", "8", "-r", "2", "--clubs", "clubs.csv", "--seed", "2"],
    ["tournament", "seat", "-n", "8", "-r", "3", "--schedule", "schedule.csv", "--json"],
]
CLUBS_FILE = b"player,club\n1,De Draak\n2;Hilversum\n5,De Draak # new\n"
SCHEDULE_FILE = b"round,table,E,S,W,N\n1,1,1,2,3,4\n1,2,5,6,7,8\n"


def small_plans(args: list[str]) -> list[str]:
    """Keep tournament seat short: players past 40 and rounds past 4 (within the
    bounds) become 40 and 4; past the bounds they stay, to be refused."""
    out = list(args)
    for i, arg in enumerate(out[:-1]):
        value = out[i + 1].strip()
        small = value.isascii() and value.isdigit() and len(value) < 10
        if arg in ("--players", "-n") and small and 40 < int(value) <= 400:
            out[i + 1] = "40"
        if arg in ("--rounds", "-r") and small and 4 < int(value) <= 20:
            out[i + 1] = "4"
    return out


@st.composite
def small_files(draw: st.DrawFn, base: bytes) -> bytes:
    """A small CSV file: as given, with a byte changed, cut, or random bytes."""
    kind = draw(st.integers(0, 3))
    if kind == 1:
        i = draw(st.integers(0, len(base) - 1))
        return base[:i] + draw(st.binary(min_size=1, max_size=2)) + base[i + 1 :]
    if kind == 2:
        return base[: draw(st.integers(0, len(base)))]
    if kind == 3:
        return draw(st.binary(max_size=200))
    return base


PLAY_WORDS = ["1", "2", "x", "p", "P", "C", "d b1", "k b3", "m", "announce b2", "?", "", "q"]


@st.composite
def play_input(draw: st.DrawFn) -> bytes:
    """What a player types: numbers, actions, tiles, hostile words; it may end early."""
    words = st.one_of(st.sampled_from(PLAY_WORDS), st.sampled_from(NUMBERS), texts)
    lines = draw(st.lists(words, max_size=60))
    text = "\n".join(w.replace("\n", " ") for w in lines)
    return text.encode("utf-8", "surrogatepass") + draw(st.sampled_from([b"", b"\n"]))


def small_counts(args: list[str]) -> list[str]:
    """Keep simulate short: a count that would run for minutes (but is within the
    bounds) becomes 3, and without a count it plays 3 hands (not the default 2000);
    counts past the bounds stay, to be refused."""
    out = list(args)
    counts = ("--hands", "-n", "--matches", "-m")
    for i, arg in enumerate(out[:-1]):
        value = out[i + 1].strip()
        small = value.isascii() and value.isdigit() and len(value) < 10
        if arg in counts and small and 3 < int(value) <= 1_000_000:
            out[i + 1] = "3"
    if not any(arg in counts for arg in out):
        out += ["--hands", "3"]
    return out


def _logged_hand() -> bytes:
    """A finished hand's log, as ``play`` writes it, for ``replay`` to chew on."""
    from mahjong_nts.core.game import Game
    from mahjong_nts.core.seeding import SeedRng
    from mahjong_nts.formats import gamelog
    from mahjong_nts.formats.rulefiles import load_ruleset

    game = Game(load_ruleset("nts-2016"), SeedRng(4))
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    return gamelog.hand_log_text(game, ruleset="nts-2016", seed=4).encode("utf-8")


LOGGED_HAND = _logged_hand()


@st.composite
def log_files(draw: st.DrawFn) -> bytes:
    """A hand log, whole or with one byte changed, cut, or random bytes."""
    kind = draw(st.integers(0, 3))
    data = LOGGED_HAND
    if kind == 1:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + draw(st.binary(min_size=1, max_size=2)) + data[i + 1 :]
    elif kind == 2:
        data = data[: draw(st.integers(0, len(data)))]
    elif kind == 3:
        data = draw(st.binary(max_size=200))
    return data


COMMANDS = [
    Command("score", mutated(SCORE_ARGS)),
    Command("settle", mutated(SETTLE_ARGS)),
    Command("score --json", st.just(["score", "--json"]), line_streams(SCORE_REQUESTS)),
    Command("settle --json", st.just(["settle", "--json"]), line_streams(SETTLE_REQUESTS)),
    Command("rules", mutated(RULES_ARGS)),
    Command("simulate", mutated(SIMULATE_ARGS).map(small_counts), examples=15),
    Command("play", mutated(PLAY_ARGS), play_input(), examples=15),
    Command("replay", mutated(REPLAY_ARGS), files={"play.jsonl": log_files()}, codes=(0, 1, 2)),
    Command("keygen", mutated(KEYGEN_ARGS), examples=15),
    Command(
        "tournament",
        mutated(TOURNAMENT_ARGS).map(small_plans),
        files={"clubs.csv": small_files(CLUBS_FILE), "schedule.csv": small_files(SCHEDULE_FILE)},
        examples=30,
    ),
    Command("help", mutated([["--help"], ["score", "--help"], ["rules", "show", "--help"]])),
]


def is_group_help(err: str) -> bool:
    """A group of commands named with nothing after it (``mahjong-nts``, ``mahjong-nts
    rules``) prints its whole help, ``Usage:`` line included, on stderr and exits 2 (as
    ``--help`` would print it on stdout, exit 0): a help page, no error in it."""
    return (
        err.startswith("Usage: mahjong-nts")
        and "\nOptions:\n" in err
        and "\nCommands:\n" in err
        and "Error" not in err
    )


def check_run(args: list[str], stdin: bytes | None, codes: tuple[int, ...] = (0, 2)) -> Any:
    """Run the command as the console script does (:func:`mahjong_nts.cli.main`) and
    check what every run must satisfy; return the result."""
    start = time.perf_counter()
    result = invoke_main(args, input=stdin, runner=runner)
    elapsed = time.perf_counter() - start
    shown = f"{args!r:.300} stdin={stdin!r:.300}"
    assert result.exception is None, (shown, repr(result.exception))
    assert result.exit_code in codes, (shown, result.exit_code)
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err, shown
    assert "\x1b" not in out + err, shown  # no colours here: an escape came from the input
    assert len(out) + len(err) <= MAX_OUTPUT_CHARS, (shown, len(out), len(err))
    assert elapsed < MAX_SECONDS, (shown, elapsed)
    if result.exit_code == 2 and not is_group_help(err):
        # bad input, usage errors included: one line "error: ...", bounded; no Usage block
        assert "Usage:" not in err, (shown, err[:300])
        assert err.startswith("error: "), (shown, err[:300])
        assert err.count("\n") == 1 and len(err) <= wire.MAX_ERROR_CHARS + 20, (shown, err)
    elif err.startswith("error: "):  # our own errors: one line, bounded
        assert err.count("\n") == 1 and len(err) <= wire.MAX_ERROR_CHARS + 20, (shown, err)
    return result


def check_answer(line: str) -> None:
    """One answer: a JSON object on one line; an error is short and names no bug."""
    assert "\n" not in line and len(line) <= MAX_LINE_CHARS
    answer = json.loads(line)
    assert isinstance(answer, dict)
    if "error" in answer:
        assert set(answer) == {"error"}
        assert 0 < len(answer["error"]) <= wire.MAX_ERROR_CHARS
        assert not answer["error"].startswith("internal error"), answer["error"]


def check_json_answers(stdin: bytes, stdout: str) -> None:
    """One answer per request line, in order."""
    answers = stdout.splitlines()
    assert len(answers) == answered_lines(stdin), (stdin[:300], stdout[:300])
    for line in answers:
        check_answer(line)


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_fuzz_command(command: Command) -> None:
    @settings(
        max_examples=command.examples * FUZZ_SCALE,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        args = data.draw(command.args, label="args")
        stdin = data.draw(command.stdin, label="stdin") if command.stdin is not None else None
        files = {name: data.draw(content, label=name) for name, content in command.files.items()}
        # an empty working folder: whatever a command writes lands there
        with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
            for name, content in files.items():
                pathlib.Path(name).write_bytes(content)
            result = check_run(args, stdin, command.codes)
        if stdin is not None and args and args[-1] == "--json":
            assert result.exit_code == 0, result.output
            check_json_answers(stdin, result.stdout)

    run()


# --------------------------------------------------------------------------- the handlers

HANDLERS: list[tuple[str, Callable[[bytes], str], list[dict[str, Any]]]] = [
    ("score", wire.answer_score_line, SCORE_REQUESTS),
    ("settle", wire.answer_settle_line, SETTLE_REQUESTS),
]


@pytest.mark.parametrize(
    ("answer", "bases"), [h[1:] for h in HANDLERS], ids=[h[0] for h in HANDLERS]
)
@settings(max_examples=60 * FUZZ_SCALE, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_json_handler(
    answer: Callable[[bytes], str], bases: list[dict[str, Any]], data: st.DataObject
) -> None:
    """The handlers themselves (what a server calls): many more lines per second."""
    line = data.draw(request_lines(bases)).encode("utf-8", "surrogatepass")
    start = time.perf_counter()
    text = answer(line)
    assert time.perf_counter() - start < MAX_SECONDS
    check_answer(text)


def test_the_valid_bases_are_valid() -> None:
    """The mutations start from requests and argument lists that succeed."""
    for request in SCORE_REQUESTS:
        assert "error" not in wire.handle_score_line(json.dumps(request)), request
    for request in SETTLE_REQUESTS:
        assert "error" not in wire.handle_settle_line(json.dumps(request)), request
    for args in SCORE_ARGS + SETTLE_ARGS:
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
