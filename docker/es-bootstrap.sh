#!/usr/bin/env bash
# Gives the gateway its own Elasticsearch user, so ENGINE_URL never carries the superuser's password.
# Run once by compose (es-bootstrap) after Elasticsearch is healthy; idempotent (PUT creates or updates).
# The role: every cluster operation except security (`manage`), every non-system index.
set -euo pipefail
es="${ES_URL:-http://elasticsearch:9200}"

call() { # method path body
  curl -fsS -u "elastic:${ELASTIC_PASSWORD}" -X "$1" "$es$2" -H 'Content-Type: application/json' -d "$3"
  echo
}

call PUT /_security/role/search_gateway '{
  "cluster": ["manage"],
  "indices": [{ "names": ["*"], "privileges": ["all"], "allow_restricted_indices": false }]
}'
call PUT "/_security/user/${GATEWAY_ENGINE_USER}" "{
  \"password\": \"${GATEWAY_ENGINE_PASSWORD}\",
  \"roles\": [\"search_gateway\"],
  \"full_name\": \"search gateway\"
}"
echo "es-bootstrap: user ${GATEWAY_ENGINE_USER} (role search_gateway) is ready"
