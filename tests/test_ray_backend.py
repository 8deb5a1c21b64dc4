"""``--backend ray``: chunks as Ray tasks on a local Ray (``ray.init(num_cpus=2)``, as CI
runs it) give the local backend's outcomes and summaries, for hands, matches and duels;
a bot's error comes back as the bot's error; the commands use the Ray they find."""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from cli_helpers import invoke_main
from mahjong_nts.bots.loader import BotLoadError
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.duel import DuelSpec, run_duel, summarize_duel
from mahjong_nts.sim.raybackend import RayBackend, RayUnavailable, check_address
from mahjong_nts.sim.simulate import BotError, SimulationSpec, run_simulation, summarize

BOT_MODULE = """
from mahjong_nts.core.actions import parse_action


class Illegal:
    name = "illegal"

    def __init__(self, seed=0, rules=None):
        pass

    def act(self, obs):
        legal = obs.legal
        return legal[0] if parse_action("mahjong") in legal else parse_action("mahjong")
"""


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayBackend]:
    """A local Ray of 2 CPUs, as CI starts it; its workers find a test bot's module (on
    PYTHONPATH when Ray starts: the workers inherit it)."""
    root = tmp_path_factory.mktemp("raybots")
    (root / "tests_raybots.py").write_text(BOT_MODULE)
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))
        path = os.environ.get("PYTHONPATH")
        mp.setenv("PYTHONPATH", os.pathsep.join([str(root), *([path] if path else [])]))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            joined = RayBackend.start()
            assert not joined.started  # the Ray of this process, left running on close
            assert joined.cpus() == 2
            yield joined
        finally:
            ray.shutdown()


@pytest.mark.parametrize(
    ("ruleset", "bots", "count", "matches"),
    [
        ("nts-2016", ("heuristic", "random", "random", "random"), 130, False),
        ("nts-2016+three-players", ("heuristic", "random", "heuristic"), 40, False),
        (
            "nts-2016+five-players",
            ("heuristic", "random", "random", "heuristic", "random"),
            3,
            True,
        ),
    ],
)
def test_simulate_on_ray_is_the_local_run(
    backend: RayBackend, ruleset: str, bots: tuple[str, ...], count: int, matches: bool
) -> None:
    rules = load_ruleset(ruleset)
    spec = SimulationSpec(ruleset, bots, seed=12, matches=matches)
    local = list(run_simulation(spec, count, jobs=1, rules=rules))
    on_ray = list(run_simulation(spec, count, jobs=2, rules=rules, backend=backend))
    assert on_ray == local
    assert summarize(spec, rules, on_ray) == summarize(spec, rules, local)


def test_duel_on_ray_is_the_local_duel(backend: RayBackend) -> None:
    rules = load_ruleset("nts-2016")
    spec = DuelSpec("nts-2016", "heuristic", "random", seed=6)
    done: list[int] = []
    on_ray = summarize_duel(spec, rules, run_duel(spec, 100, 2, done.append, backend=backend))
    assert on_ray == summarize_duel(spec, rules, run_duel(spec, 100, 1))
    assert sum(done) == 25  # walls, reported chunk by chunk


def test_a_bots_error_comes_back_as_itself(backend: RayBackend) -> None:
    """A bot that plays an illegal action: the worker's BotError is raised here, as the
    local backend raises it (not Ray's wrapper)."""
    spec = SimulationSpec("nts-2016", ("random",) * 3 + ("tests_raybots:Illegal",), seed=1)
    with pytest.raises(BotError, match="not one of its legal actions"):
        list(run_simulation(spec, 20, jobs=2, backend=backend))
    with pytest.raises(BotError, match="not one of its legal actions"):
        list(run_simulation(spec, 20, jobs=1))


def test_the_commands_on_ray(backend: RayBackend) -> None:
    args = ["-n", "40", "--seed", "3", "--json"]
    local = invoke_main(["duel", "heuristic", "random", *args, "--jobs", "2"])
    on_ray = invoke_main(["duel", "heuristic", "random", *args, "--backend", "ray"])
    assert on_ray.exit_code == 0, on_ray.output
    a, b = json.loads(local.stdout), json.loads(on_ray.stdout)
    ta, tb = a.pop("timing"), b.pop("timing")
    assert a == b and tb["backend"] == "ray" and tb["jobs"] == 2 and ta["backend"] == "local"
    sim_local = invoke_main(["simulate", *args])
    sim_ray = invoke_main(["simulate", *args, "--backend", "ray", "--jobs", "5"])
    assert sim_ray.exit_code == 0, sim_ray.output
    assert json.loads(sim_ray.stdout) == json.loads(sim_local.stdout)
    note = "note: --jobs 5 capped to 2: the CPUs of the Ray cluster\n"
    assert sim_ray.stderr == note
    assert ray.is_initialized()  # the commands left the Ray they found running


def test_addresses() -> None:
    for good in (
        "auto",
        "10.0.0.5:6379",
        "head.example.org:6379",
        "ray://head:10001",
        "[::1]:6379",
    ):
        assert check_address(good) == good
    for bad in ("", "head", "http://head:6379", "head:", "head:0", "a b:1", "ray://:1"):
        with pytest.raises(ValueError):
            check_address(bad)


def test_an_unreachable_cluster_is_said_at_once() -> None:
    with socket.socket() as probe:  # a port that nobody listens on: bound, not listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        res = invoke_main(["duel", "heuristic", "random", "--backend", "ray", "--address",
                           f"127.0.0.1:{port}"])  # fmt: skip
    assert res.exit_code == 2
    assert res.stderr == (
        f"error: cannot reach the Ray cluster at '127.0.0.1:{port}': Connection refused "
        "(is its head node running?)\n"
    )


def test_ray_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayUnavailable, match=r"pip install 'mahjong-nts\[ray\]'"):
        RayBackend.start()


def test_a_bot_that_the_workers_cannot_import(
    backend: RayBackend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on a cluster node without the bot's module: here only this process has it on its
    path (the workers were started before).  The run ends with the loader's message."""
    (tmp_path / "tests_driver_only_bots.py").write_text(
        "from mahjong_nts.bots.base import RandomBot as Here\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = SimulationSpec("nts-2016", ("random",) * 3 + ("tests_driver_only_bots:Here",))
    assert len(list(run_simulation(spec, 12, jobs=1))) == 12  # fine in this process
    with pytest.raises(BotLoadError, match="no module 'tests_driver_only_bots'"):
        list(run_simulation(spec, 12, jobs=2, backend=backend))
    res = invoke_main(
        ["duel", "tests_driver_only_bots:Here", "random", "-n", "8", "--backend", "ray"]
    )
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("error: bot 'tests_driver_only_bots:Here': no module")
