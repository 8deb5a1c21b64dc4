"""``--backend``, ``--address`` and ``--jobs`` of ``simulate`` and ``duel``: where the hands
are played (this machine's processes, or Ray tasks) and how many at once.

:func:`check_backend` checks the options before anything is made; :func:`open_backend`
starts or joins Ray only then, for the run, and shuts down a Ray it started.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer
from rich.console import Console

from mahjong_nts.cli.i18n import N_, _
from mahjong_nts.cli.options import fail
from mahjong_nts.core.errors import quote
from mahjong_nts.sim.runner import available_cpus

__all__ = [
    "BACKENDS",
    "AddressOpt",
    "BackendOpt",
    "JobsOpt",
    "check_backend",
    "open_backend",
    "progress_bar",
    "worker_failure",
]

BACKENDS = ("local", "ray")

BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        help=N_(
            "Where the hands are played: local (this machine's processes) or ray (Ray "
            "tasks; pip install 'mahjong-nts[ray]')."
        ),
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address",
        help=N_(
            "With --backend ray: the Ray cluster to run on (auto, HOST:PORT of its head "
            "node, or ray://HOST:PORT).  Default: a local Ray started for the run."
        ),
        show_default=False,
    ),
]
JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        help=N_(
            "Processes, or Ray tasks at once (at least 1; at most the processors this "
            "process may use, or the CPUs of the Ray cluster).  Default: 1, or every CPU "
            "of the Ray cluster."
        ),
        show_default=False,
    ),
]

_stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def _note(message: str) -> None:
    _stderr.print(message, markup=False)


def check_backend(backend: str, address: str | None, jobs: int | None) -> None:
    """The options, checked before anything is made (``error: ...``, exit 2)."""
    from mahjong_nts.sim.raybackend import INSTALL_HINT, check_address, ray_installed

    if backend not in BACKENDS:
        fail(_("--backend: {value} is not local or ray").format(value=quote(backend)))
    if jobs is not None and jobs < 1:
        fail(_("{option} must be at least 1, not {n}").format(option="--jobs", n=jobs))
    if address is not None and backend != "ray":
        fail(_("--address is the address of a Ray cluster: give --backend ray too"))
    if address is not None:
        try:
            check_address(address)
        except ValueError as exc:
            fail(f"--address: {exc}")
    if backend == "ray" and not ray_installed():
        fail(_("--backend ray needs Ray, which is not installed: {hint}").format(hint=INSTALL_HINT))


@contextlib.contextmanager
def open_backend(backend: str, address: str | None, jobs: int | None) -> Iterator[tuple[Any, int]]:
    """``(backend, jobs)`` for the run: ``(None, jobs)`` locally (``jobs`` capped to the
    processors this process may use, with a note); with Ray, the joined or started Ray
    and the tasks to run at once (every CPU of the cluster by default, capped to them).
    A Ray started here is shut down on leaving."""
    cpus = available_cpus()
    if backend != "ray":
        jobs = 1 if jobs is None else jobs
        if jobs > cpus:
            _note(
                _(
                    "note: --jobs {jobs} capped to {cpus}: the processors this process may use"
                ).format(jobs=jobs, cpus=cpus)
            )
        yield None, min(jobs, cpus)
        return
    from mahjong_nts.sim.raybackend import RayBackend, RayUnavailable

    # a local Ray started here gets the processors this process may use (at most --jobs)
    start_cpus = None if jobs is None else min(jobs, cpus)
    try:
        ray_backend = RayBackend.start(address, start_cpus)
    except RayUnavailable as exc:
        fail(str(exc))
    with ray_backend:
        total = ray_backend.cpus()
        if jobs is None:
            jobs = total
        elif jobs > total:
            _note(
                _("note: --jobs {jobs} capped to {cpus}: the CPUs of the Ray cluster").format(
                    jobs=jobs, cpus=total
                )
            )
            jobs = total
        yield ray_backend, jobs


@contextlib.contextmanager
def progress_bar(what: str, total: int, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr (none when ``quiet``, or when stderr is no terminal: a
    bar that is not redrawn would only leave an empty line): yields the callable that
    advances it by ``k`` units, or ``None``."""
    if quiet or not _stderr.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn(what, markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=_stderr,
        transient=True,
        auto_refresh=False,  # no refresh thread while worker processes are forked
    ) as bar:
        task = bar.add_task(what, total=total)

        def advance(k: int) -> None:
            bar.advance(task, k)
            bar.refresh()

        yield advance


_POOL_DIED = "a worker process stopped unexpectedly (killed, or out of memory): no summary"


def worker_failure(exc: Exception) -> str:
    """What to say when a worker died (exit 1): the local pool's message in the language
    of the run; Ray's (which names Ray's own error) as it is."""
    if str(exc) == _POOL_DIED:
        return _("a worker process stopped unexpectedly (killed, or out of memory): no summary")
    return str(exc)
