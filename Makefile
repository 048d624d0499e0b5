# Each target makes .venv when it is missing, so a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 5000
# HTTPS beside PORT's HTTP: auto (on, unless HOST is loopback or TRUSTED_PROXIES is set), 1 or 0.
HTTPS  ?= auto
HTTPS_PORT ?= 5443

.PHONY: run test test-postgres lint bench init-db clean translations

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

# axe-core for the accessibility tests and ESLint for `make lint`, from the npm registry at the
# locked versions (tests/package-lock.json). Without npm those tests skip (and say why) and
# `make lint` stops, except in CI, where a missing npm fails here.
tests/node_modules/.installed: tests/package.json tests/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix tests --no-audit --no-fund && touch $@; \
	elif [ "$$CI" = "true" ]; then \
		echo "npm is missing: .ci/run must install it (apt-get install npm)" >&2; exit 1; \
	else \
		echo "npm is missing: the accessibility tests will be skipped (apt-get install npm)"; \
	fi

run: $(VENV)/.installed
	$(BIN)/python -m scorekeeper.serve --host $(HOST) --port $(PORT) --https $(HTTPS) --https-port $(HTTPS_PORT)

# One test process more than the machine has cores (pytest-xdist): while one waits on its browser,
# a server's start or stop or pip, the others keep the cores busy (on 2 cores, 3 processes finish
# the SQLite pass in 478-493 s where 2 took 523-550 s and 4 547 s; bench/README.md). A module
# whose tests share a server or a built wheel is kept on one process (xdist_group). --durations
# shows where the time goes. Python keeps its bytecode during the run even where the machine sets
# PYTHONDONTWRITEBYTECODE: without it each test process rewrites every test module's asserts again
# (13 s of CPU, where 4 s reads them back) and each server process a test starts compiles the app
# again.
TEST_PROCESSES ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
PYTEST := env PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist loadgroup --durations=15

test: $(VENV)/.installed-test tests/node_modules/.installed
	$(PYTEST)

# The same suite on a throwaway PostgreSQL cluster (needs Debian's postgresql installed).
test-postgres: $(VENV)/.installed-test tests/node_modules/.installed
	bash .ci/postgres $(PYTEST)

ESLINT := tests/node_modules/.bin/eslint

lint: $(VENV)/.installed-test tests/node_modules/.installed
	$(BIN)/ruff check scorekeeper tests bench tools
	$(BIN)/ruff format --check scorekeeper tests bench tools
	$(BIN)/xenon --max-absolute C scorekeeper
	@test -x $(ESLINT) || { echo "ESLint is missing: install npm (apt-get install npm)" >&2; exit 1; }
	$(ESLINT) --config tests/eslint.config.mjs static

# The catalogs (docs/development.md, "Languages"): messages.pot extracted from the code, the
# templates and the engine's words (babel.cfg), each language's messages.po brought up to it,
# and each compiled to the messages.mo the app reads (kept in the repository, so a fresh clone
# and the wheel need no step of their own).
CATALOGS := scorekeeper/translations
PYBABEL := $(BIN)/python -m babel.messages.frontend
translations: $(VENV)/.installed
	$(PYBABEL) extract -F babel.cfg -k _l -k lazy_gettext --no-location --sort-output \
		--project "Liverpool Scorekeeper" --copyright-holder "Liverpool Scorekeeper" \
		-o $(CATALOGS)/messages.pot .
	$(BIN)/python tools/catalogs.py

bench: $(VENV)/.installed-test
	$(BIN)/python -m bench

init-db: $(VENV)/.installed
	$(BIN)/flask --app scorekeeper init-db

clean:
	rm -rf $(VENV) build *.egg-info tests/node_modules
