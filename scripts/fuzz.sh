#!/usr/bin/env bash
# Runs each native fuzz target for FUZZTIME (default 5s): long enough to
# catch a parser that panics on the first odd input, short enough for every
# `make test`. Go fuzzes one target per invocation, hence the loop. Every
# Fuzz function of the repository is in this table; TestFuzzTargetsRun
# fails when one is not. A failing input is written under the package's
# testdata/fuzz/, to commit beside the fix as a regression seed.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-5s}

# package                 target
targets=(
  "./internal/country       FuzzLookup"
  "./internal/api/rest      FuzzCheckQuery"
  "./internal/api/check     FuzzArguments"
  "./internal/x402          FuzzDecode"
  "./internal/x402/exact    FuzzVerify"
  "./internal/curation      FuzzDestinationNote"
  "./internal/dataset       FuzzParseLock"
  "./internal/pagefetch     FuzzExtract"
  "./internal/pagefetch     FuzzSummarize"
)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r pkg target <<<"$t"
  echo "    $target ($pkg, $FUZZTIME)"
  # Minimising each new input for the default minute would spend the whole
  # run on one; a crasher is kept whole instead.
  "$GO" test -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 1s "$pkg" >"$log" 2>&1 || {
    cat "$log"; exit 1
  }
done
