"""Duplicate scoring by Law 77 (WBF Laws 2017), with an itemized breakdown.

``score`` gives the declaring side's score; ``score_breakdown`` the parts of
docs/rules.md §1 (trick score, overtricks, game or partscore premium, slam premium,
premium for a doubled or redoubled make, undertricks); ``score_array`` scores
numpy arrays of results at once, equal to ``score`` element by element.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Contract, Doubling, Strain
from bridgescore.display.markup import Markup, contract_html, table_html
from bridgescore.errors import InvalidArgumentError, NotationError
from bridgescore.notation import Result, parse_result
from bridgescore.validate import bool_arg, is_whole_number

__all__ = [
    "LAW_2017",
    "PRE_1987",
    "RULE_SETS",
    "Rules",
    "ScoreBreakdown",
    "score",
    "score_array",
    "score_breakdown",
]


@dataclass(frozen=True, slots=True)
class Rules:
    """A duplicate rule set, as the two independent switches of docs/rules.md §1.10.

    ``nv_doubled_4th_plus``: each non-vulnerable doubled undertrick from the 4th on
    (300 since 1987, 200 before). ``redoubled_insult``: the premium for making a
    redoubled contract (100 since 1987, 50 before).
    """

    nv_doubled_4th_plus: int = 300
    redoubled_insult: int = 100

    def __post_init__(self) -> None:
        if self.nv_doubled_4th_plus not in (200, 300):
            raise NotationError(
                "nv_doubled_4th_plus (each non-vulnerable doubled undertrick from the "
                f"fourth) must be 200 or 300, got {self.nv_doubled_4th_plus!r}"
            )
        if self.redoubled_insult not in (50, 100):
            raise NotationError(
                "redoubled_insult (the premium for a redoubled make) must be 50 or 100, "
                f"got {self.redoubled_insult!r}"
            )

    @classmethod
    def parse(cls, text: str) -> Rules:
        """A named rule set: ``law2017`` (the current Law 77) or ``pre1987``.

        Case, spaces, hyphens and underscores are ignored (``Pre-1987``); ``current``
        and ``2017`` also name the current rules. The CLI and the web page read
        their ``rules`` option through this.

        >>> Rules.parse("pre-1987")
        Rules(nv_doubled_4th_plus=200, redoubled_insult=50)
        """
        key = "".join(str(text).split()).replace("-", "").replace("_", "").lower()
        rules = _RULE_SET_WORDS.get(key)
        if rules is None:
            raise NotationError(f"unknown rule set {text!r}: expected law2017 or pre1987")
        return rules

    @property
    def name(self) -> str | None:
        """``law2017`` or ``pre1987``, the name :meth:`parse` reads; None for a mixed set."""
        for name, rules in RULE_SETS.items():
            if rules == self:
                return name
        return None


LAW_2017 = Rules()
"""The current Law 77 (unchanged since the 1987 revision)."""

PRE_1987 = Rules(nv_doubled_4th_plus=200, redoubled_insult=50)
"""The 1935-1987 duplicate schedule."""

RULE_SETS = {"law2017": LAW_2017, "pre1987": PRE_1987}
"""The named rule sets, by the name :meth:`Rules.parse` reads and ``Rules.name`` gives."""

_RULE_SET_WORDS = {**RULE_SETS, "2017": LAW_2017, "current": LAW_2017}


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """The parts of a duplicate score, each signed for the declaring side.

    ``undertricks`` is zero or negative; every other part is zero or positive.
    ``total`` is the sum of the parts.
    """

    result: Result
    vulnerable: bool
    trick_score: int = 0
    overtricks: int = 0
    game_premium: int = 0
    partscore_premium: int = 0
    slam_premium: int = 0
    insult_premium: int = 0
    undertricks: int = 0
    total: int = 0

    def __post_init__(self) -> None:
        parts = (
            self.trick_score
            + self.overtricks
            + self.game_premium
            + self.partscore_premium
            + self.slam_premium
            + self.insult_premium
            + self.undertricks
        )
        if parts != self.total:
            raise InvalidArgumentError(
                f"breakdown total {self.total!r}: expected the sum of its parts, {parts!r}"
            )

    def parts(self) -> dict[str, int]:
        """The named parts (without the total), in the order of docs/rules.md."""
        items = asdict(self)
        for key in ("result", "vulnerable", "total"):
            items.pop(key)
        return items

    def _repr_html_(self) -> str:
        """The breakdown in a notebook: the result, then each part that scores and the total."""
        result = self.result
        if result.contract is None:
            shown = Markup("Pass")
        else:
            outcome = "=" if result.relative == 0 else f"{result.relative:+d}"
            shown = Markup(f"{contract_html(result.contract)}{outcome}")
        caption = Markup(f"{shown}, {'vulnerable' if self.vulnerable else 'not vulnerable'}")
        rows = [
            [name.replace("_", " ").capitalize(), str(points)]
            for name, points in self.parts().items()
            if points
        ]
        rows.append([Markup("<b>Total</b>"), Markup(f"<b>{self.total}</b>")])
        return table_html(["Part", "Points"], rows, numeric={1}, caption=caption)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready form: contract, result, tricks, vulnerable, score and breakdown."""
        contract = self.result.contract
        return {
            "contract": "Pass" if contract is None else str(contract),
            "result": str(self.result),
            "tricks": self.result.tricks,
            "vulnerable": self.vulnerable,
            "score": self.total,
            "breakdown": self.parts(),
        }


def _undertrick_penalty(down: int, doubling: Doubling, vulnerable: bool, rules: Rules) -> int:
    """The defenders' total for ``down`` undertricks (docs/rules.md §1.6)."""
    if doubling is Doubling.UNDOUBLED:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        # 100 for the first, 200 for the 2nd and 3rd, then the rule set's value.
        doubled = 100 + 200 * min(down - 1, 2) + rules.nv_doubled_4th_plus * max(down - 3, 0)
    return doubled * (2 if doubling is Doubling.REDOUBLED else 1)


def _breakdown(result: Result, vulnerable: bool, rules: Rules) -> ScoreBreakdown:
    contract = result.contract
    if contract is None or result.tricks is None:
        return ScoreBreakdown(result, vulnerable)
    relative = result.tricks - contract.tricks_needed
    if relative < 0:
        penalty = _undertrick_penalty(-relative, contract.doubling, vulnerable, rules)
        return ScoreBreakdown(result, vulnerable, undertricks=-penalty, total=-penalty)

    multiplier = contract.doubling.multiplier
    per_trick = 20 if contract.strain.is_minor else 30
    first_trick_extra = 10 if contract.strain is Strain.NOTRUMP else 0
    trick_score = multiplier * (per_trick * contract.level + first_trick_extra)
    is_game = trick_score >= 100
    game = (500 if vulnerable else 300) if is_game else 0
    partscore = 0 if is_game else 50
    slam = {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(contract.level, 0)
    if contract.doubling is Doubling.UNDOUBLED:
        overtricks = relative * per_trick
        insult = 0
    elif contract.doubling is Doubling.DOUBLED:
        overtricks = relative * (200 if vulnerable else 100)
        insult = 50
    else:
        overtricks = relative * (400 if vulnerable else 200)
        insult = rules.redoubled_insult
    total = trick_score + overtricks + game + partscore + slam + insult
    return ScoreBreakdown(
        result,
        vulnerable,
        trick_score=trick_score,
        overtricks=overtricks,
        game_premium=game,
        partscore_premium=partscore,
        slam_premium=slam,
        insult_premium=insult,
        total=total,
    )


def _as_result(result: str | Contract | Result, tricks: int | None) -> Result:
    if isinstance(result, Result):
        if tricks is not None:
            raise NotationError(
                f"{result} already has its tricks, so it takes no separate count of tricks "
                f"(got {tricks!r})"
            )
        return result
    if isinstance(result, Contract):
        if tricks is None:
            raise NotationError(
                f"scoring the contract {result} needs the tricks declarer took (0 to 13)"
            )
        if not is_whole_number(tricks):
            raise NotationError(
                f"tricks for {result} must be a whole number from 0 to 13, got {tricks!r}"
            )
        return Result(result, tricks)
    if isinstance(result, str):
        return parse_result(result, tricks=tricks)
    raise NotationError(
        f"cannot score {result!r}: expected result text, a Result, or a Contract and the "
        "tricks declarer took"
    )


def _check_vulnerable(vulnerable: object) -> bool:
    # 0 and 1 too: a vulnerability column read from a file or an array holds numbers.
    if is_whole_number(vulnerable, 0, 1):
        return bool(vulnerable)
    return bool_arg(vulnerable, "vulnerable", numpy=True, error=NotationError)


def score_breakdown(
    result: str | Contract | Result,
    vulnerable: bool = False,
    *,
    tricks: int | None = None,
    rules: Rules = LAW_2017,
) -> ScoreBreakdown:
    """The itemized score of a result for the declaring side.

    >>> score_breakdown("6NTXX=", vulnerable=False).total
    1660
    """
    return _breakdown(_as_result(result, tricks), _check_vulnerable(vulnerable), rules)


# The score table: index ((((level-1)*5 + strain)*3 + doubling)*14 + tricks)*2 + vulnerable.
_CELLS = 7 * 5 * 3 * 14 * 2


@cache
def _score_table(rules: Rules) -> tuple[int, ...]:
    table = []
    for level in range(1, 8):
        for strain in Strain:
            for doubling in Doubling:
                contract = Contract(level, strain, doubling)
                for tricks in range(14):
                    result = Result(contract, tricks)
                    for vulnerable in (False, True):
                        table.append(_breakdown(result, vulnerable, rules).total)
    assert len(table) == _CELLS
    return tuple(table)


# Built once at import (a few milliseconds) so the hot path below need not hash
# the frozen Rules value on every call.
_LAW_2017_TABLE = _score_table(LAW_2017)


def score(
    result: str | Contract | Result,
    vulnerable: bool = False,
    *,
    tricks: int | None = None,
    rules: Rules = LAW_2017,
) -> int:
    """The score of a duplicate result for the declaring side (negative when it failed).

    ``result`` is text in any everyday notation (``"4DX +1"``, ``"3NT-2"``,
    ``"Pass"``), a :class:`Result`, or a :class:`Contract` with ``tricks=`` (the
    number declarer took, as PBN's ``Result`` tag gives it).

    >>> score("4DX +1", vulnerable=True)
    910
    >>> score(Contract.parse("3NT"), tricks=7)
    -100
    """
    if type(result) is Contract and type(tricks) is int and type(vulnerable) is bool:
        # The hot path for bulk scoring from parsed values: one table look-up.
        if not 0 <= tricks <= 13:
            raise NotationError(f"{tricks} tricks for {result} is impossible: expected 0 to 13")
        index = (((result.level - 1) * 5 + result.strain) * 3 + result.doubling) * 14 + tricks
        table = _LAW_2017_TABLE if rules is LAW_2017 else _score_table(rules)
        return table[index * 2 + vulnerable]
    resolved = _as_result(result, tricks)
    contract = resolved.contract
    if contract is None or resolved.tricks is None:
        return 0
    vulnerable = _check_vulnerable(vulnerable)
    index = (((contract.level - 1) * 5 + contract.strain) * 3 + contract.doubling) * 14
    return _score_table(rules)[(index + resolved.tricks) * 2 + vulnerable]


# The array table is indexed by the relative result directly (-13..+6 for any
# level), with impossible cells marked, so one gather and one comparison both
# score and validate the trick counts. The index is built in int16 by Horner's
# rule, ((((level*5 + strain)*3 + doubling)*20 + result+13)*2 + vulnerable),
# which keeps the passes over memory few and narrow.
_IMPOSSIBLE = np.iinfo(np.int32).min
_RESULT_OFFSET = 13
_RELATIVE_SPAN = 20  # results -13 .. +6
_BLOCK = 1 << 18


def _array_index(level: int, strain: int, doubling: int, relative: int, vulnerable: int) -> int:
    key = (level * 5 + strain) * 3 + doubling
    return (key * _RELATIVE_SPAN + relative + _RESULT_OFFSET) * 2 + vulnerable


@cache
def _array_table(rules: Rules) -> npt.NDArray[np.int32]:
    table = np.full(_array_index(8, 0, 0, -_RESULT_OFFSET, 0), _IMPOSSIBLE, dtype=np.int32)
    scores = _score_table(rules)
    for level in range(1, 8):
        for strain in range(5):
            for doubling in range(3):
                for tricks in range(14):
                    source = ((((level - 1) * 5 + strain) * 3 + doubling) * 14 + tricks) * 2
                    for vulnerable in (0, 1):
                        at = _array_index(level, strain, doubling, tricks - level - 6, vulnerable)
                        table[at] = scores[source + vulnerable]
    table.setflags(write=False)
    return table


def _int_array(name: str, values: npt.ArrayLike) -> npt.NDArray[np.integer[Any]]:
    array = np.asarray(values)
    if array.dtype == np.bool_:
        return array.astype(np.int8)
    if not np.issubdtype(array.dtype, np.integer):
        raise NotationError(f"{name} must be an integer array, got dtype {array.dtype}")
    return array


_RANGES = (("level", 1, 7), ("strain", 0, 4), ("doubling", 0, 2), ("result", -13, 6),
           ("vulnerable", 0, 1))  # fmt: skip


def _check_block(blocks: list[npt.NDArray[np.integer[Any]]], start: int) -> None:
    """Raise for the first out-of-range element of a block, naming its flat index."""
    if all(
        block.min() >= low and block.max() <= high
        for block, (_, low, high) in zip(blocks, _RANGES, strict=True)
    ):
        return
    first: tuple[int, str, int, int, int] | None = None
    for block, (name, low, high) in zip(blocks, _RANGES, strict=True):
        bad = np.flatnonzero((block < low) | (block > high))
        if bad.size and (first is None or bad[0] < first[0]):
            first = (int(bad[0]), name, int(block[bad[0]]), low, high)
    assert first is not None
    at, name, value, low, high = first
    raise NotationError(f"{name}[{start + at}] = {value} is out of range: expected {low} to {high}")


def score_array(
    level: npt.ArrayLike,
    strain: npt.ArrayLike,
    doubling: npt.ArrayLike,
    result: npt.ArrayLike,
    vulnerable: npt.ArrayLike,
    rules: Rules = LAW_2017,
) -> npt.NDArray[np.int32]:
    """Score arrays of results at once; equal to :func:`score` element by element.

    ``level`` 1-7; ``strain`` C=0, D=1, H=2, S=3, NT=4; ``doubling`` 0, 1, 2;
    ``result`` relative to the contract (``+1``, ``0``, ``-2``); ``vulnerable`` bool
    or 0/1. The arrays broadcast together. Out-of-range input raises
    :class:`~bridgescore.NotationError` naming the first bad (flat) index.

    >>> score_array([4], [1], [1], [1], [True]).tolist()
    [910]
    """
    arrays = np.broadcast_arrays(
        _int_array("level", level),
        _int_array("strain", strain),
        _int_array("doubling", doubling),
        _int_array("result", result),
        _int_array("vulnerable", vulnerable),
    )
    shape = arrays[0].shape
    flat = [np.ravel(array) for array in arrays]
    scores = np.empty(arrays[0].size, dtype=np.int32)
    table = _array_table(rules)
    # Work in blocks that stay in the CPU cache: the narrow int16 index and the
    # gather then cost a fraction of the same passes over whole arrays.
    index16 = np.empty(min(_BLOCK, scores.size), dtype=np.int16)
    index = np.empty(index16.size, dtype=np.intp)
    for start in range(0, scores.size, _BLOCK):
        stop = min(start + _BLOCK, scores.size)
        lv, st_, db, rs, vl = blocks = [array[start:stop] for array in flat]
        # Range checks come first (the int16 index must not wrap) and per block,
        # while the block is in cache.
        _check_block(blocks, start)
        key = index16[: stop - start]
        np.multiply(lv, 5, out=key, casting="unsafe")
        key += st_
        key *= 3
        key += db
        key *= _RELATIVE_SPAN
        key += rs
        key += _RESULT_OFFSET
        key *= 2
        key += vl
        gather = index[: stop - start]
        gather[...] = key
        block = scores[start:stop]
        table.take(gather, out=block)
        if (block == _IMPOSSIBLE).any():
            bad = start + int(np.flatnonzero(block == _IMPOSSIBLE)[0])
            lv_bad, rv_bad = int(flat[0][bad]), int(flat[3][bad])
            raise NotationError(
                f"result[{bad}] = {rv_bad:+d} is impossible for a level-{lv_bad} contract: "
                f"expected {-(lv_bad + 6)} to {7 - lv_bad:+d}"
            )
    return scores.reshape(shape)
