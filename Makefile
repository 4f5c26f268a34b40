# The two commands of the fresh-machine contract: `make run` and `make test`.
SHELL := /bin/bash
NPM ?= npm

# The independent steps of a build (the three npm installs, then tsc and the two Vite builds, and
# the system tools) run side by side; `make -j1 test` runs them one at a time.
MAKEFLAGS += --jobs=4

.PHONY: run test test-unit typecheck typecheck-started build install engine clean bench-proxy bench-ingest browser-app console-app chromium jq system-tools

# The lockfiles pin every version and its integrity, and leave out the tarballs' URLs: npm reads
# each package's metadata to find them. --prefer-offline takes that metadata from npm's cache
# without asking the registry again (about a thousand requests over the three installs; the root's
# took 28-30 s of user CPU instead of 37-44 on this shared machine); the registry is asked for what
# the cache lacks. Should the cached metadata not know a version a lockfile names, the first try fails:
# the second asks the registry for everything.
NPM_FLAGS := --no-audit --no-fund --prefer-offline

# package.json's allowScripts turns off the install scripts of cpu-features and ssh2 (testcontainers'
# SSH client, for Docker over SSH, which spec/engines does not use): they compile native add-ons
# with node-gyp that nothing here loads (ssh2 falls back to Node's crypto), about 16 s of CPU on a
# fresh clone's critical path.
node_modules/.install-stamp: package.json package-lock.json
	$(NPM) install $(NPM_FLAGS) || $(NPM) install --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

# The build transpiles each TypeScript file to dist/ with esbuild (about a second for the whole
# tree; `isolatedModules` holds, so a file compiles on its own) when a source file, the config or
# the dependencies changed since the last build (`make run` on an unchanged tree starts at once).
# The gateway and the standalone engine are also bundled, one file each, into dist/bundle/ (a few
# seconds): the processes the specs spawn load those (spec/support/bundle.mjs); `make run` runs dist/lib.
# Beside them, uap-core's regexes.yaml as JSON for the user_agent ingest processor (spec/support/uap-regexes.mjs).
# Types are checked by tsc: `make typecheck`, and spec/layers/typecheck.spec.ts in `make test`,
# where it runs beside the other specs instead of before them.
TS_SOURCES := $(shell find lib spec bench conformance -name '*.ts' -not -path 'spec/browser/app/*' 2>/dev/null)

dist/.build-stamp: $(TS_SOURCES) tsconfig.json node_modules/.install-stamp
	@echo "esbuild: $(words $(TS_SOURCES)) files to dist/"
	@node_modules/.bin/esbuild $(TS_SOURCES) --outdir=dist --outbase=. --format=esm --platform=node --target=node20 --sourcemap --log-level=warning
	@node spec/support/bundle.mjs & node spec/support/uap-regexes.mjs & wait -n && wait -n
	@touch $@

typecheck: install
	node_modules/.bin/tsc -p tsconfig.json --noEmit

# The type check of `make test` (a minute of one core's time) starts as soon as the root's
# dependencies are in, and runs in the background beside the rest of the build (the console's and
# the browser app's installs and Vite builds, which leave a core idle at times) and the first
# specs; its output, then its exit code (`code`, renamed into place when tsc ends) land in
# $(TYPECHECK_RESULT), which spec/layers/typecheck.spec.ts waits for. A directory of its own for
# each `make`: a tsc left running by an interrupted run cannot write its verdict into this one's.
TYPECHECK_RESULT := dist/.typecheck/$(shell date +%s.%N)

typecheck-started: install
	@rm -rf dist/.typecheck && mkdir -p $(TYPECHECK_RESULT)
	@( node_modules/.bin/tsc -p tsconfig.json --noEmit --incremental false > $(TYPECHECK_RESULT)/output 2>&1; \
	  echo $$? > $(TYPECHECK_RESULT)/code.part && mv $(TYPECHECK_RESULT)/code.part $(TYPECHECK_RESULT)/code ) </dev/null >/dev/null 2>&1 &

build: install console-app dist/.build-stamp

# The console the gateway serves at /_console: its own dependencies, built by Vite into console/dist.
CONSOLE := console

$(CONSOLE)/node_modules/.install-stamp: $(CONSOLE)/package.json $(CONSOLE)/package-lock.json
	$(NPM) --prefix $(CONSOLE) ci $(NPM_FLAGS) || $(NPM) --prefix $(CONSOLE) ci --no-audit --no-fund
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
# Chromium's old headless mode, a package of its own: the browser specs drive it (the same Blink,
# without the full browser's compositor and GPU process), about a third of the CPU the full
# Chromium costs them (console-curation: 20 s against 55 s); /usr/bin/chromium is the fallback.
HEADLESS_SHELL := /usr/bin/chromium-headless-shell

$(BROWSER_APP)/node_modules/.install-stamp: $(BROWSER_APP)/package.json $(BROWSER_APP)/package-lock.json
	$(NPM) --prefix $(BROWSER_APP) ci $(NPM_FLAGS) || $(NPM) --prefix $(BROWSER_APP) ci --no-audit --no-fund
	@touch $@

$(BROWSER_APP)/dist/index.html: $(BROWSER_APP)/node_modules/.install-stamp $(BROWSER_APP)/index.html $(BROWSER_APP)/vite.config.js $(wildcard $(BROWSER_APP)/src/*)
	$(NPM) --prefix $(BROWSER_APP) run build

browser-app: $(BROWSER_APP)/dist/index.html

# System tools the specs need: Debian's Chromium and its headless shell for spec/browser (a browser
# build downloaded by Playwright can't be had here) and jq for the examples spec/docs runs (README.md and docs/ use it).
# One apt-get for both (two would race for dpkg's lock). Without root it says how to install them.
system-tools:
	@missing=""; \
	[ -x "$(CHROMIUM)" ] || missing="$$missing chromium"; \
	[ -x "$(HEADLESS_SHELL)" ] || missing="$$missing chromium-headless-shell"; \
	command -v jq >/dev/null || missing="$$missing jq"; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y $$missing; \
	else \
	  echo "warning:$$missing missing: install as root with 'apt-get install -y$$missing'; spec/browser needs chromium, spec/docs needs jq" >&2; \
	fi

chromium jq: system-tools

# Every spec, in parallel workers (.mocharc.cjs); the last line is "N passed, N failed".
test: build browser-app system-tools typecheck-started
	TYPECHECK_RESULT=$(TYPECHECK_RESULT) bash spec/support/run-tests.sh

# The unit specs only (no servers, processes or files): seconds.
test-unit: install dist/.build-stamp
	SPEC=unit node_modules/.bin/mocha

clean:
	rm -rf dist $(BROWSER_APP)/dist $(CONSOLE)/dist
