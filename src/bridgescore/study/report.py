"""Par statistics per vulnerability, in the layout of the published study.

For each vulnerability: deals, par plus NS, par plus EW, par zero, and over the
absolute par scores: unique scores, minimum, maximum, mode, median, mean and
standard deviation, with the table of absolute scores (deals, specific %, at
least %, at most %). The arithmetic works on arrays and count tables; reading a
study directory is :func:`study_report`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bridgescore.core import Vulnerability
from bridgescore.errors import StudyError
from bridgescore.study.chunks import plan_chunks
from bridgescore.study.manifest import Manifest, load_manifest
from bridgescore.study.remote import RemoteStudy, is_remote
from bridgescore.study.shards import PAR_COLUMNS, read_shard, scan_directory
from bridgescore.validate import whole_number_arg

__all__ = [
    "VULNERABILITY_NAMES",
    "ParStats",
    "StudyReport",
    "format_report",
    "study_location",
    "study_report",
]

# The published study's names, in its order: the same words as str(Vulnerability).
VULNERABILITY_NAMES: Mapping[Vulnerability, str] = {v: str(v) for v in Vulnerability}


@dataclass(frozen=True, slots=True)
class ParStats:
    """Par statistics for one vulnerability, from signed counts (NS view).

    ``signed`` maps each par score to its number of deals. The summary figures
    are over absolute scores, as published; the median is the lower median (a
    score that occurs) and the standard deviation is the population one.

    >>> stats = ParStats.from_scores([420, -420, 0, 100])
    >>> stats.plus_ns, stats.plus_ew, stats.zero, stats.mode, stats.median
    (2, 1, 1, 420, 100)
    """

    signed: Mapping[int, int]

    def __post_init__(self) -> None:
        # A count below zero would make the totals, and the median's search, meaningless.
        for score, count in self.signed.items():
            whole_number_arg(score, "par score", numpy=True, error=StudyError)
            whole_number_arg(
                count, f"the number of deals with par {score}", 0, numpy=True, error=StudyError
            )

    @classmethod
    def from_scores(cls, scores: npt.ArrayLike) -> ParStats:
        """From one par score per deal."""
        values, counts = np.unique(np.asarray(scores, dtype=np.int64), return_counts=True)
        return cls({int(v): int(c) for v, c in zip(values, counts, strict=True)})

    @classmethod
    def from_counts(cls, signed: Mapping[int, int]) -> ParStats:
        """From a table of signed score -> deals (zero counts dropped)."""
        return cls({int(k): int(v) for k, v in sorted(signed.items()) if v})

    def merged(self, other: ParStats) -> ParStats:
        """The statistics of both sets of deals together."""
        total = dict(self.signed)
        for score, count in other.signed.items():
            total[score] = total.get(score, 0) + count
        return ParStats.from_counts(total)

    @property
    def deals(self) -> int:
        return sum(self.signed.values())

    @property
    def plus_ns(self) -> int:
        return sum(c for s, c in self.signed.items() if s > 0)

    @property
    def plus_ew(self) -> int:
        return sum(c for s, c in self.signed.items() if s < 0)

    @property
    def zero(self) -> int:
        return self.signed.get(0, 0)

    @property
    def scores(self) -> dict[int, int]:
        """Absolute par score -> deals, in ascending score order."""
        absolute: dict[int, int] = {}
        for score, count in self.signed.items():
            absolute[abs(score)] = absolute.get(abs(score), 0) + count
        return dict(sorted(absolute.items()))

    def _need_deals(self) -> None:
        if not self.deals:
            raise StudyError("no deals: statistics need at least one deal")

    @property
    def unique(self) -> int:
        return len(self.scores)

    @property
    def minimum(self) -> int:
        self._need_deals()
        return min(self.scores)

    @property
    def maximum(self) -> int:
        self._need_deals()
        return max(self.scores)

    @property
    def mode(self) -> int:
        """The most frequent absolute score (the lowest one on a tie)."""
        self._need_deals()
        scores = self.scores
        best = max(scores.values())
        return min(s for s, c in scores.items() if c == best)

    @property
    def median(self) -> int:
        """The lower median absolute score: deal number ceil(n/2) in ascending order."""
        self._need_deals()
        scores = self.scores
        # The first score whose running count of deals reaches the middle one; the
        # last running count is every deal, so the search always lands on a score.
        reached = np.cumsum(list(scores.values()))
        return list(scores)[int(np.searchsorted(reached, (self.deals + 1) // 2))]

    @property
    def mean(self) -> float:
        self._need_deals()
        return sum(s * c for s, c in self.scores.items()) / self.deals

    @property
    def std(self) -> float:
        self._need_deals()
        mean = self.mean
        return float((sum(c * (s - mean) ** 2 for s, c in self.scores.items()) / self.deals) ** 0.5)

    def rows(self) -> list[tuple[int, int, float, float, float]]:
        """(absolute score, deals, specific %, at least %, at most %) in ascending order."""
        total = self.deals
        rows = []
        below = 0
        for score, count in self.scores.items():
            at_least = total - below
            below += count
            rows.append(
                (score, count, 100 * count / total, 100 * at_least / total, 100 * below / total)
            )
        return rows

    def summary(self) -> dict[str, Any]:
        """The JSON form: summary figures and ``scores`` (absolute score -> deals)."""
        return {
            "deals": self.deals,
            "plus_ns": self.plus_ns,
            "plus_ew": self.plus_ew,
            "zero": self.zero,
            "unique": self.unique,
            "min": self.minimum,
            "max": self.maximum,
            "mode": self.mode,
            "median": self.median,
            "mean": round(self.mean, 2),
            "std": round(self.std, 2),
            "scores": {str(s): c for s, c in self.scores.items()},
        }


@dataclass(frozen=True, slots=True)
class StudyReport:
    """A study's statistics per vulnerability, with what was found wrong in its directory."""

    manifest: Manifest
    stats: Mapping[Vulnerability, ParStats]
    chunks: int
    missing_chunks: tuple[int, ...] = ()
    problems: tuple[str, ...] = field(default=())
    temporaries: int = 0

    @property
    def deals(self) -> int:
        return self.stats[Vulnerability.NONE].deals

    @property
    def complete(self) -> bool:
        return self.deals == self.manifest.deals and not self.missing_chunks

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` form: ``{"deals": n, "vulnerabilities": {"None": {...}, ...}}``."""
        return {
            "deals": self.deals,
            "vulnerabilities": {
                VULNERABILITY_NAMES[v]: self.stats[v].summary() for v in VULNERABILITY_NAMES
            },
            "study": {
                "seed": self.manifest.seed,
                "chunk_size": self.manifest.chunk_size,
                "planned_deals": self.manifest.deals,
                "chunks": self.chunks,
                "complete": self.complete,
                "missing_chunks": list(self.missing_chunks),
                "convention": self.manifest.convention,
                "versions": dict(self.manifest.versions),
            },
            "problems": list(self.problems),
        }


def study_report(directory: Path | str) -> StudyReport:
    """Read every good shard of ``directory`` and tabulate its par scores.

    ``directory`` is a local directory or an fsspec URL (``s3://bucket/study``).
    Problem files (foreign, damaged, from another study) are listed in
    ``problems`` and left out; chunks without a good shard are in ``missing_chunks``.
    Raises :class:`StudyError` when ``directory`` is not a study.
    """
    return _report(study_location(directory))


def study_location(directory: Path | str) -> Path | RemoteStudy:
    """A local study directory (``file://`` allowed) or a study in an object store.

    Raises :class:`StudyError` when a local ``directory`` is not a directory.
    """
    if is_remote(directory):
        return RemoteStudy(str(directory))
    location = Path(str(directory).removeprefix("file://"))
    if not location.is_dir():
        raise StudyError(f"{str(location)!r} is not a directory")
    return location


def _report(directory: Path | RemoteStudy) -> StudyReport:
    manifest = load_manifest(directory)
    if manifest is None:
        raise StudyError(f"{str(directory)!r} is not a par study (no study.json)")
    scan = scan_directory(directory, manifest)
    problems = list(scan.problems)
    counts: dict[Vulnerability, dict[int, int]] = {v: {} for v in VULNERABILITY_NAMES}
    good: set[int] = set()
    for chunk in sorted(scan.shards):
        try:
            table = read_shard(scan.shards[chunk], list(PAR_COLUMNS.values()))
        except StudyError as error:
            problems.append(f"{error} (not trusted)")
            continue
        good.add(chunk)
        for vulnerability, name in PAR_COLUMNS.items():
            values, found = np.unique(table.column(name).to_numpy(), return_counts=True)
            tally = counts[vulnerability]
            for value, count in zip(values.tolist(), found.tolist(), strict=True):
                tally[value] = tally.get(value, 0) + count
    # A shard shorter than planned is the last chunk of a study since extended.
    planned = {chunk.id: chunk.deals for chunk in plan_chunks(manifest.deals, manifest.chunk_size)}
    missing = tuple(
        c for c in sorted(planned) if c not in good or scan.shards[c].deals != planned[c]
    )
    return StudyReport(
        manifest=manifest,
        stats={v: ParStats.from_counts(counts[v]) for v in VULNERABILITY_NAMES},
        chunks=len(good),
        missing_chunks=missing,
        problems=tuple(problems),
        temporaries=len(scan.temporaries),
    )


def _figure(value: float | int, *, points: bool) -> str:
    # The package's one rule for numbers in text: points are written as players write
    # them (1430, never 1,430); counts of deals get a separator every three digits.
    if isinstance(value, float):
        return f"{value:.1f}" if points else f"{value:,.1f}"
    return f"{value}" if points else f"{value:,}"


def format_report(report: StudyReport) -> str:
    """The report as text: a summary table, then one score table per vulnerability."""
    names = list(VULNERABILITY_NAMES.items())
    m = report.manifest
    lines = [
        f"Par scores of {report.deals:,} random deals "
        f"(seed {m.seed}, chunks of {m.chunk_size}, {m.convention} convention)",
    ]
    if not report.complete:
        lines.append(
            f"INCOMPLETE: {report.deals:,} of {m.deals:,} planned deals; "
            f"{len(report.missing_chunks)} chunk(s) missing: rerun `study run` to finish"
        )
    lines.append("")
    lines.append(f"{'':<20}" + "".join(f"{name:>11}" for _, name in names))
    if report.deals == 0:
        return "\n".join([*lines, "(no finished chunks yet)"])
    rows: list[tuple[str, str, bool]] = [  # label, attribute, whether it is in points
        ("Deals", "deals", False),
        ("Par plus NS", "plus_ns", False),
        ("Par plus EW", "plus_ew", False),
        ("Par zero", "zero", False),
        ("Unique scores", "unique", False),
        ("Minimum", "minimum", True),
        ("Maximum", "maximum", True),
        ("Mode", "mode", True),
        ("Median", "median", True),
        ("Mean", "mean", True),
        ("Standard deviation", "std", True),
    ]
    for label, attribute, points in rows:
        cells = "".join(
            f"{_figure(getattr(report.stats[v], attribute), points=points):>11}" for v, _ in names
        )
        lines.append(f"{label:<20}{cells}")
    for vulnerability, name in names:
        stats = report.stats[vulnerability]
        lines += ["", f"Absolute par scores, {name} vulnerable"]
        lines.append(
            f"{'Score':>7}{'Deals':>12}{'Specific %':>12}{'At least %':>12}{'At most %':>12}"
        )
        for score, count, specific, at_least, at_most in stats.rows():
            lines.append(
                f"{score:>7}{count:>12,}{specific:>12.4f}{at_least:>12.4f}{at_most:>12.4f}"
            )
    return "\n".join(lines)
