"""Fixtures of the web tests: an app built from test settings (nothing read from the
environment, data in a temporary folder) and a TestClient on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mahjong_nts.web import Settings, create_app


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    data: Path = tmp_path_factory.mktemp("data")
    return Settings(host="127.0.0.1", port=8000, data_dir=data, default_language="en")


@pytest.fixture(scope="module")
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    # raise_server_exceptions: an exception in a route fails the test (a 500 is a bug)
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c
