"""``mahjong-nts simulate``: the summary (tables and JSON), and bad arguments (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from mahjong_nts.cli.simulate import simulate_cmd

app = typer.Typer()
app.command()(simulate_cmd)
runner = CliRunner()
WIDE = {"COLUMNS": "200"}

SUMMARY_KEYS = {
    "unit",
    "hands",
    "matches",
    "cut_matches",
    "green_dragon_hands",
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
        "hands",
        "wins",
        "win_rate",
        "win_rate_ci",
        "mean_balance",
        "mean_balance_ci",
    }
    assert set(s["by_bot"]) == {"heuristic", "random"}  # type: ignore[arg-type]
    assert s["unit"] == "hand" and s["matches"] is None and s["cut_matches"] == 0
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
        (["--hands", "1000001"], "--hands must be at most 1000000, not 1000001"),
        (["--hands", str(10**30)], "--hands must be at most 1000000"),
        (["--hands", "9" * 6000], "--hands"),  # past int()'s digit limit: no traceback
        (["--matches", "0"], "--matches must be at least 1, not 0"),
        (["--matches", "100001"], "--matches must be at most 100000, not 100001"),
        (["--hands", "5", "--matches", "2"], "give --hands N or --matches N, not both"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["--seed", str(2**256)], "--seed: a seed is a whole number from 0 to 2**256 - 1"),
        (["--seed", "-1"], "--seed: a seed is a whole number from 0 to 2**256 - 1"),
        (["--bots", "r" * 3000], "--bots: 3000 characters is too long"),
        (
            ["--matches", "1", "-r", "nts-2016+five-players", "--bots", "random,random,random"],
            "nts-2016+five-players plays 5 players a match: give 5 bots, not 3",
        ),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and len(result.stderr) < 400
    assert message in result.stderr
    if "9" * 100 not in " ".join(args):  # that one is click's own usage error
        assert result.stderr.startswith("error: ")
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


def test_jobs_beyond_the_machine_are_capped_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from mahjong_nts.cli import backend

    monkeypatch.setattr(backend, "available_cpus", lambda: 2)
    args = ["--hands", "12", "--seed", "4", "--bots", "random,heuristic,random,random"]
    capped = runner.invoke(app, [*args, "--jobs", "100000", "--json"])
    assert capped.exit_code == 0, capped.output
    assert capped.stderr == "note: --jobs 100000 capped to 2: the processors this process may use\n"
    assert json.loads(capped.stdout) == run_json(*args, "--jobs", "1")


def test_default_seed_is_random_shown_and_repeats_the_run() -> None:
    args = ("--hands", "3", "--bots", "random,random,random,heuristic")
    first, second = run_json(*args), run_json(*args)
    seeds = [first["seed"], second["seed"]]
    assert all(isinstance(x, int) and 0 <= x < 2**128 for x in seeds)
    assert seeds[0] != seeds[1]
    assert run_json(*args, "--seed", str(seeds[0])) == first
    shown = runner.invoke(app, [*args, "--seed", str(seeds[1])], env=WIDE)
    assert f"seed {seeds[1]}," in shown.stdout


@pytest.mark.parametrize("name", ["x[/]", "[bold red]x[/]"])
def test_rule_set_names_are_never_markup(tmp_path: Path, name: str) -> None:
    house = tmp_path / "house.toml"
    house.write_text(f'base = "nts-2016"\nname = "{name}"\n', encoding="utf-8")
    args = ["--hands", "4", "--seed", "2", "--ruleset", str(house)]
    result = runner.invoke(app, args, env=WIDE)
    assert result.exit_code == 0, result.output
    assert f"4 hands of {name} (4 seats), seed 2" in result.stdout


def test_ctrl_c_ends_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from mahjong_nts.cli import simulate as cli_simulate

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_simulate, "run_simulation", interrupted)
    result = runner.invoke(app, ["--hands", "5", "--json"])
    assert result.exit_code == 130
    assert result.stderr == "interrupted: no summary\n" and result.stdout == ""


def test_whole_matches_summary_and_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    args = ["--matches", "2", "--seed", "5", "-r", "nts-2016+three-players"]
    s = run_json(*args, "--log", str(logs))
    assert s["unit"] == "match" and s["matches"] == 2 and s["hands"] == 24
    assert s["green_dragon_hands"] == 6 and s["bots"] == ["heuristic", "random", "random"]
    assert len(list(logs.iterdir())) == 24
    assert (logs / "match-000001-hand-012.jsonl").is_file()
    result = runner.invoke(app, args, env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "2 matches (24 hands) of nts-2016+three-players (3 seats), seed 5" in out
    assert "points a match" in out and "(per-match paired differences" in out
    assert "6 green-dragon hands" in out


def test_five_player_matches_seat_the_dreamer() -> None:
    bots = "heuristic,random,random,random,random"
    s = run_json("--matches", "1", "--seed", "1", "-r", "nmb-2009+five-players", "--bots", bots)
    assert s["seats"] == 4 and len(s["entries"]) == 5
    # every hand seats four of the five: the dreamer sits out
    assert sum(e["hands"] for e in s["entries"]) == 4 * s["hands"]


def test_a_second_run_never_replaces_the_logs_of_the_first(tmp_path: Path) -> None:
    """Issue 8: simulate --log DIR twice replaced the first run's logs; now the second
    run's logs take the next free name (hand-000000-2.jsonl)."""
    args = ("--hands", "2", "--log", str(tmp_path), "--bots", "random,random,random,random")
    run_json(*args)
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    run_json(*args, "--seed", "99")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "hand-000000-2.jsonl",
        "hand-000000.jsonl",
        "hand-000001-2.jsonl",
        "hand-000001.jsonl",
    ]
    assert all((tmp_path / name).read_bytes() == text for name, text in first.items())


def test_sign_with_a_missing_key_creates_no_log_folder(tmp_path: Path) -> None:
    """Issue 8: --log d --sign nokey made the folder, then failed on the key."""
    folder = tmp_path / "logs"
    res = runner.invoke(
        app, ["--hands", "1", "--log", str(folder), "--sign", str(tmp_path / "nokey")]
    )
    assert res.exit_code == 2, res.output
    assert "--sign" in res.output
    assert not folder.exists()


def test_a_dead_worker_is_one_line_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool whose worker dies (killed, out of memory) ends with one line and exit 1
    (an internal failure), not a BrokenProcessPool traceback."""
    import os

    from mahjong_nts.sim import simulate as sim

    real = sim.play_hand

    def dies(spec: Any, rules: Any, index: int) -> Any:
        if index >= 20:  # in a worker (forked, so it plays this patched function)
            os._exit(3)
        return real(spec, rules, index)

    monkeypatch.setattr(sim, "play_hand", dies)
    monkeypatch.setattr(sim, "available_cpus", lambda: 2)
    res = runner.invoke(app, ["--hands", "40", "--jobs", "2", "--json"])
    assert res.exit_code == 1, res.output
    assert "a worker process stopped unexpectedly" in res.output
    assert "Traceback" not in res.output
