"""Running the command as the console script does: through ``mahjong_nts.cli.main``.

``CliRunner().invoke(app, ...)`` runs the typer app in its standalone mode, which
prints usage errors itself; the console script (``mahjong-nts = mahjong_nts.cli:main``)
runs it through :func:`mahjong_nts.cli.main`, which turns them into one ``error:``
line.  Tests of what a user sees go through :func:`invoke_main`.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import mahjong_nts
from mahjong_nts.cli import main


@dataclasses.dataclass(frozen=True)
class MainResult:
    """What one run of :func:`main` did: its exit code and what it wrote."""

    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None
    """An exception that escaped ``main`` (there should never be one)."""

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def invoke_main(
    args: list[str], input: bytes | str | None = None, runner: CliRunner | None = None
) -> MainResult:
    """Run ``main(args)`` with stdin ``input``, stdout and stderr captured."""
    runner = runner or CliRunner()
    exception: BaseException | None = None
    code = 1
    with runner.isolation(input=input) as (out, err, _):
        try:
            code = main(list(args))
        except BaseException as exc:  # reported to the test, not hidden
            exception = exc
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue(), err.getvalue()
    decode = runner.charset
    return MainResult(
        code,
        stdout.decode(decode, "replace").replace("\r\n", "\n"),
        stderr.decode(decode, "replace").replace("\r\n", "\n"),
        exception,
    )


def run_cli(
    *args: str, cwd: Path | None = None, columns: int = 120, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m mahjong_nts.cli ARGS`` in a child process (the package these tests
    import, first on its path), output as text; ``kwargs`` go to ``subprocess.run``
    (``input=``, ``stdin=``, ``preexec_fn=``)."""
    src = str(Path(mahjong_nts.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "COLUMNS": str(columns), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "mahjong_nts.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        **kwargs,
    )


def run_script(script: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python SCRIPT ARGS`` (a script of benchmarks/ or examples/) in a child process
    that imports the package these tests import, output as text."""
    src = str(Path(mahjong_nts.__file__).resolve().parents[1])
    return subprocess.run(
        [sys.executable, str(script), *args],
        env={**os.environ, "PYTHONPATH": src},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
