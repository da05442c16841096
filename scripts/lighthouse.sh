#!/usr/bin/env bash
# Measures the generated site with Lighthouse (the version pinned in
# scripts/lighthouse/package-lock.json) in Debian's chromium: the home page,
# a passport page with its map, a route page and the not-found page, each on
# the mobile and the desktop configuration, for performance, accessibility,
# best practices and SEO. Prints a table of the scores, keeps the JSON
# reports, and exits 1 when any score is below 100.
#
#   PUBLIC=dir  serve an already built site instead of building one
#   OUT=dir     where the JSON reports go (default: the temporary directory,
#               kept when a score is below 100)
#   CHROME_PATH the browser (default /usr/bin/chromium)
#
# Performance is simulated on a throttled phone or desktop from the trace of
# this machine: on a loaded machine (see the load average) it scores lower,
# so compare runs made on a quiet one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shared=${ENTRYCHECK_SHARED:-../shared}
data=${DATA:-$shared/dataset/passport-index/2026-02-17}
chrome=${CHROME_PATH:-/usr/bin/chromium}
work=$(mktemp -d)
out=${OUT:-$work/reports}
mkdir -p "$out"
out=$(cd "$out" && pwd)
keep=0
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ "$keep" = 1 ] && [ -z "${OUT:-}" ]; then
    rm -rf "$work/public" "$work"/*.db*
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

[ -x "$chrome" ] || { echo "no browser at $chrome (apt-get install chromium)" >&2; exit 2; }
# Lighthouse from the lockfile; the browser is Debian's, never a download.
if [ ! -x scripts/lighthouse/node_modules/.bin/lighthouse ]; then
  (cd scripts/lighthouse && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null)
fi
lighthouse=$root/scripts/lighthouse/node_modules/.bin/lighthouse

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
origin=http://127.0.0.1:$port

go build -o "$work/entrycheck" ./cmd/entrycheck
public=${PUBLIC:-}
if [ -z "$public" ]; then
  public=$work/public
  echo "building the site into $public" >&2
  "$work/entrycheck" build --data "$data" --public "$public" --db "$work/build.db" --base-url "$origin" >/dev/null
fi

"$work/entrycheck" serve --data "$data" --public "$public" --db "$work/serve.db" \
  --addr "127.0.0.1:$port" --base-url "$origin" --verify-at off >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do
  curl -fsS -o /dev/null "$origin/healthz" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; exit 2; }
  sleep 0.2
done
curl -fsS -o /dev/null "$origin/healthz" || { echo "server did not answer on $origin" >&2; cat "$work/serve.log" >&2; exit 2; }

# name|path|gated. The not-found page is measured twice: as served for a
# path that names no page (status 404, which Lighthouse scores only with
# --ignore-status-code and then always marks down: SEO's http-status-code,
# and best practices' errors-in-console for the failed document load), and
# as the generated /404.html answered 200, which is the one that gates.
pages=(
  "home|/|yes"
  "passport|/passports/deu/|yes"
  "route|/passports/deu/tha/|yes"
  "404-page|/404.html|yes"
  "not-found|/passports/deu/nowhere/|no"
)
# One request each first: the measurement is of pages a server has served
# before, not of the first request after start.
for entry in "${pages[@]}"; do
  IFS='|' read -r _ path _ <<<"$entry"
  curl -s -o /dev/null -H 'Accept: text/html' -H 'Accept-Encoding: gzip' "$origin$path"
done
flags=(
  --quiet --output=json
  --only-categories=performance,accessibility,best-practices,seo
  --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"
)

failed=0
printf '%-10s %-8s %12s %14s %15s %5s\n' page form performance accessibility best-practices seo
for entry in "${pages[@]}"; do
  IFS='|' read -r name path gated <<<"$entry"
  for form in mobile desktop; do
    extra=()
    [ "$form" = desktop ] && extra+=(--preset=desktop)
    # Lighthouse refuses a page answered with an error status unless told.
    [ "$name" = not-found ] && extra+=(--ignore-status-code)
    report=$out/$name-$form.json
    # A run that lost its trace (NO_NAVSTART and the like, seen on a busy
    # machine) is tried once more before it counts.
    for _ in 1 2; do
      CHROME_PATH=$chrome "$lighthouse" "$origin$path" "${flags[@]}" "${extra[@]}" --output-path="$report" 2>"$out/$name-$form.log" || true
      [ -s "$report" ] && ! grep -q '"runtimeError"' "$report" && break
    done
    if [ ! -s "$report" ]; then
      printf '%-10s %-8s %s\n' "$name" "$form" "no report (see $out/$name-$form.log)"
      if [ "$gated" = yes ]; then failed=1; fi
      continue
    fi
    line=$(node -e '
      const r = require(process.argv[1]);
      const cats = ["performance", "accessibility", "best-practices", "seo"];
      const s = cats.map(c => r.categories[c] && r.categories[c].score !== null ? Math.round(r.categories[c].score * 100) : "err");
      const bad = s.some(v => v !== 100) ? 1 : 0;
      const err = r.runtimeError ? " (" + r.runtimeError.code + ")" : "";
      console.log(bad + " " + s.join(" ") + err);
    ' "$report")
    read -r bad p a b s rest <<<"$line"
    if [ "$gated" = no ]; then rest="$rest (status 404, not gated)"; fi
    printf '%-10s %-8s %12s %14s %15s %5s %s\n' "$name" "$form" "$p" "$a" "$b" "$s" "$rest"
    if [ "$bad" = 1 ] && [ "$gated" = yes ]; then failed=1; fi
  done
done

echo "reports: $out" >&2
if [ "$failed" = 1 ]; then
  keep=1
  # The audits that cost points, per page and form factor.
  for report in "$out"/*.json; do
    node -e '
      const r = require(process.argv[1]);
      for (const [id, cat] of Object.entries(r.categories)) {
        for (const ref of cat.auditRefs) {
          const a = r.audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 1) {
            console.log(`${process.argv[1].split("/").pop()}\t${id}\t${a.id}\t${a.score}\t${a.displayValue || ""}`);
          }
        }
      }
    ' "$report"
  done >&2
  exit 1
fi
