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
from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec
from typing import Any as _Any

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


# The public names, each with the module it lives in (or the package that offers
# it): the one list of them. It drives the lazy loading below and ``__all__``;
# the type checkers read __init__.pyi, which tests/test_public_names.py writes
# from this table (and fails while the two differ). Every name here has its line
# in docs/api.md.
#
# The names are imported on first use (PEP 562), so a command or a program that
# needs only part of the package (dealing, scoring) does not pay for the rest (DDS,
# the formats, the session workflow) at start-up: importing them all at once takes
# about 0.3 s, importing the package without them about 0.01 s.
_PUBLIC = {
    # The values: seats, strains, contracts, cards, deals, results and DD tables.
    "Contract": "core",
    "Doubling": "core",
    "Seat": "core",
    "Side": "core",
    "Strain": "core",
    "Vulnerability": "core",
    "dealer_of_board": "core",
    "Result": "notation",
    "parse_result": "notation",
    "Card": "deal",
    "Deal": "deal",
    "Hand": "deal",
    "deals_from_array": "deal",
    "random_deal": "deal",
    "random_deal_array": "deal",
    "random_deals": "deal",
    "DDTable": "ddtable",
    # Scoring, par, the auction and the play.
    "LAW_2017": "scoring",
    "PRE_1987": "scoring",
    "Rules": "scoring",
    "ScoreBreakdown": "scoring",
    "score": "scoring",
    "score_array": "scoring",
    "score_breakdown": "scoring",
    "Par": "ddtable",
    "ParContract": "ddtable",
    "par": "parscore",
    "par_array": "pararray",
    "Auction": "auction",
    "Call": "auction",
    "Play": "play",
    "Trick": "play",
    "PlayedDeal": "game",
    "play_deal": "game",
    "solve": "solver",
    "solve_many": "solver",
    # Comparing scores: matchpoints, IMPs, adjusted scores, victory points.
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
    "victory_points": "movement.vp",
    # Rubber and Chicago pads.
    "RubberEvening": "pads.rubber",
    "RubberScore": "pads.rubber",
    "ChicagoEvening": "pads.chicago",
    "ChicagoScore": "pads.chicago",
    # Dealing, simulations and par studies.
    "deal_many": "dealer.dealing",
    "simulate": "simulation.run",
    "study_frame": "study",
    # The morning after: each board against double dummy and par, each card's cost.
    "analyse": "postmortem.review",
    "BoardReview": "postmortem.review",
    "Review": "postmortem.review",
    # Files: board records in every format, PBN's games, board sets and hand records.
    "BoardRecord": "formats",
    "MatchHeader": "formats",
    "Problem": "formats",
    "check_record": "formats",
    "file_format": "formats",
    "format_records": "formats",
    "read_records": "formats",
    "Board": "board",
    "records_frame": "formats.frames",
    "format_game": "formats.pbn",
    "read_games": "formats.pbn",
    "read_pbn": "formats.pbn",
    "format_boards": "formats.boardset",
    "read_board_set": "formats.boardset",
    "DealSeed": "boardset",
    "deal_set": "boardset",
    "verify_set": "boardset",
    "hand_records_html": "boardset.handrecord",
    # Movements.
    "Movement": "movement.model",
    "mitchell": "movement.mitchell",
    "howell": "movement.howell",
    "individual": "movement.individual",
    "round_robin": "movement.teams",
    "swiss_round_movement": "movement.teams",
    "swiss_draw": "movement.swiss",
    "swiss_pairings": "movement.swiss",
    "swiss_pairs_round_movement": "movement.swiss",
    "check_movement": "movement.check",
    "movement_from_json": "movement.text",
    "movement_to_asc": "movement.text",
    "read_movement": "movement.text",
    "seat_late_pair": "movement.changes",
    "swap_seats": "movement.changes",
    # An event: scoring it, the live night, its reports.
    "Event": "session.scoring.event",
    "TableResult": "session.scoring.event",
    "ScoringMethod": "session.scoring.methods",
    "ScoringOptions": "session.scoring.methods",
    "Weighted": "session.scoring.weighted",
    "score_event": "session.scoring.scorer",
    "individual_standings": "session.scoring.individual",
    "EventStore": "session.store.events",
    "import_files": "session.importers.importer",
    "parse_records": "session.importers.records",
    "score_stored_event": "session.workflow",
    "create_event": "session.live.creation",
    "LiveEvent": "session.live.event",
    "ResultEntry": "session.live.entry",
    "add_pair_to_event": "session.live.changes",
    "swap_in_event": "session.live.changes",
    "ranking_text": "session.reports.text",
    "ranking_frame": "session.reports.frames",
    "travellers_frame": "session.reports.frames",
    "cards_html": "session.reports.cards",
    "guide_cards_html": "session.reports.cards",
    "table_cards_html": "session.reports.cards",
    "write_cards": "session.reports.cards",
    "results_site": "session.reports.site",
    "write_site": "session.reports.site",
    # Errors (bridgescore.errors holds them all).
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
}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str) -> _Any:
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
