"""Request and response bodies of the JSON API (they make up ``/openapi.json``).

Fields are plain text in the project's notations (``"4DX +1"``, PBN deals, hex
DD tables); the library parses them, so a bad value is answered with the
library's own message (422), not a generic schema error.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DealInfo",
    "DealRequest",
    "ErrorDetail",
    "ParRequest",
    "ParResponse",
    "ScoreRequest",
    "ScoreResponse",
    "ScoreTableResponse",
    "SolveRequest",
    "SolveResponse",
]

# Generous for any notation, small enough that nobody can make the parsers work hard.
_TEXT = 200
_DEAL_TEXT = 400


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
        max_length=_DEAL_TEXT, description="A deal in PBN, such as 'N:... ... ... ...'."
    )


class SolveRequest(DealRequest):
    """A deal to solve double-dummy."""


class DealInfo(BaseModel):
    """A deal with each hand's suits (spades first) and high-card points."""

    deal: str
    seed: int | None = None
    hands: dict[str, dict[str, str]]
    hcp: dict[str, int]


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
    deal: str | None = Field(default=None, max_length=_DEAL_TEXT, description="A deal in PBN.")
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
