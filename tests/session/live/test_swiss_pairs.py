"""A Swiss pairs through the library (issue 47 §6): ``create_swiss_pairs_event`` and
``draw_event_round`` over five rounds of a five-pair field, results stored between the
draws. Each round's standings are worked here from the stored scores (the Butler datum
of two results is their mean rounded to 10, the IMP scale, the WBF formula, 12 VPs a
bye), and each draw is checked against the rule: no two pairs meet twice, one bye each,
the leader meets the best pair it has not met."""

from __future__ import annotations

import math
import random
from pathlib import Path

from bridgescore.session.live.swiss import create_swiss_pairs_event, draw_event_round
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import EventStore, Origin
from bridgescore.session.workflow import score_stored_event

IMP_STEPS = [10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090,
             1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990]  # fmt: skip
BOARDS = 2
# Partscores and games by South that score the same at any vulnerability when made:
# 2S= 110, 2S+1 140, 1NT= 90, 1NT+2 150, 3NT= 400 (none) / 600 (NS vulnerable).
RESULTS = {"2SS=": 110, "2SS+1": 140, "1NTS=": 90, "1NTS+2": 150}


def imps(difference: float) -> int:
    sign = 1 if difference >= 0 else -1
    return sign * sum(abs(difference) > step for step in IMP_STEPS)


def wbf(margin: int) -> tuple[float, float]:
    tau = (math.sqrt(5) - 1) / 2
    won = 10 + 10 * (1 - tau ** (3 * abs(margin) / (15 * math.sqrt(BOARDS)))) / (1 - tau**3)
    winner = round(min(20.0, won), 2)
    home = winner if margin >= 0 else round(20 - winner, 2)
    return home, round(20 - home, 2)


def pairings(ranked: list[str], met: set[frozenset[str]]) -> list[list[tuple[str, str]]]:
    """Every way to pair ``ranked`` (best first) with no repeat, in top-down order."""
    if not ranked:
        return [[]]
    top, rest = ranked[0], ranked[1:]
    found = []
    for other in rest:
        if frozenset((top, other)) in met:
            continue
        left = [p for p in rest if p != other]
        found += [[(top, other), *tail] for tail in pairings(left, met)]
    return found


def first_draw(ranked: list[str], met: set[frozenset[str]]) -> tuple[tuple[str, str], ...]:
    return tuple(pairings(ranked, met)[0])


def test_five_pairs_over_five_rounds(tmp_path: Path) -> None:
    path = tmp_path / "swiss.db"
    made, drawn = create_swiss_pairs_event(path, pairs=5, rounds=5, boards_per_round=BOARDS)
    assert len(made.tables) == 2  # two matches a round, a bye
    rng = random.Random(47)
    vps = dict.fromkeys("12345", 0.0)
    imp_difference = dict.fromkeys("12345", 0)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for round_number in range(1, 6):
        assert drawn.round == round_number and drawn.field == "pairs"
        # The rule, by brute force: ranked by VPs, then IMPs, then seeding; of every way
        # to pair the pairs other than the bye with no repeat, the one whose best pair
        # meets the highest-ranked opponent, then the next free pair, and so on.
        order = sorted("12345", key=lambda p: (-vps[p], -imp_difference[p], int(p)))
        # The bye: the lowest-ranked pair without one whose absence leaves the rest
        # pairable.
        expected_bye = next(
            p
            for p in reversed(order)
            if p not in byes and pairings([q for q in order if q != p], met)
        )
        assert drawn.bye == expected_bye
        playing = [p for p in order if p != drawn.bye]
        assert drawn.matches == first_draw(playing, met)
        byes.append(drawn.bye or "")
        first = (round_number - 1) * BOARDS + 1
        scores: dict[int, list[tuple[int, str, str]]] = {}
        stored = []
        for home, away in drawn.matches:
            assert frozenset((home, away)) not in met
            met.add(frozenset((home, away)))
            for board in range(first, first + BOARDS):
                result = rng.choice(sorted(RESULTS))
                stored.append((TableResult.played(board, home, away, result), Origin()))
                scores.setdefault(board, []).append((RESULTS[result], home, away))
        with EventStore(path, mode="write") as store:
            store.add_results(stored)
        margin: dict[tuple[str, str], int] = {}
        for lines in scores.values():
            mean = sum(score for score, _, _ in lines) / len(lines)
            datum = math.copysign(math.floor(abs(mean) / 10 + 0.5) * 10, mean)
            for score, home, away in lines:
                margin[(home, away)] = margin.get((home, away), 0) + imps(score - datum)
        for (home, away), imps_won in margin.items():
            home_vp, away_vp = wbf(imps_won)
            vps[home] = round(vps[home] + home_vp, 2)
            vps[away] = round(vps[away] + away_vp, 2)
            imp_difference[home] += imps_won
            imp_difference[away] -= imps_won
        if drawn.bye is not None:
            vps[drawn.bye] += 12.0
        with EventStore(path, mode="read") as store:
            scored = score_stored_event(store)
        assert scored.method == "butler-vp"
        assert {s.name: s.total for s in scored.standings} == vps
        if round_number < 5:
            drawn = draw_event_round(path, who="test")
    # Five rounds of five pairs: each pair had one bye and met the other four once.
    assert sorted(byes) == ["1", "2", "3", "4", "5"]
    assert len(met) == 10
