#!/usr/bin/env bash
# Installs (if needed) and starts a local PostgreSQL server with a test
# database, then prints the URL the tests use. Debian's packages only.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >&2
fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 && break
  sleep 1
done
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_roles WHERE rolname = 'entrycheck'\" | grep -q 1 || psql -q -c \"CREATE ROLE entrycheck LOGIN PASSWORD 'entrycheck'\"" >&2
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname = 'entrycheck_test'\" | grep -q 1 || createdb -O entrycheck entrycheck_test" >&2
echo "postgres://entrycheck:entrycheck@127.0.0.1:5432/entrycheck_test?sslmode=disable"
