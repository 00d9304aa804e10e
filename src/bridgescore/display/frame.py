"""The pandas extra: DataFrames for notebooks, imported only when one is asked for.

pandas is optional (``pip install 'bridgescore[pandas]'``); without it, asking for a
DataFrame raises ``ImportError`` naming the extra, as a missing DDS does
(:mod:`bridgescore.errors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["PANDAS_EXTRA", "pandas_module"]

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
