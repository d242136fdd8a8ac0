# benchy: `make run` measures the default experiments on an auto-chosen CPU;
# `make test` runs every test (what CI runs).
GO ?= go
BIN := bin/benchy

.PHONY: build run test test-plain smoke fuzz bench cross race readme screenshot clean

build:
	$(GO) build -o $(BIN) ./cmd/benchy

run: build
	./$(BIN) run

smoke: build
	./$(BIN) run --smoke

# The packages with goroutines and signals are tested again under the race
# detector (the machine-code tests skip there: it rewrites every loop). The
# cli's end-to-end tests run benchy, go and the user's code as child
# processes, which the detector does not see: under it the cli runs its
# in-process tests only, as under -short.
RACE_PKGS := ./internal/harness/... ./internal/targets/... ./internal/pipeline ./internal/outfile ./internal/cpulock ./internal/cli .

# -timeout is a guard against a hang, not a speed goal: on a machine busy
# with other work the end-to-end tests take three times as long, and the
# cli's passed 10 minutes, go test's default.
TEST := $(GO) test -count=1 -timeout 30m

# Under the detector every test binary, and every child a test starts from
# it (a helper, exec's spawner), sleeps a second as it exits with status 0
# (GORACE's atexit_sleep_ms, a grace for other goroutines' reports): about
# thirty such exits made internal/targets/command take 35 s, not 10. The
# detector still reports every race it sees.
RACE := GORACE=atexit_sleep_ms=0 $(TEST) -race

# The plain run and the race run go side by side: each leaves a CPU idle
# for long stretches (a package's last slow test, a link), which the other
# fills. Each one's output is printed whole when it ends (-O, GNU make 4
# or later), so the two never interleave.
test: cross
	$(GO) vet ./...
	$(MAKE) --no-print-directory -j2 -O test-plain race

test-plain:
	$(TEST) ./...

race:
	$(RACE) $(RACE_PKGS)

# Regenerate the sample outputs of README.md and docs/ (real runs: do it
# on a quiet machine).
readme:
	$(GO) run ./scripts/readme

# The README's picture of the HTML report: a real run, rendered by headless
# Chromium (apt-get install chromium) into docs/images/report.png.
CHROMIUM ?= chromium
screenshot: build
	@mkdir -p docs/images
	@tmp=$$(mktemp -d) && \
	  bin/benchy run --compare concat/quadratic,concat/builder --html $$tmp/report.html >/dev/null && \
	  $(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,1400 \
	    --screenshot=docs/images/report.png file://$$tmp/report.html 2>/dev/null; \
	  status=$$?; rm -rf $$tmp; exit $$status

# A program that imports benchy must build on a colleague's Mac or Windows
# machine too (there benchy measures unpinned); on a Mac its tests must
# compile too (vet type-checks the test files), so a helper that only Linux
# has is seen here, not there.
# For macOS, vet compiles every package and its tests (it needs their
# export data) without linking the commands: the same proof that benchy
# builds there as go build, and its tests too. For Windows the tests are
# Unix-only (signals, FIFOs, credentials): every package is compiled, the
# commands too, by go list -export, which does not link them (go build
# linked five Windows executables each time, 16 s of CPU; benchy has no
# cgo or linkname that only a link would check).
cross:
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=windows GOARCH=amd64 $(GO) list -export -f '{{.Export}}' ./... >/dev/null

# Short fuzzing of every parser (FUZZTIME per target, default 10s). The
# minimizing of each new input is capped (-fuzzminimizetime): by default Go
# may spend a minute shrinking one input of a large seed, and fuzz nothing.
FUZZTIME ?= 10s
FUZZMINIMIZE ?= 1s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg || exit 1; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . ./...

clean:
	rm -rf bin
