"""The simulation form (``/simulate``) and ``POST /api/simulate``, through the solver queue.

A simulation goes to a solver worker as JSON text (the condition, predeals,
contracts, seed and deal count), never as code, and shares the bounded queue of
:class:`~bridgescore.web.limits.SolverLimiter`: when it is full the answer is 503
with ``Retry-After``, and 429 when the client already holds its share. Web
simulations are capped at ``WebSettings.max_simulate_deals`` deals (at most
:data:`~bridgescore.web.schemas.MAX_WEB_DEALS`) and, since a request's time is its
double-dummy searches, at ``WebSettings.max_simulate_searches`` searches
(:func:`searches`; at most :data:`MAX_WEB_SEARCHES`, about a minute of solving).

With ``"plot": "svg"`` (or ``"png"``) the worker also draws the report's plot
(:func:`bridgescore.simulation.plot.render_report`) and the answer carries it as a
``data:`` URI in ``plot``; the form always shows it (SVG) under the tables.
"""

from __future__ import annotations

import importlib.util
import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from bridgescore.errors import BridgeError, InvalidArgumentError, NotationError
from bridgescore.formats.json import finite
from bridgescore.validate import whole_number_text
from bridgescore.web.api import MAX_SEED, client_address
from bridgescore.web.jobs import FeatureMissing, run_simulation_json
from bridgescore.web.limits import SolverLimiter
from bridgescore.web.schemas import MAX_WEB_DEALS, ErrorDetail, SimulateRequest, SimulateResponse

if TYPE_CHECKING:
    from bridgescore.simulation.spec import Simulation

__all__ = [
    "LEAD_SEARCHES",
    "MAX_WEB_DEALS",
    "MAX_WEB_SEARCHES",
    "SimulateRequest",
    "api_router",
    "page_router",
    "searches",
]

# Measured (2 cores, DDS on both, 40 deals): one contract's tricks take about 0.04 s a
# deal; analysing every opening lead against it (DDS's all-cards search) about 0.08 s
# more, twice a plain search. 100 deals x 4 contracts with leads, 1,200 searches, ran
# in 47 s on the machine where the attack was found: about the minute a request may take.
LEAD_SEARCHES = 2
MAX_WEB_SEARCHES = 1_200

api_router = APIRouter(prefix="/api", tags=["api"])
page_router = APIRouter(include_in_schema=False)

_ANSWERS: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorDetail, "description": "The input is not valid; `detail` says why."},
    413: {"model": ErrorDetail, "description": "The request body is over 64 KB."},
    429: {
        "model": ErrorDetail,
        "description": "This client already holds its share of the solver queue "
        "(see `Retry-After`).",
    },
    503: {
        "model": ErrorDetail,
        "description": "The solver queue is full (see `Retry-After`), or DDS is not installed.",
    },
}


def can_plot() -> bool:
    """Whether matplotlib (the ``study`` extra) is installed, so plots can be drawn."""
    return importlib.util.find_spec("matplotlib") is not None


def _simulation(body: SimulateRequest) -> Any:
    from bridgescore.core import Seat, Vulnerability
    from bridgescore.simulation.spec import Simulation, parse_contracts

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


def _deal_limit(request: Request) -> int:
    return int(request.app.state.settings.max_simulate_deals)


def searches(simulation: Simulation) -> int:
    """The double-dummy searches a simulation costs, in units of one contract on one deal:
    each contract once a deal, each contract whose opening leads are analysed
    :data:`LEAD_SEARCHES` more.

    >>> from bridgescore.core import Seat
    >>> from bridgescore.simulation.spec import Simulation, parse_contracts
    >>> contracts = parse_contracts(["4S", "3NT"], ["N", "S"])
    >>> searches(Simulation(deals=100, seed=1, contracts=contracts))
    200
    >>> searches(Simulation(deals=100, seed=1, contracts=contracts, lead=Seat.WEST))  # v 3NT S
    400
    """
    contracts = len(simulation.contracts)
    leads = len(simulation.lead_contracts())
    return int(simulation.deals) * (contracts + LEAD_SEARCHES * leads)


def _check_work(request: Request, simulation: Simulation) -> None:
    limit = int(request.app.state.settings.max_simulate_searches)
    needed = searches(simulation)
    if needed <= limit:
        return
    leads = len(simulation.lead_contracts())
    asked = f"{simulation.deals:,} deals x {len(simulation.contracts)} contract(s)" + (
        f", with the opening leads against {leads} of them (each {1 + LEAD_SEARCHES} searches)"
        if leads
        else ""
    )
    raise InvalidArgumentError(
        f"this simulation needs {needed:,} double-dummy searches ({asked}): this server "
        f"runs at most {limit:,} a request, about a minute of solving; ask for fewer deals, "
        "contracts or lead analyses"
    )


async def _run(request: Request, body: SimulateRequest) -> dict[str, Any]:
    limit = _deal_limit(request)
    if body.deals > limit:
        raise InvalidArgumentError(
            f"deals {body.deals}: this server simulates at most {limit} deals a request"
        )
    limiter: SolverLimiter = request.app.state.solver
    simulation = _simulation(body)
    _check_work(request, simulation)
    if body.plot is not None and not can_plot():
        raise FeatureMissing(
            "plots need matplotlib, which is not installed: pip install 'bridgescore[study]'"
        )
    answer = await limiter.run(
        run_simulation_json, simulation.to_json(), body.plot, client=client_address(request)
    )
    # A standard error of one deal is NaN, which JSON cannot carry: it becomes null.
    report: dict[str, Any] = finite(json.loads(answer))
    return report


@api_router.post(
    "/simulate",
    response_model=SimulateResponse,
    response_model_exclude_unset=True,  # keys as `simulate --json` writes them
    responses=_ANSWERS,
)
async def api_simulate(body: SimulateRequest, request: Request) -> dict[str, Any]:
    """Deal under a condition and solve the contracts: the ``simulate --json`` report.

    A request may hold a solver worker for up to a minute: ``serve`` limits the deals
    (500) and the double-dummy searches (1,200: a contract on a deal is one, the
    opening leads against it two more), and refuses more with 422 naming the limit.
    """
    return await _run(request, body)


@page_router.get("/simulate", response_class=HTMLResponse)
async def simulate_page(
    request: Request,
    where: str = "",
    predeal: str = "",
    contracts: str = "",
    deals: str = "100",
    seed: str = "1",
    vulnerability: str = "None",
    lead: str = "",
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
                # The form's numbers are text: read by the one reader of numbers in forms.
                # More deals than the server allows are the most it allows, as the form says.
                deals=min(whole_number_text(deals, "deals", 1, 10**9), _deal_limit(request)),
                seed=whole_number_text(seed, "seed", 0, MAX_SEED),
                vulnerability=vulnerability,
                lead=lead.strip() or None,
                plot="svg" if can_plot() else None,
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
        lead=lead,
        report=report,
        error=error,
        max_deals=_deal_limit(request),
        can_plot=can_plot(),
    )
