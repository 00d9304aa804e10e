"""Property-based test of the JSON API against its own OpenAPI schema (schemathesis).

For any request the schema allows (and many it does not), the server answers
without a 5xx, with a documented status code and a body matching the schema.
A second test posts damaged JSON text (tests/fuzzing.py mutations of a good
body) to every POST route, ``/api/simulate`` included (the schema's app allows 3
deals a simulation, so generated requests stay quick; DDS still runs them): the
answer is a 4xx with a ``detail`` message, never a 5xx. ``BRIDGESCORE_FULL=1``
runs ten times more examples per operation.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgescore.web import WebSettings, create_app
from fuzzing import mutated_bytes

if TYPE_CHECKING:
    from schemathesis import Case

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2 on import
    schemathesis = pytest.importorskip("schemathesis", reason="pip install -e '.[test]'")
    from fastapi.testclient import TestClient
    from schemathesis.checks import (
        content_type_conformance,
        negative_data_rejection,
        not_a_server_error,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
        unsupported_method,
    )

EXAMPLES = 500 if os.environ.get("BRIDGESCORE_FULL") == "1" else 50

# A simulation of a few deals is quick; the real limit (500) would let generated
# requests hold the solver for a minute each. The request schema is the same.
app = create_app(WebSettings(solver_workers=1, warm_solver=False, max_simulate_deals=3))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
client = TestClient(app)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@schema.parametrize()  # type: ignore[untyped-decorator]
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_never_fails_and_matches_its_schema(case: Case[Any]) -> None:
    case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
            response_headers_conformance,
            negative_data_rejection,
            unsupported_method,
        ]
    )


def teardown_module() -> None:
    app.state.solver.close()


# -- raw bodies: damaged JSON text, not only what the schema can describe -------------

SOLID = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
BODIES = {
    "/api/score": {"result": "4DX +1", "vulnerable": True},
    "/api/deal": {"deal": SOLID},
    "/api/solve": {"deal": SOLID},  # solid suits: DDS solves them at once
    "/api/par": {"dd": "32929329297a4a47a4a4", "vulnerability": "Both", "dealer": "N"},
    # A played board: solid suits (DDS solves them at once), 7D by North, claimed.
    "/api/analyse": {
        "deal": "md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|mb|7D|mb|p|mb|p|mb|p|mc|13|"
    },
    "/api/simulate": {
        "contracts": ["4H S", "3NT N"],
        "where": "hearts(south) >= 6",
        "predeal": ["W=KQJ3.A42.QJ109.85"],
        "deals": 2,
        "seed": 3,
        "lead": "W",
    },
}


def test_every_post_route_has_a_seed_body() -> None:
    paths = app.openapi()["paths"]
    assert {path for path, item in paths.items() if "post" in item} == set(BODIES)


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(sorted(BODIES)).flatmap(
        lambda path: st.tuples(st.just(path), mutated_bytes(json.dumps(BODIES[path])))
    )
)
def test_damaged_json_body_is_answered_with_a_message(case: tuple[str, bytes]) -> None:
    path, body = case
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code < 500, (path, body, response.text)
    if response.status_code >= 400:
        detail = response.json()["detail"]
        assert detail, (path, body)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/score", {"result": "4DX +1", "vulnerable": 0}),  # 0 was read as false
        ("/api/score", {"result": "4SX", "tricks": "11"}),  # "11" was read as 11
        ("/api/par", {"dd": "32929329297a4a47a4a4", "vulnerability": 3}),
    ],
)
def test_wrong_json_type_is_refused_not_coerced(path: str, body: dict[str, Any]) -> None:
    # Found by schemathesis's negative_data_rejection check: the schema says
    # boolean, integer or string, and a body that says otherwise is refused.
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["detail"]
