"""bridgescore: exact contract bridge scoring, double-dummy par and par studies.

>>> import bridgescore as bs
>>> bs.score("4DX +1", vulnerable=True)
910
>>> bs.score_breakdown("6NTXX=", vulnerable=False).total
1660
>>> bs.Vulnerability.from_board(7), bs.dealer_of_board(7)
(Vulnerability.BOTH, Seat.SOUTH)
"""

from __future__ import annotations

# The module's own imports carry underscore names, so that dir(bridgescore) and
# tab completion show the public names only (__dir__ below lists __all__).
import typing as _typing
from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

if _typing.TYPE_CHECKING:
    from bridgescore.auction import Auction, Call
    from bridgescore.compare.scalar import (
        Award,
        adjusted_imps,
        adjusted_matchpoints,
        adjusted_percentage,
        assigned_imps,
        assigned_matchpoints,
        board_a_match,
        butler_imps,
        cross_imps,
        imps,
        matchpoints,
    )
    from bridgescore.core import (
        Contract,
        Doubling,
        Seat,
        Side,
        Strain,
        Vulnerability,
        dealer_of_board,
    )
    from bridgescore.ddtable import DDTable
    from bridgescore.deal import Card, Deal, Hand, random_deal, random_deals
    from bridgescore.dealer.dealing import deal_many
    from bridgescore.errors import (
        ArgumentTypeError,
        BinaryInputError,
        BridgeError,
        ComparisonError,
        ConditionError,
        EmptyInputError,
        IllegalCallError,
        IllegalPlayError,
        InputFileError,
        InvalidArgumentError,
        InvalidDealError,
        InvalidTableError,
        MovementError,
        NotationError,
        PredealError,
        RecordError,
        ScoringMethodError,
        ToolError,
    )
    from bridgescore.formats.frames import records_frame
    from bridgescore.game import PlayedDeal, play_deal
    from bridgescore.movement.model import Movement
    from bridgescore.movement.vp import victory_points
    from bridgescore.notation import Result, parse_result
    from bridgescore.pads.chicago import ChicagoScore
    from bridgescore.pads.rubber import RubberScore
    from bridgescore.pararray import par_array
    from bridgescore.parscore import Par, ParContract, par
    from bridgescore.play import Play, Trick
    from bridgescore.scoring import (
        LAW_2017,
        PRE_1987,
        Rules,
        ScoreBreakdown,
        score,
        score_array,
        score_breakdown,
    )
    from bridgescore.simulation.run import simulate
    from bridgescore.solver import solve, solve_many

# The version is written once, in pyproject.toml; the installed package's metadata holds it.
# Read on first use (through __getattr__): importlib.metadata takes longer to import
# (about 25 ms) than the rest of ``import bridgescore``.
__version__: str


def _installed_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("bridgescore")
    except PackageNotFoundError:  # a source tree put on the path, never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found


# The public names are imported on first use (PEP 562), so a command or a program
# that needs only part of the package (dealing, scoring) does not pay for the
# rest (DDS, the formats, the simulation workflow) at start-up.
_PUBLIC = {
    "Auction": "auction",
    "Call": "auction",
    "ChicagoScore": "pads.chicago",
    "Award": "compare.scalar",
    "adjusted_imps": "compare.scalar",
    "adjusted_matchpoints": "compare.scalar",
    "adjusted_percentage": "compare.scalar",
    "assigned_imps": "compare.scalar",
    "assigned_matchpoints": "compare.scalar",
    "board_a_match": "compare.scalar",
    "butler_imps": "compare.scalar",
    "cross_imps": "compare.scalar",
    "imps": "compare.scalar",
    "matchpoints": "compare.scalar",
    "Contract": "core",
    "Doubling": "core",
    "Seat": "core",
    "Side": "core",
    "Strain": "core",
    "Vulnerability": "core",
    "dealer_of_board": "core",
    "DDTable": "ddtable",
    "Card": "deal",
    "Deal": "deal",
    "Hand": "deal",
    "random_deal": "deal",
    "random_deals": "deal",
    "deal_many": "dealer.dealing",
    "ArgumentTypeError": "errors",
    "BinaryInputError": "errors",
    "BridgeError": "errors",
    "ComparisonError": "errors",
    "ConditionError": "errors",
    "EmptyInputError": "errors",
    "IllegalCallError": "errors",
    "IllegalPlayError": "errors",
    "InputFileError": "errors",
    "InvalidArgumentError": "errors",
    "InvalidDealError": "errors",
    "InvalidTableError": "errors",
    "MovementError": "errors",
    "NotationError": "errors",
    "PredealError": "errors",
    "RecordError": "errors",
    "ScoringMethodError": "errors",
    "ToolError": "errors",
    "records_frame": "formats.frames",
    "PlayedDeal": "game",
    "play_deal": "game",
    "Movement": "movement.model",
    "victory_points": "movement.vp",
    "Result": "notation",
    "parse_result": "notation",
    "Par": "parscore",
    "ParContract": "parscore",
    "par": "parscore",
    "par_array": "pararray",
    "Play": "play",
    "Trick": "play",
    "RubberScore": "pads.rubber",
    "LAW_2017": "scoring",
    "PRE_1987": "scoring",
    "Rules": "scoring",
    "ScoreBreakdown": "scoring",
    "score": "scoring",
    "score_array": "scoring",
    "score_breakdown": "scoring",
    "simulate": "simulation.run",
    "solve": "solver",
    "solve_many": "solver",
}


def __getattr__(name: str) -> _typing.Any:
    if name == "__version__":
        return _installed_version()
    module = _PUBLIC.get(name)
    if module is None:
        # A module of the package (bs.formats.read_records) is imported on first use,
        # as the public names are: a new user need not know to import it first.
        public = name.isidentifier() and not name.startswith("_")
        if public and _find_spec(f"bridgescore.{name}") is not None:
            return _import_module(f"bridgescore.{name}")
        raise AttributeError(f"module 'bridgescore' has no attribute {name!r}")
    value = getattr(_import_module(f"bridgescore.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (``__all__``), loaded or not; the helpers here stay out of sight."""
    return sorted(__all__)


__all__ = [
    "LAW_2017",
    "PRE_1987",
    "ArgumentTypeError",
    "Auction",
    "Award",
    "BinaryInputError",
    "BridgeError",
    "Call",
    "Card",
    "ChicagoScore",
    "ComparisonError",
    "ConditionError",
    "Contract",
    "DDTable",
    "Deal",
    "Doubling",
    "EmptyInputError",
    "Hand",
    "IllegalCallError",
    "IllegalPlayError",
    "InputFileError",
    "InvalidArgumentError",
    "InvalidDealError",
    "InvalidTableError",
    "Movement",
    "MovementError",
    "NotationError",
    "Par",
    "ParContract",
    "Play",
    "PlayedDeal",
    "PredealError",
    "RecordError",
    "Result",
    "RubberScore",
    "Rules",
    "ScoreBreakdown",
    "ScoringMethodError",
    "Seat",
    "Side",
    "Strain",
    "ToolError",
    "Trick",
    "Vulnerability",
    "__version__",
    "adjusted_imps",
    "adjusted_matchpoints",
    "adjusted_percentage",
    "assigned_imps",
    "assigned_matchpoints",
    "board_a_match",
    "butler_imps",
    "cross_imps",
    "deal_many",
    "dealer_of_board",
    "imps",
    "matchpoints",
    "par",
    "par_array",
    "parse_result",
    "play_deal",
    "random_deal",
    "random_deals",
    "records_frame",
    "score",
    "score_array",
    "score_breakdown",
    "simulate",
    "solve",
    "solve_many",
    "victory_points",
]
