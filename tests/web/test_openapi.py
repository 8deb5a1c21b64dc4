"""The OpenAPI document (mahjong_nts/web/api/openapi.py, models.py): the wire request
models as the bodies, the answers and the error body of every 4xx; the answer models
hold what the routes really answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import NON_WINNER, SETTLE_SCORES, WINNER, post_json

from mahjong_nts.formats import wire
from mahjong_nts.web.api.models import ErrorBody, ScoreResponse, SettleResponse


@pytest.fixture(scope="module")
def document(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize(
    ("path", "request_model", "answer_model"),
    [
        ("/api/score", "ScoreRequest", "ScoreResponse"),
        ("/api/settle", "SettleRequest", "SettleResponse"),
    ],
)
def test_routes_document_bodies_answers_and_errors(
    document: dict[str, Any], path: str, request_model: str, answer_model: str
) -> None:
    post = document["paths"][path]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": f"#/components/schemas/{request_model}"}
    assert post["requestBody"]["required"] is True
    responses = post["responses"]
    assert set(responses) == {"200", "400", "413", "415", "422"}
    ok = responses["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": f"#/components/schemas/{answer_model}"}
    for status in ("400", "413", "415", "422"):
        schema = responses[status]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErrorBody"}


def test_request_schemas_are_the_wire_models(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("ScoreRequest", "SettleRequest", "MeldRequest", "WinRequest", "HandRequest"):
        assert name in schemas
    score = schemas["ScoreRequest"]
    assert set(score["properties"]) == set(wire.ScoreRequest.model_fields)
    assert set(score["required"]) == {"seat_wind", "round_wind", "concealed"}
    assert score["additionalProperties"] is False
    assert "from" in schemas["WinRequest"]["properties"]  # the alias, as JSON writes it
    assert set(schemas["SettleRequest"]["properties"]) == set(wire.SettleRequest.model_fields)
    # every reference resolves
    text = json.dumps(document)
    for ref in set(part.split('"')[0] for part in text.split('"$ref": "#/components/schemas/')[1:]):
        assert ref in schemas, ref
    assert "/docs" not in document["paths"] and "/" not in document["paths"]


@pytest.mark.parametrize(
    "request_",
    [
        WINNER,
        NON_WINNER,
        {**WINNER, "concealed": "b1 b9 k1 k9 t1 t9 E S W N F C P P", "winning_tile": "P"},
    ],
)
def test_score_answers_fit_their_model(client: TestClient, request_: dict[str, Any]) -> None:
    ScoreResponse.model_validate(post_json(client, "/api/score", request_).json())


def test_settle_answers_fit_their_model(client: TestClient) -> None:
    SettleResponse.model_validate(post_json(client, "/api/settle", SETTLE_SCORES).json())
    hands = {
        "winner": 0,
        "hands": [
            {k: v for k, v in WINNER.items() if k not in ("seat_wind", "round_wind")},
            {"concealed": "b1 b1 b1 k5 k5 t2 t3 t4 t5 t6 C C C"},
            {"concealed": "k1 k2 k3 k7 k8 k9 t1 t1 t5 t6 t7 b4 b5"},
            {"concealed": "k2 k3 k4 b6 b7 b8 t2 t2 t4 b9 b9 S S"},
        ],
    }
    answer = post_json(client, "/api/settle", hands).json()
    assert answer["hands"] is not None
    SettleResponse.model_validate(answer)


def test_error_answers_fit_their_model(client: TestClient) -> None:
    ErrorBody.model_validate(post_json(client, "/api/score", {"x": 1}).json())
    long = client.post(
        "/api/score",
        content=b'{"' + b"x" * 60000 + b'": 1}',
        headers={"content-type": "application/json"},
    )
    assert long.status_code == 422
    ErrorBody.model_validate(long.json())  # at most 500 characters
