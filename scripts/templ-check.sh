#!/usr/bin/env bash
# Fails when `templ generate` would change internal/templates. The generated
# *_templ.go files are committed, so a .templ edit committed without
# `make generate` would ship stale components. The generator runs on a copy,
# so the check leaves the tree as it found it, in a git clone or not.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TEMPL=${TEMPL:?TEMPL names the pinned templ command, as the Makefile does}
dir=internal/templates
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -R "$dir" "$copy/templates"
"$GO" run "$TEMPL" generate -path "$copy/templates" >/dev/null 2>"$copy.log" || { cat "$copy.log" >&2; rm -f "$copy.log"; exit 1; }
rm -f "$copy.log"
if ! diff -r -u "$dir" "$copy/templates"; then
  echo "templ generate changes $dir (above): run make generate and commit" >&2
  exit 1
fi
