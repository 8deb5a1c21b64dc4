"""The optional compiled build: the rules core and the bots compiled with mypyc.

Everything else about the package is in pyproject.toml; this file only decides whether
the wheel carries C extensions beside the Python files (docs/speed.md, "Compiled build"):

- a wheel or a plain (non-editable) install compiles ``COMPILED`` below when mypy (with
  mypyc, a build requirement) and a C compiler are there, unless ``MAHJONG_NTS_PURE=1``;
- an editable install (``pip install -e .``) stays pure Python unless
  ``MAHJONG_NTS_COMPILE=1`` (compiled modules beside the sources would shadow every edit;
  ``python setup.py clean_compiled`` removes them);
- when mypyc refuses a module or the C compiler fails, the build says so in one line
  (which module, or the compiler's first error) and goes on pure: the ``.py`` files are
  in every wheel, and Python imports an extension module before a ``.py`` of the same
  name only when the extension is there.

``mahjong-nts --version`` says which build runs (``mahjong_nts.build``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, ClassVar

from setuptools import Command, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
os.chdir(HERE)  # mypyc and setuptools read paths relative to the project
SRC = HERE / "src"

PURE_MODULES = {
    # a str subclass with slots (Text carries its template): mypyc compiles no subclass of
    # str as a native class, and its escape hatch (mypy_extensions.mypyc_attr) is a
    # third-party import the pure core may not make
    "mahjong_nts/core/text.py",
    # exceptions whose __init__ takes positional-only parameters beside **params that may
    # hold the same names (NotYourTurn(message, seat, seat=seat)): compiled, the call is
    # refused ("given by name and position"); errors are raised, never hot
    "mahjong_nts/core/errors.py",
    # imports bots by name (importlib, entry points): once per process, nothing to gain
    "mahjong_nts/bots/loader.py",
    # subclass PettingZoo's AECEnv and its order-enforcing wrapper (aec.py) and
    # Gymnasium's Env (single.py): mypyc makes no native class of a subclass of a class
    # it did not compile, and its Python class of one (its base an Any to mypy:
    # pettingzoo has no types) broke the attribute lookups of PettingZoo's api_test
    # (SystemError in dictobject.c) and crashed the interpreter in tests/env; they hold
    # the AEC protocol's few lines a step, the array and the mask are encoding.py's
    "mahjong_nts/env/aec.py",
    "mahjong_nts/env/single.py",
}
"""Modules of the compiled packages left as Python, and why."""

COMPILED_PACKAGES = ("mahjong_nts/core", "mahjong_nts/bots", "mahjong_nts/env")
"""The packages whose modules are compiled; env/ imports numpy (the ``[env]`` extra, not a
build requirement: without it in the build, mypy takes numpy's types as Any)."""


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def _say(message: str) -> None:
    print(f"mahjong-nts build: {message}", file=sys.stderr, flush=True)


def compiled_sources() -> list[str]:
    """The modules to compile, relative to src/, in a stable order."""
    out: list[str] = []
    for package in COMPILED_PACKAGES:
        for path in sorted((SRC / package).glob("*.py")):
            rel = path.relative_to(SRC).as_posix()
            if rel not in PURE_MODULES:
                out.append(rel)
    return out


def _editable() -> bool:
    return any(arg in ("editable_wheel", "develop") for arg in sys.argv[1:])


_BUILDS = ("build", "build_ext", "bdist_wheel", "install", "develop", "editable_wheel")
"""The setup commands that build modules; the others (egg_info, dist_info: the metadata
pip asks for first) need no compiling, nor mypyc's type check."""


def _want_compiled() -> tuple[bool, str]:
    if _flag("MAHJONG_NTS_PURE"):
        return False, "MAHJONG_NTS_PURE is set"
    if _editable() and not _flag("MAHJONG_NTS_COMPILE"):
        return False, "an editable install (MAHJONG_NTS_COMPILE=1 compiles it)"
    return True, ""


def _mypyc_extensions() -> list[object]:
    """mypyc's extension modules, or [] (with one line saying why) to build pure."""
    if not any(arg in _BUILDS for arg in sys.argv[1:]):
        return []
    want, why = _want_compiled()
    if not want:
        _say(f"pure Python: {why}")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("pure Python: mypy (mypyc) is not installed")
        return []
    sources = [f"src/{rel}" for rel in compiled_sources()]
    try:
        # the project's mypy settings (pyproject.toml, read from the project directory)
        extensions: list[object] = mypycify(
            ["--config-file", str(HERE / "pyproject.toml"), *sources],
            opt_level=os.environ.get("MAHJONG_NTS_OPT_LEVEL", "3"),
            group_name="mahjong_nts",
            target_dir=str(Path("build") / "mypyc"),
        )
    except SystemExit as exc:  # mypyc exits on an error it cannot compile past
        _say(
            "pure Python: mypyc refused a module (its error above names the module and "
            f"line; exit {exc.code})"
        )
        return []
    _say(f"compiling {len(sources)} modules with mypyc: {', '.join(sources)}")
    return extensions


class BuildExtOrPure(build_ext):
    """build_ext that falls back to the pure package when the C compiler fails."""

    def build_extension(self, ext: Any) -> None:
        _say(f"compiling {ext.name} ({len(ext.sources)} C files)")
        super().build_extension(ext)

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # the compiler failed (or is missing): build pure
            text = str(exc).strip()
            first = text.splitlines()[0] if text else type(exc).__name__
            for built in self.get_outputs():  # no module half compiled
                Path(built).unlink(missing_ok=True)
            _say(f"pure Python: compiling the C code failed ({first}); the modules stay Python")


class CleanCompiled(Command):
    """``python setup.py clean_compiled``: delete compiled modules from src/ (left by an
    editable install with MAHJONG_NTS_COMPILE=1) and the build directory's C files."""

    description = "remove mypyc extension modules from src/ and build/mypyc"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        removed = [p for p in SRC.rglob("*.so") if p.is_file()]
        removed += [p for p in SRC.rglob("*.pyd") if p.is_file()]
        for p in removed:
            p.unlink()
            print(f"removed {p.relative_to(HERE)}")
        print(f"{len(removed)} compiled module(s) removed from src/")


setup(
    ext_modules=_mypyc_extensions(),
    cmdclass={"build_ext": BuildExtOrPure, "clean_compiled": CleanCompiled},
)
