"""Bots by name, by ``module:Class`` and by an entry point of ``mahjong_nts.bots`` (a real
distribution's dist-info on ``sys.path``, found by importlib.metadata), for ``duel``,
``simulate --bots`` and ``play --bots``; and what is said when a name is no bot."""

from __future__ import annotations

import importlib.metadata
import json
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import invoke_main
from mahjong_nts.bots import HeuristicBot, RandomBot
from mahjong_nts.bots.loader import MAX_BOT_NAME_CHARS, BotLoadError, check_bot, load_bot
from mahjong_nts.formats.rulefiles import load_ruleset

PLUGIN = "duel_plugin_bots"
"""The module of the test's bots (written into a temporary folder put on sys.path)."""

MODULE = '''
from mahjong_nts.core.actions import Action


class FirstLegal:
    """Always the first legal action (a pass before a claim, the first discard)."""

    name = "first-legal"

    def __init__(self, seed: int = 0, rules=None) -> None:
        self.rules = rules

    def act(self, obs) -> Action:
        return obs.legal[0]


class NoAct:
    name = "no-act"

    def __init__(self, seed=0, rules=None) -> None:
        pass


class NoName:
    def __init__(self, seed=0, rules=None) -> None:
        pass

    def act(self, obs):
        return obs.legal[0]


class TakesNothing:
    name = "takes-nothing"

    def __init__(self) -> None:
        pass

    def act(self, obs):
        return obs.legal[0]


class Breaks(FirstLegal):
    name = "breaks"

    def act(self, obs):
        raise RuntimeError("out of ideas")


NOT_A_CLASS = 3
'''

ENTRY_POINTS = f"""
[mahjong_nts.bots]
first-legal = {PLUGIN}:FirstLegal
missing-target = {PLUGIN}:Missing
"""


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder on sys.path with the module and an installed distribution's dist-info
    (METADATA and entry_points.txt, as pip writes them) registering two entry points."""
    root = tmp_path_factory.mktemp("plugin")
    (root / f"{PLUGIN}.py").write_text(textwrap.dedent(MODULE))
    info = root / "duel_plugin_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: duel-plugin-bots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (info / "top_level.txt").write_text(f"{PLUGIN}\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))
        yield root


def test_shipped_names() -> None:
    assert load_bot("random") is RandomBot
    assert load_bot("heuristic") is HeuristicBot


def test_module_class(plugin: Path) -> None:
    factory = load_bot(f"{PLUGIN}:FirstLegal")
    assert factory.__name__ == "FirstLegal"  # type: ignore[attr-defined]
    assert load_bot("mahjong_nts.bots.base:RandomBot") is RandomBot
    rules = load_ruleset("nts-2016")
    assert check_bot(f"{PLUGIN}:FirstLegal", rules) is factory
    assert factory(5, rules).rules is rules  # type: ignore[attr-defined]


def test_entry_point_of_an_installed_distribution(plugin: Path) -> None:
    assert importlib.metadata.version("duel-plugin-bots") == "1.0"
    (ep,) = importlib.metadata.entry_points(group="mahjong_nts.bots", name="first-legal")
    assert ep.value == f"{PLUGIN}:FirstLegal"
    assert load_bot("first-legal") is load_bot(f"{PLUGIN}:FirstLegal")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "genius",
            "unknown bot 'genius': one of easy, heuristic, normal, random, strong, "
            "module:Class, or an entry",
        ),
        ("no_such_module_here:Bot", "no module 'no_such_module_here' (is it installed"),
        (f"{PLUGIN}:Nobody", f"module '{PLUGIN}' has no 'Nobody'"),
        (f"{PLUGIN}:NOT_A_CLASS", "that is a int, not a class"),
        (f"{PLUGIN}:", "give module:Class, both parts"),
        (":Bot", "give module:Class, both parts"),
        (f"{PLUGIN}:NoAct", "is not a bot: it has no act(observation) method"),
        (f"{PLUGIN}:NoName", "is not a bot: its name is not a string"),
        (f"{PLUGIN}:TakesNothing", "cannot be made as Class(seed, rules): TypeError"),
        ("missing-target", f"its entry point '{PLUGIN}:Missing' does not load: AttributeError"),
        ("x" * (MAX_BOT_NAME_CHARS + 1), "1 to 200 characters, not 201"),
    ],
)
def test_what_is_no_bot_is_said(plugin: Path, name: str, message: str) -> None:
    with pytest.raises(BotLoadError) as caught:
        check_bot(name, load_ruleset("nts-2016"))
    assert message in str(caught.value)
    assert caught.value.unknown == (name == "genius")


def test_a_module_that_fails_to_import_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "duel_broken_bots.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotLoadError, match="importing 'duel_broken_bots' failed: no module"):
        load_bot("duel_broken_bots:Bot")


def test_duel_and_simulate_take_every_form(plugin: Path) -> None:
    duel = invoke_main(
        ["duel", "first-legal", f"{PLUGIN}:FirstLegal", "-n", "8", "--seed", "1", "--json"]
    )
    assert duel.exit_code == 0, duel.output
    s = json.loads(duel.stdout)
    assert s["a"] == "first-legal" and s["mean_diff"] == 0  # one class, two names
    bots = f"first-legal,{PLUGIN}:FirstLegal,random,heuristic"
    sim = invoke_main(["simulate", "--hands", "8", "--seed", "1", "--bots", bots, "--json"])
    assert sim.exit_code == 0, sim.output
    assert json.loads(sim.stdout)["bots"] == bots.split(",")
    two = invoke_main(
        ["simulate", "--hands", "24", "--seed", "1", "--bots", bots, "--json", "--jobs", "2"]
    )
    one = invoke_main(["simulate", "--hands", "24", "--seed", "1", "--bots", bots, "--json"])
    assert two.exit_code == 0 and json.loads(two.stdout) == json.loads(one.stdout)


def test_bad_bots_on_the_command_line(plugin: Path) -> None:
    res = invoke_main(["duel", f"{PLUGIN}:NoAct", "random", "-n", "8"])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: A: bot 'duel_plugin_bots:NoAct' is not a bot")
    res = invoke_main(["simulate", "-n", "8", "--bots", "random,random,random,nobody"])
    assert res.exit_code == 2
    assert (
        "error: --bots: unknown bot 'nobody': one of easy, heuristic, normal, random, strong, "
        "module:Class" in res.stderr
    )
    res = invoke_main(["simulate", "-n", "8", "--bots", f"random,random,random,{PLUGIN}:Nobody"])
    assert res.exit_code == 2 and f"module '{PLUGIN}' has no 'Nobody'" in res.stderr


def test_play_takes_every_form(plugin: Path, tmp_path: Path) -> None:
    """``play --bots`` takes what ``duel`` and ``simulate --bots`` take: a shipped name,
    ``module:Class`` and an entry point, one for all or one per other player."""
    bots = f"first-legal,{PLUGIN}:FirstLegal,random"
    args = ["play", "--seed", "8", "--bots", bots, "--log", str(tmp_path)]
    res = invoke_main(args, input="1\n" * 300)
    assert res.exit_code == 0, res.output
    (log,) = tmp_path.glob("play-*-hand01.jsonl")
    header = json.loads(log.read_text("utf-8").splitlines()[0])
    assert header["players"] == ["you", "first-legal-1", f"{PLUGIN}:FirstLegal-2", "random-3"]
    one = invoke_main(["play", "--seed", "8", "--bots", f"{PLUGIN}:FirstLegal", "--log",
                       str(tmp_path / "one")], input="q\n")  # fmt: skip
    assert one.exit_code == 0, one.output


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            "random,random,nobody",
            "error: --bots: unknown bot 'nobody': one of easy, heuristic, normal, random, "
            "strong, module:Class, or an entry point of the group mahjong_nts.bots",
        ),
        (f"{PLUGIN}:NoAct", f"error: --bots: bot '{PLUGIN}:NoAct' is not a bot: it has no act"),
        (f"random,{PLUGIN}:Nobody,random", f"error: --bots: bot '{PLUGIN}:Nobody': module"),
        ("no_such_module_here:Bot", "error: --bots: bot 'no_such_module_here:Bot': no module"),
        (
            "missing-target",
            f"error: --bots: bot 'missing-target': its entry point '{PLUGIN}:Missing' does not "
            "load: AttributeError",
        ),
    ],
)
def test_play_says_what_is_no_bot(plugin: Path, tmp_path: Path, bots: str, message: str) -> None:
    res = invoke_main(["play", "--bots", bots, "--log", str(tmp_path)], input="1\n" * 5)
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(message), res.stderr
    assert res.stdout == "" and "Traceback" not in res.stderr  # refused before the deal
    assert list(tmp_path.iterdir()) == []


def test_a_bot_that_raises_ends_play_with_one_line(plugin: Path, tmp_path: Path) -> None:
    """In ``play`` too: the hand so far is logged, one ``error:`` line names the bot, its
    seat and the hand, exit code 1, no traceback."""
    args = ["play", "--seed", "3", "--seat", "S", "--bots", f"{PLUGIN}:Breaks"]
    res = invoke_main([*args, "--log", str(tmp_path)], input="1\n" * 20)
    assert res.exit_code == 1, res.output
    assert res.stderr == (
        f"error: bot '{PLUGIN}:Breaks-0' (seat 0, hand 1) failed: RuntimeError: 'out of ideas'\n"
    )
    assert "Traceback" not in res.output
    (log,) = tmp_path.glob("play-*-hand01.jsonl")
    verified = invoke_main(["replay", str(log), "--verify"])
    assert verified.exit_code == 0, verified.output


def test_a_bot_that_raises_ends_the_run_with_one_line(plugin: Path) -> None:
    res = invoke_main(["duel", f"{PLUGIN}:Breaks", "random", "-n", "8", "--seed", "1"])
    assert res.exit_code == 1, res.output
    assert "failed: RuntimeError: out of ideas" in res.stderr
    assert "Traceback" not in res.output


def test_the_example_of_docs_bots_md_plays_a_duel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/bots.md's ``my_bots.py``, as written, named as ``module:Class``."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text("utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert code.startswith("# my_bots.py\n")
    (tmp_path / "my_bots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    res = invoke_main(["duel", "my_bots:Greedy", "random", "-n", "8", "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)
    assert s["a"] == "my_bots:Greedy" and s["hands"] == 8
