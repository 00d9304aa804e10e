"""Chunks of a par study: the plan, and the package's deals whatever the chunk size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.dealer.dealing import DealSpec, deal_chunk, deal_many, pbn_strings
from bridgescore.errors import StudyError
from bridgescore.study.chunks import Chunk, chunk_deals, plan_chunks


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


def _seed_deals(seed: int, count: int) -> list[str]:
    # The numbering written out independently: deal n is row n % 10000 of the
    # dealer's chunk n // 10000 (child n // 10000 of SeedSequence(seed)).
    rows = []
    for chunk in range(-(-count // 10_000)):
        size = min(10_000, count - chunk * 10_000)
        rows.extend(pbn_strings(deal_chunk(DealSpec(), seed, chunk, size)[0]))
    return rows


@pytest.mark.parametrize("seed", [0, 1, 2026])
@pytest.mark.parametrize("size", [1, 3, 7, 256])
def test_a_study_holds_the_deals_of_deal_many_whatever_the_chunk_size(seed: int, size: int) -> None:
    wanted = 20
    expected = [deal.to_pbn() for deal in deal_many(wanted, seed=seed)]
    dealt = [
        deal.to_pbn()
        for chunk in plan_chunks(wanted, size)
        for deal in chunk_deals(seed, chunk.id, chunk.deals, size)
    ]
    assert dealt == expected == _seed_deals(seed, wanted)[:wanted]


def test_a_chunk_across_the_dealers_chunk_boundary() -> None:
    # Chunk 1 of size 9998 holds deals 9998 to 10001: the end of the dealer's chunk 0
    # and the start of its chunk 1.
    dealt = [deal.to_pbn() for deal in chunk_deals(3, 1, 4, 9998)]
    assert dealt == _seed_deals(3, 10_002)[9998:]


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True])
def test_bad_seeds_are_refused(bad: object) -> None:
    with pytest.raises(StudyError, match="seed"):
        chunk_deals(bad, 0, 1, 4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("chunk", "deals", "size", "word"),
    [(-1, 1, 4, "chunk id"), (0, 5, 4, "deal count"), (0, 1, 0, "chunk size")],
)
def test_bad_chunks_are_refused(chunk: int, deals: int, size: int, word: str) -> None:
    with pytest.raises(StudyError, match=word):
        chunk_deals(1, chunk, deals, size)


def test_a_shorter_chunk_is_a_prefix_of_a_longer_one() -> None:
    # Extending a study completes its last chunk: the deals already there stay.
    assert chunk_deals(4, 2, 30, 32)[:7] == chunk_deals(4, 2, 7, 32)


def test_chunks_are_reproducible_and_distinct() -> None:
    assert chunk_deals(1, 0, 3, 4) == chunk_deals(1, 0, 3, 4)
    assert chunk_deals(1, 0, 3, 4) != chunk_deals(1, 1, 3, 4)
    assert chunk_deals(1, 0, 3, 4) != chunk_deals(2, 0, 3, 4)


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
