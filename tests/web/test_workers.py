"""An app told it is one of several worker processes (``serve --workers 2``,
``MAHJONG_NTS_WORKERS``): the API, the calculator and the other pages answer as ever;
games against the bots and replays, which live in one process's memory, are refused
with a 503 that says why, instead of being lost when a request reaches another worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import WINNER, WINNER_SCORE, error_of, post_json

from mahjong_nts.web import Settings, create_app

WHY = "need a server of one process; this one runs 2 (start it with mahjong-nts serve --workers 1)"


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data: Path = tmp_path_factory.mktemp("data")
    with TestClient(create_app(Settings(data_dir=data, workers=2))) as client:
        yield client


def test_the_api_and_the_pages_answer(two_workers: TestClient) -> None:
    answer = post_json(two_workers, "/api/score", WINNER)
    assert answer.status_code == 200 and answer.json()["score"] == WINNER_SCORE
    for path in ("/", "/settle", "/rules", "/sheet", "/play", "/replay"):
        assert two_workers.get(path).status_code == 200, path


def test_games_against_the_bots_are_refused(two_workers: TestClient) -> None:
    response = two_workers.post("/api/play", json={"ruleset": "nts-2016", "hands": 1})
    assert response.status_code == 503
    assert error_of(response) == "games against the bots " + WHY
    page = two_workers.post("/play", data={"ruleset": "nts-2016", "hands": "1"})
    assert page.status_code == 503 and "games against the bots " + WHY in page.text
    game = "A" * 22
    assert two_workers.get(f"/api/play/{game}").status_code == 503
    assert two_workers.get(f"/play/{game}").status_code == 503


def test_replays_are_refused(two_workers: TestClient) -> None:
    upload = two_workers.post("/replay", files={"log": ("h.jsonl", b'{"x": 1}\n')})
    assert upload.status_code == 503 and "replays " + WHY in upload.text
    view = two_workers.get("/replay/" + "A" * 22)
    assert view.status_code == 503 and "replays " + WHY in view.text


def test_one_worker_is_the_default(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).workers == 1
