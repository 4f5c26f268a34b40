# The two commands of the fresh-machine contract: `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

.PHONY: run test build install engine clean bench-proxy bench-ingest

node_modules/.install-stamp: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

build: install
	node_modules/.bin/tsc -p tsconfig.json

run: build
	node dist/lib/main.js

engine: build
	node dist/lib/engine/embedded/standalone.js

test: build
	bash spec/support/run-tests.sh

clean:
	rm -rf dist
