"""The Ray backend of ``simulate`` and ``duel`` (``--backend ray``): chunks of units played
as Ray tasks, on a local Ray started for the run or on an existing cluster.

Ray is optional (``pip install 'mahjong-nts[ray]'``) and imported only here, only when a
run asks for it (:meth:`RayBackend.start`); without it, :class:`RayUnavailable` says how
to install it.  Nothing below ``sim/`` imports Ray.

Each chunk (units ``start .. stop-1``) is one task taking one CPU.  The work (a
``SimulationSpec`` or ``DuelSpec``: plain values) and the rule set's values
(:meth:`RuleSet.to_mapping`, put once in Ray's object store) travel to the task; a worker
builds the rule set once per run.  Units are fixed by their index alone, so the outcomes
are the local backend's, whichever node plays which chunk;
:func:`~mahjong_nts.sim.runner.run_chunks` keeps a bounded number of tasks out and merges
their outcomes in order, as it does for the local process pool.

On a cluster every node must have mahjong-nts installed (the same version as the
driver): a task imports :mod:`mahjong_nts` and, for a bot named ``module:Class`` or by
an entry point, that bot's module.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import secrets
import socket
import sys
from concurrent.futures import Future
from typing import Any, Final

from mahjong_nts.core.errors import quote
from mahjong_nts.core.rules import RuleSet
from mahjong_nts.sim.runner import Work, WorkerFailure, available_cpus, play_range

__all__ = [
    "MAX_ADDRESS_CHARS",
    "RayBackend",
    "RayUnavailable",
    "check_address",
    "ray_installed",
]

MAX_ADDRESS_CHARS: Final = 300
"""Characters of a Ray cluster's address (``--address``)."""

_ADDRESS = re.compile(
    r"auto|(ray://)?[A-Za-z0-9.\-]+:[0-9]{1,5}|(ray://)?\[[0-9A-Fa-f:.]+\]:[0-9]{1,5}"
)

INSTALL_HINT: Final = "pip install 'mahjong-nts[ray]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached (the message says which)."""


def check_address(address: str) -> str:
    """``--address``: ``auto`` (the cluster this machine belongs to), ``HOST:PORT`` of a
    head node (its GCS port, 6379 by default) or ``ray://HOST:PORT`` (Ray Client, port
    10001); raises ValueError."""
    if len(address) > MAX_ADDRESS_CHARS:
        raise ValueError(
            f"a Ray address has at most {MAX_ADDRESS_CHARS} characters, not {len(address)}"
        )
    if not _ADDRESS.fullmatch(address):
        raise ValueError(
            f"{quote(address)} is not a Ray address: give auto, HOST:PORT of the head node "
            "or ray://HOST:PORT"
        )
    if address == "auto":
        return address
    port = int(address.rsplit(":", 1)[1])
    if not 1 <= port <= 65535:
        raise ValueError(f"{quote(address)}: the port is 1 to 65535, not {port}")
    return address


def ray_installed() -> bool:
    """Whether Ray can be imported here (without importing it, which takes a second)."""
    if "ray" in sys.modules:
        return sys.modules["ray"] is not None
    return importlib.util.find_spec("ray") is not None


PROBE_SECONDS: Final = 5.0
"""How long a head node has to accept a connection before Ray is asked to join it (Ray
itself retries for minutes)."""


def _probe(address: str) -> None:
    """A head node at ``HOST:PORT`` (or ``ray://HOST:PORT``) that accepts a connection;
    :class:`RayUnavailable` at once when none does (``auto`` is left to Ray)."""
    if address == "auto":
        return
    host, _sep, port = address.removeprefix("ray://").rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise RayUnavailable(
            f"cannot reach the Ray cluster at {quote(address)}: "
            f"{exc.strerror or type(exc).__name__} (is its head node running?)"
        ) from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            f"--backend ray needs Ray, which is not installed: {INSTALL_HINT}"
        ) from None
    return ray


_TASK_RULES: dict[str, RuleSet] = {}
"""The rule set of the run a Ray worker last played for, by the run's token."""


def _play_chunk(work: Work, start: int, stop: int, token: str, values: dict[str, Any]) -> list[Any]:
    """A Ray task: units ``start .. stop-1`` of ``work`` under the run's rule set."""
    rules = _TASK_RULES.get(token)
    if rules is None:
        rules = RuleSet.from_mapping(values)
        _TASK_RULES.clear()
        _TASK_RULES[token] = rules
    return play_range(work, start, stop, rules)


class _RayChunks:
    """A run's tasks on Ray (:class:`~mahjong_nts.sim.runner.Chunks`)."""

    def __init__(self, ray: Any, rules: RuleSet) -> None:
        self.ray = ray
        self.task = ray.remote(num_cpus=1, max_retries=0)(_play_chunk)
        self.values = ray.put(rules.to_mapping())
        self.token = secrets.token_hex(16)
        self.refs: dict[Future[list[Any]], Any] = {}

    def submit(self, work: Work, start: int, stop: int) -> Future[list[Any]]:
        ref = self.task.remote(work, start, stop, self.token, self.values)
        fut: Future[list[Any]] = ref.future()
        self.refs[fut] = ref
        fut.add_done_callback(lambda f: self.refs.pop(f, None))
        return fut

    def failure(self, exc: BaseException) -> BaseException | None:
        errors = self.ray.exceptions
        if isinstance(exc, errors.RayTaskError):
            from mahjong_nts.bots.loader import BotLoadError
            from mahjong_nts.sim.simulate import BotError

            cause = getattr(exc, "cause", None)
            if isinstance(cause, BotError | BotLoadError):
                return cause  # the bot's own error, as the local backend gives it
            what = f"{type(cause).__name__}: {cause}" if cause is not None else type(exc).__name__
            return WorkerFailure(
                f"a Ray task failed: {what} (is the same mahjong-nts installed on every "
                "node?): no summary"
            )
        if isinstance(exc, errors.RayError):
            return WorkerFailure(
                f"a Ray worker or node stopped unexpectedly ({type(exc).__name__}): no summary"
            )
        return None

    def close(self, cancel: bool) -> None:
        if cancel:
            for ref in list(self.refs.values()):
                with contextlib.suppress(Exception):  # a task that ended meanwhile
                    self.ray.cancel(ref, force=True)
        self.refs.clear()


class RayBackend:
    """Ray for one command (:class:`~mahjong_nts.sim.runner.Backend`): a local Ray started
    for it, an existing cluster (``address``), or the Ray this process already joined.

    Use it as a context manager: on leaving, a Ray it started is shut down."""

    name = "ray"

    def __init__(self, ray: Any, started: bool) -> None:
        self.ray = ray
        self.started = started

    @classmethod
    def start(cls, address: str | None = None, cpus: int | None = None) -> RayBackend:
        """Join Ray: the cluster at ``address`` (:func:`check_address`), or this process's
        Ray when it has one, or a local Ray started with ``cpus`` CPUs (default: the
        processors this process may use).  Raises :class:`RayUnavailable`."""
        ray = _import_ray()
        if address is not None:
            _probe(address)
        if ray.is_initialized():
            return cls(ray, started=False)
        options: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": "ERROR",
            "log_to_driver": False,
        }
        if address is None:
            options["num_cpus"] = cpus or available_cpus()
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except Exception as exc:
            where = f"the Ray cluster at {quote(address)}" if address else "a local Ray"
            raise RayUnavailable(
                f"cannot start or reach {where}: {type(exc).__name__}: {exc}"
            ) from None
        return cls(ray, started=True)

    def cpus(self) -> int:
        """CPUs of the cluster (of all its nodes)."""
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def open(self, rules: RuleSet, workers: int) -> _RayChunks:
        return _RayChunks(self.ray, rules)

    def close(self) -> None:
        """Shut down the Ray this backend started (a cluster it joined goes on)."""
        if self.started:
            self.ray.shutdown()
            self.started = False

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
