"""Request logs (mahjong_nts/web/middleware.py): method, path, status, time; never a
query string, a body or a token."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient
from web_helpers import WINNER, post_json

from mahjong_nts.web.middleware import log_path


def test_one_line_per_request_without_query_or_body(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="mahjong_nts.web.access"):
        client.get("/?lang=nl&secret=hunter2")
        post_json(client, "/api/score", {**WINNER, "concealed": "b1 b2 b3 SECRETTILES"})
    lines = [r.getMessage() for r in caplog.records if r.name == "mahjong_nts.web.access"]
    assert len(lines) == 2
    assert lines[0].startswith("GET / 200 ") and lines[0].endswith("ms")
    assert lines[1].startswith("POST /api/score 422 ")
    text = "\n".join(lines)
    assert "hunter2" not in text and "lang=nl" not in text and "SECRET" not in text


def test_tokens_in_paths_are_not_logged() -> None:
    token = "Zk3uQ9x_7YbV2mW-8pLtRs4D"
    assert log_path(f"/sheet/{token}/hand/3") == "/sheet/…/hand/3"
    # a token with a suffix (the sheet's CSV export) was logged whole
    assert log_path(f"/sheet/{token}.csv") == "/sheet/….csv"
    assert log_path("/api/score") == "/api/score"
    assert log_path("/a" * 300).endswith("...") and len(log_path("/a" * 300)) == 200
    assert log_path("/x\x1b[2J") == "/x\\x1b[2J"
