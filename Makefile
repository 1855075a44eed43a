# pagechat — `make run` serves the reference app, `make test` runs every test.
# Each target sets up what it needs: the virtualenv, Python and npm packages, Chromium.

PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
HOST    ?= 127.0.0.1
PORT    ?= 8000
APP     ?= horizon.app:create_app
SHARED  ?= ../shared

WEB_SOURCES := $(shell find web/src web/packages/react/src web/packages/react/package.json web/index.html web/vite.config.ts web/tsconfig*.json web/packages/react/tsconfig*.json -type f 2>/dev/null)

.PHONY: run test lint docs test-py test-web bench setup web wheels chromium system-packages clean

# --- set-up --------------------------------------------------------------------

# pagechat (the framework) and horizon (the reference app) are two distributions; both
# are installed from this checkout, editable.
$(BIN)/.installed: pyproject.toml apps/horizon/pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet -c requirements.lock -e '.[dev]' -e apps/horizon
	touch $@

setup: $(BIN)/.installed

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web/dist/index.html: web/node_modules/.installed $(WEB_SOURCES)
	cd web && npm run build

# The wheel carries the built UI as package data (pagechat/web), and `pagechat serve`
# serves it from there whatever the working directory.
src/pagechat/web/index.html: web/dist/index.html
	rm -rf src/pagechat/web
	cp -r web/dist src/pagechat/web

web: src/pagechat/web/index.html

# Both wheels, into dist/: pagechat's with the UI in it, horizon's beside it.
wheels: setup web
	rm -rf dist
	$(BIN)/pip wheel --quiet --no-deps --no-build-isolation -w dist . apps/horizon

# Debian's packages the tests start for real: Chromium for the browser tests
# (playwright-core never downloads one), redis-server for the shared run log,
# nginx as the load balancer in front of several workers.
SYSTEM_PACKAGES := chromium:chromium redis-server:redis-server nginx:nginx

system-packages:
	@missing=""; for pair in $(SYSTEM_PACKAGES); do \
	  command -v $${pair%%:*} >/dev/null || [ -x /usr/sbin/$${pair%%:*} ] || missing="$$missing $${pair##*:}"; \
	done; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

chromium: system-packages

# --- run -------------------------------------------------------------------------

run: setup web
	$(BIN)/pagechat db upgrade --app $(APP)
	$(BIN)/pagechat users ensure-demo --app $(APP)
	$(BIN)/horizon setup --shared $(SHARED)
	$(BIN)/pagechat serve --app $(APP) --host $(HOST) --port $(PORT)

# --- test ------------------------------------------------------------------------

lint: setup
	$(BIN)/ruff check src apps tests bench web/e2e examples
	$(BIN)/ruff format --check src apps tests bench web/e2e examples
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

test-py: setup web system-packages
	$(BIN)/pytest -q

test-web: setup web/node_modules/.installed chromium
	cd web && npm run check:types
	cd web && npm run check:horizon-types
	cd web && npm run check:payload-types
	cd web && npm run typecheck
	cd web && npm run lint
	cd web && npm test
	cd web && npm run build
	cd web && npm run build:example
	cd web && npm run build -w pagechat-example-ai-sdk
	cd web && npm run e2e

# The documentation site (MkDocs Material, API reference from the docstrings); --strict
# fails on a broken link or a reference to a name that is not there.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

test: lint docs test-py test-web

# --- measure -----------------------------------------------------------------

bench: setup web chromium
	$(BIN)/python bench/relay.py
	$(BIN)/python bench/relay_cpu.py
	$(BIN)/python bench/provider_stream.py
	$(BIN)/python bench/cancel.py
	$(BIN)/python bench/cancel_workers.py
	$(BIN)/python bench/loop_lag.py
	$(BIN)/python bench/conversation_load.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/scale.py
	cd web && npm run bench

clean:
	rm -rf $(VENV) dist site src/pagechat/web web/node_modules web/dist web/packages/react/dist web/examples/minimal/dist web/examples/ai-sdk/dist .pytest_cache .mypy_cache .ruff_cache
