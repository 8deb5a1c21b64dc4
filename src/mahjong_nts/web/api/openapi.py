"""The OpenAPI document: the request models of :mod:`mahjong_nts.formats.wire`
as the request bodies, the answer models, and the error body of every 4xx.

The routes read their bodies themselves (within the size bound, see
:mod:`mahjong_nts.web.api.body`), so FastAPI does not see the request models;
:func:`add_request_schemas` puts them into the document's components.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic.json_schema import models_json_schema

from mahjong_nts.formats import wire
from mahjong_nts.web.api.models import ErrorBody

__all__ = ["ERROR_RESPONSES", "add_request_schemas", "request_body"]

REF: Final = "#/components/schemas/{model}"

ERROR_RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    400: {"model": ErrorBody, "description": "The body is not JSON within the bounds."},
    413: {
        "model": ErrorBody,
        "description": f"The body is longer than {wire.MAX_LINE_BYTES} bytes.",
    },
    415: {"model": ErrorBody, "description": "The body is not declared application/json."},
    422: {"model": ErrorBody, "description": "JSON, but not a valid request; says which field."},
}


def request_body(model: str) -> dict[str, Any]:
    """``openapi_extra`` of a route whose JSON body is the wire model ``model``."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": REF.format(model=model)}}},
        }
    }


def add_request_schemas(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the wire request models (and the models they use) among
    its component schemas."""
    _, top = models_json_schema(
        [(wire.ScoreRequest, "validation"), (wire.SettleRequest, "validation")],
        ref_template=REF,
    )
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in top.get("$defs", {}).items():
        schemas.setdefault(name, schema)
    return document
