#!/usr/bin/env bash
# Runs every test; mocha's reporter prints the closing "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/../.."
if ! command -v redis-server >/dev/null 2>&1; then
  msg="redis-server is not installed: install it with 'apt-get install -y redis-server' (the tests start their own on a free port)"
  if [ "${CI:-}" = "true" ]; then echo "$msg" >&2; exit 1; fi
  echo "warning: $msg; tests that need Redis will fail" >&2
fi
# The specs' data directories (gateways', engines', Redis's: all made under os.tmpdir()) go to a
# memory file system when there is one: every acknowledged write waits for its fsync (the store's
# group commit), which costs ~5 ms on this machine's disk and nothing on tmpfs, and the specs wait
# on thousands of them (the conformance gate ran 619 tests in 75 s with a fifth of that in CPU).
# What a spec checks of durability (a killed process restarts on what it acknowledged) holds on
# tmpfs; only a power cut would not, and no spec makes one. SPEC_TMPDIR=<dir> picks another place.
base=${SPEC_TMPDIR:-/dev/shm}
if [ -d "$base" ] && [ -w "$base" ] && run_tmp=$(mktemp -d "$base/gateway-specs.XXXXXX"); then
  export TMPDIR=$run_tmp
  trap 'rm -rf "$run_tmp"' EXIT
fi
node_modules/.bin/mocha "$@"
