GO ?= go
PKGS := ./...

.PHONY: help build test bench fuzz play e2e vet fmt

help: ## list the targets
	@grep -E '^[a-z]+:.*##' Makefile | sed -e 's/:.*## /\t/'

build: ## build bin/okey
	$(GO) build -o bin/okey ./cmd/okey

test: ## run every test with the race detector
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 12m $(PKGS)
	# statistical tests too slow under the race detector, run without it
	$(GO) test -count=1 -timeout 5m -run 'Uniform|ShuffleAllPermutations|ShufflePositions' ./crypto/...

bench: ## run the benchmarks
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

fuzz: ## run each fuzz target for FUZZTIME (default 20s)
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzzminimizetime 0 -fuzztime $${FUZZTIME:-20s} $$pkg || exit 1; \
	  done; done

play: build ## the README's quick start
	./bin/okey analyze --indicator R4 R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5

vet: ## go vet
	$(GO) vet $(PKGS)

fmt: ## gofmt the tree
	gofmt -w .
