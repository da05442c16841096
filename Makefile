# entrycheck: one target per thing a person does.
GO       ?= go
BIN      := bin/entrycheck
# The matrix snapshots to serve and to record changes from (see docs/data.md).
DATA     ?= ../shared/dataset/passport-index/2026-02-17
PREVIOUS ?= ../shared/dataset/passport-index/2025-01-12
TEMPL    := github.com/a-h/templ/cmd/templ@v0.3.977
# Where `make run` listens, and the base URL the site links to and the API's
# discovery documents name: `make run ADDR=127.0.0.1:9000`. The service's
# own environment variables, when set, are the defaults.
ADDR     ?= $(or $(ENTRYCHECK_ADDR),127.0.0.1:8080)
BASE_URL ?= $(or $(ENTRYCHECK_BASE_URL),http://$(ADDR))

.PHONY: run build binary generate test bench lighthouse lint curation fmt

## run: build the site, then serve it and the API on http://$(ADDR) (SQLite under ./var); make run ADDR=127.0.0.1:9000
run: build
	@echo "==> serving the site and the API on $(ADDR) (SQLite under ./var)"
	$(BIN) serve --addr $(ADDR) --base-url $(BASE_URL) --data $(DATA) --facilitator local --pay-to 0x000000000000000000000000000000000000dEaD

## build: compile bin/entrycheck and generate the site into public/
build: binary
	@echo "==> building the site into public/ for $(BASE_URL) (every language unless ENTRYCHECK_LANGUAGES says fewer)"
	$(BIN) build --base-url $(BASE_URL) --data $(DATA) --previous-data $(PREVIOUS)

binary:
	@echo "==> compiling $(BIN) (about two minutes the first time on two cores, seconds after)"
	$(GO) build -o $(BIN) ./cmd/entrycheck

## generate: regenerate the templ components (internal/templates/*_templ.go)
generate:
	$(GO) run $(TEMPL) generate -path internal/templates

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# The packages `make test` runs again under the race detector: those with
# goroutines, locks, atomics or pools of their own (the store's ledger and
# nonces, quotas, the static tree's caches, A2A tasks, response and
# compression pools, page fetching and the verification that drives it,
# payment settlement). Left out: the generator, whose 280 s would take
# several times that under -race, and the packages that share nothing
# between goroutines (internal/changes, 48 s under -race).
RACE_PKGS := ./internal/store ./internal/api/quota ./internal/api/static \
	./internal/api/a2aserver ./internal/api/response ./internal/compression \
	./internal/pagefetch ./internal/verify ./internal/x402/exact ./internal/apidoc
# Of internal/api (110 s, several times that under -race) only the tests
# that run things at once: requests sent together (the quota ledger, OAuth
# registration, a payment replayed concurrently), connections held (the
# connection limits) and state swapped under requests (verification); 63 s
# under -race. internal/cli is left out: racing its serve tests means
# building the generator under -race too, for goroutines that only start
# and stop the server these tests race already.
RACE_API_TESTS := ^Test(AnonymousQuotaUnderConcurrency|SpoofedForwardingHeadersBuyNothing|TrustedProxyAndNetworkCap|ClientIPUnknownClientsShareOneBucket|X402ConcurrentReplay|OAuthClientCredentialsFlow|RegistrationLimit|IdleCap.*|IdleConnectionsLeaveRoomForNewClients|VerificationStateSwap)$$
# How long each fuzz target of scripts/fuzz.sh runs in `make test`: nine
# targets at 5 s, plus building each, take about a minute and a half.
FUZZTIME ?= 5s

## test: go.mod tidy, vet, format, staticcheck, templ drift, the whole test suite on the real dataset, the race detector and a short fuzz of every parser
test:
	@bash scripts/optional-suites.sh
	@echo "==> go.mod is tidy"
	$(GO) mod tidy -diff
	@echo "==> go vet"
	$(GO) vet ./...
	@echo "==> gofmt"
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null | grep -v '_templ.go$$' || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	@echo "==> staticcheck ($(STATICCHECK))"
	$(GO) run $(STATICCHECK) ./...
	@echo "==> templ generate leaves internal/templates unchanged"
	GO=$(GO) TEMPL=$(TEMPL) bash scripts/templ-check.sh
	@echo "==> the whole test suite"
	$(GO) test -count=1 -timeout 30m ./...
	@echo "==> the race detector on the concurrent packages, and on internal/api's concurrency tests"
	$(GO) test -race -count=1 -timeout 20m $(RACE_PKGS)
	$(GO) test -race -count=1 -timeout 20m -run '$(RACE_API_TESTS)' ./internal/api
	@echo "==> each fuzz target for $(FUZZTIME) (scripts/fuzz.sh)"
	GO=$(GO) FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# The commit bench compares whole requests, builds and outputs with.
BENCH_BASE ?= 3ab15a7

## bench: the speed and memory goals, measured; requests, build and outputs against BENCH_BASE
bench:
	BASE=$(BENCH_BASE) bash scripts/bench-compare.sh
	$(GO) test -run '^$$' -bench . -benchtime 2s -count 1 ./internal/evaluation/
	$(GO) test -run '^$$' -bench FreeCheckThroughput -benchtime 1x -count 1 ./internal/api/
	bash scripts/bench-build.sh
	bash scripts/bench-idle.sh

## lighthouse: Lighthouse scores of home, passport, route and 404 pages, mobile and desktop (exit 1 below 100)
lighthouse:
	bash scripts/lighthouse.sh

## lint: vet and staticcheck
lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

## curation: re-import the curators' notes into internal/dataset/curated
curation: binary
	$(BIN) curation import --from ../shared/curation-v3 --to internal/dataset/curated

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '_templ.go$$')
