# benchy: `make run` measures the default experiments on an auto-chosen CPU;
# `make test` runs every test (what CI runs).
GO ?= go
BIN := bin/benchy

.PHONY: build run test smoke fuzz bench vet cross clean

build:
	$(GO) build -o $(BIN) ./cmd/benchy

run: build
	./$(BIN) run

smoke: build
	./$(BIN) run --smoke

test: cross
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# A program that imports benchy must build on a colleague's Mac or Windows
# machine too (there benchy measures unpinned).
cross:
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) build ./...

# Short fuzzing of every parser (FUZZTIME per target, default 10s).
FUZZTIME ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . ./...

clean:
	rm -rf bin
