"""``mahjong-nts simulate``: the summary (tables and JSON), and bad arguments (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from mahjong_nts.cli.simulate import simulate_cmd

app = typer.Typer()
app.command()(simulate_cmd)
runner = CliRunner()
WIDE = {"COLUMNS": "200"}

SUMMARY_KEYS = {
    "hands",
    "seed",
    "ruleset",
    "ruleset_name",
    "seats",
    "bots",
    "confidence",
    "entries",
    "by_bot",
    "margins",
    "remise",
    "wins",
    "hand_length",
    "items",
    "limit_hands",
}


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_summary_has_the_documented_fields() -> None:
    s = run_json("--hands", "12", "--seed", "3")
    assert set(s) == SUMMARY_KEYS
    assert s["bots"] == ["heuristic", "random", "random", "random"]  # the default line-up
    assert s["hands"] == 12 and s["seats"] == 4 and s["confidence"] == 0.95
    entry = s["entries"][0]  # type: ignore[index]
    assert set(entry) == {
        "entry",
        "bot",
        "wins",
        "win_rate",
        "win_rate_ci",
        "mean_balance",
        "mean_balance_ci",
    }
    assert set(s["by_bot"]) == {"heuristic", "random"}  # type: ignore[arg-type]
    (margin,) = s["margins"]  # type: ignore[misc]
    assert set(margin) == {
        "bot",
        "versus",
        "mean_balance_diff",
        "mean_balance_diff_ci",
        "win_rate_diff",
        "win_rate_diff_ci",
    }
    assert set(s["remise"]) == {"count", "rate", "rate_ci", "reasons"}  # type: ignore[arg-type]
    assert set(s["hand_length"]) == {"decisions", "draws"}  # type: ignore[arg-type]


def test_jobs_do_not_change_the_summary() -> None:
    args = ("--hands", "20", "--seed", "9", "--bots", "random,heuristic,random,heuristic")
    assert run_json(*args, "--jobs", "1") == run_json(*args, "--jobs", "2")


def test_three_seat_rule_set_defaults_to_three_bots() -> None:
    s = run_json("--hands", "6", "--ruleset", "nts-2016+three-players")
    assert s["bots"] == ["heuristic", "random", "random"] and s["seats"] == 3


def test_tables_and_margin_line() -> None:
    result = runner.invoke(app, ["--hands", "8", "--seed", "1"], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "8 hands of nts-2016 (4 seats), seed 1" in out
    assert "Per bot" in out and "Margin heuristic - random:" in out
    assert "per-hand paired differences, normal approximation" in out
    assert "Remise:" in out and "hand length:" in out


def test_log_folder_gets_one_file_per_hand(tmp_path: Path) -> None:
    logs = tmp_path / "logs" / "run1"
    run_json("--hands", "3", "--log", str(logs), "--bots", "random,random,random,random")
    assert sorted(p.name for p in logs.iterdir()) == [
        "hand-000000.jsonl",
        "hand-000001.jsonl",
        "hand-000002.jsonl",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic,genius,random,random"], "--bots: unknown bot 'genius'"),
        (["--bots", "random,random,random"], "give 4 bots, not 3"),
        (["--bots", "random,,random,random"], "--bots: an empty bot name"),
        (["--ruleset", "no-such-rules"], "--ruleset:"),
        (["--hands", "0"], "--hands must be at least 1, not 0"),
        (["--hands", "-5"], "--hands must be at least 1, not -5"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stdout == ""


def test_unwritable_log_folder_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["--hands", "2", "--log", str(blocker / "logs")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --log: cannot write hand logs to")
    assert not (tmp_path / "a-file" / "logs").exists()


def test_bad_rule_set_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "house.toml"
    bad.write_text("this is [not toml")
    result = runner.invoke(app, ["--hands", "2", "--ruleset", str(bad)])
    assert result.exit_code == 2 and "error: --ruleset:" in result.stderr


def test_registered_in_the_main_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from mahjong_nts.cli import main

    assert (
        main(["simulate", "--hands", "2", "--bots", "random,random,random,random", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["hands"] == 2
    assert main(["simulate", "--jobs", "0"]) == 2
    assert "error: --jobs must be at least 1" in capsys.readouterr().err
