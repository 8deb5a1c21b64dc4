"""tests/browser_helpers.py: a test run writes its screenshots into docs/images/web
only when asked (MAHJONG_NTS_DOC_SHOTS=1), so it leaves the checkout as it was."""

from __future__ import annotations

import pytest

from browser_helpers import DOC_SHOTS_VARIABLE, DOCS_SHOTS, shots_dir
from server_helpers import ROOT


@pytest.mark.parametrize("value", [None, "", "0", "yes"])
def test_screenshots_go_to_a_temporary_folder_unless_asked(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv(DOC_SHOTS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(DOC_SHOTS_VARIABLE, value)
    folder = shots_dir()
    assert folder.is_dir()
    assert ROOT not in folder.resolve().parents
    assert shots_dir() == folder  # one folder for the run


def test_asked_they_go_to_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DOC_SHOTS_VARIABLE, "1")
    assert shots_dir() == DOCS_SHOTS == ROOT / "docs" / "images" / "web"
