GO ?= go
GOLANGCI_VERSION ?= v2.15.0
GOFUMPT_VERSION ?= v0.12.0
BIN := bin/mcpdeck

.PHONY: help build test lint bench demo
help: ## show the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

build: ## build bin/mcpdeck
	$(GO) build -o $(BIN) .

test: ## run every test (race detector on)
	$(GO) test -race -count=1 ./...

lint: ## golangci-lint (pinned) and gofumpt
	$(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION) run ./...
	@out=$$($(GO) run mvdan.cc/gofumpt@$(GOFUMPT_VERSION) -l .); if [ -n "$$out" ]; then echo "gofumpt would change:"; echo "$$out"; exit 1; fi

bench: ## run the benchmarks
	$(GO) test -run '^$$' -bench . -benchmem ./...

demo: build ## run the TUI on the embedded demo servers
	./$(BIN) demo
