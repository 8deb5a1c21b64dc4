"""The mahjong-nts command: human output, JSON lines mode, bad input (exit 2, no traceback)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli_helpers import run_cli
from mahjong_nts.cli import app, main
from server_helpers import running_server

runner = CliRunner()

WINNER = "b123 k456 t789 EEE C +C"  # East, self-drawn: 36 points, 4 doublings = 576


def invoke(*args: str, input: str | None = None) -> Any:
    result = runner.invoke(app, list(args), input=input)
    # never an uncaught exception: only SystemExit from typer
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), result.exception
    return result


# --------------------------------------------------------------------------- score


def test_score_human() -> None:
    result = invoke("score", WINNER, "--seat", "E", "--round", "E", "--from", "wall")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in (
        "Mahjong",
        "Verborgen schat",
        "Fully concealed hand",
        "576",
        "allowed",
        "Arrangement",
        "b123",
        "\U0001f010",
    ):
        assert text in out, text


def test_score_dutch_labels_and_aliases() -> None:
    result = invoke("score", WINNER, "--seat", "oost", "--round", "O", "--lang", "nl")
    assert result.exit_code == 0, result.output
    assert "Verdubbelingen" in result.stdout and "toegestaan" in result.stdout
    assert "576" in result.stdout


def test_score_refused_mahjong_shows_reason() -> None:
    result = invoke("score", WINNER, "--seat", "S", "--from", "discard")
    assert result.exit_code == 0
    assert "refused" in result.stdout


def test_score_non_winner_and_dead() -> None:
    result = invoke("score", "b111 k55 t23 [CCC] [t456]", "--seat", "S")
    assert result.exit_code == 0, result.output
    assert "Mahjong " not in result.stdout  # no verdict line for a non-winner
    result = invoke("score", "b111 k55", "--dead")
    assert result.exit_code == 0, result.output
    assert "Dead hand" in result.stdout
    result = invoke("score", "b111 k55")
    assert result.exit_code == 2
    assert "a wrong number of tiles is a dead hand (score it as a dead hand)" in result.output


def test_score_green_dragon_round() -> None:
    result = invoke("score", WINNER, "--round", "F", "--ruleset", "nmb-2009+three-players")
    assert result.exit_code in (0, 2), result.output  # t789 may not be in a 3-player set
    assert "Traceback" not in result.output


def test_score_json_lines() -> None:
    good = {
        "seat_wind": "E",
        "round_wind": "E",
        "concealed": "b123 k456 t789 EEE CC",
        "winning_tile": "C",
        "win": {"from": "wall"},
    }
    lines = [
        json.dumps(good),
        "",
        "not json",
        "   ",
        json.dumps({"seat_wind": "E"}),
        json.dumps({**good, "ruleset": "nmb-2009"}),
    ]
    result = invoke("score", "--json", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 4  # blank lines skipped
    assert out[0]["score"] == 576 and out[0]["ruleset"] == "nts-2016"
    assert "error" in out[1] and "invalid JSON" in out[1]["error"]
    assert "error" in out[2] and "round_wind" in out[2]["error"]
    assert out[3]["ruleset"] == "nmb-2009"


def test_score_json_rejects_notation() -> None:
    result = invoke("score", WINNER, "--json", input="")
    assert result.exit_code == 2
    assert "error:" in result.stderr


def test_score_json_subprocess_invalid_utf8() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "score", "--json"],
        input=b'\xff\n{"seat_wind": "E"}\n',
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(out) == 2
    assert "UTF-8" in out[0]["error"]


def test_json_lines_go_on_after_an_overlong_line() -> None:
    good = json.dumps(
        {
            "seat_wind": "E",
            "round_wind": "E",
            "concealed": "b123 k456 t789 EEE CC",
            "winning_tile": "C",
        }
    )
    lines = [good, "x" * 200_000, '{"seat_wind": "E", "seat_wind": "S"}', good]
    result = invoke("score", "--json", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("score") for o in out] == [576, None, None, 576]
    assert out[1] == {
        "error": "the line is longer than 65536 bytes: a request has at most 65536 bytes"
    }
    assert out[2] == {"error": "duplicate key 'seat_wind' in an object"}


def test_json_lines_ten_megabytes_subprocess() -> None:
    """Regression: a 10 MB line was parsed whole and echoed back in the error."""
    request = {"winner": 0, "scores": [1, 2, 3, 4], "pad": "z" * 10_000_000}
    data = (json.dumps(request) + "\n" + json.dumps({**request, "pad": None})).encode()
    proc = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "settle", "--json"],
        input=data,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == b""
    first, second = proc.stdout.decode().splitlines()
    assert json.loads(first)["error"].startswith("the line is longer than 65536 bytes")
    assert json.loads(second) == {"error": "pad: unknown field"}


# --------------------------------------------------------------------------- settle

BOOK_2009 = (
    "settle",
    "--scores",
    "128,272,0,40",
    "--winner",
    "1",
    "--discarder",
    "2",
    "--east",
    "0",
    "--ruleset",
    "nmb-2009",
)


def test_settle_scores_2009_example() -> None:
    result = invoke(*BOOK_2009)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("-56", "+1088", "-712", "-320", "West pays", "South"):
        assert text in out, text


def test_settle_json_2009_example() -> None:
    request = {
        "ruleset": "nmb-2009",
        "east": 0,
        "winner": 1,
        "discarder": 2,
        "scores": [128, 272, 0, 40],
    }
    result = invoke("settle", "--json", input=json.dumps(request) + "\n[]\n")
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["balances"] == [-56, 1088, -712, -320]
    assert [2, 1, 544] in first["payments"]
    assert "error" in second


def test_settle_hands() -> None:
    result = invoke(
        "settle",
        "--hand",
        "b123 k456 t789 EEE C +C",  # seat 0, East, self-drawn winner
        "--hand",
        "b111 k55 t23 [CCC] [t456]",
        "--hand",
        "b222 k55 t23 [PPP] [t456]",
        "--hand",
        "b333 k55 t23 [FFF] [t456]",
    )
    assert result.exit_code == 0, result.output
    assert "576" in result.stdout and "Payments" in result.stdout


def test_settle_hands_winner_must_be_allowed() -> None:
    result = invoke(
        "settle",
        "--hand",
        "b111 k55 t23 [CCC] [t456]",
        "--hand",
        "b123 k456 t789 EEE C +C",  # South on a discard: only 1 doubling
        "--hand",
        "b222 k55 t23 [PPP] [t456]",
        "--hand",
        "b333 k55 t23 [FFF] [t456]",
        "--discarder",
        "2",
    )
    assert result.exit_code == 2
    assert "error: --hand 1: the winner's hand may not go mahjong" in result.stderr


def test_settle_remise() -> None:
    result = invoke("settle", "--scores", "1,2,3,4", "--winner", "none")
    assert result.exit_code == 0, result.output
    assert "Remise" in result.stdout


def test_settle_round_to() -> None:
    result = invoke(
        "settle",
        "--scores",
        "125,0,0,0",
        "--winner",
        "0",
        "--ruleset",
        "nmb-2009",
        "--round-to",
        "10",
    )
    assert result.exit_code == 0, result.output
    assert "130" in result.stdout


def test_settle_three_players() -> None:
    """nmb-2009 at three (Drie spelers): South wins 64 on West's discard: 64 from
    East, 2 x 64 from West; West pays East 16 - 4."""
    result = invoke(
        "settle",
        "--scores",
        "16,64,4",
        "--winner",
        "1",
        "--discarder",
        "2",
        "-r",
        "nmb-2009+three-players",
    )
    assert result.exit_code == 0, result.output
    rows = [line.split("│")[1:4] for line in result.stdout.splitlines() if "│" in line]
    assert [[c.strip() for c in row] for row in rows] == [
        ["0 East", "16", "-52"],
        ["1 South *", "64", "+192"],
        ["2 West", "4", "-140"],
    ]
    assert "2 West pays 0 East 12" in result.stdout
    assert "2 West pays 1 South 128" in result.stdout


def test_settle_five_players_dreamer_sits_out() -> None:
    """nmb-2009 at five: seat 3 dreams; East is seat 1, so 2 South, 4 West, 0 North.
    South wins 60 on West's discard: 60 from seats 0 and 1, 120 from West.  Losers
    10 (North), 0 (East), 20 (West): East pays North 10 and West 20, North pays West 10."""
    result = invoke(
        "settle",
        "--scores",
        "10,0,60,0,20",
        "--winner",
        "2",
        "--discarder",
        "4",
        "--east",
        "1",
        "--dreamer",
        "3",
        "-r",
        "nmb-2009+five-players",
        "--lang",
        "nl",
    )
    assert result.exit_code == 0, result.output
    rows = [line.split("│")[1:4] for line in result.stdout.splitlines() if "│" in line]
    assert [[c.strip() for c in row] for row in rows] == [
        ["0 Noord", "10", "-60"],
        ["1 Oost", "0", "-90"],
        ["2 Zuid *", "60", "+240"],
        ["3 dromer", "-", "0"],
        ["4 West", "20", "-90"],
    ]
    assert "3 dromer" not in result.stdout.split("Betalingen")[1]


def test_settle_five_players_from_hands() -> None:
    """nts-2016 at five (the hands of test_wire's five-player example): seat 4
    dreams, East (seat 0) pays double; West wins 120 on North's discard."""
    result = invoke(
        "settle",
        "-r",
        "nts-2016+five-players",
        "--dreamer",
        "4",
        "--round",
        "W",
        "--discarder",
        "3",
        "--hand",
        "[b555] k222 t12 b89 S E F",
        "--hand",
        "PPP k99 t135 b247 NN",
        "--hand",
        "b123 k456 t78 WWW CC +t9",
        "--hand",
        "[k333] [b666] t44 t67 F S E",
        "--hand",
        "-",
    )
    assert result.exit_code == 0, result.output
    assert "Sits this hand out (the dreamer)." in result.stdout
    for text in ("-256", "-88", "+480", "-136", "0 East pays 2 West 240", "3 North pays 0 East 4"):
        assert text in result.stdout, text


def test_settle_rule_set_name_is_not_markup(tmp_path: Path) -> None:
    """Regression: a rule-set name with rich markup crashed settle (MarkupError)."""
    for i, name in enumerate(["[bold red]x[/]", "x[/]"]):
        club = tmp_path / f"club{i}.toml"
        club.write_text(f'base = "nts-2016"\nname = "{name}"\n')
        result = invoke("settle", "--scores", "1,2,3,4", "--winner", "0", "-r", str(club))
        assert result.exit_code == 0, result.output
        assert f"Rule set: {name}" in result.stdout


def test_settle_rule_set_name_with_a_terminal_escape_is_refused(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('base = "nts-2016"\nname = "a\\u001b[31mred"\n')
    result = invoke("settle", "--scores", "1,2,3,4", "--winner", "0", "-r", str(club))
    assert result.exit_code == 2
    assert "control character U+001B" in result.output
    assert "\x1b" not in result.output


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("score", "b123 x9 k456"), "unknown tile 'x9'"),
        (("score", "b11111 k456 t789 EE +E"), "5 copies of b1"),
        (("score", "b123 k456"), "13 tiles"),
        (("score", "b123 k456 t789 EEE CC C +C"), "14 tiles"),
        (("score", "[b124] k456 t789 EEE C +C"), "b1 b2 b4 is not a chow, pung or kong"),
        (("score", WINNER, "--from", "discard", "--last-tile"), "--last-tile"),
        (("score", WINNER, "--from", "wall", "--kong-on-kong"), "--kong-on-kong"),
        (("score", WINNER, "--seat", "S", "--heaven"), "heaven"),
        (("score", "b111 k55 t23 [CCC] [t456]", "--from", "wall"), "winning tile"),
        (("score", WINNER, "--from", "air"), "--from: 'air'"),
        (("score", WINNER, "--seat", "C"), "--seat: 'C' is not a wind"),
        (("score", WINNER, "--round", "b1"), "--round: 'b1' is not a wind"),
        (("score", WINNER, "--ruleset", "nts-1999"), "unknown rule set 'nts-1999'"),
        (("score", WINNER, "--ruleset", "/no/such/club.toml"), "club.toml"),
        (("score", WINNER, "--lang", "fr"), "--lang"),
        (("score",), "give the hand"),
        (
            ("settle", "--scores", "1,2,3", "--winner", "0"),
            "--scores: rule set 'nts-2016' is played by four players: give 4 scores, got 3",
        ),
        (("settle", "--scores", "1,2,x,4", "--winner", "0"), "--scores"),
        (("settle", "--scores", "1,2,3,4"), "--winner"),
        (("settle", "--scores", "1,2,3,4", "--winner", "7"), "--winner"),
        (
            ("settle", "--scores", "1,2,3,4", "--winner", "1", "--discarder", "1"),
            "cannot be the discarder",
        ),
        (("settle", "--scores", "1,2,3,4", "--winner", "none", "--discarder", "1"), "remise"),
        (
            ("settle", "--hand", WINNER),
            "--hand: rule set 'nts-2016' is played by four players: give 4 hands, got 1",
        ),
        (
            ("settle", "--scores", "²,1,1,1", "--winner", "0"),
            "--scores: score 0 is not a whole number 0-281474976710656: '²'",
        ),
        (
            ("settle", "--scores", "9" * 6000 + ",1,1,1", "--winner", "0"),
            "--scores: score 0 is not a whole number 0-281474976710656: '99999",
        ),
        (
            ("settle", "--scores", "281474976710657,1,1,1", "--winner", "0"),
            "--scores: score 0: a score is a whole number 0-281474976710656, got 281474976710657",
        ),
        (("settle", "--scores", "1,-1,1,1", "--winner", "0"), "--scores: score 1 is not"),
        (("settle", "--scores", "1,٣,1,1", "--winner", "0"), "--scores: score 1 is not"),
        (
            ("settle", "--scores", ",".join(["1"] * 6), "--winner", "0"),
            "--scores: expected one score per seat (at most 5), got 6",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "²"),
            "--winner: expected a seat index 0-3 or none, got '²'",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "9" * 6000),
            "--winner: expected a seat index 0-3 or none, got '9999",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--east", "²"),
            "--east: expected a seat index 0-3, got '²'",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--east", "4"),
            "--east: 4 is not a seat at a table of four (seats 0-3)",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--round-to", "²"),
            "--round-to: expected a whole number 0-1000, got '²'",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--round-to", "9" * 6000),
            "--round-to: expected a whole number 0-1000, got '9999",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--round-to", "1001"),
            "--round-to: expected a whole number 0-1000, got 1001",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--dreamer", "2"),
            "--dreamer: only a table of five has a dreamer",
        ),
        (
            ("settle", "--scores", "1,1,1,1,0", "--winner", "0", "-r", "nmb-2009+five-players"),
            "--dreamer: at a table of five one player sits each hand out",
        ),
        (
            (
                "settle",
                "--scores",
                "1,1,1,1,3",
                "--winner",
                "0",
                "--dreamer",
                "4",
                "-r",
                "nmb-2009+five-players",
            ),
            "--scores: score 4: seat 4 is the dreamer, who plays no hand: his score is 0, not 3",
        ),
        (
            (
                "settle",
                "--scores",
                "1,1,1,1,0",
                "--winner",
                "4",
                "--dreamer",
                "4",
                "-r",
                "nmb-2009+five-players",
            ),
            "--winner: seat 4 is the dreamer, who sits the hand out and cannot win",
        ),
        (
            (
                "settle",
                "--scores",
                "1,1,1",
                "--winner",
                "0",
                "--dominant",
                "3",
                "-r",
                "nmb-2009+three-players",
            ),
            "--dominant: 3 is not a seat at a table of three (seats 0-2)",
        ),
        (
            ("settle", "--scores", "1,1,1,1", "--winner", "0", "--dominant", "3"),
            "--dominant: rule set 'nts-2016' plays no green-dragon hand",
        ),
        (
            ("settle", "--hand", WINNER, "--hand", "-", "--hand", "-", "--hand", "-"),
            "--hand 1: '-' stands for the dreamer's hand, and this table has none",
        ),
        (
            (
                "settle",
                "--dreamer",
                "4",
                "--winner",
                "1",
                "-r",
                "nmb-2009+five-players",
                *(["--hand", WINNER] * 5),
            ),
            "--hand 4: seat 4 is the dreamer, who plays no hand: give '-'",
        ),
        (
            ("settle", *(["--hand", WINNER] * 6)),
            "--hand: give one hand per seat (at most 5), got 6",
        ),
        (
            (
                "settle",
                "-r",
                "nmb-2009+three-players",
                "--round",
                "N",
                "--hand",
                "b123 b456 CCC k11 [SSS] +b6",
                "--hand",
                "b99",
                "--hand",
                "b88",
                "--dead",
                "1",
                "--dead",
                "2",
            ),
            "--round: 'N': rule set 'nmb-2009+three-players' plays with the winds E, S, W only",
        ),
        (
            (
                "settle",
                "-r",
                "nmb-2009+three-players",
                "--hand",
                "b123 b456 CCC k11 [SSS] +b6",
                "--hand",
                "b99",
                "--hand",
                "b88",
                "--dead",
                "3",
            ),
            "--dead: 3 is not a seat at a table of three (seats 0-2)",
        ),
        (("settle",), "--scores"),
    ],
)
def test_bad_input_exits_2_with_message(args: tuple[str, ...], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert expected in lines[0]
    assert result.stdout == ""


def test_usage_errors_exit_2() -> None:
    for args in (
        ("score", WINNER, "--no-such-option"),
        ("frobnicate",),
        ("settle", "--east", "9", "--scores", "1,2,3,4", "--winner", "0"),
    ):
        result = invoke(*args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output


def test_broken_rule_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('base = "nts-2016"\n[scoring\nlimit = 5\n')
    result = invoke("score", WINNER, "--ruleset", str(broken))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "broken.toml" in result.stderr
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('base = "nts-2016"\n[scoring]\nlimit = "lots"\n')
    result = invoke("settle", "--scores", "1,2,3,4", "--winner", "0", "--ruleset", str(wrong))
    assert result.exit_code == 2
    assert "wrong.toml" in result.stderr and "limit" in result.stderr


def test_house_rule_file(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('base = "nts-2016"\nname = "club"\n[scoring]\nlimit = 500\n')
    result = invoke("score", WINNER, "--ruleset", str(club))
    assert result.exit_code == 0, result.output
    assert "500" in result.stdout and "club" in result.stdout


# --------------------------------------------------------------------------- subprocess


def test_subprocess_exit_codes() -> None:
    ok = run_cli("score", WINNER, "--seat", "E", "--round", "E", "--from", "wall")
    assert ok.returncode == 0, ok.stderr
    assert "576" in ok.stdout
    for args in (
        ("score", "b123 x9"),
        ("score", WINNER, "--ruleset", "nope"),
        ("score", WINNER, "--from", "discard", "--heaven"),
        ("score", "--bogus"),
        ("settle", "--scores", "1,2", "--winner", "0"),
    ):
        proc = run_cli(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr + proc.stdout
    book = run_cli(*BOOK_2009)
    assert book.returncode == 0
    assert "+1088" in book.stdout


def test_main_returns_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "b123 x9"]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    assert main(["settle", *BOOK_2009[1:]]) == 0


def test_rules_subcommand_mounted() -> None:
    result = invoke("rules", "--help")
    assert result.exit_code == 0
    assert "list" in result.stdout
    result = invoke("rules", "show", "nts-1999")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- fuzzing

notation_chars = st.sampled_from([*"bktESWNOZFCPfs0123456789[]()+ \t-xX*", "🀐", "é"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=40), st.text(notation_chars, max_size=40)))
def test_fuzz_notation_never_tracebacks(text: str) -> None:
    result = invoke("score", "--", text)
    assert result.exit_code in (0, 2)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ")


# --------------------------------------------------------------------------- README / CI

ROOT = Path(__file__).resolve().parents[1]


def test_readme_opens_with_the_two_commands_ci_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh\n")[1:]]
    install_and_serve, test_command = blocks[0], blocks[1]
    assert install_and_serve.startswith("python3 -m venv .venv && ")
    assert install_and_serve.endswith(" && .venv/bin/mahjong-nts serve")
    assert "http://127.0.0.1:8000/" in readme.split(test_command)[0]  # where to open it
    assert "pytest" in test_command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci
    # the main job starts and serves the calculator (on a free port: 8000 may be taken)
    with running_server(tmp_path) as (url, _proc), urllib.request.urlopen(url, timeout=20) as page:
        assert page.status == 200
        assert "Score a hand" in page.read().decode("utf-8")


def test_help_shows_notation_as_written() -> None:
    """Regression: the help was rendered as rich markup, so '[b789]' in the notation
    example vanished (read as a style tag)."""
    result = invoke("score", "--help")
    assert result.exit_code == 0
    assert "EEE [b789] (CCCC)" in " ".join(result.stdout.split())
    overview = invoke("--help").stdout
    for command in ("score", "settle", "replay", "play", "simulate", "keygen", "rules"):
        assert f"  {command} " in overview, command
    assert "..." not in overview.split("Commands:")[1]  # every command's summary fits


def test_settle_scores_refuse_a_round_wind() -> None:
    """Issue 8: with --scores, --round was ignored without a word; the scores are final,
    so the round wind (which only counts when hands are scored) is refused."""
    result = invoke("settle", "--scores", "10,20,30,40", "--winner", "0", "--round", "S")
    assert result.exit_code == 2
    assert "--round: only with --hand" in result.stderr
    assert invoke("settle", "--scores", "10,20,30,40", "--winner", "0").exit_code == 0


@pytest.mark.parametrize(
    ("cli", "request_"),
    [
        (["--scores", "10,20,30," + str(2**48 + 1), "--winner", "0"],
         {"winner": 0, "scores": [10, 20, 30, 2**48 + 1]}),
        (["--scores", "10,20,30,40", "--winner", "5"], {"winner": 5, "scores": [10, 20, 30, 40]}),
        (["--scores", "1,2,3,4,5", "--winner", "0", "--dreamer", "4",
          "--ruleset", "nts-2016+five-players"],
         {"winner": 0, "scores": [1, 2, 3, 4, 5], "dreamer": 4,
          "ruleset": "nts-2016+five-players"}),
    ],
)  # fmt: skip
def test_settle_scores_are_checked_as_in_json(cli: list[str], request_: dict[str, Any]) -> None:
    """One path (wire.scores_job): the command line and a JSON request refuse the same
    scores with the same message, but for the names of the fields."""
    result = invoke("settle", *cli)
    assert result.exit_code == 2
    answer = json.loads(invoke("settle", "--json", input=json.dumps(request_) + "\n").stdout)
    message = answer["error"].split(": ", 1)[1]
    assert message in result.stderr


@pytest.mark.parametrize("command", ["score", "settle"])
def test_json_lines_into_a_reader_that_stops_exits_0(command: str) -> None:
    """Issue 8: `... --json | head -1` exited 1 on the broken pipe; docs/json.md says 0."""
    line = (
        json.dumps({"hand": WINNER})
        if command == "score"
        else json.dumps({"winner": 0, "scores": [1, 2, 3, 4]})
    )
    cmd = shlex.join([sys.executable, "-m", "mahjong_nts.cli", command, "--json"])
    script = f"yes {shlex.quote(line)} | head -n 20000 | {cmd} | head -n 1 >/dev/null; " + (
        'echo "${PIPESTATUS[2]}"'
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.stdout.strip() == "0", (done.stdout, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
