"""An event of several sessions, ranked over all of them.

Each session is an event file of its own, scored on its own by the session package's
scorer (its matchpoints, Neuberg included, or its IMPs or VPs), so nothing of one
session's field is compared with another's. Then each pair is found again in every
session: by its players (their membership numbers where the session gives them, else
their names; the same two players are the same pair whatever number they sat at), or,
asked for, by its pair number (``by_number``). A teams event's teams are found by
their names.

- pairs: the total is the percentage over every board played: each board's
  matchpoints over its top, averaged over all the pair's boards of every session (a
  session of 27 boards counts for 27 boards, one of 24 for 24), rounded once; each
  session's own percentage is shown beside it;
- teams: the total is the sum of the segments' totals, in IMPs or VPs as each segment
  is ranked (every segment in the same unit).

Points carried over (``carry_over``: pair or team -> points) are added to the total.

>>> from fractions import Fraction
>>> _shown(Fraction(2, 3) * 100)
66.67
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from bridgescore.board import Board
from bridgescore.compare.scalar import round_half_away
from bridgescore.deal import Card
from bridgescore.errors import RecordError
from bridgescore.session.scoring.event import Member, natural_key, participant_key, players_of
from bridgescore.session.scoring.scored import SessionScore
from bridgescore.session.store.events import EventStore, Origin, TablePlay
from bridgescore.session.store.newfile import check_new_file, new_file

__all__ = ["Combined", "CombinedEntry", "combine_sessions", "write_combined"]

# Matchpoints and tops are whole tenths (see session/scoring/pairs.py).
_TENTHS = 10


@dataclass(frozen=True, slots=True)
class CombinedEntry:
    """A pair's (or team's) line: its rank, its name (as the first session it played
    names it), its players, each session's score (``None``: not in that session), the
    boards played, the carried-over points and the total."""

    rank: str
    name: str
    players: tuple[Member, ...]
    sessions: tuple[float | None, ...]
    boards: int
    carried: float
    total: float


@dataclass(frozen=True, slots=True)
class Combined:
    """The combined ranking: the event's name, kind, unit (``%``, ``IMPs``, ``VP``),
    the sessions' names and the entries, best first."""

    name: str
    kind: str
    unit: str
    sessions: tuple[str, ...]
    entries: tuple[CombinedEntry, ...]


def _shown(value: Fraction | Decimal | float) -> float:
    return round_half_away(value, 2)


def _identities(
    members: tuple[Member, ...], section: str, name: str, by_number: bool, where: str
) -> list[tuple[str, ...]]:
    """The keys a pair is found by in the other sessions: its pair number (``by_number``);
    else its players' membership numbers (when each has one) and their names (when each
    has one), so a session that names its players without numbers still finds them."""
    if by_number:
        return [("pair", participant_key(section, name))]
    keys = []
    if members and all(m.number.strip() for m in members):
        keys.append(("numbers", *sorted(m.number.strip() for m in members)))
    if members and all(m.name.strip() for m in members):
        keys.append(("names", *sorted(" ".join(m.name.split()) for m in members)))
    if not keys:
        raise RecordError(
            f"{where}: pair {name!r} names no players, so it cannot be found in the other "
            "sessions: name the players (session import EVENT names.csv), or match pairs "
            "by their numbers (--by-number)"
        )
    return keys


def combine_sessions(
    sessions: Sequence[SessionScore],
    *,
    by_number: bool = False,
    carry_over: Mapping[str, Decimal] | None = None,
    names: Sequence[str] | None = None,
) -> Combined:
    """Rank the pairs (or teams) of ``sessions``, each scored on its own, over all of
    them. ``names``: how errors name each session (default: its event's name).

    Raises :class:`RecordError` for fewer than two sessions, sessions of pairs and
    teams mixed, teams sessions ranked in different units, a pair without players
    when pairs are matched by players, a pair in one session twice, and carried-over
    points for a pair or team no session has.
    """
    if len(sessions) < 2:
        raise RecordError(f"combining needs two sessions or more, got {len(sessions)}")
    kinds = {s.kind for s in sessions}
    if len(kinds) > 1:
        raise RecordError("the sessions mix pairs and teams events: expected one kind")
    labels = list(names or [s.name or f"session {i}" for i, s in enumerate(sessions, 1)])
    teams = kinds == {"teams"}
    units = {s.ranking_unit for s in sessions}
    if teams and len(units) > 1:
        raise RecordError(
            f"the segments are ranked in {' and '.join(sorted(units))}: expected one unit "
            "(score them by the same method)"
        )
    if not teams:
        for label, scored in zip(labels, sessions, strict=True):
            if not scored.scoring_method.shows_percent:
                raise RecordError(
                    f"{label}: scored by {scored.method}: a pairs event is combined in "
                    "matchpoint percentages (expected sessions scored by mp)"
                )
    order: list[tuple[str, ...]] = []
    first_name: dict[tuple[str, ...], str] = {}
    players: dict[tuple[str, ...], tuple[Member, ...]] = {}
    scores: dict[tuple[str, ...], list[float | None]] = {}
    boards: Counter[tuple[str, ...]] = Counter()
    board_share: dict[tuple[str, ...], Fraction] = {}
    team_total: dict[tuple[str, ...], Decimal] = {}
    # Each key a pair is known by -> the key its entry is kept under (its first).
    alias: dict[tuple[str, ...], tuple[str, ...]] = {}
    for index, (label, scored) in enumerate(zip(labels, sessions, strict=True)):
        seen: dict[tuple[str, ...], str] = {}
        keys: dict[tuple[str, str], tuple[str, ...]] = {}
        for standing in scored.standings:
            members = players_of(scored.members, standing.section, standing.name)
            known = (
                [("team", standing.name)]
                if teams
                else _identities(members, standing.section, standing.name, by_number, label)
            )
            key = next((alias[k] for k in known if k in alias), known[0])
            for other in known:
                alias.setdefault(other, key)
            if key in seen:
                raise RecordError(
                    f"{label}: pairs {seen[key]!r} and {standing.name!r} are the same "
                    "players: a pair plays a session once"
                )
            seen[key] = standing.name
            keys[(standing.section, standing.name)] = key
            if key not in scores:
                order.append(key)
                first_name[key] = standing.name
                players[key] = members
                scores[key] = [None] * len(sessions)
            shown = standing.total if teams else standing.percent
            scores[key][index] = shown
            boards[key] += standing.boards
            if teams:
                team_total[key] = team_total.get(key, Decimal(0)) + Decimal(repr(standing.total))
        if not teams:
            _add_board_shares(scored, keys, board_share)
    carried = dict(carry_over or {})
    by_name = {first_name[key]: key for key in order}
    unknown = sorted(set(carried) - set(by_name), key=natural_key)
    if unknown:
        raise RecordError(
            f"carried-over points for {', '.join(map(repr, unknown))}: no session has "
            f"{'that pair' if len(unknown) == 1 else 'those'} (expected names as the "
            "combined ranking gives them)"
        )
    totals: dict[tuple[str, ...], Fraction] = {}
    for key in order:
        extra = Fraction(carried.get(first_name[key], Decimal(0)))
        if teams:
            totals[key] = Fraction(team_total[key]) + extra
        else:
            played = boards[key]
            share = board_share.get(key, Fraction(0))
            totals[key] = (share * 100 / played if played else Fraction(50)) + extra
    ranked = sorted(order, key=lambda k: (-totals[k], natural_key(first_name[k])))
    first_place: dict[Fraction, int] = {}
    for place, key in enumerate(ranked, start=1):
        first_place.setdefault(totals[key], place)
    tied = Counter(totals.values())
    entries = tuple(
        CombinedEntry(
            f"{first_place[totals[key]]}{'=' if tied[totals[key]] > 1 else ''}",
            first_name[key],
            players[key],
            tuple(scores[key]),
            boards[key],
            float(carried.get(first_name[key], Decimal(0))),
            _shown(totals[key]),
        )
        for key in ranked
    )
    unit = next(iter(units)) if teams else "%"
    return Combined(sessions[0].name, "teams" if teams else "pairs", unit, tuple(labels), entries)


def _add_board_shares(
    scored: SessionScore,
    keys: Mapping[tuple[str, str], tuple[str, ...]],
    shares: dict[tuple[str, ...], Fraction],
) -> None:
    """Add each pair's boards' shares of their tops (matchpoints over the top, exact
    from whole tenths) to ``shares``."""
    for traveller in scored.travellers:
        top = traveller.top
        if not top:
            continue
        top_tenths = round(top * _TENTHS)
        for line in traveller.lines:
            for pair, points in ((line.result.ns, line.ns), (line.result.ew, line.ew)):
                key = keys.get((line.result.section, pair))
                if key is None or points is None:
                    continue
                shares[key] = shares.get(key, Fraction(0)) + Fraction(
                    round(points * _TENTHS), top_tenths
                )


def write_combined(out: Path, sources: Sequence[Path], name: str) -> None:
    """Write every session's results into a new event file ``out``: session ``i`` as
    section ``S<i>`` (``S<i>-<its section>`` for a session of several sections), scored
    within each section, so ``session score OUT`` ranks each session as its own file
    does. The players, the opening leads and the auctions and play kept with the results
    come along, and the scoring method when the sessions share one.

    A board number names one hand record in an event file, and each session deals its
    own boards: a board's hand record is copied when every session that played the board
    deals it alike. Otherwise OUT has none for it, and scores it by its number (Law 2),
    as each session does unless its file states another dealer or vulnerability for the
    board: then :class:`RecordError` names the board and the file, for OUT could not
    score that session as its own file does. ``out`` is never overwritten and appears
    whole or not at all."""
    exists = "a combined event is written to a new file (choose another name)"
    check_new_file(out, exists)
    gathered = []
    members: dict[str, tuple[Member, ...]] = {}
    leads: dict[tuple[str, int, str, str], Card] = {}
    plays: dict[tuple[str, int, str, str], TablePlay] = {}
    dealt: dict[int, list[tuple[Path, Board | None]]] = {}
    methods: set[str | None] = set()
    kind = "pairs"
    for index, source in enumerate(sources, start=1):
        with EventStore(source, mode="read") as store:
            event = store.load()
            kind = store.kind
            methods.add(store.method)
            session_leads, session_plays = store.leads(), store.table_play()
        origin = Origin(str(source))
        renamed: dict[str, str] = {}
        for result in event.results:
            gathered.append(
                (replace(result, section=_section(renamed, result.section, index)), origin)
            )
        for (section, board, ns, ew), card in session_leads.items():
            leads[(_section(renamed, section, index), board, ns, ew)] = Card.parse(card)
        for (section, board, ns, ew), played in session_plays.items():
            plays[(_section(renamed, section, index), board, ns, ew)] = played
        for number in sorted({result.board for result in event.results}):
            dealt.setdefault(number, []).append((source, event.boards.get(number)))
        named_sections = {result.section for result in event.results} - {""}
        for key, players in event.members.items():
            section, _, pair = key.partition(":")
            if section not in named_sections:  # a bare name (a team's may hold a colon)
                section, pair = "", key
            members[participant_key(_section(renamed, section, index), pair)] = players
    info = {"name": name, "kind": kind}
    if len(methods) == 1 and None not in methods:
        info["method"] = str(next(iter(methods)))
    boards = _shared_hand_records(dealt)
    with new_file(out, exists) as temporary, EventStore(temporary, mode="create") as store:
        store.add(boards, gathered, info=info, members=members, leads=leads, plays=plays)
        store.set_sections_across(False)


def _section(renamed: dict[str, str], section: str, index: int) -> str:
    """Session ``index``'s ``section`` as the combined file names it: ``S<i>``, or
    ``S<i>-<section>`` for a session of several sections (kept in ``renamed``)."""
    return renamed.setdefault(section, f"S{index}-{section}" if section else f"S{index}")


def _shared_hand_records(
    dealt: Mapping[int, Sequence[tuple[Path, Board | None]]],
) -> list[tuple[Board, Origin]]:
    """The hand records every session that played the board agrees on (see
    :func:`write_combined`); :class:`RecordError` for a board left without one that a
    session deals otherwise than its number says."""
    shared = []
    for number, hands in sorted(dealt.items()):
        first = hands[0][1]
        if first is not None and all(
            hand is not None
            and (hand.deal, hand.dealer, hand.vulnerability)
            == (first.deal, first.dealer, first.vulnerability)
            for _, hand in hands
        ):
            shared.append((first, Origin(str(hands[0][0]))))
            continue
        for source, hand in hands:
            if hand is None:
                continue
            law = Board(number)
            if (hand.dealer, hand.vulnerability) != (law.dealer, law.vulnerability):
                raise RecordError(
                    f"{source}: board {number} is dealt by {hand.dealer.name.title()}, "
                    f"{hand.vulnerability.to_pbn()} vulnerable, not as its number says, "
                    "and the other sessions deal the board otherwise: a combined file holds "
                    "one hand record a board number, so it could not score this session as "
                    "its own file does (combine sessions whose boards differ only in their "
                    "deals)"
                )
    return shared
