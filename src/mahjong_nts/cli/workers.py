"""``serve --workers N``: N processes answering on one port, and their supervisor.

On Linux each worker gets its own listening socket on the port (``SO_REUSEPORT``,
see :func:`mahjong_nts.cli.serve.listeners`) and the kernel spreads new connections
over them evenly.  With one socket shared by all, the worker that wakes first takes
every connection that is waiting (uvloop accepts until none is left): 50 keep-alive
connections opened together all went to one worker while the other idled
(docs/web.md has the figures).  Where ``SO_REUSEPORT`` does not balance, the workers
share one socket.

:func:`run_workers` starts the workers (``multiprocessing``'s spawn: each imports the
app afresh and runs ``uvicorn.Server(config).run(sockets=[its socket])``), starts a
worker again when one ends (its socket would otherwise hold connections that nobody
takes), and on SIGINT or SIGTERM stops them all: uvicorn's graceful shutdown, killed
after :data:`STOP_SECONDS`.  The sockets are bound before, by the command, so a port
in use is its ``error:`` line as ever.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Sequence
from typing import Any, Final

from uvicorn.config import STARTUP_FAILURE

__all__ = ["STOP_SECONDS", "run_workers"]

log = logging.getLogger("uvicorn.error")

STOP_SECONDS: Final = 30
"""How long a worker has to finish its requests when the server stops."""


def _worker(config: Any, sock: socket.socket) -> None:  # pragma: no cover (a child process)
    import sys

    import uvicorn

    config.configure_logging()  # as uvicorn's own workers do: logging is per process
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:
        sys.exit(STARTUP_FAILURE)


def run_workers(config: Any, sockets: Sequence[socket.socket], workers: int) -> bool:
    """Serve with ``workers`` processes until SIGINT or SIGTERM: worker ``i`` listens
    on ``sockets[i]``, or all on ``sockets[0]`` when there is one.  Whether they
    started (False when a worker could not start: then all are stopped)."""
    context = multiprocessing.get_context("spawn")
    # the handlers only note the signal: taking a lock in one (threading.Event.set) can
    # deadlock with the main thread it interrupts, which may hold that very lock
    caught: list[int] = []
    handlers = {sig: signal.signal(sig, lambda sig, _: caught.append(sig)) for sig in _SIGNALS}
    socket_of = [sockets[i] if len(sockets) > 1 else sockets[0] for i in range(workers)]

    def start(i: int) -> Any:
        process = context.Process(target=_worker, args=(config, socket_of[i]), daemon=False)
        process.start()
        return process

    log.info("Started parent process [%d]", os.getpid())
    processes = [start(i) for i in range(workers)]
    started = True
    try:
        while not caught:
            time.sleep(0.5)  # so a signal is acted on within half a second
            for i, process in enumerate(processes):
                if caught or process.is_alive():
                    continue
                if process.exitcode == STARTUP_FAILURE:
                    log.error("Worker process [%d] could not start: stopping", process.pid)
                    started = False
                    caught.append(0)
                    break
                log.warning(
                    "Worker process [%d] ended (exit code %s): starting another",
                    process.pid,
                    process.exitcode,
                )
                processes[i] = start(i)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        log.info("Stopped parent process [%d]", os.getpid())
    return started


_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)
