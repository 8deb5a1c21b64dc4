"""The Python examples in the docs run as written."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def blocks(name: str) -> list[str]:
    path = ROOT / name if name == "README.md" else DOCS / name
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "name", ["api.md", "engine.md", "env.md", "store.md", "tournament.md", "README.md"]
)
def test_python_examples_run(name: str) -> None:
    found = blocks(name)
    assert found, f"{name} has no python example"
    for code in found:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, name, "exec"), {})


def test_api_example_prints_what_it_says() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(blocks("api.md")[0], {})
    assert out.getvalue().splitlines()[0] == "576"
