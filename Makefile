# hearth: `make run` for the demo hub on :8123, `make test` for everything CI runs.
SHELL := /bin/bash
NPM ?= npm
PORT ?= 8123
DATA ?= ./data
# The Node flags a Pi runs with (the systemd unit has the same; bench/procs.ts says why each).
NODE_FLAGS ?= --max-semi-space-size=1 --max-old-space-size=192 --v8-pool-size=1 --expose-gc

.PHONY: install build run lint test bench release clean check-node

# package-lock.json lists biome's binaries for platforms this registry does not carry (optional, os/cpu-gated)
# so that `npm ci` accepts the lock; `npm install` may drop those entries again: re-add them if npm ci complains.
# npm ci when package.json or package-lock.json differ from what node_modules was installed from, compared by content:
# a fresh checkout or git worktree has new file times and the same packages (and a worktree whose node_modules links to
# another checkout's would otherwise empty that one).
LOCK_SUM := $(shell cat package.json package-lock.json 2>/dev/null | sha1sum | cut -c1-40)

install: check-node
	@if [ "$$(cat node_modules/.installed 2>/dev/null)" != "$(LOCK_SUM)" ]; then \
	  $(NPM) ci --no-audit --no-fund && echo "$(LOCK_SUM)" > node_modules/.installed; fi

check-node:
	@node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a!==20||b<19) { console.error("hearth needs Node 20.19 or later 20.x (uWebSockets.js ships binaries for Node 20); this is " + process.version); process.exit(1) }'

build: install
	$(NPM) run build --silent

run: build
	@mkdir -p $(DATA)
	@echo ""
	@echo "  hearth demo hub: http://localhost:$(PORT)/  (REST: /api/, WebSocket: ws://localhost:$(PORT)/api/websocket)"
	@echo "  Get an access token, either way:"
	@echo "    in a browser: open http://localhost:$(PORT)/, create the owner account, then Profile -> Create token"
	@echo "    in another terminal:  npx hearth token create --data $(DATA) --name my-laptop"
	@echo "  Then:  curl -H \"Authorization: Bearer <token>\" http://localhost:$(PORT)/api/states"
	@echo ""
	node $(NODE_FLAGS) dist/hearth/cli.js serve --data $(DATA) --host 0.0.0.0 --port $(PORT)

lint: install
	npx biome check .
	npx tsc -p tsconfig.check.json

# Coverage floor for the whole suite, a little under what it measures (82 % lines): the rest is mostly code
# that runs only on real hardware (onoff, i2c-bus, serial ports) or in the browser, which the browser tests
# exercise. Single-file runs (`npx tap FILE`) report coverage without failing on it.
COVERAGE := --no-allow-incomplete-coverage --lines=80 --statements=80 --branches=80 --functions=75

# tap's default is one job fewer than the cores, which on a 2-core machine runs the files one at a time: 18 to 25 min
# there, with about 1.4 cores busy. One file per core: 13.4 min, 1.7 cores busy (docs/development.md).
TEST_JOBS ?= $(shell nproc)

test: build lint
	npx tap --jobs=$(TEST_JOBS) $(COVERAGE)

# The REST benchmark needs wrk (Debian's package); it is installed when missing.
bench: build
	@command -v wrk >/dev/null 2>&1 || { echo "bench: installing wrk (apt-get install wrk)"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq wrk; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq wrk; fi; }
	node --import tsx bench/run.ts

# dist/hearth-<version>.tar.gz: the bundle, the production packages with their prebuilt binaries for arm64 and
# armhf, the unit and the install script, to install on a Pi without building there (docs/install.md).
release: build
	node scripts/release.mjs

clean:
	rm -rf dist .tap coverage
