"""Request and response bodies of the JSON API (they make up ``/openapi.json``).

Fields are plain text in the project's notations (``"4DX +1"``, PBN deals, hex
DD tables); the library parses them, so a bad value is answered with the
library's own message (422), not a generic schema error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAX_WEB_DEALS",
    "ContractComparison",
    "ContractOdds",
    "DealInfo",
    "DealRequest",
    "ErrorDetail",
    "LeadCard",
    "LeadTable",
    "ParRequest",
    "ParResponse",
    "ParSummary",
    "ReviewResponse",
    "ScoreRequest",
    "ScoreResponse",
    "ScoreTableResponse",
    "SimulateRequest",
    "SimulateResponse",
    "SolveRequest",
    "SolveResponse",
]

# Generous for any notation, small enough that nobody can make the parsers work hard.
_TEXT = 200
_DEAL_TEXT = 4000  # room for a LIN record or a handviewer link with its auction and play

MAX_WEB_DEALS = 500
"""Most deals one web simulation may ask for (``WebSettings.max_simulate_deals`` may lower it)."""


class ErrorDetail(BaseModel):
    """Every error answer: ``{"detail": "<what was wrong with the input>"}``."""

    detail: str


class ScoreRequest(BaseModel):
    """A result to score: ``{"result": "4DX +1", "vulnerable": true}``.

    ``tricks`` is for a contract given alone (``{"result": "4SX", "tricks": 11}``).
    ``vulnerability`` (``None``, ``NS``, ``EW``, ``Both``) may replace
    ``vulnerable`` when the result names its declarer.
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,  # JSON types as the schema says: no 0 for false, no "11" for 11
        json_schema_extra={"examples": [{"result": "4DX +1", "vulnerable": True}]},
    )

    result: str = Field(max_length=_TEXT, description="A result in any everyday notation.")
    vulnerable: bool = Field(default=False, description="Declaring side vulnerable.")
    tricks: int | None = Field(
        default=None, description="Tricks declarer took, when `result` is a contract alone."
    )
    vulnerability: str | None = Field(
        default=None,
        max_length=_TEXT,
        description="Board vulnerability (None, NS, EW, Both); needs a declarer in `result`.",
    )
    rules: Literal["law2017", "pre1987"] = "law2017"


class ScoreResponse(BaseModel):
    """The score for the declaring side, and its parts (docs/rules.md §1)."""

    contract: str
    result: str
    tricks: int | None
    vulnerable: bool
    score: int
    breakdown: dict[str, int]
    ns_score: int | None = Field(
        default=None, description="The score from North-South's view, when declarer is known."
    )


class ScoreTableResponse(BaseModel):
    """Scores of every contract made exactly: ``{"4S": 420, "4SX": 790, ...}``."""

    vulnerable: bool
    made_exactly: dict[str, int]


class DealRequest(BaseModel):
    """A deal in PBN: ``{"deal": "N:AKQ2.K76.A54.832 ..."}``."""

    model_config = ConfigDict(extra="forbid", strict=True)

    deal: str = Field(
        max_length=_DEAL_TEXT,
        description="A deal in PBN, such as 'N:... ... ... ...', a LIN record or a BBO "
        "handviewer link.",
    )


class SolveRequest(DealRequest):
    """A deal to solve double-dummy."""


class DealInfo(BaseModel):
    """A deal with each hand's suits (spades first) and high-card points."""

    deal: str
    seed: int | None = None
    hands: dict[str, dict[str, str]]
    hcp: dict[str, int]
    # What a LIN record or link says besides the deal (null for a bare PBN deal).
    board: int | None = None
    dealer: str | None = None
    vulnerability: str | None = None
    # Whether the record holds a result to review (a contract, an auction or the play).
    played: bool = False


class ReviewResponse(BaseModel):
    """One board reviewed (``bridgescore analyse --json``'s object, docs/analyse.md) and
    the hand viewer's HTML of it."""

    review: dict[str, Any]
    html: str
    # What the review left out, and why (a play that breaks the rules of play).
    notes: list[str] = []


class SolveResponse(BaseModel):
    """The double-dummy table: ``dd`` in PBN's hex form and ``table[seat][strain]``."""

    deal: str
    dd: str
    table: dict[str, dict[str, int]]


class ParRequest(BaseModel):
    """A DD table (``dd``) or a deal to solve first (``deal``), with the board's conditions."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,  # JSON types as the schema says: no 0 for false, no "11" for 11
        json_schema_extra={
            "examples": [{"dd": "87788877884655556555", "vulnerability": "None", "dealer": None}]
        },
    )

    dd: str | None = Field(
        default=None, max_length=_TEXT, description="20 hex digits: N, S, E, W, each NT S H D C."
    )
    deal: str | None = Field(
        default=None,
        max_length=_DEAL_TEXT,
        description="A deal in PBN, a LIN record or a BBO handviewer link.",
    )
    vulnerability: str = Field(
        default="None", max_length=_TEXT, description="None, NS, EW or Both."
    )
    dealer: str | None = Field(
        default=None,
        max_length=_TEXT,
        description="N, E, S or W for the dealer-first convention; null for neutral.",
    )


class ParResponse(BaseModel):
    """Par from North-South's view and every par contract (docs/par-definition.md)."""

    score: int
    convention: str
    contracts: list[str]
    text: str
    dd: str
    vulnerability: str
    dealer: str | None


# -- simulations (POST /api/simulate) ---------------------------------------------------

# A standard error is null where it is undefined (fewer than two deals): JSON has no NaN.
_SE = "Standard error of the figure before it; null with fewer than two deals."


class SimulateRequest(BaseModel):
    """Deal under a condition and solve contracts: ``{"contracts": ["4S N"], "deals": 100}``.

    ``contracts`` are contracts with their declarers (``"4S N"``, ``"3NT by S"``);
    ``where`` a condition in the dealer language, ``predeal`` hands given as
    ``S=KJ982.Q73.K84.J5``; ``lead`` a seat whose opening leads are analysed.
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,  # JSON types as the schema says: no "100" for 100
        json_schema_extra={
            "examples": [
                {"contracts": ["4H S"], "where": "hearts(south) >= 6", "deals": 20, "seed": 3}
            ]
        },
    )

    contracts: list[Annotated[str, Field(max_length=_TEXT)]] = Field(
        min_length=1, max_length=4, description="Contracts with declarer, such as '4S N'."
    )
    where: str = Field(default="", max_length=2000, description="A dealer-language condition.")
    predeal: list[Annotated[str, Field(max_length=_TEXT)]] = Field(
        default_factory=list, max_length=4, description="Hands given, such as 'S=KJ982.Q73.K84.J5'."
    )
    deals: int = Field(
        default=100,
        ge=1,
        le=MAX_WEB_DEALS,
        description="Deals to solve (a server may allow fewer: WebSettings.max_simulate_deals).",
    )
    seed: int = Field(default=1, ge=0, le=2**63 - 1)
    vulnerability: str = Field(
        default="None", max_length=_TEXT, description="None, NS, EW or Both."
    )
    lead: str | None = Field(
        default=None,
        max_length=_TEXT,
        description="N, E, S or W: analyse this seat's opening leads.",
    )
    plot: Literal["png", "svg"] | None = Field(
        default=None,
        description="Also draw the plot (trick distributions, comparisons) in this format: "
        "the answer's `plot` holds it as a data: URI.",
    )


class ContractOdds(BaseModel):
    """One contract over the deals: tricks taken (0 to 13), make rate, mean tricks and score."""

    contract: str
    declarer: str
    tricks: list[int] = Field(description="Deals on which declarer takes 0, 1, ... 13 tricks.")
    make: float
    make_se: float | None = Field(description=_SE)
    mean_tricks: float
    mean_tricks_se: float | None = Field(description=_SE)
    mean_score: float = Field(description="Declarer's mean score at the vulnerability given.")
    mean_score_se: float | None = Field(description=_SE)


class ContractComparison(BaseModel):
    """Two contracts compared, seen from the side declaring the first one."""

    first: str
    second: str
    imps: float = Field(description="Net IMPs a board for the first contract.")
    imps_se: float | None = Field(description=_SE)
    first_better: float
    first_better_se: float | None = Field(description=_SE)
    equal: float
    second_better: float
    matchpoints: float = Field(description="Matchpoint share of the first contract (0 to 1).")
    matchpoints_se: float | None = Field(description=_SE)


class LeadCard(BaseModel):
    """A lead (cards equal on every deal grouped, such as ``HQJ``) and how it fares."""

    cards: str
    deals: int = Field(description="Deals on which the leader holds these cards.")
    mean_tricks: float = Field(description="Mean tricks for the defence after this lead.")
    mean_tricks_se: float | None = Field(description=_SE)
    beat: float = Field(description="Share of those deals on which the lead beats the contract.")
    beat_se: float | None = Field(description=_SE)


class LeadTable(BaseModel):
    """The opening leads against one contract, best first."""

    contract: str
    declarer: str
    leader: str
    cards: list[LeadCard]


class ParSummary(BaseModel):
    """Par scores (North-South's view) over the deals."""

    mean: float
    mean_se: float | None = Field(description=_SE)
    scores: dict[str, int]


class SimulateResponse(BaseModel):
    """The ``bridgescore simulate --json`` report (``leads`` only when a leader was asked)."""

    deals: int
    seed: int
    where: str
    predeal: list[str]
    vulnerability: str
    interrupted: bool
    contracts: list[ContractOdds]
    comparisons: list[ContractComparison] = Field(default_factory=list)
    leads: list[LeadTable] = Field(default_factory=list)
    par: ParSummary | None = None
    plot: str | None = Field(
        default=None,
        description="Only when the request asked for a plot: the image as a data: URI "
        "(data:image/png;base64,... or data:image/svg+xml;base64,...).",
    )
