"""Running numbered units of work (hands, matches, duel walls) in chunks, streamed in order:
in this process, in a pool of worker processes, or on another :class:`Backend` (Ray tasks,
:mod:`mahjong_nts.sim.raybackend`).  ``simulate`` and ``duel`` share it.

A *work* is a plain, picklable value (a frozen dataclass) with a method
``play_unit(rules, index)``: unit ``index`` is fully determined by the work and the index
(its seeds are derived from both), so the units may be played anywhere, in any order, and
the run gives the same outcomes whatever the backend and the number of processes.

The units ``0 .. count-1`` are cut into chunks of ``size``; a bounded number of chunks
(:data:`IN_FLIGHT_PER_JOB` per worker) is submitted or done but not yet handed on (of
them, a backend is given no more than ``workers`` at a time: it runs what it is given), and
:func:`run_chunks` yields the outcomes in index order, so a run's memory does not grow with
its length.  The rule set is loaded once, by the caller; workers get its values
(:meth:`RuleSet.to_mapping`), never the file it came from.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol

from mahjong_nts.core.rules import RuleSet

__all__ = [
    "CHUNKS_PER_JOB",
    "IN_FLIGHT_PER_JOB",
    "Backend",
    "Chunks",
    "Work",
    "WorkerFailure",
    "available_cpus",
    "chunk_size",
    "play_range",
    "run_chunks",
]

CHUNKS_PER_JOB: Final = 16
"""Chunks aimed at per worker (for balance and progress)."""
IN_FLIGHT_PER_JOB: Final = 3
"""Chunks submitted or done but not yet yielded, per worker: what the run holds at most."""


class Work(Protocol):
    """What a run plays: unit ``index`` is fixed by the work and ``index`` alone."""

    def play_unit(self, rules: RuleSet, index: int) -> Any: ...


class WorkerFailure(RuntimeError):
    """A worker (a process of the pool, a Ray worker or node) died: an internal failure."""


class Chunks(Protocol):
    """A backend opened for one run: it plays chunks of units somewhere else."""

    def submit(self, work: Work, start: int, stop: int) -> Future[list[Any]]:
        """Play units ``start .. stop-1`` of ``work``; their outcomes in order."""
        ...

    def failure(self, exc: BaseException) -> BaseException | None:
        """What to raise for an error of a chunk: a :class:`WorkerFailure` when the worker
        died, the bot's or the log's own error otherwise (``None``: ``exc`` itself)."""
        ...

    def close(self, cancel: bool) -> None:
        """Stop (dropping the chunks not yet played when ``cancel``)."""
        ...


class Backend(Protocol):
    """Where the chunks of a run are played when it is not this process alone."""

    name: str

    def open(self, rules: RuleSet, workers: int) -> Chunks: ...


def available_cpus() -> int:
    """Processors this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunk_size(count: int, jobs: int, least: int, most: int) -> int:
    """Units a chunk: about :data:`CHUNKS_PER_JOB` chunks per worker, from ``least`` to
    ``most`` units each."""
    per = math.ceil(count / (jobs * CHUNKS_PER_JOB))
    return max(least, min(most, per))


def _ranges(count: int, size: int) -> Iterator[tuple[int, int]]:
    for a in range(0, count, size):
        yield a, min(a + size, count)


_WORKER_RULES: list[RuleSet] = []
"""The rule set of a worker process, built once by :func:`_init_worker` from the values
the parent loaded: a worker never reads a rule file (an edited or deleted house file
changes nothing mid-run, whatever ``jobs`` is)."""


def _init_worker(values: dict[str, Any]) -> None:
    # Ctrl-C goes to the whole process group: the parent stops the run, workers stay quiet
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_RULES[:] = [RuleSet.from_mapping(values)]


def play_range(work: Work, start: int, stop: int, rules: RuleSet | None = None) -> list[Any]:
    """Units ``start .. stop-1`` of ``work`` (under the worker's rule set when ``rules`` is
    not given)."""
    if rules is None:
        rules = _WORKER_RULES[0]
    return [work.play_unit(rules, i) for i in range(start, stop)]


class _Pool:
    """Worker processes of this machine (``fork`` where there is one)."""

    def __init__(self, rules: RuleSet, workers: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(rules.to_mapping(),),
        )

    def submit(self, work: Work, start: int, stop: int) -> Future[list[Any]]:
        return self.pool.submit(play_range, work, start, stop)

    def failure(self, exc: BaseException) -> BaseException | None:
        if isinstance(exc, BrokenProcessPool):
            return WorkerFailure(
                "a worker process stopped unexpectedly (killed, or out of memory): no summary"
            )
        return None

    def close(self, cancel: bool) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=True)


def run_chunks(
    work: Work,
    rules: RuleSet,
    count: int,
    size: int,
    workers: int,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> Iterator[Any]:
    """The outcomes of units ``0 .. count-1`` of ``work``, in order, played in chunks of
    ``size``: in this process (no ``backend`` and one worker), in a pool of ``workers``
    processes (no ``backend``), or on ``backend`` with ``workers`` chunks running at once.
    ``progress(k)`` is called as each chunk of ``k`` units is done."""
    if backend is None and workers == 1:
        return _run_here(work, rules, count, size, progress)
    return _run_elsewhere(work, rules, count, size, workers, progress, backend)


def _run_here(
    work: Work,
    rules: RuleSet,
    count: int,
    size: int,
    progress: Callable[[int], None] | None,
) -> Iterator[Any]:
    for start, stop in _ranges(count, size):
        chunk = play_range(work, start, stop, rules)
        if progress is not None:
            progress(stop - start)
        yield from chunk


def _run_elsewhere(
    work: Work,
    rules: RuleSet,
    count: int,
    size: int,
    workers: int,
    progress: Callable[[int], None] | None,
    backend: Backend | None,
) -> Iterator[Any]:
    chunks: Chunks = _Pool(rules, workers) if backend is None else backend.open(rules, workers)
    ranges = _ranges(count, size)
    pending: dict[Future[list[Any]], int] = {}
    finished: dict[int, list[Any]] = {}
    """Chunks done but not yet yielded (they wait for an earlier one), by first index."""
    next_start = 0
    held = workers * IN_FLIGHT_PER_JOB
    # the pool runs ``workers`` chunks at once and queues the rest; a backend (a Ray
    # cluster) would run every chunk it is given at once, so it gets ``workers`` at a time
    running = held if backend is None else workers
    try:
        while True:
            # top up: at most ``held`` chunks submitted or waiting to be yielded, and at
            # most ``running`` of them submitted and not done
            room = max(0, min(held - len(pending) - len(finished), running - len(pending)))
            for start, stop in itertools.islice(ranges, room):
                pending[chunks.submit(work, start, stop)] = start
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                start = pending.pop(fut)
                finished[start] = fut.result()
                if progress is not None:
                    progress(len(finished[start]))
            while next_start in finished:
                chunk = finished.pop(next_start)
                next_start += len(chunk)
                yield from chunk
    except Exception as exc:
        said = chunks.failure(exc)
        if said is None:
            raise
        raise said from None
    finally:
        # on an error, Ctrl-C or an abandoned iterator: drop the queued chunks at once
        chunks.close(cancel=bool(pending))
    if next_start != count:  # pragma: no cover - every chunk is submitted and merged
        raise AssertionError(f"run merged {next_start} of {count}")
