# Twofold: `make run` builds and starts the engine (UCI on stdin/stdout),
# `make test` runs every check CI runs. Both fetch Go modules themselves.

# bash with pipefail, so "cmd | tail" recipes still fail when cmd fails.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

GO      ?= go
BIN     := bin/engine
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/twofold-chess/twofold/uci.Version=$(VERSION)

.PHONY: all build run test deps fmt-check vet unit race perft-suites perft-full bench-perft clean

all: build

deps:
	$(GO) mod download

build: deps
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/engine

run: build
	./$(BIN)

test: fmt-check vet unit race perft-suites

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt wants to change:"; echo "$$out"; exit 1; fi

vet: deps
	$(GO) vet ./...

unit: deps
	$(GO) test ./...

race: deps
	$(GO) test -race -short ./...

# The binary's own suite mode, as a user runs it, over every suite position
# (counts up to 5M nodes each; `make perft-full` checks all of them).
perft-suites: build
	./$(BIN) perft --suite testdata/perft126.epd --max-nodes 5000000 | tail -4
	./$(BIN) perft --suite testdata/cpw_perft6.epd --max-nodes 5000000 | tail -4
	./$(BIN) perft --suite testdata/frc_perft.epd --max-nodes 5000000 | tail -4

# Every reference count, including the billion-node ones (a few minutes).
perft-full: build
	./$(BIN) perft --suite testdata/perft126.epd
	./$(BIN) perft --suite testdata/cpw_perft6.epd
	./$(BIN) perft --suite testdata/frc_perft.epd

# Speed: Go benchmarks plus the classic perft positions.
bench-perft: build
	$(GO) test -run '^$$' -bench . -benchmem ./movegen ./board ./perft
	./$(BIN) perft --depth 6
	./$(BIN) perft --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --depth 5
	./$(BIN) perft --fen "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" --depth 7

clean:
	rm -rf bin
