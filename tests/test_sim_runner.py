"""The chunk runner (``sim/runner.py``): a backend is given no more chunks at once than the
run's ``workers`` (``--jobs`` with ``--backend ray`` is the number of tasks running at once),
and the outcomes still come back in order, whatever order the chunks finish in."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from mahjong_nts.core.rules import RuleSet
from mahjong_nts.formats.rulefiles import load_ruleset
from mahjong_nts.sim.runner import Chunks, Work, run_chunks


@dataclass(frozen=True)
class Squares:
    def play_unit(self, rules: RuleSet, index: int) -> int:
        return index * index


class ThreadChunks:
    """Plays every chunk it is given at once (as a Ray cluster with CPUs to spare would),
    each in its own thread, later chunks sooner (so they finish out of order), and records
    the most chunks ever running together."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=32)
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0

    def submit(self, work: Work, start: int, stop: int) -> Future[list[Any]]:
        return self.pool.submit(self._play, work, start, stop)

    def _play(self, work: Work, start: int, stop: int) -> list[Any]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.05 / (1 + start))
        with self.lock:
            self.running -= 1
        return [work.play_unit(RULES, i) for i in range(start, stop)]

    def failure(self, exc: BaseException) -> BaseException | None:
        return None

    def close(self, cancel: bool) -> None:
        self.pool.shutdown(cancel_futures=cancel)


class ThreadBackend:
    name = "threads"

    def __init__(self) -> None:
        self.chunks = ThreadChunks()

    def open(self, rules: RuleSet, workers: int) -> Chunks:
        return self.chunks


RULES = load_ruleset("nts-2016")


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_backend_runs_at_most_workers_chunks_at_once(workers: int) -> None:
    backend = ThreadBackend()
    got = list(run_chunks(Squares(), RULES, 60, 4, workers, backend=backend))
    assert got == [i * i for i in range(60)]
    assert 1 <= backend.chunks.most <= workers
