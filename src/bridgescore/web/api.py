"""The JSON API: ``/api/score``, ``/api/solve``, ``/api/par`` and ``/api/deal/...``.

Each route parses its input with the library's own parsers and calls one
library function. Bad input raises a :class:`~bridgescore.BridgeError`, which
the app answers with 422 and the error's message. Solving goes through the
app's :class:`~bridgescore.web.limits.SolverLimiter`.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BeforeValidator, Field

from bridgescore.core import Contract, Doubling, Seat, Side, Strain, Vulnerability
from bridgescore.ddtable import DDTable
from bridgescore.errors import NotationError
from bridgescore.scoring import Rules, ScoreBreakdown, score, score_breakdown
from bridgescore.web.jobs import FeatureMissing, parse_record, review_record, solve_pbn
from bridgescore.web.limits import SolverLimiter
from bridgescore.web.schemas import (
    DealInfo,
    DealRequest,
    ErrorDetail,
    ParRequest,
    ParResponse,
    ReviewResponse,
    ScoreRequest,
    ScoreResponse,
    ScoreTableResponse,
    SolveRequest,
    SolveResponse,
)

if TYPE_CHECKING:
    from bridgescore.ddtable import Par
    from bridgescore.deal import Deal
    from bridgescore.formats import BoardRecord

__all__ = [
    "client_address",
    "deal_info",
    "made_exactly",
    "par_payload",
    "router",
    "score_result",
]

_PARTS = tuple(
    part.name
    for part in dataclasses.fields(ScoreBreakdown)
    if part.name not in ("result", "vulnerable", "total")
)
MAX_SEED = 2**63 - 1
RANKS = "23456789TJQKA"
SUITS_SPADES_FIRST = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)

_BAD_INPUT: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorDetail, "description": "The input is not valid; `detail` says why."},
    413: {"model": ErrorDetail, "description": "The request body is over 64 KB."},
}
_SOLVER: dict[int | str, dict[str, Any]] = {
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

router = APIRouter(prefix="/api", tags=["api"])


def score_result(
    result: str,
    vulnerable: bool = False,
    *,
    tricks: int | None = None,
    vulnerability: str | None = None,
    rules: str = "law2017",
) -> dict[str, Any]:
    """Score one result as the API answers it.

    >>> score_result("4DX +1", True)["score"]
    910
    """
    rule_set = Rules.parse(rules)
    breakdown = score_breakdown(result, vulnerable, tricks=tricks, rules=rule_set)
    declarer = None if breakdown.result.contract is None else breakdown.result.contract.declarer
    if vulnerability is not None and vulnerability.strip():
        board = Vulnerability.parse(vulnerability)
        if breakdown.result.contract is not None:
            if declarer is None:
                raise NotationError(
                    f"{result!r} has no declarer, so the board's vulnerability "
                    f"{vulnerability!r} cannot say who is vulnerable: add a declarer "
                    "(as in '4SXN+1') or give vulnerable instead"
                )
            breakdown = score_breakdown(
                breakdown.result, board.is_vulnerable(declarer), rules=rule_set
            )
    # Built by hand rather than with ScoreBreakdown.as_dict(): dataclasses.asdict
    # deep-copies the result and dominated the cost of a request.
    contract = breakdown.result.contract
    payload: dict[str, Any] = {
        "contract": "Pass" if contract is None else str(contract),
        "result": str(breakdown.result),
        "tricks": breakdown.result.tricks,
        "vulnerable": breakdown.vulnerable,
        "score": breakdown.total,
        "breakdown": {name: getattr(breakdown, name) for name in _PARTS},
    }
    if contract is None:
        payload["ns_score"] = 0
    elif declarer is not None:
        payload["ns_score"] = breakdown.total if declarer.side is Side.NS else -breakdown.total
    else:
        payload["ns_score"] = None
    return payload


def made_exactly(vulnerable: bool) -> dict[str, int]:
    """Scores of every contract made exactly (docs/rules.md §1.9), keyed ``"4S"``, ``"4SX"``, ..."""
    return {
        str(contract): score(contract, vulnerable, tricks=contract.level + 6)
        for doubling in Doubling
        for level in range(1, 8)
        for strain in Strain
        for contract in (Contract(level, strain, doubling),)
    }


def deal_info(deal: Deal, seed: int | None = None) -> dict[str, Any]:
    """A :class:`~bridgescore.deal.Deal` as the API shows it: PBN, suits per hand, HCP."""
    hands = {
        seat.letter: {
            strain.letter: "".join(RANKS[rank - 2] for rank in deal[seat].suit(strain))
            for strain in SUITS_SPADES_FIRST
        }
        for seat in Seat
    }
    return {
        "deal": deal.to_pbn(),
        "seed": seed,
        "hands": hands,
        "hcp": {seat.letter: int(deal[seat].hcp) for seat in Seat},
    }


def _parse_deal(text: str) -> Deal:
    deal = parse_record(text).deal
    assert deal is not None
    return deal


def _json(payload: dict[str, Any]) -> JSONResponse:
    # Answer with the payload as built: the response models document the API, and
    # skipping FastAPI's re-validation of every answer halves the cost of a request.
    return JSONResponse(payload)


def _limiter(request: Request) -> SolverLimiter:
    limiter: SolverLimiter = request.app.state.solver
    return limiter


def client_address(request: Request) -> str:
    """The address a request came from: whose share of the solver it uses. The
    socket's, or the client's as forwarded by a proxy named with ``serve
    --forwarded-allow-ips`` (uvicorn reads the header from that proxy alone, so no
    other client can choose it)."""
    return request.client.host if request.client is not None else ""


async def _solve(request: Request, text: str) -> tuple[Deal, DDTable]:
    deal = _parse_deal(text)  # validated here so bad deals never take a worker
    try:
        import bridgescore.solver  # noqa: F401  (only to report a missing extra early)
    except ImportError as error:
        raise FeatureMissing(
            f"double-dummy solving needs the DDS extra: pip install 'bridgescore[dds]' ({error})"
        ) from None
    dd = await _limiter(request).run(solve_pbn, deal.to_pbn(), client=client_address(request))
    return deal, DDTable.parse(dd)


@router.post("/score", response_model=ScoreResponse, responses=_BAD_INPUT)
async def api_score(body: ScoreRequest) -> JSONResponse:
    """Score a result: ``{"result": "4DX +1", "vulnerable": true}`` gives 910 and its parts."""
    return _json(
        score_result(
            body.result,
            body.vulnerable,
            tricks=body.tricks,
            vulnerability=body.vulnerability,
            rules=body.rules,
        )
    )


@router.get("/score/table", response_model=ScoreTableResponse, responses=_BAD_INPUT)
async def api_score_table(vulnerable: bool = False) -> JSONResponse:
    """Every contract made exactly, for one vulnerability."""
    return _json({"vulnerable": vulnerable, "made_exactly": made_exactly(vulnerable)})


@router.post("/deal", response_model=DealInfo, responses={**_BAD_INPUT, **_SOLVER})
async def api_deal(body: DealRequest) -> JSONResponse:
    """Check a deal (PBN, a LIN record or a handviewer link) and show its hands and
    high-card points (no solving), with the board, dealer and vulnerability a LIN
    record gives."""
    record = parse_record(body.deal)
    assert record.deal is not None
    info = deal_info(record.deal)
    info["board"] = record.board
    info["dealer"] = None if record.dealer is None else record.dealer.letter
    vulnerability = record.vulnerability
    info["vulnerability"] = None if vulnerability is None else str(vulnerability)
    info["played"] = _has_result(record)
    return _json(info)


def _has_result(record: BoardRecord) -> bool:
    return bool(record.contract is not None or record.passed_out or record.auction or record.play)


@router.post("/analyse", response_model=ReviewResponse, responses={**_BAD_INPUT, **_SOLVER})
async def api_analyse(body: DealRequest, request: Request) -> JSONResponse:
    """Review a played board (a LIN record or handviewer link with its auction and play):
    the result against double dummy and par, the lead table, each card's cost
    (``bridgescore analyse --json``'s object) and the hand viewer's HTML of it."""
    record = parse_record(body.deal)  # validated here so bad input never takes a worker
    if not _has_result(record):
        raise NotationError(
            "the deal holds no result to review: give a LIN record or handviewer link with "
            "its auction (and its play, for each card's cost)"
        )
    try:
        import bridgescore.solver  # noqa: F401  (only to report a missing extra early)
    except ImportError as error:
        raise FeatureMissing(
            f"reviewing needs the DDS extra: pip install 'bridgescore[dds]' ({error})"
        ) from None
    answer = await _limiter(request).run(review_record, body.deal, client=client_address(request))
    if "skipped" in answer:
        raise NotationError(f"the board cannot be reviewed: {answer['skipped']}")
    return _json(answer)


def _seed_digits(value: object) -> object:
    """A seed in the query as plain digits only: pydantic's lax integers would take
    ``+0.0``, ``1.0``, `` 7 `` or ``1_000``, which the schema's integer does not."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        # (A NotationError is a ValueError: pydantic reports it as the query's error.)
        raise NotationError(
            f"seed {value!r} is not a seed: expected a whole number written in digits alone, "
            "such as 42"
        )
    return value


# (The bounds are the integer's own, so that the schema shows them; the digits are
# checked before the integer is read.)
_Seed = Annotated[int, Field(ge=0, le=MAX_SEED), BeforeValidator(_seed_digits)]


@router.get("/deal/random", response_model=DealInfo, responses={**_BAD_INPUT, **_SOLVER})
async def api_random_deal(
    seed: Annotated[
        _Seed | None, Query(description="Same seed, same deal; random if absent.")
    ] = None,
) -> JSONResponse:
    """A random deal in PBN, with the seed that reproduces it: the first deal of
    ``bridgescore deal --seed N`` and of ``bridgescore.deal_many(1, seed=N)``."""
    try:
        # The one dealing function, so one seed gives one deal in Python, shell and browser.
        from bridgescore.dealer.dealing import deal_many
    except ImportError as error:
        raise FeatureMissing(f"random deals are not available: {error}") from None
    chosen = secrets.randbits(63) if seed is None else seed
    return _json(deal_info(deal_many(1, seed=chosen)[0], chosen))


@router.post("/solve", response_model=SolveResponse, responses={**_BAD_INPUT, **_SOLVER})
async def api_solve(body: SolveRequest, request: Request) -> JSONResponse:
    """Solve a deal double-dummy: ``dd`` (PBN hex) and ``table[seat][strain]``."""
    deal, table = await _solve(request, body.deal)
    return _json({"deal": deal.to_pbn(), "dd": str(table), "table": table.as_dict()})


@router.post("/par", response_model=ParResponse, responses={**_BAD_INPUT, **_SOLVER})
async def api_par(body: ParRequest, request: Request) -> JSONResponse:
    """Par of a DD table (or of a deal, solved first) under one convention."""
    vulnerability = Vulnerability.parse(body.vulnerability)
    dealer = None if body.dealer is None else Seat.parse(body.dealer)
    if (body.dd is None) == (body.deal is None):
        raise NotationError("give exactly one of 'dd' (20 hex digits) or 'deal' (PBN)")
    try:
        from bridgescore.parscore import par
    except ImportError as error:
        raise FeatureMissing(f"par is not available in this installation: {error}") from None
    if body.dd is not None:
        table = DDTable.parse(body.dd)
    else:
        _, table = await _solve(request, body.deal or "")
    return _json(par_payload(par(table, vulnerability, dealer), table, vulnerability, dealer))


def par_payload(
    result: Par, table: DDTable, vulnerability: Vulnerability, dealer: Seat | None
) -> dict[str, Any]:
    """A :class:`~bridgescore.Par` as the API answers it."""
    return {
        "score": int(result.score),
        "convention": str(result.convention),
        "contracts": [str(contract) for contract in result.contracts],
        "text": str(result),
        "dd": str(table),
        "vulnerability": str(vulnerability),
        "dealer": None if dealer is None else dealer.letter,
    }
