"""The compiled build's mark for bot classes that Python code may subclass.

mypyc compiles a class into a native one that an interpreted class cannot subclass, unless
the class says ``@mypyc_attr(allow_interpreted_subclasses=True)``.  A researcher's bot is
often the shipped one with a method changed (``class Mine(HeuristicBot): ...``, loaded as
``module:Class``), so every shipped bot class carries that mark (docs/speed.md).  mypyc
reads the mark at compile time; the pure build, and a compiled build run where mypy is not
installed, get a decorator that leaves the class as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_C = TypeVar("_C")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - mypy (with mypy_extensions) is not installed

    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Callable[[_C], _C]:  # type: ignore[misc]
        """A mark that marks nothing (no mypyc here)."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
