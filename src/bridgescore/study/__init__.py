"""Par studies at scale: reproducible, resumable par statistics over random deals.

A study deals chunks of random deals (the deals of ``deal_many(n, seed=seed)``,
whatever the chunk size), solves them double-dummy, scores neutral par under the
four vulnerabilities and writes one Parquet shard per chunk into a directory,
with a small manifest. Reports tabulate all shards in the published layout.

>>> from bridgescore.study import plan_chunks
>>> [chunk.deals for chunk in plan_chunks(600, 256)]
[256, 256, 88]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from bridgescore.errors import StudyError
from bridgescore.study.chunks import Chunk, check_seed, chunk_deals, plan_chunks
from bridgescore.study.manifest import Manifest, load_manifest

if TYPE_CHECKING:
    from bridgescore.study.frames import study_frame
    from bridgescore.study.report import ParStats, StudyReport, format_report, study_report
    from bridgescore.study.runner import RunSummary, compute_chunk, run_study

# The shard readers and writers need pyarrow (the "study" extra); chunks,
# manifests and errors do not, so those names are imported at once and the rest
# only when first asked for: ``import bridgescore.study.chunks`` works without
# pyarrow.
_NEEDS_PYARROW = {
    "ParStats": "report",
    "StudyReport": "report",
    "format_report": "report",
    "study_report": "report",
    "study_frame": "frames",
    "RunSummary": "runner",
    "compute_chunk": "runner",
    "run_study": "runner",
}


def __getattr__(name: str) -> object:
    module = _NEEDS_PYARROW.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "Chunk",
    "Manifest",
    "ParStats",
    "RunSummary",
    "StudyError",
    "StudyReport",
    "check_seed",
    "chunk_deals",
    "compute_chunk",
    "format_report",
    "load_manifest",
    "plan_chunks",
    "run_study",
    "study_frame",
    "study_report",
]
