"""One rule for numbers in the command line's text output (issue 23).

Points are written as players write them, with no thousands separator (1660, -2220,
+2980); counts of deals or boards get a comma every three digits (10,240 deals).
Seeds are identifiers to copy back into a command: plain. Each expected value below
is Law 77's (docs/rules.md §1) or a count written into the test.
"""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.cli.simulate import format_report

runner = CliRunner()


def test_score_points_have_no_separator() -> None:
    # 6NTXX= not vulnerable: 2 x 2 x 190 = 760 trick score, 300 game, 500 slam, 100
    # for the redoubled make: 1660.
    shown = runner.invoke(app, ["score", "6NTXX="]).stdout.splitlines()
    assert shown[0] == "6NTXX= not vulnerable: +1660"
    assert shown[-1].split() == ["total", "1660"]
    # 7NTXX= vulnerable: 4 x 220 = 880, 500 game, 1500 grand slam, 100: 2980.
    table = runner.invoke(app, ["score", "--table", "--vul"]).stdout.splitlines()
    assert table[-1].split()[-1] == "2980"
    assert "," not in "".join(table[1:])


def test_par_points_have_no_separator() -> None:
    # NS take all 13 tricks in spades and diamonds, none in NT, hearts or clubs (N, S,
    # E, W, each NT S H D C); EW all 13 in hearts and clubs. 7S= by NS vulnerable: 210
    # + 500 game + 1500 grand slam = 2210; EW's 7H is outranked, and 7NT takes nothing.
    solid_dd = "0d0d00d0d000d0d00d0d"
    result = runner.invoke(app, ["par", solid_dd, "--vul", "NS"])
    assert result.stdout.startswith("NS +2210: 7S= NS")


def _simulation(deals: int, lead_deals: int, par_counts: dict[str, int]) -> dict[str, Any]:
    return {
        "deals": deals,
        "interrupted": False,
        "contracts": [
            {
                "contract": "4S",
                "declarer": "N",
                "make": 0.5,
                "make_se": 0.01,
                "mean_tricks": 10.0,
                "mean_tricks_se": 0.02,
                "mean_score": 1430.0,
                "mean_score_se": 12.0,
                "tricks": [0] * 14,
            }
        ],
        "leads": [
            {
                "leader": "E",
                "contract": "4S",
                "declarer": "N",
                "cards": [
                    {
                        "cards": "SA",
                        "mean_tricks": 3.0,
                        "mean_tricks_se": 0.1,
                        "beat": 0.5,
                        "beat_se": 0.01,
                        "deals": lead_deals,
                    }
                ],
            }
        ],
        "par": {"mean": 1200.0, "mean_se": 3.0, "scores": par_counts},
    }


def test_simulate_counts_have_separators_and_points_do_not() -> None:
    text = format_report(_simulation(12345, 2345, {"1430": 1234, "-2220": 5}))
    lines = text.splitlines()
    assert lines[0] == "12,345 deals"
    assert "1430 ±12" in text  # a mean score: points
    assert "(2,345 deals)" in text  # a count of deals
    assert lines[-1] == "par (NS's view): mean +1200 ±3; most often +1430 (1,234), -2220 (5)"
