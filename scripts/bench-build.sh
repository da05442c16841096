#!/usr/bin/env bash
# Measures the site build: a cold build into an empty directory, a rebuild
# with nothing changed, and the switch from the previous matrix snapshot to
# the current one. Prints wall time, peak RSS, files and bytes for each.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${ENTRYCHECK_SHARED:-../shared}
prev=$shared/dataset/passport-index/2025-01-12
cur=$shared/dataset/passport-index/2026-02-17
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/entrycheck" ./cmd/entrycheck

measure() {
  local label=$1; shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "$label: %e s wall, %M KB peak RSS" "$work/entrycheck" "$@" 2>&1 | grep -v '^recorded'
  else
    local start end
    start=$(date +%s.%N)
    "$work/entrycheck" "$@" | grep -v '^recorded'
    end=$(date +%s.%N)
    echo "$label: $(echo "$end - $start" | bc) s wall (install the time package for peak RSS)"
  fi
}

common=(--public "$work/public" --db "$work/events.db" --base-url https://entrycheck.example)
# The cold build in English alone and in every language (the default):
# the budget is 4 times the first for the second.
sync
measure "cold build, English only (current snapshot)" build --data "$cur" --languages en "${common[@]}"
echo "  $(find "$work/public" -type f | wc -l) files, $(du -sm "$work/public" | cut -f1) MB on disk"
rm -rf "$work/public" "$work/events.db"*
sync
measure "cold build, all languages (current snapshot)" build --data "$cur" "${common[@]}"
echo "  $(find "$work/public" -type f | wc -l) files, $(du -sm "$work/public" | cut -f1) MB on disk"
measure "rebuild, nothing changed" build --data "$cur" "${common[@]}"
rm -rf "$work/public" "$work/events.db"*
sync
measure "cold build (previous snapshot)" build --data "$prev" "${common[@]}"
measure "snapshot switch to the current one" build --data "$cur" --previous-data "$prev" "${common[@]}"
echo "largest route page: $(find "$work/public/passports" -mindepth 3 -name index.html -printf '%s\n' | sort -n | tail -1) bytes"
