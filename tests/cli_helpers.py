"""Running the command as the console script does: through ``mahjong_nts.cli.main``.

``CliRunner().invoke(app, ...)`` runs the typer app in its standalone mode, which
prints usage errors itself; the console script (``mahjong-nts = mahjong_nts.cli:main``)
runs it through :func:`mahjong_nts.cli.main`, which turns them into one ``error:``
line.  Tests of what a user sees go through :func:`invoke_main`.
"""

from __future__ import annotations

import dataclasses
import sys

from typer.testing import CliRunner

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
