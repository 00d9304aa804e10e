"""``bridgescore rubber`` and ``bridgescore chicago``: keep a scorepad from a list of deals.

One deal per line, from a file or standard input (``-``)::

    line     := deal [honours] | honours | "# comment" | blank
    deal     := "pass" | RESULT [["by"] SIDE]
    honours  := ("honors" | "honours") SIDE POINTS

``RESULT`` is any result :func:`~bridgescore.parse_result` reads (``4S+1``,
``3NTX-2``, ``4S by N making 5``); ``SIDE`` is ``NS`` or ``EW`` and may be left
out when the result names declarer (``4SN+1``). Honours on a line of their own
belong to the deal on the line before (the grammar is
:mod:`bridgescore.pads.padlines`, where the web page can reach it too). Bad lines are
reported with their numbers; the others are still recorded; the exit code is 1
if any line failed. The pad is an evening (:class:`~bridgescore.pads.rubber.RubberEvening`,
:class:`~bridgescore.pads.chicago.ChicagoEvening`): a deal after the end of a rubber or
round starts the next, and a single rubber or round prints as it always has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

import typer

from bridgescore.cli.common import BadLines, echo_json, fail, open_lines, parse_rules
from bridgescore.core import Seat, Side
from bridgescore.errors import BridgeError
from bridgescore.notation import Result
from bridgescore.pads.chicago import DUPLICATE_STYLE, ChicagoEvening, ChicagoRules, ChicagoScore
from bridgescore.pads.padlines import (
    DealLine,
    LineProblem,
    Recorder,
    parse_line,
    read_deals,
    record_deals,
)
from bridgescore.pads.rubber import LAW_80, RubberEvening, RubberScore
from bridgescore.pads.scorepad import Entry, Honors, Premium, as_side

# parse_line, read_deals and DealLine live in bridgescore.pads.padlines; they stay
# importable from here for scripts written against earlier versions.
__all__ = ["DealLine", "chicago_command", "parse_line", "read_deals", "rubber_command"]


class Schedule(StrEnum):
    standard = "standard"
    switched = "switched"


class Variant(StrEnum):
    acbl = "acbl"
    duplicate = "duplicate"
    partscore_50 = "partscore-50"
    partscore_50_and_deal4 = "partscore-50-and-deal4"
    no_deal4 = "no-deal4"


VARIANTS: dict[Variant, ChicagoRules] = {
    Variant.acbl: ChicagoRules(),
    Variant.duplicate: DUPLICATE_STYLE,
    Variant.partscore_50: ChicagoRules(partscore_premium=50, fourth_deal_premium=0),
    Variant.partscore_50_and_deal4: ChicagoRules(partscore_premium=50),
    Variant.no_deal4: ChicagoRules(fourth_deal_premium=0),
}


def _run(
    path: str, record: Recorder, pads: Callable[[], int]
) -> tuple[list[tuple[DealLine, Entry, int]], list[LineProblem]]:
    """Record the file's deals; each recorded line comes with the number of the
    rubber (or round) that took it, ``pads()`` read just after the record."""
    numbers: list[int] = []

    def numbered(result: Result, by: Side | None, honors: Honors | None) -> Entry:
        entry = record(result, by, honors)
        numbers.append(pads())
        return entry

    with open_lines(path) as lines:
        recorded, problems = record_deals(lines, numbered)
    return [(line, entry, n) for (line, entry), n in zip(recorded, numbers, strict=True)], problems


def _describe(premiums: tuple[Premium, ...]) -> str:
    return ", ".join(f"{p.side.name} {p.points} {p.kind}" for p in premiums)


def _log_line(line: DealLine, entry: Entry) -> str:
    vul = "vul" if entry.vulnerable else "nv"
    if entry.declarer is None:
        what = f"{'passed out':<16}"
    else:
        what = f"{entry.result!s:<10}{entry.declarer.name:<3}{vul:<4}"
    below = " ".join(f"{s.name} {entry.below[s]} below" for s in Side if entry.below[s])
    parts = [part for part in (below, _describe(entry.above)) if part]
    game = "  (game)" if entry.completes_game else ""
    dealer = "" if entry.dealer is None else f"{entry.dealer.letter} deals, "
    return (
        f"line {line.number:>3}  deal {entry.deal}  {what}{'; '.join(parts)}{game}"
        f"  [{dealer}vul {entry.vulnerability}]"
    )


def _echo_pad_json(
    evening: RubberEvening | ChicagoEvening,
    recorded: list[tuple[DealLine, Entry, int]],
    bad: BadLines,
    *,
    unit: str,
    pbn: bool,
    variant: str | None = None,
) -> None:
    """The evening's totals, its entries with their line numbers and rubber (or round),
    each rubber's totals with the running total, PBN tags if asked, and errors."""
    data = evening.as_dict()
    if variant is not None:
        data["variant"] = variant
    data["entries"] = [
        {"line": line.number, "input": line.text, unit: number, **entry.as_dict()}
        for line, entry, number in recorded
    ]
    if pbn:
        data["pbn"] = evening.pbn_tags()
    data["errors"] = bad.records
    echo_json(data)


@dataclass(frozen=True)
class _Block:
    """One rubber (or round) of the text output: its deals, notes and status line."""

    title: str | None
    pad: RubberScore | ChicagoScore
    lines: list[tuple[DealLine, Entry]]
    tags: list[dict[str, str]]
    notes: list[str]
    status: str


def _echo_pad_text(blocks: list[_Block], *, we: Side, pbn: bool) -> None:
    """Per rubber: a title when there are several, the deal log with line numbers, any
    notes, PBN tags if asked, the pad and its status."""
    for index, block in enumerate(blocks):
        if index:
            typer.echo("")
        if block.title is not None:
            typer.echo(block.title)
        for line, entry in block.lines:
            typer.echo(_log_line(line, entry))
        for note in block.notes:
            typer.echo(note)
        if pbn:
            for (line, _), tags in zip(block.lines, block.tags, strict=True):
                for name, value in tags.items():
                    typer.echo(f'line {line.number:>3}  [{name} "{value}"]')
        typer.echo("")
        typer.echo(block.pad.pad(we=we))
        typer.echo("")
        typer.echo(block.status)


def _blocks(
    pads: Sequence[RubberScore | ChicagoScore],
    recorded: list[tuple[DealLine, Entry, int]],
    tags: list[dict[str, str]],
    unit: str,
    status: Callable[[Any, str | None], str],
) -> list[_Block]:
    """The text blocks of an evening, one per rubber (or round): a lone one untitled,
    as a one-rubber pad always printed."""
    several = len(pads) > 1
    by_pad: list[list[tuple[DealLine, Entry]]] = [[] for _ in pads]
    for line, entry, number in recorded:
        by_pad[number - 1].append((line, entry))
    blocks = []
    at = 0
    for number, (pad, lines) in enumerate(zip(pads, by_pad, strict=True), 1):
        title = f"{unit} {number}" if several else None
        notes = (
            [f"Law 80: {_describe(pad.settlement)}"]
            if isinstance(pad, RubberScore) and pad.settlement
            else []
        )
        count = len(pad.entries)
        blocks.append(_Block(title, pad, lines, tags[at : at + count], notes, status(pad, title)))
        at += count
    return blocks


def _echo_evening_text(
    evening: RubberEvening | ChicagoEvening,
    pads: Sequence[RubberScore | ChicagoScore],
    recorded: list[tuple[DealLine, Entry, int]],
    *,
    unit: str,
    status: Callable[[Any, str | None], str],
    we: Side,
    pbn: bool,
) -> None:
    """Each rubber (or round) in turn, then, when there are several, the evening's table."""
    blocks = _blocks(pads, recorded, evening.pbn_tags(), unit, status)
    _echo_pad_text(blocks, we=we, pbn=pbn)
    if len(pads) > 1:
        typer.echo("")
        for row in _evening_summary(unit, evening.running_totals(), pads):
            typer.echo(row)


def _evening_summary(unit: str, running: list[dict[str, int]], pads: Sequence[Any]) -> list[str]:
    """Each rubber's (or round's) points and the evening's running total after it,
    then the evening's total and who leads."""
    rows = [f"{unit:<8}{'NS':>8}{'EW':>8}{'running NS':>13}{'running EW':>13}"]
    for number, (pad, total) in enumerate(zip(pads, running, strict=True), 1):
        own = pad.totals()
        rows.append(f"{number:<8}{own['NS']:>8}{own['EW']:>8}{total['NS']:>13}{total['EW']:>13}")
    final = running[-1]
    margin = final["NS"] - final["EW"]
    lead = "level" if margin == 0 else f"{'NS' if margin > 0 else 'EW'} ahead by {abs(margin)}"
    rows.append(f"evening: {len(pads)} {unit}s; NS {final['NS']} EW {final['EW']}; {lead}")
    return rows


def _bad_lines(problems: list[LineProblem]) -> BadLines:
    """The pad's problems, told the user in line order after the pad."""
    bad = BadLines(deferred=True)
    for number, text, message in problems:
        bad.report(number, text, message)
    return bad


def _seat(text: str | None) -> Seat | None:
    try:
        return None if text is None else Seat.parse(text)
    except BridgeError as error:
        raise fail(error, code=2) from None


def _side(text: str) -> Side:
    try:
        return as_side(text)
    except BridgeError as error:
        raise fail(error, code=2) from None


PathArgument = Annotated[
    str,
    typer.Argument(help="File with one deal per line; '-' (the default) reads standard input."),
]
WeOption = Annotated[str, typer.Option("--we", help="The side written as 'We' on the pad.")]
RulesOption = Annotated[str, typer.Option(help="Law 77 values: law2017 (current) or pre1987.")]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print totals and per-deal entries as JSON.")
]
PbnOption = Annotated[bool, typer.Option("--pbn", help="Also print PBN score tags per deal.")]


def rubber_command(
    path: PathArgument = "-",
    finish: Annotated[
        bool,
        typer.Option(
            "--finish", help="Settle the last rubber by Law 80 if the input ends during it."
        ),
    ] = False,
    game_bonus: Annotated[
        int, typer.Option(help="Law 80: bonus for the only completed game.")
    ] = LAW_80.game_bonus,
    partscore_bonus: Annotated[
        int, typer.Option(help="Law 80: bonus for a partscore in the unfinished game.")
    ] = LAW_80.partscore_bonus,
    each_side: Annotated[
        bool,
        typer.Option(
            "--each-side",
            help="Law 80 variant: every side with a partscore gets the bonus "
            "(the law: only when just one side has one).",
        ),
    ] = False,
    first_dealer: Annotated[
        str | None, typer.Option(help="First dealer (N, E, S, W), to show who deals.")
    ] = None,
    we: WeOption = "NS",
    rules: RulesOption = "law2017",
    pbn: PbnOption = False,
    as_json: JsonOption = False,
) -> None:
    """Keep a rubber bridge scorepad (rubber Laws 72-77 and 80), for one rubber or an evening.

    \b
    Input, one deal per line: '4S+1 NS', '3NTX-2 EW', 'pass',
    optionally followed by honours ('4S= NS honors EW 100') or with
    honours on the next line of their own ('honours NS 150').
    A deal after a rubber has ended starts the next rubber; with several,
    each rubber's pad is shown, then the evening's running total.
    \b
    Examples:
      printf '2H+1 NS\\n3NT= EW\\n4HX-1 EW\\n' | bridgescore rubber --finish
      bridgescore rubber deals.txt --json
    """
    evening = RubberEvening(first_dealer=_seat(first_dealer), rules=parse_rules(rules))
    we_side = _side(we)
    recorded, problems = _run(
        path,
        lambda r, by, hon: evening.record(r, by, honors=hon),
        lambda: evening.rubber_number,
    )
    bad = _bad_lines(problems)
    if finish:
        try:
            evening.finish(
                game_bonus=game_bonus, partscore_bonus=partscore_bonus, each_side=each_side
            )
        except BridgeError as error:
            raise fail(error, code=2) from None
    if as_json:
        _echo_pad_json(evening, recorded, bad, unit="rubber", pbn=pbn)
    else:
        _echo_evening_text(
            evening,
            evening.rubbers,
            recorded,
            unit="rubber",
            status=_rubber_status,
            we=we_side,
            pbn=pbn,
        )
    bad.exit_if_any("line(s) could not be recorded")


def _rubber_status(pad: RubberScore, title: str | None) -> str:
    """The rubber's status line; ``title`` ("rubber 2") when the evening has several."""
    name = title or "rubber"
    games = pad.games
    total = pad.totals()
    score = f"games NS {games['NS']} EW {games['EW']}; points NS {total['NS']} EW {total['EW']}"
    if not pad.is_finished:
        return f"{name} in progress: {score}; vulnerable now: {pad.vulnerability}"
    if max(games.values()) < 2:
        score = f"settled by Law 80: {score}"
    winner = pad.winner
    if winner is None:
        return f"{name} over: {score}; a tie"
    margin = abs(total["NS"] - total["EW"])
    return f"{name} over: {score}; {winner.name} win by {margin}"


def chicago_command(
    path: PathArgument = "-",
    first_dealer: Annotated[str, typer.Option(help="Dealer of deal 1 (N, E, S, W).")] = "N",
    schedule: Annotated[
        Schedule,
        typer.Option(
            help="Vulnerability on deals 2 and 3: standard (dealer's side, ACBL) or switched."
        ),
    ] = Schedule.standard,
    variant: Annotated[
        Variant,
        typer.Option(
            help="acbl: carry-over and 100 for a deal-4 partscore; duplicate: each deal as in "
            "duplicate; partscore-50: 50 for any partscore instead of the deal-4 100; "
            "partscore-50-and-deal4: both; no-deal4: carry-over only."
        ),
    ] = Variant.acbl,
    honors: Annotated[
        bool | None,
        typer.Option(
            "--honors/--no-honors",
            help="Score honours (default: yes, except in the duplicate variant).",
            show_default=False,
        ),
    ] = None,
    we: WeOption = "NS",
    rules: RulesOption = "law2017",
    pbn: PbnOption = False,
    as_json: JsonOption = False,
) -> None:
    """Keep a Chicago (four-deal bridge) scorepad, for one round or an evening.

    \b
    Input as for 'bridgescore rubber'; a passed-out deal is redealt by the
    same dealer and does not count as one of the four. A deal after four
    played starts the next round (same schedule, nothing carried over);
    with several, each round's pad is shown, then the evening's running total.
    \b
    Examples:
      printf '2H= NS\\n2S= NS\\npass\\n3NT-1 EW\\n2C= EW\\n' | bridgescore chicago
      bridgescore chicago deals.txt --schedule switched --variant no-deal4 --json
    """
    dealer = _seat(first_dealer)
    evening = ChicagoEvening(
        Seat.NORTH if dealer is None else dealer,
        schedule.value,
        variant=VARIANTS[variant],
        honors=honors,
        rules=parse_rules(rules),
    )
    we_side = _side(we)
    recorded, problems = _run(
        path,
        lambda r, by, hon: evening.record(r, by, honors=hon),
        lambda: evening.round_number,
    )
    bad = _bad_lines(problems)
    if as_json:
        _echo_pad_json(evening, recorded, bad, unit="round", pbn=pbn, variant=variant.value)
    else:
        _echo_evening_text(
            evening,
            evening.rounds,
            recorded,
            unit="round",
            status=_chicago_status,
            we=we_side,
            pbn=pbn,
        )
    bad.exit_if_any("line(s) could not be recorded")


def _chicago_status(pad: ChicagoScore, title: str | None) -> str:
    """The round's status line; ``title`` ("round 2") when the evening has several."""
    total = pad.totals()
    if pad.is_finished:
        state = f"{title or 'round'} over"
    else:
        state = f"{pad.deals_played} of 4 deals played"
        if title is not None:
            state = f"{title}: {state}"
    return f"{state}: NS {total['NS']} EW {total['EW']}"
