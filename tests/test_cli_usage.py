"""Usage errors (an unknown option or command, a missing or malformed value) end like
every other bad input: one bounded line ``error: ...`` on stderr with a hint, exit 2,
never a ``Usage:`` block or the argument echoed whole.  ``--help`` is unchanged."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cli_helpers import invoke_main
from mahjong_nts.formats import wire

HUGE = "x" * 100_000


def one_error_line(stderr: str) -> str:
    assert stderr.startswith("error: ") and stderr.count("\n") == 1, stderr[:300]
    assert "Usage:" not in stderr and "Traceback" not in stderr
    assert len(stderr) <= len("error: \n") + wire.MAX_ERROR_CHARS
    return stderr.rstrip("\n")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["score", "--bogus"], "error: no such option '--bogus' (see mahjong-nts score --help)"),
        (["bogus"], "error: no such command 'bogus' (see mahjong-nts --help)"),
        (["rules", "bogus"], "error: no such command 'bogus' (see mahjong-nts rules --help)"),
        (
            ["score", "--seat"],
            "error: option '--seat' requires an argument (see mahjong-nts score --help)",
        ),
        (
            ["score", "--last-tile=yes"],
            "error: option '--last-tile' does not take a value (see mahjong-nts score --help)",
        ),
        (["rules", "show"], "error: missing argument 'name' (see mahjong-nts rules show --help)"),
        (["play", "--seed", "-1"], "error: --seed: a seed is a whole number from 0 to 2**256 - 1"),
        (["play", "--hands", "0"], "error: --hands must be at least 1, not 0"),
    ],
)
def test_usage_error_is_one_line(args: list[str], expected: str) -> None:
    result = invoke_main(args)
    assert result.exception is None and result.exit_code == 2
    assert result.stdout == ""
    assert one_error_line(result.stderr) == expected


def test_a_near_miss_names_the_options_meant() -> None:
    result = invoke_main(["score", "--sea", "E"])
    line = one_error_line(result.stderr)
    assert result.exit_code == 2
    assert line.startswith("error: no such option '--sea'; did you mean ") and "--seat" in line
    assert line.endswith("(see mahjong-nts score --help)")


def test_a_bad_number_names_the_option() -> None:
    result = invoke_main(["simulate", "--hands", "many"])
    line = one_error_line(result.stderr)
    assert result.exit_code == 2
    assert line.startswith("error: invalid value for '--hands'")
    assert line.endswith("(see mahjong-nts simulate --help)")


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--" + HUGE],
        [HUGE],
        ["rules", HUGE],
        ["score", "b123", HUGE],
        ["score", "b123", *[HUGE] * 3],
        ["simulate", "--hands", HUGE],
        ["simulate", "--seed", "9" * 6000],
        ["rules", "show", "nts-2016", "--" + HUGE],
    ],
    ids=["option", "command", "subcommand", "extra", "extras", "int", "digits", "sub-option"],
)
def test_a_huge_argument_is_cut_to_an_excerpt(args: list[str]) -> None:
    result = invoke_main(args)
    assert result.exit_code == 2
    line = one_error_line(result.stderr)
    assert "x" * 61 not in line and "9" * 61 not in line
    assert line.endswith("--help)")


def test_help_is_unchanged() -> None:
    for args in (["--help"], ["score", "--help"], ["rules", "show", "--help"]):
        result = invoke_main(args)
        assert result.exit_code == 0 and result.stderr == ""
        assert result.stdout.startswith("Usage: mahjong-nts"), result.stdout[:200]


def test_no_arguments_show_the_help() -> None:
    for args in ([], ["rules"]):
        result = invoke_main(args)
        assert result.exit_code == 2
        assert "Usage: mahjong-nts" in result.stderr and "show" in result.stderr


def test_the_console_script_path() -> None:
    """``python -m mahjong_nts.cli`` runs :func:`main` too."""
    done = subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", "score", "--" + "y" * 100_000],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert one_error_line(done.stderr).endswith("(see mahjong-nts score --help)")
