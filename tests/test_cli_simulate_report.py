"""``mahjong-nts simulate --report DIR [--compare RULESET]``: the folder it writes, a house
rule compared with its base, and bad arguments (exit 2, nothing made)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from mahjong_nts.cli.simulate import simulate_cmd
from mahjong_nts.sim.report import REPORT_FILES

pytest.importorskip("matplotlib")
pytestmark = pytest.mark.filterwarnings("error")  # a plot matplotlib could not lay out

app = typer.Typer()
app.command()(simulate_cmd)
runner = CliRunner()

NO_MINIMUM = """\
# a house rule: mahjong with any hand (no doublings needed)
base = "nts-2016"
name = "no-minimum"
title = "NTS 2016, mahjong without doublings"

[scoring]
min_doublings = 0
"""


def test_report_folder_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "new" / "report"
    result = runner.invoke(app, ["--hands", "12", "--seed", "4", "--report", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES)
    assert f"report: {out / 'index.html'} (17 files)" in result.stderr
    assert "12 hands of nts-2016" in result.stdout  # the summary as without --report
    with (out / "summary.csv").open(encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert (row["ruleset"], row["hands"], row["seed"]) == ("nts-2016", "12", "4")
    # a second run into the same folder replaces the report
    again = runner.invoke(app, ["--hands", "6", "--seed", "4", "--report", str(out), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["hands"] == 6
    with (out / "summary.csv").open(encoding="utf-8") as f:
        assert [r["hands"] for r in csv.DictReader(f)] == ["6"]


def test_a_house_rule_compared_with_its_base(tmp_path: Path) -> None:
    house = tmp_path / "no-minimum.toml"
    house.write_text(NO_MINIMUM, encoding="utf-8")
    out = tmp_path / "report"
    args = ["--hands", "24", "--seed", "2", "--report", str(out), "--compare", str(house)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["ruleset"] == "nts-2016" and summary["compare"]["ruleset"] == str(house)
    assert summary["compare"]["ruleset_name"] == "no-minimum"
    assert summary["hands"] == summary["compare"]["hands"] == 24
    with (out / "summary.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["ruleset"], r["ruleset_name"]) for r in rows] == [
        ("nts-2016", "nts-2016"),
        ("no-minimum.toml", "no-minimum"),  # the file's name, never its folder
    ]
    # the same walls: with no doublings needed, a hand can only end sooner, so at least
    # as many hands are won (each bot still takes every legal mahjong)
    assert int(rows[1]["won"]) >= int(rows[0]["won"])
    page = (out / "index.html").read_text("utf-8")
    assert "What no-minimum does to the game" in page and "<code>no-minimum.toml</code>" in page
    assert str(tmp_path) not in page  # the file by its name, never its folder
    # without --json the two summaries are printed one after the other
    text = runner.invoke(app, [*args[:-4], "--report", str(out), "--compare", "nts-2002"])
    assert text.exit_code == 0, text.output
    assert "24 hands of nts-2016 (4 seats)" in text.stdout
    assert "24 hands of nts-2002 (4 seats)" in text.stdout
    assert "48 hands in" in text.stdout


def test_compare_matches(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = ["--matches", "1", "--seed", "1", "--report", str(out), "--compare", "nts-2002"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["matches"] == summary["compare"]["matches"] == 1
    with (out / "summary.csv").open(encoding="utf-8") as f:
        assert [r["unit"] for r in csv.DictReader(f)] == ["match", "match"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--compare", "nts-2002"], "--compare shows two rule sets side by side in a report"),
        (
            ["--report", "{tmp}/r", "--compare", "nts-2016"],
            "--compare: 'nts-2016' is the rule set of --ruleset already",
        ),
        (["--report", "{tmp}/r", "--compare", "no-such-rules"], "--compare: unknown rule set"),
        (
            ["--report", "{tmp}/r", "--compare", "nts-2016+three-players"],
            "--compare: nts-2016+three-players plays 3 seats, nts-2016 4",
        ),
        (
            ["--report", "{tmp}/r", "--compare", "nts-2002", "--log", "{tmp}/logs"],
            "--log writes the hand logs of one rule set: not with --compare",
        ),
        (["--report", "{tmp}/a-file"], "is a file, not a folder"),
        (["--report", "{tmp}/a-file/r"], "cannot be made"),
        (
            ["--report", "{tmp}/full"],
            "is not empty and not a previous report (it holds 'mine.txt')",
        ),
        (["--report", "{tmp}/r", "--hands", "0"], "--hands must be at least 1"),
    ],
)
def test_bad_report_arguments_exit_2(tmp_path: Path, extra: list[str], message: str) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    args = ["--hands", "2", *[a.replace("{tmp}", str(tmp_path)) for a in extra]]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and message in result.stderr, repr(result.stderr)
    assert "Traceback" not in result.output and result.stdout == ""
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing made
    assert (tmp_path / "full" / "mine.txt").read_text() == "keep"


def test_without_matplotlib_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = runner.invoke(app, ["--hands", "2", "--report", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --report draws its plots with matplotlib")
    assert "pip install 'mahjong-nts[report]'" in result.stderr
    assert not (tmp_path / "r").exists()


def test_dutch_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mahjong_nts.cli import main

    (tmp_path / "a-file").write_text("x")
    args = ["--lang", "nl", "simulate", "--hands", "2"]
    assert main([*args, "--report", str(tmp_path / "a-file")]) == 2
    assert capsys.readouterr().err.startswith("error: --report: ")
    assert main([*args, "--compare", "nts-2002"]) == 2
    err = capsys.readouterr().err
    assert "--compare" in err and "--report" in err and "side by side" not in err
