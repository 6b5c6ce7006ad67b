# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
HOST   ?=# empty: the LAN (0.0.0.0); this machine alone when SCOREKEEPER_PROXIES is set
APP    := scorekeeper:create_app()

.PHONY: run test lint format migrate catalogues translations bench screenshots lighthouse icons clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[postgres]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.run-installed

migrate: $(VENV)/.run-installed
	$(BIN)/flask --app '$(APP)' db upgrade

# The compiled catalogues (.mo) the app reads, from the committed .po files (never committed).
catalogues: $(VENV)/.run-installed
	$(BIN)/python -m scorekeeper.catalogues compile

# After changing a message in the code: extract them all again (messages.pot) and bring
# each language's .po in step (new messages empty, changed ones marked fuzzy), for the
# translators (docs/languages.md).
translations: $(VENV)/.dev-installed
	$(BIN)/python -m scorekeeper.catalogues update

run: migrate catalogues
	@$(BIN)/python -m scorekeeper.lan $(PORT)
	HOST=$(HOST) PORT=$(PORT) $(BIN)/gunicorn --config gunicorn.conf.py '$(APP)'

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.dev-installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The tests' files (a few thousand SQLite databases, each committed to many times) in
# memory where the system has a tmpfs: the same tests, without waiting on the disk.
TEST_TMP := $(if $(wildcard /dev/shm/.),--basetemp=/dev/shm/scorekeeper-tests-$(shell id -u),)

test: lint catalogues
	$(BIN)/python -m pytest $(TEST_TMP)

# Engine speed, req/s under load as ratios to bare Flask (needs wrk), flat cost as data
# grows, the tables a club night holds, a tournament round of 60 tables, the ratings of a
# large club. BENCH_ARGS=--quick runs a short version of the last five (CI does).
bench: $(VENV)/.dev-installed
	$(BIN)/python bench/scoring.py
	$(BIN)/python bench/load.py $(BENCH_ARGS)
	$(BIN)/python bench/scaling.py $(BENCH_ARGS)
	$(BIN)/python bench/club_night.py $(BENCH_ARGS)
	$(BIN)/python bench/event_night.py $(BENCH_ARGS)
	$(BIN)/python bench/ratings.py $(BENCH_ARGS)

# Phone screenshots of the main pages for the README (needs Chromium, as `make test`).
screenshots: $(VENV)/.dev-installed
	SCOREKEEPER_SCREENSHOTS=tests/e2e/screenshots $(BIN)/python -m pytest tests/e2e -q -k screenshots

# Lighthouse (npm package, run on Debian's Chromium) on the main pages, mobile profile.
# LIGHTHOUSE_ARGS: e.g. --min 95 --min-performance 80 (the floors below which it fails).
LIGHTHOUSE_ARGS ?=
lighthouse: $(VENV)/.dev-installed
	bench/lighthouse $(LIGHTHOUSE_ARGS)

icons: $(VENV)/.dev-installed
	$(BIN)/python -m scorekeeper.icons static/icons

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
