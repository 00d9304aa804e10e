"""The solver's jobs (``bridgescore.web.jobs``) as a worker process of ``serve`` runs them.

A worker imports the module of the job it is given. That module must bring no web
framework with it (FastAPI, Starlette, pydantic's models of the routes): a worker is a
fresh process (spawned), and those imports were most of its start. Checked in a fresh
interpreter, as a spawned worker is one.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bridgescore.errors import BridgeError
from bridgescore.web.jobs import parse_record

# A worker's life: warmed up, then a solve, an upload's tables, a review.
_WORKER = """
import json, sys
from bridgescore.web import jobs

pbn = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
# tests/web/test_analyse_api.py's board: South's 3NT, West leads the DK, ten tricks claimed.
lin = (
    "md|1SK98HA83DAQJ93CQT,SA7HKQ42DK5CJ7652,SJ54HT975DT82CAK8,|sv|e|ah|Board 3|"
    "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|DK|mc|10|"
)
answers = {
    "warm": jobs.warm_up(),
    "solve": jobs.solve_pbn(pbn),
    "tables": jobs.solve_tables([pbn]),
    "review": sorted(jobs.review_record(lin)),
}
frameworks = sorted(
    name for name in sys.modules
    if name.split(".")[0] in {"fastapi", "starlette", "uvicorn", "jinja2"}
    or name.startswith(("bridgescore.web.app", "bridgescore.web.api", "bridgescore.web.schemas"))
)
print(json.dumps({"answers": answers, "frameworks": frameworks}))
"""


def test_a_worker_runs_its_jobs_without_the_web_framework() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WORKER], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["frameworks"] == []
    answers = found["answers"]
    assert answers["warm"] is True
    # Line 1 of tests/data/par_vectors.jsonl (DDS's table of that deal).
    assert answers["solve"] == "87788877884655556555"
    assert answers["tables"] == ["87788877884655556555"]
    assert answers["review"] == ["html", "notes", "review"]


def test_a_deal_field_is_a_pbn_deal_or_one_lin_board() -> None:
    pbn = "N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96"
    record = parse_record(pbn)
    assert record.deal is not None and record.deal.to_pbn() == pbn
    with pytest.raises(BridgeError, match=r"'N:AKQ\.AKQ' has 1 hand"):
        parse_record("N:AKQ.AKQ")
