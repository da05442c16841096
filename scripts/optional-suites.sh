#!/usr/bin/env bash
# Says which of the test suites that need something beside Go will run, and
# how to run the others. CI (.ci/run) installs everything, so all run there.
cd "$(dirname "$0")/.."
say() { printf '%-34s %s\n' "$1" "$2"; }
if [ -n "${ENTRYCHECK_TEST_POSTGRES_URL:-}" ]; then
  say "PostgreSQL variants:" "run (ENTRYCHECK_TEST_POSTGRES_URL)"
else
  say "PostgreSQL variants:" "SKIPPED: export ENTRYCHECK_TEST_POSTGRES_URL=\$(bash .ci/postgres.sh)"
fi
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; then
  say "browser tests (chromium):" "run"
else
  say "browser tests (chromium):" "SKIPPED: apt-get install chromium"
fi
# The JavaScript peers of e2e/, each installed exactly as locked.
for suite in "x402-client:x402 JavaScript client test:" "a2a-client:A2A JavaScript SDK 0.3.x test:" "a2a-client-v1:A2A JavaScript SDK 1.x test:" "ap2-mandates:AP2 mandates and receipt schemas:" "mcp-client:MCP TypeScript SDK and Inspector:" "openapi-lint:OpenAPI lint (Redocly):"; do
  IFS=: read -r dir name _ <<<"$suite"
  if command -v node >/dev/null 2>&1 && [ -d "e2e/$dir/node_modules" ]; then
    say "$name:" "run"
  else
    say "$name:" "SKIPPED: install Node.js and npm, then (cd e2e/$dir && npm ci --ignore-scripts)"
  fi
done
if [ -n "${CI:-}" ]; then
  say "" "(CI=true: a suite that cannot run fails instead of skipping)"
fi
