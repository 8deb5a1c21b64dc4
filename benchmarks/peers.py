"""Whether a peer package of the benchmarks is installed, and its version (the peers are
optional: a benchmark leaves out the rows of a peer that is missing)."""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version


def available(module: str) -> bool:
    """Whether ``module`` can be imported (imported here, so a broken install counts as
    missing)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def installed_version(distribution: str) -> str:
    """The installed version of ``distribution`` ("" when it is missing)."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return ""
