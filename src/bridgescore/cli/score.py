"""``bridgescore score``: one result, a batch of results, or the score table."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from bridgescore.cli.common import BadLines, echo_json, fail, parse_rules, read_batch
from bridgescore.cli.words import joined_words
from bridgescore.core import Doubling, Strain
from bridgescore.errors import BridgeError
from bridgescore.scoring import LAW_2017, Rules, ScoreBreakdown, score_breakdown

__all__ = ["format_breakdown", "score_command", "score_table"]

_PART_NAMES = {
    "trick_score": "trick score",
    "overtricks": "overtricks",
    "game_premium": "game premium",
    "partscore_premium": "partscore premium",
    "slam_premium": "slam premium",
    "insult_premium": "doubled/redoubled made",
    "undertricks": "undertricks",
}

# A trailing vulnerability word on a batch line: "4DX +1 vul", "3NT= nv".
_VUL_WORD = re.compile(
    r"\s+(?P<word>vul|vulnerable|v|nv|nonvul|non-vul|not\s+vul|non-vulnerable|notvul)\s*$",
    re.IGNORECASE,
)


def format_breakdown(breakdown: ScoreBreakdown, *, symbols: bool = False) -> str:
    """The breakdown as a small table for people."""
    vul = "vulnerable" if breakdown.vulnerable else "not vulnerable"
    lines = [f"{breakdown.result.format(symbols=symbols)} {vul}: {breakdown.total:+d}"]
    for key, value in breakdown.parts().items():
        if value:
            lines.append(f"  {_PART_NAMES[key]:<24}{value:>6}")
    lines.append(f"  {'total':<24}{breakdown.total:>6}")
    return "\n".join(lines)


def score_table(vulnerable: bool, rules: Rules = LAW_2017) -> str:
    """The made-exactly table of docs/rules.md §1.9 for one vulnerability."""
    from bridgescore.core import Contract
    from bridgescore.scoring import score

    columns = [(Strain.CLUBS, "C/D"), (Strain.HEARTS, "H/S"), (Strain.NOTRUMP, "NT")]
    vul = "vulnerable" if vulnerable else "not vulnerable"
    header = "     " + "".join(f"{doubling.name.lower():^21}" for doubling in Doubling)
    sub = "  L  " + "".join(f"{name:>7}" for _ in Doubling for _, name in columns)
    lines = [f"Contracts made exactly, {vul}", header, sub]
    for level in range(1, 8):
        cells = [
            score(Contract(level, strain, doubling), vulnerable, tricks=level + 6, rules=rules)
            for doubling in Doubling
            for strain, _ in columns
        ]
        lines.append(f"  {level}  " + "".join(f"{cell:>7}" for cell in cells))
    return "\n".join(lines)


def _split_vulnerability(text: str, default: bool) -> tuple[str, bool]:
    match = _VUL_WORD.search(text)
    if match is None:
        return text, default
    word = re.sub(r"\s+", "", match["word"].lower())
    return text[: match.start()], word in ("vul", "vulnerable", "v")


def score_command(
    context: typer.Context,
    result: Annotated[
        list[str] | None,
        typer.Argument(
            help="A result such as '4DX +1', '3NT-2', '6NTXX=' or '4S by N making 5', "
            "quoted or as words (4DX +1, 3NT -1); '-' reads one result per line from "
            "standard input.",
            show_default=False,
        ),
    ] = None,
    vul: Annotated[
        bool, typer.Option("--vul/--nv", help="Declaring side vulnerable (default: not).")
    ] = False,
    tricks: Annotated[
        int | None,
        typer.Option(help="Tricks taken by declarer, when RESULT is a contract alone (as PBN)."),
    ] = None,
    file: Annotated[
        str | None,
        typer.Option("--file", "-f", help="Score one result per line ('4DX +1 vul', '3NT= nv')."),
    ] = None,
    table: Annotated[
        bool, typer.Option("--table", help="Print the made-exactly score table.")
    ] = False,
    rules: Annotated[
        str, typer.Option(help="Rule set: law2017 (current Law 77) or pre1987.")
    ] = "law2017",
    symbols: Annotated[bool, typer.Option(help="Show suit symbols (♠♥♦♣).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Score a duplicate result (Law 77) and show its breakdown.

    \b
    Examples:
      bridgescore score 4DX +1 --vul
      bridgescore score 3NT -1
      bridgescore score 4S --tricks 11 --json
      printf '4DX +1 vul\\n3NT= nv\\n' | bridgescore score -
      bridgescore score --table --vul
    """
    text = joined_words(result, context)
    rule_set = parse_rules(rules)
    if table:
        if as_json:
            echo_json(_table_json(vul, rule_set))
        else:
            typer.echo(score_table(vul, rule_set))
        return
    if file is None and text == "-":
        file = "-"
    if file is not None:
        _score_batch(file, vul, rule_set, symbols=symbols, as_json=as_json)
        return
    if not text:
        raise fail("nothing to score: give a RESULT, '-' or --file F (see --help)", code=2)
    # A trailing 'vul' or 'nv', as on a score file's line: '3NT-1 vul'.
    text, worded = _split_vulnerability(text, vul)
    # Typer vendors its own click: the source is told by its name.
    source = context.get_parameter_source("vul")
    flag_given = getattr(source, "name", "DEFAULT") != "DEFAULT"
    if flag_given and worded != vul:
        raise fail(
            f"{'--vul' if vul else '--nv'} and the word {'vul' if worded else 'nv'} in "
            f"{joined_words(result, context)!r} disagree: give the vulnerability once",
            code=2,
        )
    vul = worded
    try:
        breakdown = score_breakdown(text, vul, tricks=tricks, rules=rule_set)
    except BridgeError as error:
        raise fail(error) from None
    if as_json:
        echo_json(breakdown.as_dict())
    else:
        typer.echo(format_breakdown(breakdown, symbols=symbols))


def _table_json(vulnerable: bool, rules: Rules) -> dict[str, Any]:
    from bridgescore.core import Contract
    from bridgescore.scoring import score

    return {
        "vulnerable": vulnerable,
        "made_exactly": {
            str(Contract(level, strain, doubling)): score(
                Contract(level, strain, doubling), vulnerable, tricks=level + 6, rules=rules
            )
            for doubling in Doubling
            for level in range(1, 8)
            for strain in Strain
        },
    }


def _score_batch(
    path: str, default_vul: bool, rules: Rules, *, symbols: bool, as_json: bool
) -> None:
    def read(line: str) -> tuple[bool, ScoreBreakdown]:
        text, vulnerable = _split_vulnerability(line, default_vul)
        return vulnerable, score_breakdown(text, vulnerable, rules=rules)

    records: list[dict[str, Any]] = []
    bad = BadLines()
    for number, line, (vulnerable, breakdown) in read_batch(path, read, bad):
        if as_json:
            records.append({"line": number, "input": line, **breakdown.as_dict()})
        else:
            vul = "vul" if vulnerable else "nv"
            shown = breakdown.result.format(symbols=symbols)
            typer.echo(f"{number:>5}  {shown:<14}{vul:<5}{breakdown.total:>+7}")
    if as_json:
        echo_json(sorted(records + bad.records, key=lambda record: int(record["line"])))
    bad.exit_if_any("line(s) could not be scored")
