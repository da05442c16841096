#!/usr/bin/env bash
# Compares this tree with an earlier commit in one run, on the same machine
# and data: the whole site build (time and peak RSS, alternating), the
# generated files (diff -r), the answers of the API and MCP endpoints
# (recorded and diffed), and the latency of whole requests over loopback
# HTTP (scripts/reqbench, alternating rounds): GET /free/check, a paid GET
# /v1/check and a paid POST /v1/trips/evaluate of 10 legs x 3 passports,
# both servers settling with the local facilitator.
#
#   bash scripts/bench-compare.sh               # against BASE=3ab15a7
#   BASE=HEAD~5 N=1000 ROUNDS=6 bash scripts/bench-compare.sh
#
# The diffs are kept in var/bench-compare/ (site.diff, answers.diff).
# 3ab15a7 is the last commit before the shared tables, the answer text and
# the trip stages; the default compares the service with it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=${BASE:-3ab15a7}
n=${N:-500}
rounds=${ROUNDS:-4}
builds=${BUILDS:-2}
shared=$(cd "${ENTRYCHECK_SHARED:-../shared}" && pwd)
data=$shared/dataset/passport-index/2026-02-17
prev=$shared/dataset/passport-index/2025-01-12
out=$root/var/bench-compare
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  git -C "$root" worktree remove --force "$work/base-tree" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$out"
rm -rf "${out:?}"/*

if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "BASE=$base is not in this clone's history: fetch it (git fetch --unshallow) or set BASE to a commit" >&2
  exit 1
fi
git worktree add -q --detach "$work/base-tree" "$base"
echo "base $(git -C "$work/base-tree" log -1 --format='%h %s' | cut -c1-100)"
echo "head $(git log -1 --format='%h %s' | cut -c1-100)$(git diff --quiet HEAD || echo ' (with uncommitted changes)')"
(cd "$work/base-tree" && go build -o "$work/base" ./cmd/entrycheck)
go build -o "$work/head" ./cmd/entrycheck
go build -o "$work/reqbench" ./scripts/reqbench

# Builds alternate, so that a drift of the machine falls on both. Their
# wall time follows the disk's writeback as much as the build; the CPU time
# is the steadier figure.
build() { # name
  rm -rf "$work/public-$1" "$work/build-$1.db"*
  sync
  /usr/bin/time -f "$1 cold build: %e s wall, %U s user + %S s system CPU, %M KB peak RSS" "$work/$1" build --data "$data" --previous-data "$prev" \
    --geo "$shared/geo/world-atlas-2.0.2" --public "$work/public-$1" --db "$work/build-$1.db" \
    --base-url http://127.0.0.1:18100 2>&1 >/dev/null | grep 'cold build'
}
for _ in $(seq "$builds"); do build base; build head; done

# The stylesheet's name carries its hash, so a change of the CSS shows on
# every page's link; those lines are left out of the diff (the CSS itself is
# compared), as are the precompressed copies of the files compared.
files=$(find "$work/public-head" -type f | wc -l)
if diff -r -x '*.gz' -x '*.br' -I 'assets/site\.[0-9a-f]*\.css' \
    "$work/public-base" "$work/public-head" >"$out/site.diff"; then
  echo "generated files: identical ($files files, precompressed copies aside)"
else
  echo "generated files: $(grep -c '^diff -r\|^Only in' "$out/site.diff") of $files differ; see $out/site.diff"
  grep '^diff -r\|^Only in' "$out/site.diff" | sed "s|$work/||g" | head -20 || true
fi

# Both servers: the same settings, a quota no measure reaches.
serve() { # name port
  ENTRYCHECK_IP_HASH_KEY=bench-compare-address-hash-key-0123456789 \
  ENTRYCHECK_QUOTA_ANONYMOUS=100000000 ENTRYCHECK_QUOTA_NETWORK=100000000 ENTRYCHECK_QUOTA_GLOBAL=100000000 \
    "$work/$1" serve --data "$data" --public "$work/public-$1" --db "$work/serve-$1.db" \
    --addr "127.0.0.1:$2" --base-url http://127.0.0.1:18100 --verify-at off \
    --facilitator local --pay-to 0x000000000000000000000000000000000000dEaD 2>"$work/serve-$1.log" &
  pids+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$2/healthz" >/dev/null && return; sleep 0.1; done
  echo "$1 server did not start:" >&2; cat "$work/serve-$1.log" >&2; exit 1
}
serve base 18101
serve head 18102

# The recorded answers: every JSON endpoint, free and unpaid, in the same
# order on both servers, and the paid ones (reqbench -record). Request ids,
# registered clients' ids and secrets and the answers' own times differ by
# nature and are masked.
record() { # name port
  local dir=$out/answers/$1 url=http://127.0.0.1:$2 i=0
  mkdir -p "$dir"
  while IFS='|' read -r method path body; do
    [ -z "$method" ] && continue
    i=$((i + 1))
    {
      echo "$method $path"
      # The MCP endpoint wants both media types (streamable HTTP).
      accept=application/json
      [ "$path" = /mcp ] && accept='application/json, text/event-stream'
      curl -s -X "$method" -H 'Content-Type: application/json' -H "Accept: $accept" \
        ${body:+--data-binary "$body"} -D - "$url$path" |
        grep -iv '^date:\|^x-request-id:\|^content-length:\|^last-modified:\|^etag:'
    } >"$dir/$i.txt"
  done <<'REQUESTS'
GET|/free/check?passport=DEU&destination=THA
GET|/free/check?passport=IND&destination=MEX
GET|/free/check?passport=USA&destination=CHN
GET|/free/check?passport=NGA&destination=GBR&transit=NLD
GET|/free/check?passport=Germany&destination=Brazil
GET|/free/check?passport=IND&destination=IRL&visas_of=GBR
GET|/free/check?passport=GER&destination=THA
GET|/free/check?passport=DEU
GET|/v1/check?passport=DEU&destination=THA
GET|/v1/passport/DEU
POST|/v1/trips/evaluate|{"passports":["DEU"],"legs":[{"destination":"THA","entry":"2026-12-01","exit":"2026-12-10"}]}
POST|/v1/trips/evaluate|{"passports":[]}
POST|/oauth/register|{"client_name":"bench"}
POST|/oauth/token|grant_type=client_credentials
POST|/mcp|{"jsonrpc":"2.0","id":1,"method":"tools/list"}
POST|/mcp|{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_entry_requirements","arguments":{"passport":"DEU","destination":"THA"}}}
POST|/mcp|{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_dataset_info","arguments":{}}}
POST|/mcp|{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"evaluate_trip","arguments":{"passports":["DEU"],"legs":[{"destination":"THA"}]}}}
GET|/openapi.json
GET|/auth.md
GET|/llms.txt
GET|/robots.txt
GET|/.well-known/oauth-authorization-server
GET|/.well-known/oauth-protected-resource
GET|/.well-known/api-catalog
GET|/.well-known/agent-card.json
GET|/.well-known/mcp/server-card.json
GET|/.well-known/agent-skills/index.json
GET|/stats.json
GET|/healthz
GET|/no/such/path
REQUESTS
}
record base 18101
record head 18102
"$work/reqbench" -record "$out/answers" -server base=http://127.0.0.1:18101 -server head=http://127.0.0.1:18102 -n 1 -rounds 0 \
  -trip internal/evaluation/testdata/trips/ten-legs-three-passports.json >/dev/null
sed -i -E 's/"([a-z./]*request_id|client_id|client_secret|access_token|evaluated_at|checked_at|transaction)":"[^"]*"/"\1":"-"/g
  s/"(client_id_issued_at|client_secret_expires_at)":[0-9]+/"\1":0/g' "$out"/answers/*/*
if diff -r "$out/answers/base" "$out/answers/head" >"$out/answers.diff"; then
  echo "recorded answers: identical ($(find "$out/answers/head" -type f | wc -l) requests)"
else
  echo "recorded answers: $(grep -c '^diff -r\|^Only in' "$out/answers.diff") of $(find "$out/answers/head" -type f | wc -l) differ; see $out/answers.diff"
fi

echo "latency, $rounds alternating rounds of $n requests per endpoint:"
"$work/reqbench" -server base=http://127.0.0.1:18101 -server head=http://127.0.0.1:18102 -n "$n" -rounds "$rounds" \
  -trip internal/evaluation/testdata/trips/ten-legs-three-passports.json
