#!/usr/bin/env bash
# Counts the fsyncs of each commit that answers a request on a SQLite store
# (a quota count, a payment nonce, a registered client), with strace: each
# must reach the disk before it is answered, so each needs at least one.
# Runs BenchmarkDurableCommits for 1 and for 1+N operations and divides the
# difference by N, so that opening and migrating the database do not count.
# Needs strace (apt-get install strace); CI does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v strace >/dev/null || { echo "fsync-count: strace is not installed (apt-get install strace)" >&2; exit 2; }
n=${1:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/store.test" ./internal/store/

fsyncs() { # operation, count
  strace -f -c -e trace=fsync,fdatasync -o "$work/trace" \
    "$work/store.test" -test.run '^$' -test.bench "^BenchmarkDurableCommits$/^$1\$" -test.benchtime "$2x" >/dev/null
  awk '$NF == "fsync" || $NF == "fdatasync" { n += $4 } END { print n + 0 }' "$work/trace"
}

status=0
for op in quota nonce client; do
  base=$(fsyncs "$op" 1)
  more=$(fsyncs "$op" $((n + 1)))
  per=$(awk -v d=$((more - base)) -v n="$n" 'BEGIN { printf "%.2f", d / n }')
  echo "$op: $per fsyncs per commit ($((more - base)) for $n commits)"
  if [ $((more - base)) -lt "$n" ]; then
    echo "  fewer fsyncs than commits: an answered $op could be lost in a power cut" >&2
    status=1
  fi
done
exit $status
