"""The ``rules`` sub-app: list, show, diff and their exit codes."""

from __future__ import annotations

import json
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


MARKUP = (
    'base = "nts-2016"\n'
    'name = "[bold red]x[/]"\n'
    'title = "[link=http://example.org]t[/link] [/]"\n'
    'source = "[red]book"\n'
    'notes = ["[blink]note[/blink] [/]"]\n'
)


def test_markup_in_a_rule_file_is_printed_as_text(tmp_path: Path) -> None:
    path = tmp_path / "markup.toml"
    path.write_text(MARKUP, encoding="utf-8")
    shown = runner.invoke(app, ["show", str(path)], env=WIDE)
    assert shown.exit_code == 0, shown.output
    assert "[bold red]x[/]: [link=http://example.org]t[/link] [/]" in shown.stdout
    assert "source: [red]book" in shown.stdout and "- [blink]note[/blink] [/]" in shown.stdout
    for other in ("nmb-2009", str(path)):
        diffed = runner.invoke(app, ["diff", str(path), other], env=WIDE)
        assert diffed.exit_code == 0, diffed.output
        assert "[bold red]x[/]" in diffed.stdout


def test_show_json_is_inline_house_rules(tmp_path: Path) -> None:
    from mahjong_nts.formats.rulefiles import load_ruleset, load_untrusted, ruleset_diff

    path = tmp_path / "club.toml"
    path.write_text('base = "nmb-2009+flowers"\n[scoring]\nlimit = 1000\n', encoding="utf-8")
    result = runner.invoke(app, ["show", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == "club" and data["scoring"]["limit"] == 1000
    again = load_untrusted(data)
    assert ruleset_diff(again, load_ruleset(str(path)), metadata=True) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "nts-2016"\nnotes = ' + "[" * 3000 + "]" * 3000 + "\n", "nested more than 8"),
        ('base = "nts-2016"\n' + "a" + ".a" * 5000 + " = 1\n", "nested more than 8"),
        ('base = "nts-2016"\n[doublings]\nfour_kongs = 100000000\n', "from 0 to 8"),
        ('base = "nts-2016"\n[table]\nsuits = "b"\nwall_length = 8\n', "dead wall may hold"),
        ('base = "nts-2016"\nname = "a\\u001b[31mb"\n', "control character U+001B"),
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert "club.toml" in result.stderr and "Traceback" not in result.output
    assert result.stdout == ""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_device_and_folder_exit_2(tmp_path: Path) -> None:
    for spec in ("/dev/zero", str(tmp_path)):
        result = runner.invoke(app, ["show", spec])
        assert result.exit_code == 2 and result.stderr.startswith("error: "), result.output


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        *(
            ["show", name]
            for name in (*SHIPPED, "nmb-2009+flowers+three-players", "nmb-2009+five-players")
        ),
    ],
)
def test_no_internal_references_are_printed(args: list[str]) -> None:
    out = runner.invoke(app, args, env=WIDE).stdout
    for word in ("seeds", "RULES.md", "OCR", "shared/"):
        assert word not in out, word
    if args[0] == "show":
        assert any(book in out for book in ("NTS 2016", "NTS 2002", "NMB 2009", "Rode Draak 1998"))
