"""Which build of the core runs: compiled with mypyc, or pure Python.

A wheel built where mypy (mypyc) and a C compiler are present carries the modules of
``core/`` and ``bots/`` and the environment's ``env/encoding`` (and ``env/__init__``)
compiled beside their ``.py`` files, and Python imports the compiled ones (see
``setup.py``'s ``PURE_MODULES`` for the few left as Python, and ``docs/speed.md``).
This module is compiled with them, so its own file says which build is running.
``mahjong-nts --version`` shows it.

A few fast paths of the pure build build frozen objects through their slots' descriptors
(``object.__new__`` and ``__set__``), which compiled (native) classes do not have; they
read :data:`COMPILED` to take the ordinary constructor instead, which compiled code runs
fast.
"""

from __future__ import annotations

from typing import Final

__all__ = ["BUILD", "COMPILED"]

COMPILED: Final[bool] = not __file__.endswith((".py", ".pyc"))
"""This module (and with it the core and the bots) is a compiled extension module."""

BUILD: Final[str] = "compiled (mypyc)" if COMPILED else "pure Python"
"""What ``mahjong-nts --version`` says about the build."""
