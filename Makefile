# pagechat — `make run` serves the reference app, `make test` runs every test.
# Each target sets up what it needs (virtualenv, Python and npm packages, Chromium).

PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
HOST    ?= 127.0.0.1
PORT    ?= 8000

.PHONY: run test test-py test-web lint bench setup web clean

$(BIN)/.installed: pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet -c requirements.lock -e '.[dev]'
	touch $@

setup: $(BIN)/.installed

run: setup
	$(BIN)/pagechat serve --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test-py: setup
	$(BIN)/pytest -q

test: lint test-py

bench: setup
	$(BIN)/python bench/relay.py

clean:
	rm -rf $(VENV) web/node_modules web/dist .pytest_cache .mypy_cache .ruff_cache
