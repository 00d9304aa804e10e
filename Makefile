# The two commands: `make run` and `make test`. Each builds .venv from nothing
# on a fresh clone (python3 with venv is all it needs) and reuses it after.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck bench docs dist clean chromium

# uv installs the same packages as pip in about half the time (21 s against 35 s on the
# 2-core machine, from nothing); it compiles their bytecode as pip does, since a process
# that may not write bytecode (PYTHONDONTWRITEBYTECODE, as on CI) would otherwise compile
# the libraries from source each time it starts. Where uv cannot be had, pip does it all.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	{ $(BIN)/python -m pip install --quiet uv && \
	  $(BIN)/python -m uv pip install --quiet --python $(BIN)/python --compile-bytecode \
	  -e '.[all,dev,test]'; } || \
	{ echo "uv could not install the packages; pip installs them"; \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[all,dev,test]'; }
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/bridgescore demo

# Tests run in random order (pytest-randomly) on one process per core (pytest-xdist).
# worksteal, not loadfile: each worker starts on half the tests, a module at a time, and
# one that runs out takes half of what the other has left. With loadfile a whole module
# was the unit, and xdist hands out the modules with the most tests first, so a long
# module of a few tests (a Dask cluster's, a simulation's) often came last while the
# other core sat idle. A module split by a steal builds its module fixtures twice; that
# happens a handful of times a run. docs/testing.md says what runs at which size.
#
# compileall first: where PYTHONDONTWRITEBYTECODE is set (as on the CI machines) no
# process writes bytecode, so each of the suite's few hundred processes (a command
# beside the server, a pool's worker, a Dask worker) compiled the package from source
# again: 0.7 s to import the command line and the session workflow, 0.5 s from the
# bytecode. compileall writes it once, in about a second.
#
# mypy runs on one core while the other collects the suite once with bytecode on: pytest
# rewrites each test module's asserts when it imports it, and where it may not write
# bytecode it does so in every process, every run (more than half of a worker's 8.6 s of
# collecting). The one pass keeps the rewritten modules, and each worker then collects in
# 4.0 s. The pass's own report is dropped: the run that follows reports the same.
test: $(STAMP) chromium
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/python -m compileall -q src tests > /dev/null
	$(BIN)/mypy & types=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest --collect-only -q -p no:randomly > /dev/null 2>&1; \
	wait $$types
	$(BIN)/pytest -n auto --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/scoring.py
	$(BIN)/python benchmarks/par.py
	$(BIN)/python benchmarks/study.py
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/formats.py
	$(BIN)/python benchmarks/usebio.py
	$(BIN)/python benchmarks/boards.py
	$(BIN)/python benchmarks/scorepad.py
	$(BIN)/python benchmarks/dealing.py
	$(BIN)/python benchmarks/sim.py
	$(BIN)/python benchmarks/live.py

# The browser tests drive Debian's chromium through Playwright's Python package
# (no downloaded browser). Installed once, as root or through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)
# pdftotext (poppler-utils) reads the printed PDFs (cards, reports) back in the tests;
# mdb-export (mdbtools) reads the Bridgemate database as a second, independent reader.
chromium:
	@{ test -x /usr/bin/chromium && test -x /usr/bin/pdftotext && test -x /usr/bin/mdb-export; } || \
		{ $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		$(SUDO) apt-get install -y -qq chromium poppler-utils mdbtools; } || \
		echo "warning: could not install chromium, poppler-utils and mdbtools; the browser, PDF and mdbtools tests will be skipped"

docs: $(STAMP)
	$(BIN)/python tests/cli/test_reference.py

# The sdist and the wheel built from it (so the sdist is proved to hold what a build
# needs), into dist/. tests/test_wheel.py builds them the same way, installs the wheel
# into a fresh venv and runs it there.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
