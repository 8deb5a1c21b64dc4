"""The ``rules`` sub-app: list, show, diff and their exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_nts.cli.rules import app
from mahjong_nts.formats.rulefiles import OVERLAYS, SHIPPED

runner = CliRunner()
WIDE = {"COLUMNS": "220"}


def test_list_names_every_set_and_overlay() -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    for name in (*SHIPPED, *OVERLAYS):
        assert name in result.output
    assert "(default)" in result.output


@pytest.mark.parametrize("spec", [*SHIPPED, "nmb-2009+flowers+three-players"])
def test_show(spec: str) -> None:
    result = runner.invoke(app, ["show", spec], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for heading in ("Points", "Doublings", "Limit hands", "Scoring", "Settlement", "Table"):
        assert heading in out
    assert "Negen poorten" in out and "Nine gates" in out


def test_show_values() -> None:
    out = runner.invoke(app, ["show", "nmb-2009"], env=WIDE).stdout
    assert "Zelf gepakt van de muur" in out and "15" in out
    row = next(line for line in out.splitlines() if "nine_gates" in line)
    assert "2000" in row and "1500" in row and "750" in row


def test_show_house_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(
        'base = "nts-2016"\nname = "clubje"\n[points]\nmahjong = 30\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["show", str(path)], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "clubje" in result.stdout


def test_diff() -> None:
    result = runner.invoke(app, ["diff", "nts-2016", "nmb-2009"], env=WIDE)
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "points.self_drawn" in line)
    assert "2" in row and "15" in row and "Zelf gepakt" in row
    same = runner.invoke(app, ["diff", "nts-2016", "nts-2016"])
    assert same.exit_code == 0 and "same rule values" in same.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["show", "nts2016"],
        ["show", "missing-file.toml"],
        ["diff", "nts-2016", "nmb-2090"],
        ["diff", "flowers", "nts-2016"],
    ],
)
def test_bad_names_exit_2_with_message_on_stderr(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""


def test_bad_house_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "kapot.toml"
    path.write_text('base = "nts-2016"\n[doubling]\n', encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 2
    assert "kapot.toml" in result.stderr and "did you mean 'doublings'" in result.stderr


def test_did_you_mean_on_stderr() -> None:
    result = runner.invoke(app, ["show", "nts2016"])
    assert "did you mean 'nts-2016'" in result.stderr


def test_no_args_shows_help() -> None:
    result = runner.invoke(app, [])
    assert "list" in result.output and "show" in result.output and "diff" in result.output
