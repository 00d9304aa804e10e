"""The built-in sample event that `make run` scores."""

from __future__ import annotations

from bridgescore.session.sample import sample_event
from bridgescore.session.scoring.scorer import score_event


def test_sample_event_scores() -> None:
    event = sample_event()
    assert event.kind == "pairs" and len(event.results) == 12
    scored = score_event(event, "mp")
    # Board 1 (none vul): 420 450 430 and 5CXW-2 = +300 -> 2 6 4 0 of top 6.
    board1 = {line.result.ns: line.ns for line in scored.travellers[0].lines}
    assert board1 == {"1": 2, "2": 6, "3": 4, "4": 0}
    assert {s.direction for s in scored.standings} == {"NS", "EW"}
