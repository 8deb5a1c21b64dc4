"""Store calls of the online tables, off the event loop; a SQLite store's appends
committed together.

A SQLite database takes one writer at a time, and each commit waits for the disk (2 to
5 ms on the shared test machine).  With every table's append a transaction of its own,
250 tables could not commit much more than 200 appends a second, and concurrent writers
from asyncio's threads waited in SQLite's busy handler, which sleeps between tries (1,
2, 5 ... 100 ms): under load some actions waited a second for their write (``python
benchmarks/bench_online.py``, docs/online.md, "Load").

So a SQLite store's calls run in one thread of their own, in the order they were made,
and the appends waiting when that thread comes to them are written in one transaction
(:func:`~mahjong_nts.store.online.append_many`, a group commit): one wait for the disk
for all of them.  Each caller hears of its append only after that commit, so nothing is
acknowledged before it is stored.  When one append of a group is refused (another
writer appended first, another process owns the table, the table is gone) the group is
rolled back and each append is tried again alone, so that only the refused one fails.
At most one append per table waits (a table holds its lock while it writes), so a group
has at most as many as the server has tables.  Another database (PostgreSQL takes
concurrent writers and groups their commits itself) gets a thread of asyncio's default
pool per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from mahjong_nts.store import Conflict, NotFound, Store
from mahjong_nts.store.online import Append, NewEvent, append_many

__all__ = ["append", "store_call"]

T = TypeVar("T")

_THREAD = ThreadPoolExecutor(1, thread_name_prefix="online-sqlite")
"""The one thread of every SQLite store's calls (one disk, one writer at a time)."""


@dataclass(slots=True)
class _Job:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    call: Callable[[], Any] | None = None
    """A call of its own; ``None``: :attr:`append`, written with its neighbours."""
    append: Append | None = None


class _Queue:
    """The calls waiting for one SQLite store, and the drain that runs them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = threading.Lock()
        self.jobs: list[_Job] = []
        self.draining = False

    def submit(self, job: _Job) -> None:
        with self.lock:
            self.jobs.append(job)
            if self.draining:
                return
            self.draining = True
        _THREAD.submit(self._drain)

    def _drain(self) -> None:
        while True:
            with self.lock:
                if not self.jobs:
                    self.draining = False
                    return
                jobs, self.jobs = self.jobs, []
            i = 0
            while i < len(jobs):
                if jobs[i].append is None:
                    _run_one(jobs[i])
                    i += 1
                    continue
                j = i
                while j < len(jobs) and jobs[j].append is not None:
                    j += 1
                self._appends(jobs[i:j])
                i = j

    def _appends(self, jobs: list[_Job]) -> None:
        appends = [job.append for job in jobs if job.append is not None]
        try:
            done = append_many(self.store, appends)
        except (Conflict, NotFound) as exc:
            if len(jobs) == 1:
                _settle(jobs[0], error=exc)
                return
            for job in jobs:  # each alone: only the refused one fails
                one = job.append
                assert one is not None
                job.call = lambda store=self.store, one=one: append_many(store, [one])[0]
                _run_one(job)
            return
        except BaseException as exc:  # the database failed: none of them is stored
            for job in jobs:
                _settle(job, error=exc)
            return
        for job, after in zip(jobs, done, strict=True):
            _settle(job, result=after)


def _run_one(job: _Job) -> None:
    assert job.call is not None
    try:
        result = job.call()
    except BaseException as exc:
        _settle(job, error=exc)
    else:
        _settle(job, result=result)


def _settle(job: _Job, *, result: Any = None, error: BaseException | None = None) -> None:
    def done() -> None:
        if job.future.cancelled():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it any more
        job.loop.call_soon_threadsafe(done)


_QUEUES: weakref.WeakKeyDictionary[Store, _Queue] = weakref.WeakKeyDictionary()
_QUEUES_LOCK = threading.Lock()


def _queue(store: Store) -> _Queue | None:
    """The queue of a SQLite store; ``None`` for another database."""
    if store.engine.dialect.name != "sqlite":
        return None
    with _QUEUES_LOCK:
        queue = _QUEUES.get(store)
        if queue is None:
            queue = _QUEUES[store] = _Queue(store)
        return queue


async def store_call(store: Store, fn: Callable[..., T], /, *args: Any, **kw: Any) -> T:
    """``fn(store, *args, **kw)`` in a thread (see the module's docstring)."""
    queue = _queue(store)
    if queue is None:
        return await asyncio.to_thread(fn, store, *args, **kw)
    loop = asyncio.get_running_loop()
    job = _Job(loop, loop.create_future(), call=lambda: fn(store, *args, **kw))
    queue.submit(job)
    result: T = await job.future
    return result


async def append(
    store: Store,
    table_id: str,
    first_seq: int,
    events: Sequence[NewEvent],
    *,
    status: str | None = None,
    owner: str | None = None,
) -> int:
    """:func:`~mahjong_nts.store.online.append_events`, in a thread; on SQLite committed
    together with the other tables' appends waiting at the time."""
    one = Append(table_id, first_seq, tuple(events), status, owner)
    queue = _queue(store)
    if queue is None:
        done = await asyncio.to_thread(append_many, store, [one])
        return done[0]
    loop = asyncio.get_running_loop()
    job = _Job(loop, loop.create_future(), append=one)
    queue.submit(job)
    after: int = await job.future
    return after
