"""Every file of the package that is not Python is shipped: pyproject's package-data
patterns cover each one, so a non-editable install (a wheel, the compiled build) has the
templates, catalogues and rule sets an editable one finds in the checkout.  (The calculator's
result template was missing from them, and every page that draws it failed on an install
from a wheel.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "mahjong_nts"


def test_package_data_covers_every_file_that_is_not_python() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["mahjong_nts"]
    shipped = {p for pattern in patterns for p in PACKAGE.glob(pattern) if p.is_file()}
    data = {
        p
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc", ".so") and "__pycache__" not in p.parts
    }
    assert data, "the package holds templates, catalogues and rule sets"
    missing = sorted(str(p.relative_to(PACKAGE)) for p in data - shipped)
    assert not missing, f"not in pyproject's package-data: {missing}"
