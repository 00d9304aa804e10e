"""The scoring methods as data: the registry, the options' checks, a method from outside."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from bridgescore.compare.scalar import Award
from bridgescore.errors import BridgeError, ComparisonError, ScoringMethodError
from bridgescore.session.reports.text import ranking_text
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.scoring.methods import (
    METHODS,
    SCORING_METHODS,
    BoardScores,
    ScoringMethod,
    ScoringOptions,
    default_method,
    methods_for,
    scoring_method,
)
from bridgescore.session.scoring.scorer import score_event


def test_the_names_users_type_are_unchanged() -> None:
    # These names are CLI options and JSON output: renaming one breaks users' scripts.
    assert list(SCORING_METHODS) == ["mp", "butler", "cross-imps", "imps", "bam", "vp", "butler-vp"]
    assert METHODS == ("mp", "butler", "cross-imps", "imps", "bam", "vp", "butler-vp")
    table = {
        name: (m.title, m.unit, m.kind, m.shows_percent, m.signed)
        for name, m in SCORING_METHODS.items()
    }
    assert table == {
        "mp": ("matchpoints", "MP", "pairs", True, False),
        "butler": ("Butler IMPs", "IMP", "pairs", False, True),
        "cross-imps": ("cross-IMPs", "IMP", "pairs", False, True),
        "imps": ("IMPs (teams)", "IMP", "teams", False, True),
        "bam": ("board-a-match", "BAM", "teams", False, False),
        "vp": ("victory points (IMPs to VPs)", "IMP", "teams", False, True),
        "butler-vp": ("Butler IMPs, match by match in VPs", "IMP", "pairs", False, True),
    }


def test_defaults_and_kinds() -> None:
    assert default_method("pairs").name == "mp" and default_method("teams").name == "imps"
    assert [m.name for m in methods_for("pairs")] == ["mp", "butler", "cross-imps", "butler-vp"]
    assert scoring_method(SCORING_METHODS["bam"]) is SCORING_METHODS["bam"]


def test_ew_follows_from_ns() -> None:
    # Matchpoints: NS + EW = top; IMPs: zero sum; board-a-match: the board is worth 1.
    assert SCORING_METHODS["mp"].ew_from_ns(6.2, 10.0) == pytest.approx(3.8)
    assert SCORING_METHODS["butler"].ew_from_ns(4.0, 0.0) == -4.0
    assert SCORING_METHODS["imps"].ew_from_ns(-7.0, 0.0) == 7.0
    assert SCORING_METHODS["bam"].ew_from_ns(0.5, 0.0) == 0.5


def test_awards_law_12c2() -> None:
    options = ScoringOptions(adjusted_imps=2)
    plus = Award.AVERAGE_PLUS
    assert SCORING_METHODS["mp"].award(plus, 8.0, None, options) == 4.8  # 60 % of 8
    assert SCORING_METHODS["butler"].award(plus, 8.0, None, options) == 2.0
    assert SCORING_METHODS["bam"].award(Award.AVERAGE_MINUS, 0.0, None, options) == 0.4
    # Session-percentage variant: 13/16 of a top of 4 is 3.25, a half: away from zero.
    assert SCORING_METHODS["mp"].award(plus, 4.0, Fraction(13, 16), options) == 3.3
    assert SCORING_METHODS["mp"].award(Award.AVERAGE_MINUS, 4.0, Fraction(3, 16), options) == 0.8


def test_unknown_method() -> None:
    with pytest.raises(
        ScoringMethodError, match="'swiss': expected mp, butler, cross-imps, imps, bam, vp"
    ):
        scoring_method("swiss")
    assert issubclass(ScoringMethodError, BridgeError)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scale": "3/1"}, "'3/1'"),
        ({"divide": "half"}, "'half'"),
        ({"exclude": -1}, "-1"),
        ({"rounding": -10}, "-10"),
    ],
)
def test_options_are_checked_when_made(options: dict[str, object], message: str) -> None:
    with pytest.raises(ComparisonError, match=message):
        ScoringOptions(**options)  # type: ignore[arg-type]


def _total_points(scores: BoardScores, options: ScoringOptions) -> npt.NDArray[np.float64]:
    # Each result scores its own points: no comparison at all.
    return np.where(scores.valid, scores.table, 0).astype(np.float64)


def test_a_method_is_one_value_plus_its_functions() -> None:
    total_points = ScoringMethod(
        "total",
        "total points",
        "pts",
        "pairs",
        _total_points,
        lambda award, top, own, options: 0.0,
        lambda ns, top: -ns,
        signed=True,
    )
    results = (
        TableResult.played(1, "1", "2", "4SN="),
        TableResult.played(1, "3", "4", "3NTS+1"),
        TableResult.played(2, "1", "4", "2HE="),
        TableResult.played(2, "3", "2", "3SN-1"),
    )
    scored = score_event(Event("e", "pairs", results=results), total_points)
    assert scored.method == "total" and scored.unit == "pts"
    # The reports read the method from the score, registered or not.
    assert ranking_text(scored).splitlines()[0] == "e - total points"
    # Law 77: board 1 +420 (1 v 2), +430 (3 v 4); board 2, NS vulnerable: 2H= by E is
    # -110 (1 v 4), 3S-1 by N is -100 (3 v 2). EW get the negation of each.
    totals = {(s.direction, s.name): s.total for s in scored.standings}
    assert totals == {
        ("NS", "1"): 420 - 110,
        ("NS", "3"): 430 - 100,
        ("EW", "2"): -420 + 100,
        ("EW", "4"): -430 + 110,
    }
