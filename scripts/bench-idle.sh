#!/usr/bin/env bash
# Measures the server under idle keep-alive connections: starts the real
# binary, opens 10,000 connections that each make one request and stay open
# (scripts/idleconns), and prints the server's resident memory and the
# latency of fresh requests before and with them.
#
#   bash scripts/bench-idle.sh                   # 10,000 connections, GET /healthz
#   CONNS=2000 IDLE_PATH=/ bash scripts/bench-idle.sh
#   SILENT=1 bash scripts/bench-idle.sh          # connections that send nothing
#   ENTRYCHECK_BENCH_PUBLIC=/tmp/public bash scripts/bench-idle.sh   # reuse a built site
#   BIN=/tmp/old-entrycheck bash scripts/bench-idle.sh               # measure another build
#
# Settings of serve (ENTRYCHECK_MAX_CONNS...) pass through the environment.
# Without ENTRYCHECK_BENCH_PUBLIC the site is built first (about 30 s), so
# that the server holds the build manifest as in production.
set -euo pipefail
cd "$(dirname "$0")/.."
conns=${CONNS:-10000}
path=${IDLE_PATH:-/healthz}
addr=${ENTRYCHECK_BENCH_ADDR:-127.0.0.1:18089}
data=${ENTRYCHECK_DATA:-../shared/dataset/passport-index/2026-02-17}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Both ends hold one descriptor per connection.
want=$((conns + 1024))
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$want" ]; then
  echo "the hard limit of open files is $(ulimit -Hn); $conns connections need $want" >&2
  exit 1
fi
ulimit -n "$want"

bin=${BIN:-$work/entrycheck}
if [ -z "${BIN:-}" ]; then
  go build -o "$bin" ./cmd/entrycheck
fi
go build -o "$work/idleconns" ./scripts/idleconns

public=${ENTRYCHECK_BENCH_PUBLIC:-}
if [ -z "$public" ]; then
  public=$work/public
  "$bin" build --data "$data" --public "$public" --db "$work/build.db" --base-url "http://$addr" >/dev/null
fi

# A fixed address-hash key, so that serve writes no key file here. The
# connections stand for many clients but come from one address: the bound
# per address is lifted, unless set, so that the cap measured is the
# server's.
ENTRYCHECK_IP_HASH_KEY=${ENTRYCHECK_IP_HASH_KEY:-bench-idle-address-hash-key-0123456789} \
  ENTRYCHECK_MAX_CONNS_PER_ADDR=${ENTRYCHECK_MAX_CONNS_PER_ADDR:-$conns} \
  "$bin" serve --data "$data" --addr "$addr" --base-url "http://$addr" --public "$public" \
  --db "$work/serve.db" --verify-at off 2>"$work/serve.log" &
pid=$!
echo "server pid $pid: $conns idle connections${SILENT:+ (silent)}, fresh requests GET $path"
"$work/idleconns" -addr "$addr" -pid "$pid" -conns "$conns" -path "$path" ${SILENT:+-silent}
