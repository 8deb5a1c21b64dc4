"""Do two or more trees give the same results?  Runs ``check_identical.py`` (scoring),
``check_notation_identical.py`` (parsing), ``mahjong-nts simulate`` / ``duel``
(whole games) and ``check_env_identical.py`` (the environment's arrays, masks and
rewards along random episodes; needs the ``[env]`` extra) once per tree and compares
what they print, byte for byte (``duel``'s JSON without its timing).

A tree is a directory that holds the ``mahjong_nts`` package (``src/`` of a checkout,
or a virtual environment's ``site-packages``): each run has it first on ``PYTHONPATH``,
in a fresh process, so the compiled build (``.so`` modules beside the ``.py`` files) and
the pure one can be compared, and either with an old revision
(``git archive 03f31a1 src | tar -x -C /tmp/old``)::

    python benchmarks/check_builds.py compiled=.venv-compiled/lib/python3.11/site-packages \\
        pure=src old=/tmp/old/src

Each tree's build is printed first (``mahjong_nts.core.build``, or "no build flag" for a
revision before it).  Then per check one line: the digest of each tree's output and
``same`` or ``DIFFERENT``; the exit code is 1 if any check differs.  The games and the
environment's episodes run only on trees that have the same ``simulate`` as the first
(``--games-on`` names them; default: every tree but ones named ``old``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _run(tree: str, args: list[str]) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve()), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, check=False, cwd="/"
    )
    if done.returncode != 0:
        sys.exit(f"{args[0]} failed on {tree}:\n{done.stderr.decode(errors='replace')[-2000:]}")
    return done.stdout


def _digest(out: bytes) -> str:
    """The output's digest; a JSON object's without its ``timing`` (duel says how long
    it took, which no two runs share)."""
    if out.startswith(b"{"):
        data = json.loads(out)
        data.pop("timing", None)
        out = json.dumps(data, sort_keys=True).encode()
    return hashlib.sha256(out).hexdigest()[:16]


def _build(tree: str) -> str:
    code = (
        "import mahjong_nts.core.game as g\n"
        "try:\n from mahjong_nts.core.build import BUILD\n"
        "except ImportError:\n BUILD = 'no build flag'\n"
        "print(BUILD, g.__file__)"
    )
    return _run(tree, ["-c", code]).decode().strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="NAME=DIR, DIR holding mahjong_nts")
    parser.add_argument("--seeds", default="1,2,3,4,5", help="check_identical seeds")
    parser.add_argument("--hands", type=int, default=20000, help="hands per seed")
    parser.add_argument("--notation-seeds", default="1,2", help="check_notation seeds")
    parser.add_argument("--texts", type=int, default=100000, help="texts per seed")
    parser.add_argument("--games", type=int, default=2000, help="simulate --hands")
    parser.add_argument("--duel-hands", type=int, default=200, help="duel --hands")
    parser.add_argument("--env-episodes", type=int, default=90, help="env episodes")
    parser.add_argument("--games-on", default=None, help="comma-separated tree names")
    opts = parser.parse_args()
    trees = dict(t.split("=", 1) for t in opts.trees)
    for name, tree in trees.items():
        print(f"{name:10} {_build(tree)}", flush=True)
    checks: list[tuple[str, list[str], list[str]]] = []
    for seed in filter(None, opts.seeds.split(",")):
        args = [str(HERE / "check_identical.py"), seed, str(opts.hands)]
        checks.append((f"scoring seed {seed} x {opts.hands}", args, list(trees)))
    for seed in filter(None, opts.notation_seeds.split(",")):
        args = [str(HERE / "check_notation_identical.py"), seed, str(opts.texts)]
        checks.append((f"notation seed {seed} x {opts.texts}", args, list(trees)))
    games_on = opts.games_on.split(",") if opts.games_on else [n for n in trees if n != "old"]
    cli = ["-m", "mahjong_nts.cli"]
    sim = [*cli, "simulate", "--hands", str(opts.games), "--seed", "1", "--jobs", "1", "--json"]
    checks.append((f"simulate --hands {opts.games} --seed 1 --json", sim, games_on))
    duel = [*cli, "duel", "heuristic", "random", "--hands", str(opts.duel_hands), "--seed", "1"]
    checks.append((f"duel heuristic random --hands {opts.duel_hands}", [*duel, "--json"], games_on))
    env = [str(HERE / "check_env_identical.py"), "1", str(opts.env_episodes)]
    checks.append((f"env episodes seed 1 x {opts.env_episodes}", env, games_on))
    differ = False
    for label, args, names in checks:
        digests = {n: _digest(_run(trees[n], args)) for n in names}
        same = len(set(digests.values())) == 1
        differ |= not same
        shown = "  ".join(f"{n}={d}" for n, d in digests.items())
        print(f"{label:45} {shown}  {'same' if same else 'DIFFERENT'}", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
