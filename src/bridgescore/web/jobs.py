"""Work done outside the request path: solver jobs run in worker processes.

Jobs take and return text (PBN deal in, PBN hex table out), so nothing but
short strings crosses the process boundary.
"""

from __future__ import annotations

__all__ = ["solve_pbn", "warm_up"]


def solve_pbn(pbn: str) -> str:
    """Solve a PBN deal double-dummy and return the table as 20 hex digits.

    >>> solve_pbn("N:KJ52.K7.T85.AJ87 A9863.Q3.Q3.T543 Q4.AJ862.J762.K2 T7.T954.AK94.Q96")
    '87788877884655556555'
    """
    # Imported here so the web app starts (and scores) without the DDS extra.
    from bridgescore.deal import Deal
    from bridgescore.solver import solve

    return str(solve(Deal.from_pbn(pbn)))


def warm_up() -> bool:
    """Import the deal and solver modules in a worker; False when DDS is not installed."""
    try:
        import bridgescore.deal
        import bridgescore.solver  # noqa: F401
    except ImportError:
        return False
    return True
