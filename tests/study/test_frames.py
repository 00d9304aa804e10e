"""A par study's shards as a DataFrame (issue 27, item 4): ``study_frame``.

The expected rows come from elsewhere than the shards: the deals from
``bs.deal_many`` with the study's seed, their tricks from ``bs.solve`` and their
par from ``bs.par``, one deal at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bridgescore as bs
from bridgescore.study import StudyError, run_study, study_frame
from bridgescore.study.shards import DD_COLUMNS, PAR_COLUMNS, shard_name

SEED = 11
DEALS = 6


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("study")
    run_study(directory, deals=DEALS, seed=SEED, chunk_size=4, workers=1)
    return directory


def test_one_row_per_deal_in_deal_order(study: Path) -> None:
    frame = study_frame(study)
    assert list(frame.columns) == ["chunk", "index", "deal", *DD_COLUMNS, *PAR_COLUMNS.values()]
    assert frame["chunk"].tolist() == [0, 0, 0, 0, 1, 1]
    assert frame["index"].tolist() == [0, 1, 2, 3, 0, 1]
    deals = bs.deal_many(DEALS, seed=SEED)
    assert frame["deal"].tolist() == [deal.to_pbn() for deal in deals]
    assert str(frame["deal"].dtype) == "string"
    assert {str(frame[name].dtype) for name in DD_COLUMNS} == {"uint8"}
    assert {str(frame[name].dtype) for name in PAR_COLUMNS.values()} == {"int32"}
    assert frame.attrs == {"problems": [], "chunks": [0, 1]}


def test_the_tricks_and_pars_are_the_solver_s(study: Path) -> None:
    frame = study_frame(study)
    for row, deal in zip(frame.itertuples(index=False), bs.deal_many(DEALS, seed=SEED)):
        table = bs.solve(deal)
        values = row._asdict()
        assert [values[f"dd_{s.letter}_{t.letter}"] for s in bs.Seat for t in bs.Strain] == [
            table.tricks(s, t) for s in bs.Seat for t in bs.Strain
        ]
        for vulnerability, column in PAR_COLUMNS.items():
            assert values[column] == bs.par(table, vulnerability).score


def test_a_damaged_shard_is_left_out_and_named(study: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in study.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    (copy / shard_name(1)).write_bytes(b"not parquet")
    frame = study_frame(copy)
    assert frame["chunk"].tolist() == [0, 0, 0, 0]
    assert frame.attrs["chunks"] == [0]
    [problem] = frame.attrs["problems"]
    assert shard_name(1) in problem and "not a readable Parquet file" in problem


def test_a_directory_that_is_no_study(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match=r"is not a par study \(no study.json\)"):
        study_frame(tmp_path)
    with pytest.raises(StudyError, match=r"is not a directory"):
        study_frame(tmp_path / "nowhere")
