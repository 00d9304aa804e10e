"""The pandas extra: DataFrames for notebooks, imported only when one is asked for.

pandas is optional (``pip install 'bridgescore[pandas]'``); without it, asking for a
DataFrame raises ``ImportError`` naming the extra, as a missing DDS does
(:mod:`bridgescore.errors`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import ModuleType

    import pandas as pd

__all__ = ["PANDAS_EXTRA", "frame_of", "pandas_module"]

PANDAS_EXTRA = "pip install 'bridgescore[pandas]'"
"""The command that installs the pandas extra, as the ImportError names it."""


def pandas_module(what: str = "a DataFrame") -> ModuleType:
    """The ``pandas`` module, or ``ImportError`` saying which extra to install."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError(
            f"{what} needs pandas, which is not installed; install it with: {PANDAS_EXTRA}"
        ) from error
    return pandas


def frame_of(
    rows: Sequence[Mapping[str, Any]], columns: Mapping[str, str], what: str
) -> pd.DataFrame:
    """A DataFrame of ``rows`` with ``columns`` (name: pandas dtype) in that order.

    Each column is made with its dtype, so an empty frame has them too and a column
    of whole numbers with gaps stays whole (``Int64``, ``<NA>`` in the gaps).
    ``what`` names the caller in the ImportError when pandas is missing.
    """
    pandas = pandas_module(what)
    series = {
        name: pandas.Series([row[name] for row in rows], dtype=dtype)
        for name, dtype in columns.items()
    }
    frame: pd.DataFrame = pandas.DataFrame(series)
    return frame
