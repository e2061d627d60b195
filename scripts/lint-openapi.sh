#!/usr/bin/env bash
# Writes the OpenAPI document from the route contracts (no running service) and lints it with Redocly
# and with Spectral's OWASP ruleset (.spectral.yaml, redocly.yaml). Both must be clean.
set -euo pipefail
cd "$(dirname "$0")/.."
# Offline: no telemetry, no update checks.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_SUPPRESS_NOTIFICATIONS=true DO_NOT_TRACK=1
document=dist/openapi.json
node --import tsx scripts/write-openapi.ts "$document"
timeout 300 node_modules/.bin/redocly lint --config redocly.yaml "$document"
timeout 300 node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity=hint "$document"
