"""Chunks of a par study: the plan, and reproducible seeding that survives extension."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.deal import random_deals
from bridgescore.study.chunks import Chunk, chunk_seed, deal_chunk, plan_chunks
from bridgescore.study.errors import StudyError


def test_plan_full_chunks_then_the_remainder() -> None:
    assert plan_chunks(10, 4) == [Chunk(0, 4), Chunk(1, 4), Chunk(2, 2)]
    assert plan_chunks(8, 4) == [Chunk(0, 4), Chunk(1, 4)]
    assert plan_chunks(3, 256) == [Chunk(0, 3)]
    assert plan_chunks(10_485_760, 256)[-1] == Chunk(40_959, 256)


@given(st.integers(1, 5000), st.integers(1, 300))
def test_plan_covers_every_deal_once(deals: int, size: int) -> None:
    chunks = plan_chunks(deals, size)
    assert [c.id for c in chunks] == list(range(len(chunks)))
    assert sum(c.deals for c in chunks) == deals
    assert all(c.deals == size for c in chunks[:-1])
    assert 1 <= chunks[-1].deals <= size
    assert [c.first(size) for c in chunks] == list(range(0, deals, size))


@pytest.mark.parametrize(
    ("deals", "size", "word"),
    [(0, 4, "deal count"), (-5, 4, "deal count"), (10, 0, "chunk size"), (10, True, "chunk size")],
)
def test_plan_refuses_bad_numbers(deals: int, size: int, word: str) -> None:
    with pytest.raises(StudyError, match=word):
        plan_chunks(deals, size)


@pytest.mark.parametrize("index", [0, 1, 5, 17])
def test_chunk_seed_is_spawned_child_whatever_the_number_of_children(index: int) -> None:
    mine = chunk_seed(2026, index).generate_state(8)
    for children in (index + 1, index + 2, 64, 1000):
        child = np.random.SeedSequence(2026).spawn(children)[index]
        assert np.array_equal(child.generate_state(8), mine)


def test_chunk_seeds_differ_between_chunks_and_seeds() -> None:
    states = {tuple(chunk_seed(s, i).generate_state(4)) for s in (1, 2) for i in range(50)}
    assert len(states) == 100


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True])
def test_bad_seeds_are_refused(bad: object) -> None:
    with pytest.raises(StudyError, match="seed"):
        chunk_seed(bad, 0)  # type: ignore[arg-type]


def test_a_chunk_is_the_deals_of_its_spawned_child() -> None:
    child = np.random.SeedSequence(9).spawn(4)[3]
    assert deal_chunk(9, 3, 5) == random_deals(child, 5)


def test_a_shorter_chunk_is_a_prefix_of_a_longer_one() -> None:
    # Extending a study completes its last chunk: the deals already there stay.
    assert deal_chunk(4, 2, 30)[:7] == deal_chunk(4, 2, 7)


def test_chunks_are_reproducible_and_distinct() -> None:
    assert deal_chunk(1, 0, 3) == deal_chunk(1, 0, 3)
    assert deal_chunk(1, 0, 3) != deal_chunk(1, 1, 3)
    assert deal_chunk(1, 0, 3) != deal_chunk(2, 0, 3)


def test_chunks_import_without_pyarrow() -> None:
    # A child interpreter where pyarrow cannot be imported: chunks is pure and
    # must still work; the shard-writing names fail only when asked for.
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "from bridgescore.study.chunks import plan_chunks\n"
        "print([c.deals for c in plan_chunks(600, 256)])\n"
        "import bridgescore.study as study\n"
        "try:\n"
        "    study.run_study\n"
        "except ImportError:\n"
        "    print('runner needs pyarrow')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["[256, 256, 88]", "runner needs pyarrow"]
