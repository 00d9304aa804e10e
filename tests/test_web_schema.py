"""Property-based test of the JSON API against its own OpenAPI schema (schemathesis).

For any request the schema allows (and many it does not), the server answers
without a 5xx, with a documented status code and a body matching the schema.
``BRIDGESCORE_FULL=1`` runs ten times more examples per operation.
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings

from bridgescore.web import WebSettings, create_app

if TYPE_CHECKING:
    from schemathesis import Case

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2 on import
    schemathesis = pytest.importorskip("schemathesis", reason="pip install -e '.[test]'")
    from schemathesis.checks import (
        content_type_conformance,
        not_a_server_error,
        response_schema_conformance,
        status_code_conformance,
    )

EXAMPLES = 500 if os.environ.get("BRIDGESCORE_FULL") == "1" else 50

app = create_app(WebSettings(solver_workers=1, warm_solver=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


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
        ]
    )


def teardown_module() -> None:
    app.state.solver.close()
