#!/usr/bin/env bash
# Writes the OpenAPI documents from the route contracts (no running service): the local service's and
# the team service's, and lints both with Redocly and with Spectral's OWASP ruleset (.spectral.yaml,
# redocly.yaml). Both must be clean.
set -euo pipefail
cd "$(dirname "$0")/.."
# Offline: no telemetry, no update checks.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_SUPPRESS_NOTIFICATIONS=true DO_NOT_TRACK=1
# Both named openapi.json: .spectral.yaml's overrides name a path in either document by that file name.
documents=(dist/openapi.json dist/team/openapi.json)
node --import tsx scripts/write-openapi.ts "${documents[@]}"
timeout 300 node_modules/.bin/redocly lint --config redocly.yaml "${documents[@]}"
timeout 300 node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity=hint "${documents[@]}"
