"""Double-dummy simulations: deal under conditions, solve chosen contracts, report.

:func:`simulate` is the library form of ``bridgescore simulate``.
"""

from __future__ import annotations

from bridgescore.simulation.report import Report, build_report
from bridgescore.simulation.run import run_simulation, simulate
from bridgescore.simulation.spec import Simulation, parse_contracts

__all__ = ["Report", "Simulation", "build_report", "parse_contracts", "run_simulation", "simulate"]
