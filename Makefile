GO ?= go
PKGS := ./...

.PHONY: help build okey lint lint-tools test test-no-race labs labs-lan labs-nat bench overhead fuzz play e2e tmux-e2e vet fmt conformance relay-flood nat-lab nat-lab-outage nat-lab-matrix friends-lab tournament party

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*##' Makefile | sed -e 's/:.*## /\t/'

build: okey ## build bin/okey, and bin/okey-verify.wasm (the verifier of okey verify --html's page)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o bin/okey-verify.wasm ./verdict/page/wasm

okey: ## build bin/okey alone (what play and the labs run)
	$(GO) build -o bin/okey ./cmd/okey

# The linters, each at a fixed version, run with `go run module/cmd@version`
# so the main module's go.mod and go.sum never see them (a `tool` directive
# there would upgrade x/text, x/crypto, x/net and others the game is built with).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
REVIVE      := github.com/mgechev/revive@v1.17.0
GOIMPORTS   := golang.org/x/tools/cmd/goimports@v0.52.0
GCI         := github.com/daixiang0/gci@v0.14.0
LOCAL       := github.com/okey-game/okey

lint-tools: ## fetch and build the lint tools (go run caches them; .ci/run does it beside the installs)
	$(GO) run $(STATICCHECK) -version >/dev/null
	$(GO) run $(REVIVE) -version >/dev/null
	$(GO) run $(GOIMPORTS) -h 2>/dev/null; true
	$(GO) run $(GCI) --version >/dev/null

lint: ## staticcheck, revive's exported-doc rule, goimports and gci (imports: standard, others, then this module), shellcheck where installed
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)
	$(GO) run $(REVIVE) -config revive.toml $(PKGS)
	@out=$$($(GO) run $(GOIMPORTS) -local $(LOCAL) -l .) || exit 1; \
	if [ -n "$$out" ]; then echo "goimports: run '$(GO) run $(GOIMPORTS) -local $(LOCAL) -w' on:"; echo "$$out"; exit 1; fi
	@out=$$($(GO) run $(GCI) list -s standard -s default -s 'prefix($(LOCAL))' .) || exit 1; \
	if [ -n "$$out" ]; then echo "gci: import groups out of order (standard, others, $(LOCAL)); run '$(GO) run $(GCI) write -s standard -s default -s \"prefix($(LOCAL))\" .' on:"; echo "$$out"; exit 1; fi
	@# the scripts, where shellcheck is installed (.shellcheckrc: it follows the labs' sourced
	@# libraries, and says which checks are off and why)
	@if command -v shellcheck >/dev/null 2>&1; then shellcheck scripts/*.sh; \
	else echo "shellcheck: not installed, the scripts are not checked"; fi

# make test's lines, each with its budget in seconds on a 2-core machine
# (scripts/timed.sh prints each line's time against it). Which tests run
# without the race detector is said in the tests themselves (internal/lane):
# scripts/lanes lists them and fails when a test would run in neither line.
TIMES ?= $(CURDIR)/bin/test-times.txt
TIMED := TIMES=$(TIMES) scripts/timed.sh

# go test starts a line's packages in the order it is given them, as many at
# a time as the machine has cores: each line names its longest packages first
# (longest first by their times in make test on 2 cores), so that none starts
# last and lengthens the line; the rest follow in ./...'s order. With another
# PKGS than ./... the race line runs PKGS alone; scripts/lanes fails on a
# NORACE_FIRST package that has no no-race test.
RACE_FIRST   := ./table ./ui ./netplay ./p2p ./cmd/okey ./tournament/participant ./p2p/lobby ./crypto/deck
NORACE_FIRST := ./cmd/okey ./table ./cmd/okey/internal/conformance ./bot ./web ./tournament/participant ./ui

test: ## lint, every test (under the race detector, then the no-race lane beside the labs), the labs; prints each line's time
	@mkdir -p bin && : >$(TIMES)
	@$(TIMED) lanes 30 $(GO) run ./scripts/lanes -check -first '$(NORACE_FIRST)'
	@$(TIMED) lint 150 $(MAKE) --no-print-directory lint
	@$(GO) build -o bin/testtimes ./scripts/testtimes
	@# each Go line prints the packages' results, a failing test's whole output and its ten longest tests
	@$(TIMED) race 300 bin/testtimes $(GO) test -json -race -count=1 -timeout 10m $(if $(filter ./...,$(PKGS)),$(RACE_FIRST)) $(PKGS)
	@# the no-race line runs beside the labs, which wait on the network and their timers more than on the cores
	@$(MAKE) --no-print-directory okey
	@scripts/beside.sh bin/no-race.log $(MAKE) --no-print-directory test-no-race -- $(MAKE) --no-print-directory labs
	@echo "make test: each line's time (budget)"; cat $(TIMES)

# The no-race line waits on Chromium, its peers' links and its own timers
# more than on the cores (about 260 s of CPU in all): it runs NORACE_P
# packages at a time, not one per core (beside the labs on 2 cores, quiet:
# 213-238 s with 2, 183 s with 3). The race line is bound by the cores
# (about 560 s of CPU in 270-300 s) and keeps go test's one per core.
NORACE_P ?= 3

test-no-race: ## make test's no-race line alone: whole matches, tournaments, verify loops and statistical tests (those that call lane.NoRace)
	@$(TIMED) no-race 200 bin/testtimes $(GO) test -json -count=1 -p $(NORACE_P) -timeout 6m $$($(GO) run ./scripts/lanes -first '$(NORACE_FIRST)')

labs: ## make test's labs, two at a time: the simulated LAN then the terminal in tmux, beside the NAT lab then its relay outage
	@scripts/beside.sh bin/labs-nat.log $(MAKE) --no-print-directory labs-nat -- $(MAKE) --no-print-directory labs-lan

labs-lan: ## the simulated LAN (root) and the terminal in tmux
	@if [ "$$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1; then \
	  $(TIMED) e2e 120 $(MAKE) --no-print-directory e2e; \
	else \
	  echo "e2e: SKIPPED: the simulated-LAN test needs root and the ip command (iproute2); run 'sudo make e2e'"; \
	fi
	@if command -v tmux >/dev/null 2>&1; then $(TIMED) tmux-e2e 40 $(MAKE) --no-print-directory tmux-e2e; else echo "skip tmux-e2e: tmux is not installed"; fi

labs-nat: ## the NAT lab and its relay outage (root)
	@if [ "$$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 && command -v iptables >/dev/null 2>&1; then \
	  $(TIMED) nat-lab 60 $(MAKE) --no-print-directory nat-lab && \
	  $(TIMED) nat-lab-outage 120 $(MAKE) --no-print-directory nat-lab-outage; \
	else \
	  echo "nat-lab: SKIPPED: the NAT lab needs root, the ip command (iproute2) and iptables; run 'sudo make nat-lab nat-lab-outage'"; \
	fi

bench: ## run the benchmarks
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

overhead: ## split a 4-player hand's CPU time: cryptography, signatures, bots, the rest
	./scripts/overhead.sh

fuzz: ## run each fuzz target for FUZZTIME (default 20s)
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzzminimizetime 0 -fuzztime $${FUZZTIME:-20s} $$pkg || exit 1; \
	  done; done

e2e: okey ## 4 okey bots in network namespaces: mDNS, a match, a SIGKILL and restart; a lobby bot with a remote player; a small LAN party (root)
	OKEY=$(CURDIR)/bin/okey scripts/lan-test.sh
	# the small LAN party: 2 tables of 4 and 2 spectators, the faults of make party, a SIGKILL per table and one of a spectator (64-74 s measured)
	$(GO) build -o bin/natlab ./scripts/natlab
	$(GO) test -c -o bin/deck.test ./crypto/deck
	OKEY=$(CURDIR)/bin/okey NATLAB=$(CURDIR)/bin/natlab DECK_TEST=$(CURDIR)/bin/deck.test TABLES=2 SPECTATORS=2 TIMEOUT=170 scripts/party.sh

tournament: okey ## an 8-bot, 3-round Swiss tournament in network namespaces; okey verify on every folder must print the same (root; issue 27, not in make test)
	OKEY=$(CURDIR)/bin/okey scripts/tournament.sh

nat-lab: okey ## a 4-seat table by invite code across NATs (3 port-restricted cone homes, 1 symmetric) and a relay, in network namespaces (root)
	OKEY=$(CURDIR)/bin/okey scripts/nat-lab-test.sh

nat-lab-outage: okey ## the NAT lab's table through a 60 s relay outage mid-hand (killed, restarted): every seat moves within 10 s of the relay's return (root)
	OKEY=$(CURDIR)/bin/okey OUTAGE=60 RULES=classic TIMEOUT=150 scripts/nat-lab-test.sh

nat-lab-matrix: okey ## the NAT matrix (issue 23, not in make test): every NAT type, QUIC and TCP, with and without a relay, impaired links; a table of results (root; CELLS, IMPAIR, RESULTS: docs/nat-lab.md)
	$(GO) build -o bin/natlab ./scripts/natlab
	OKEY=$(CURDIR)/bin/okey NATLAB=$(CURDIR)/bin/natlab nice -n 10 scripts/nat-lab-matrix.sh

friends-lab: okey ## friends over the internet as a group sets it up (issue 36, not in make test): 3 homes (2 port-restricted cone NATs, 1 symmetric) and okey relay in namespaces of its own, the relay's line, the code pasted wrapped, a 20 s relay outage mid-hand; join times, direct links, the time back (root; RUNS, OUTAGE: scripts/friends-lab.sh)
	OKEY=$(CURDIR)/bin/okey nice -n 10 scripts/friends-lab.sh

party: okey ## a LAN party (issue 26, not in make test): 6 tables of 4 bots in one lobby, loss, delay, jitter, duplication on every link, one SIGKILL per table, 8 spectators (one killed); a table of figures (root; TABLES, RULES, SPECTATORS: scripts/party.sh)
	$(GO) build -o bin/natlab ./scripts/natlab
	$(GO) test -c -o bin/deck.test ./crypto/deck
	OKEY=$(CURDIR)/bin/okey NATLAB=$(CURDIR)/bin/natlab DECK_TEST=$(CURDIR)/bin/deck.test nice -n 10 scripts/party.sh

relay-flood: okey ## okey relay under 1,000 strangers' attempts: peak RSS (under 64 MB) and a table's moves
	OKEY=$(CURDIR)/bin/okey scripts/relay-flood.sh

play: okey ## the README's quick start: you against 3 bots at the terminal table
	./bin/okey play --bots 3

tmux-e2e: okey ## play one hand of okey play --bots 3 through the keys in tmux
	./scripts/tmux-play-test.sh ./bin/okey

conformance: ## regenerate testdata/conformance (after any protocol change), then check it
	$(GO) run ./cmd/okey/internal/conformance/gen testdata/conformance
	$(GO) run ./cmd/okey verify --conformance testdata/conformance

vet: ## go vet
	$(GO) vet $(PKGS)

fmt: ## gofmt the tree
	gofmt -w .
