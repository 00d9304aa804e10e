"""``bridgescore deal`` with conditions and predeals: the same deals as the library."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.core import Seat
from bridgescore.deal import Deal
from bridgescore.dealer.dealing import deal_many

runner = CliRunner()
WHERE = "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)"


def test_deal_where_prints_pbn_lines_equal_to_deal_many() -> None:
    result = runner.invoke(app, ["deal", "--count", "25", "--seed", "6", "--where", WHERE])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines == [d.to_pbn() for d in deal_many(25, seed=6, where=WHERE)]
    for line in lines:
        north = Deal.from_pbn(line)[Seat.NORTH]
        assert 15 <= north.hcp <= 17


def test_predeal_and_json_format() -> None:
    args = ["deal", "-n", "3", "--seed", "2", "--predeal", "S=AQ542.KJ87.32.AK"]
    args += ["--predeal", "N=..AKQ.", "--where", "hcp(west) >= 11", "--format", "json"]
    data = json.loads(runner.invoke(app, args).stdout)
    assert data["seed"] == 2 and data["where"] == "hcp(west) >= 11"
    assert data["predeal"] == ["S=AQ542.KJ87.32.AK", "N=..AKQ."]
    assert [d["number"] for d in data["deals"]] == [1, 2, 3]
    for record in data["deals"]:
        assert record["hands"]["S"]["hand"] == "AQ542.KJ87.32.AK"
        assert record["hands"]["W"]["hcp"] >= 11
        assert "AKQ" in record["hands"]["N"]["hand"].split(".")[2]
    library = deal_many(
        3, seed=2, where="hcp(west) >= 11", predeal=["S=AQ542.KJ87.32.AK", "N=..AKQ."]
    )
    assert [d["deal"] for d in data["deals"]] == [d.to_pbn() for d in library]


def test_processes_give_the_same_deals(tmp_path: object) -> None:
    one = runner.invoke(app, ["deal", "-n", "12005", "--seed", "3", "--where", "hcp(east) > 9"])
    two = runner.invoke(
        app, ["deal", "-n", "12005", "--seed", "3", "--where", "hcp(east) > 9", "--processes", "2"]
    )
    assert one.exit_code == 0 and two.exit_code == 0
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) == 12005


def test_bad_condition_and_predeal_are_clear_errors() -> None:
    bad = runner.invoke(app, ["deal", "--seed", "1", "--where", "hcp(nrth) > 3"])
    assert bad.exit_code == 1
    assert "'nrth': is not a seat" in bad.stderr and "^^^^" in bad.stderr
    assert "Traceback" not in bad.output
    worse = runner.invoke(app, ["deal", "--seed", "1", "--predeal", "N=AK.."])
    assert worse.exit_code == 1 and "has 3 suit(s)" in worse.stderr


def test_plain_deal_is_the_stream_of_simulate_and_deal_many() -> None:
    # No condition deals the same hands as the trivially true one, and as the library.
    plain = runner.invoke(app, ["deal", "--count", "3", "--seed", "1"]).stdout.splitlines()
    where = runner.invoke(app, ["deal", "-n", "3", "--seed", "1", "--where", "1"]).stdout
    assert plain == where.splitlines()
    assert plain == [deal.to_pbn() for deal in deal_many(3, seed=1)]


def _run_main(*arguments: str) -> subprocess.CompletedProcess[str]:
    # The installed entry point's code path: bridgescore.cli.main in a fresh interpreter,
    # then the bridgescore modules it imported (printed at exit).
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(' '.join(sorted(m for m in sys.modules "
        "if m.startswith('bridgescore'))), file=sys.stderr))\n"
        "from bridgescore.cli import main\n"
        "sys.argv[0] = 'bridgescore'\n"
        "main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=False
    )


def test_deal_starts_without_the_modules_it_does_not_use() -> None:
    done = _run_main("deal", "--count", "3", "--seed", "6", "--where", WHERE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [d.to_pbn() for d in deal_many(3, seed=6, where=WHERE)]
    loaded = set(done.stderr.split())
    assert "bridgescore.dealer.dealing" in loaded
    for heavy in (
        "bridgescore.solver",
        "bridgescore.formats",
        "bridgescore.simulation",
        "bridgescore.boardset",
        "bridgescore.web",
        "bridgescore.cli.solve",
        "bridgescore.scoring",  # cli/common.py (the group, errors) imports it only when used
        "bridgescore.deal",
    ):
        assert heavy not in loaded


def test_the_one_command_application_reads_as_the_whole_one() -> None:
    done = _run_main("deal", "--count", "x")
    assert done.returncode == 2
    assert "Usage: bridgescore deal [OPTIONS]" in done.stderr
    assert "Invalid value for '--count'" in done.stderr
    bad = _run_main("deal", "--where", "hcp(nrth) >= 20", "--seed", "1")
    assert bad.returncode == 1
    assert "'nrth': is not a seat" in bad.stderr
    listing = _run_main("--help")
    assert listing.returncode == 0
    assert "simulate" in listing.stdout and "session" in listing.stdout


def test_the_package_names_load_on_first_use() -> None:
    import bridgescore as bs
    import bridgescore.parscore
    import bridgescore.simulation.run

    # As when the package imported them eagerly: the names are the functions, not the
    # modules of the same name, even after those modules are imported.
    assert bs.par is sys.modules["bridgescore.parscore"].par
    assert bs.simulate is sys.modules["bridgescore.simulation.run"].simulate
    assert set(bs.__all__) <= set(dir(bs))
    assert all(getattr(bs, name) is not None for name in bs.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        bs.nonsense  # noqa: B018


def test_predeal_of_a_whole_pbn_deal() -> None:
    # Issue 46: a whole deal given to --predeal said "has 13 suit(s)".
    whole = "N:KJ52.K7.T85.AJ87 AQ7.JT86.K7.9652 T93.Q9542.AJ3.T3 864.A3.Q9642.KQ4"
    result = runner.invoke(app, ["deal", "-n", "2", "--seed", "1", "--predeal", whole])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [whole, whole]
