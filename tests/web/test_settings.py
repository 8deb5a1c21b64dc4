"""Settings (mahjong_nts/web/settings.py): from MAHJONG_NTS_* variables, checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from mahjong_nts.web import Settings
from mahjong_nts.web.settings import default_data_dir


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HOST", "PORT", "DB_URL", "DATA_DIR", "DEFAULT_LANGUAGE", "PLAY_SEED", "WORKERS",
        "TABLES_PER_CLIENT",
    ):  # fmt: skip
        monkeypatch.delenv(f"MAHJONG_NTS_{name}", raising=False)
    s = Settings()
    assert (s.host, s.port, s.db_url, s.default_language) == ("127.0.0.1", 8000, None, "en")
    assert s.data_dir == default_data_dir()
    assert s.workers == 1
    assert "mahjong-nts" in s.data_dir.parts
    assert s.play_seed is None  # the games' seeds come from secrets
    assert s.tables_per_client == 5


def test_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MAHJONG_NTS_HOST", "0.0.0.0")
    monkeypatch.setenv("MAHJONG_NTS_PORT", "9001")
    monkeypatch.setenv("MAHJONG_NTS_DB_URL", "sqlite:///x.db")
    monkeypatch.setenv("MAHJONG_NTS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("MAHJONG_NTS_DEFAULT_LANGUAGE", "nl")
    monkeypatch.setenv("MAHJONG_NTS_WORKERS", "2")
    monkeypatch.setenv("MAHJONG_NTS_TABLES_PER_CLIENT", "250")
    s = Settings()
    assert s.tables_per_client == 250
    assert (s.host, s.port, s.db_url, s.data_dir, s.default_language, s.workers) == (
        "0.0.0.0",
        9001,
        "sqlite:///x.db",
        tmp_path,
        "nl",
        2,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PORT", "70000"),
        ("PORT", "http"),
        ("DEFAULT_LANGUAGE", "de"),
        ("HOST", ""),
        ("PLAY_SEED", "-1"),
        ("PLAY_SEED", str(2**256)),
        ("WORKERS", "0"),
        ("WORKERS", "two"),
        ("TABLES_PER_CLIENT", "0"),
        ("TABLES_PER_CLIENT", "501"),  # never past the server's own bound (500)
    ],
)
def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(f"MAHJONG_NTS_{name}", value)
    with pytest.raises(ValidationError):
        Settings()
