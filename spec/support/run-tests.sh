#!/usr/bin/env bash
# Runs every test; mocha's reporter prints the closing "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/../.."
if ! command -v redis-server >/dev/null 2>&1; then
  msg="redis-server is not installed: install it with 'apt-get install -y redis-server' (the tests start their own on a free port)"
  if [ "${CI:-}" = "true" ]; then echo "$msg" >&2; exit 1; fi
  echo "warning: $msg; tests that need Redis will fail" >&2
fi
exec node_modules/.bin/mocha "$@"
