# The two commands of the fresh-machine contract: `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

.PHONY: run test build install engine clean bench-proxy bench-ingest browser-app console-app chromium jq

node_modules/.install-stamp: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

# tsc runs only when a source file, the config or the dependencies changed since the last build
# (`make run` on an unchanged tree starts at once); tsc itself is incremental when it does run.
TS_SOURCES := $(shell find lib spec bench conformance -name '*.ts' -not -path 'spec/browser/app/*' 2>/dev/null)

dist/.build-stamp: $(TS_SOURCES) tsconfig.json node_modules/.install-stamp
	node_modules/.bin/tsc -p tsconfig.json
	@touch $@

build: install console-app dist/.build-stamp

# The console the gateway serves at /_console: its own dependencies, built by Vite into console/dist.
CONSOLE := console

$(CONSOLE)/node_modules/.install-stamp: $(CONSOLE)/package.json $(CONSOLE)/package-lock.json
	$(NPM) --prefix $(CONSOLE) ci --no-audit --no-fund
	@touch $@

$(CONSOLE)/dist/index.html: $(CONSOLE)/node_modules/.install-stamp $(CONSOLE)/index.html $(CONSOLE)/vite.config.js $(wildcard $(CONSOLE)/src/*)
	$(NPM) --prefix $(CONSOLE) run build

console-app: $(CONSOLE)/dist/index.html

run: build
	node dist/lib/main.js

engine: build
	node dist/lib/engine/embedded/standalone.js

# The ReactiveSearch UI app that spec/browser drives in Chromium: its own dependencies, built by Vite.
BROWSER_APP := spec/browser/app
CHROMIUM := /usr/bin/chromium

$(BROWSER_APP)/node_modules/.install-stamp: $(BROWSER_APP)/package.json $(BROWSER_APP)/package-lock.json
	$(NPM) --prefix $(BROWSER_APP) ci --no-audit --no-fund
	@touch $@

$(BROWSER_APP)/dist/index.html: $(BROWSER_APP)/node_modules/.install-stamp $(BROWSER_APP)/index.html $(BROWSER_APP)/vite.config.js $(wildcard $(BROWSER_APP)/src/*)
	$(NPM) --prefix $(BROWSER_APP) run build

browser-app: $(BROWSER_APP)/dist/index.html

# Debian's Chromium for spec/browser (a browser build downloaded by Playwright can't be had here).
# Without root the spec itself says how to install it.
chromium:
	@if [ -x "$(CHROMIUM)" ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y chromium; \
	else \
	  echo "warning: $(CHROMIUM) is missing: install it as root with 'apt-get install -y chromium'; the browser spec fails without it" >&2; \
	fi

# jq for the examples spec/docs runs (README.md and docs/ use it); installed as chromium is.
jq:
	@if command -v jq >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y jq; \
	else \
	  echo "warning: jq is missing: install it as root with 'apt-get install -y jq'; the docs examples spec fails without it" >&2; \
	fi

test: build browser-app chromium jq
	bash spec/support/run-tests.sh

clean:
	rm -rf dist $(BROWSER_APP)/dist $(CONSOLE)/dist
