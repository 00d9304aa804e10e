"""The simulation form (``/simulate``) and ``POST /api/simulate``, through the solver queue.

A simulation goes to a solver worker as JSON text (the condition, predeals,
contracts, seed and deal count), never as code, and shares the bounded queue of
:class:`~bridgescore.web.limits.SolverLimiter`: when it is full the answer is 503
with ``Retry-After``. Web simulations are capped at :data:`MAX_WEB_DEALS` deals.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from bridgescore.errors import BridgeError, NotationError
from bridgescore.web.limits import SolverLimiter

__all__ = ["MAX_WEB_DEALS", "SimulateRequest", "api_router", "page_router", "run_simulation_json"]

MAX_WEB_DEALS = 500
"""Deals one web request may ask for: a few seconds to a minute of DDS."""

api_router = APIRouter(prefix="/api", tags=["api"])
page_router = APIRouter(include_in_schema=False)


class SimulateRequest(BaseModel):
    """``{"where": "...", "predeal": ["S=..."], "contracts": ["4S S", "3NT N"], ...}``."""

    contracts: list[str] = Field(min_length=1, max_length=4, examples=[["4S N", "3NT N"]])
    where: str = Field("", max_length=2000)
    predeal: list[str] = Field(default_factory=list, max_length=4)
    deals: int = Field(100, ge=1, le=MAX_WEB_DEALS)
    seed: int = Field(1, ge=0, le=2**63 - 1)
    vulnerability: str = "None"
    lead: str | None = None


def run_simulation_json(simulation_json: str) -> str:
    """Run a simulation given as JSON text in a worker; the report as JSON text."""
    from bridgescore.simulate.run import run_simulation
    from bridgescore.simulate.spec import Simulation

    report, _ = run_simulation(Simulation.from_json(simulation_json))
    return json.dumps(report.as_dict())


def _simulation(body: SimulateRequest) -> Any:
    from bridgescore.core import Seat, Vulnerability
    from bridgescore.simulate.spec import Simulation, parse_contracts

    texts, declarers = [], []
    for item in body.contracts:
        words = item.replace(" by ", " ").split()
        if len(words) != 2:
            raise NotationError(f"contract {item!r}: expected a contract and a declarer, as '4S N'")
        texts.append(words[0])
        declarers.append(words[1])
    simulation = Simulation(
        deals=body.deals,
        seed=body.seed,
        contracts=parse_contracts(texts, declarers),
        where=body.where,
        predeal=tuple(p for p in body.predeal if p.strip()),
        vulnerability=Vulnerability.parse(body.vulnerability),
        lead=Seat.parse(body.lead) if body.lead else None,
    )
    simulation.deal_spec.plan()  # bad input answers 422 before it takes a worker
    return simulation


async def _run(request: Request, body: SimulateRequest) -> dict[str, Any]:
    limiter: SolverLimiter = request.app.state.solver
    simulation = _simulation(body)
    answer = await limiter.run(run_simulation_json, simulation.to_json())
    report: dict[str, Any] = json.loads(answer)
    return report


# Kept out of the OpenAPI schema for now: a request may hold a worker for a minute, too
# slow for the schema's property test (tests/test_web_schema.py) to call 50 times.
@api_router.post("/simulate", include_in_schema=False)
async def api_simulate(body: SimulateRequest, request: Request) -> JSONResponse:
    """Deal under a condition and solve the contracts: the ``simulate --json`` report."""
    return JSONResponse(await _run(request, body))


@page_router.get("/simulate", response_class=HTMLResponse)
async def simulate_page(
    request: Request,
    where: str = "",
    predeal: str = "",
    contracts: str = "",
    deals: int = 100,
    seed: int = 1,
    vulnerability: str = "None",
) -> HTMLResponse:
    """The form; with contracts given (the form submits here) the report under it."""
    from bridgescore.web.pages import _page

    report: dict[str, Any] | None = None
    error = ""
    if contracts.strip():
        try:
            body = SimulateRequest(
                contracts=[c.strip() for c in contracts.split(",") if c.strip()],
                where=where,
                predeal=predeal.split(),
                deals=min(max(deals, 1), MAX_WEB_DEALS),
                seed=max(seed, 0),
                vulnerability=vulnerability,
            )
            report = await _run(request, body)
        except (BridgeError, ValueError) as problem:
            error = str(problem)
    return _page(
        request,
        "simulate.html",
        active="simulate",
        where=where,
        predeal=predeal,
        contracts=contracts,
        deals=deals,
        seed=seed,
        vulnerability=vulnerability,
        report=report,
        error=error,
        max_deals=MAX_WEB_DEALS,
    )
