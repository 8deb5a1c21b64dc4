"""No request makes the API fail (mahjong_nts/web/api/): random and mutated bodies get
200, 400 or 422 and exactly the object the JSON lines answer; never a 500."""

from __future__ import annotations

import itertools
import json
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from web_helpers import NON_WINNER, SETTLE_SCORES, WINNER

from mahjong_nts.formats import wire

FUZZ = settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**15), 10**15)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["E", "S", "C", "b1", "b1 b2 b3", "nts-2016", "wall", "discard", "f1"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)

HAND_KEYS = [
    "ruleset",
    "seat_wind",
    "round_wind",
    "concealed",
    "melds",
    "flowers",
    "winning_tile",
    "win",
    "dead",
]
SETTLE_KEYS = [
    "ruleset",
    "east",
    "winner",
    "discarder",
    "dominant",
    "dreamer",
    "round_wind",
    "round_to",
    "scores",
    "hands",
]


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """``base`` with a few fields replaced, dropped or added."""
    request = dict(base)
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from([*keys, *request]))
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "drop":
            request.pop(key, None)
        elif action == "add":
            request[draw(st.text(max_size=10))] = draw(json_values)
        else:
            request[key] = draw(json_values)
    return request


def check(client: TestClient, path: str, body: bytes) -> None:
    handle = wire.handle_score_line if path.endswith("score") else wire.handle_settle_line
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    expected = handle(body)
    assert "internal error" not in json.dumps(expected)
    if "error" in expected:
        assert response.status_code in (400, 422), response.text
    else:
        assert response.status_code == 200
    assert response.json() == expected


@FUZZ
@given(body=st.binary(max_size=200))
def test_random_bytes(client: TestClient, body: bytes) -> None:
    check(client, "/api/score", body)
    check(client, "/api/settle", body)


@FUZZ
@given(value=json_values)
def test_random_json(client: TestClient, value: Any) -> None:
    body = json.dumps(value).encode()
    check(client, "/api/score", body)
    check(client, "/api/settle", body)


@FUZZ
@given(request=mutated(WINNER, HAND_KEYS) | mutated(NON_WINNER, HAND_KEYS))
def test_mutated_score_requests(client: TestClient, request: dict[str, Any]) -> None:
    check(client, "/api/score", json.dumps(request).encode())


@FUZZ
@given(request=mutated(SETTLE_SCORES, SETTLE_KEYS))
# Found by hypothesis: the answer's error quotes reprs holding both kinds of quote mark;
# the web answer bounded the JSON lines' bounded message a second time and cut it again.
@example(
    request={
        "scores": [0, 40, 0, 0],
        "winner": 1,
        "discarder": [{'":': None}],
        "ruleset": None,
        "east": {'"': None},
    }
)
def test_mutated_settle_requests(client: TestClient, request: dict[str, Any]) -> None:
    check(client, "/api/settle", json.dumps(request).encode())


@FUZZ
@given(data=st.data())
def test_cut_and_spliced_bodies(client: TestClient, data: st.DataObject) -> None:
    text = json.dumps(data.draw(st.sampled_from([WINNER, NON_WINNER, SETTLE_SCORES])))
    cut = data.draw(st.integers(0, len(text)))
    splice = data.draw(st.text(max_size=5))
    body = (text[:cut] + splice + text[cut + len(splice) :]).encode("utf-8", "surrogatepass")
    check(client, "/api/score", body)
    check(client, "/api/settle", body)


REFUSALS = ["400", "413", "415", "422"]


def test_schemathesis_from_the_openapi_document(app: FastAPI) -> None:
    """Requests generated from the app's own OpenAPI document (and, by schemathesis,
    requests that break it): no 500, every status, content type and answer as
    documented.  Left out: "a schema-valid request is accepted", which cannot hold
    (the schema says a tile is a string; not every string is a tile).  A request that
    breaks the schema must be refused with one of the answers the API documents for
    it: 400 and 422 for what is in the body, 413 for a body past the bound (a generated
    negative body can be over 64 KiB: found in CI), 415 for a body not declared JSON."""
    import schemathesis
    from hypothesis import given as h_given
    from schemathesis.checks import positive_data_acceptance

    config = schemathesis.Config.from_dict(
        {"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}}
    )
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)
    operations = [operation.ok() for operation in schema.get_all_operations()]
    assert sorted(op.path for op in operations) == ["/api/score", "/api/settle"]
    for op, mode in itertools.product(
        operations, [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE]
    ):
        strategy = op.as_strategy(generation_mode=mode)

        @settings(max_examples=60, suppress_health_check=list(HealthCheck))
        @h_given(case=strategy)
        def run(case: Any) -> None:
            case.call_and_validate(excluded_checks=[positive_data_acceptance])

        run()
