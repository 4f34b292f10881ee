# Twofold: `make run` builds and starts the engine (UCI on stdin/stdout),
# `make test` runs every check CI runs. Both install what they need
# themselves: Go modules, the ONNX Runtime library (into lib/, from the npm
# registry), and for tests Debian's python3-torch for the trainer.

# bash with pipefail, so "cmd | tail" recipes still fail when cmd fails.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

GO      ?= go
# The NNUE vector kernels (simd/archsimd, Go 1.26) are built in; plain
# "go build" and "make GOEXPERIMENT=" still work, with the Go kernels.
GOEXPERIMENT ?= simd
export GOEXPERIMENT
# OpenBench's convention: make EXE=path builds the engine to that path.
EXE     ?= bin/engine
BIN     := $(EXE)
RUN_BIN := $(abspath $(BIN))
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/twofold-chess/twofold/uci.Version=$(VERSION)

# ONNX Runtime for the MCTS searcher: the engine finds lib/ beside or above
# its binary (or $$ONNXRUNTIME_LIB, or the OnnxRuntimeLib option).
ORT_VERSION := 1.24.3
ORT_LIB     := lib/libonnxruntime.so.1
PYTHON      := /usr/bin/python3
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Tests must not skip the ONNX Runtime tests for want of the library.
export TWOFOLD_REQUIRE_ORT := 1

.PHONY: all build run test deps ort py-deps fmt-check vet unit race pytest train-smoke perft-suites perft-full bench-perft bench-mcts fuzz fuzz-short clean nocgo-test cross-deps cross-build wine-check qemu-check release

all: build

deps: ort
	$(GO) mod download

# The library ships in the onnxruntime-node npm package; only the library
# files are taken (npm install would run a postinstall that downloads
# more). ort-extract copies package/bin/napi-v6/$(1) to $(2); npm's cache
# keeps the package, so each further extraction is local.
define ort-extract
@mkdir -p $(dir $(2))
@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
  (cd "$$tmp" && npm pack --silent onnxruntime-node@$(ORT_VERSION) >/dev/null && \
   tar xzf onnxruntime-node-$(ORT_VERSION).tgz package/bin/napi-v6/$(1)) && \
  cp "$$tmp/package/bin/napi-v6/$(1)" $(2).tmp && mv $(2).tmp $(2)
@echo "installed ONNX Runtime $(ORT_VERSION) ($(1)) into $(2)"
endef

# Without npm (or when the registry cannot be reached) the engine still
# builds and plays AlphaBeta: only Search=MCTS, selfplay, ladder, train and
# the tests that need the library go without it, and they say so.
ort:
	@if [ -f $(ORT_LIB) ]; then :; \
	elif ! command -v npm >/dev/null 2>&1; then \
	  echo "note: npm not found, so ONNX Runtime was not installed into $(ORT_LIB): the engine builds and plays AlphaBeta;"; \
	  echo "      Search=MCTS, selfplay, ladder and train need it (install npm, then run make ort)"; \
	else $(MAKE) --no-print-directory $(ORT_LIB) || \
	  echo "note: could not fetch ONNX Runtime with npm: the engine builds and plays AlphaBeta; MCTS needs $(ORT_LIB)"; fi
$(ORT_LIB):
	$(call ort-extract,linux/x64/libonnxruntime.so.1,$@)

# PyTorch for azero/train (CPU; Debian's packages, as PyPI is not reachable).
py-deps:
	@$(PYTHON) -c 'import torch, numpy, matplotlib, onnx' 2>/dev/null || \
	  ($(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-numpy python3-matplotlib python3-onnx libopenblas0-pthread >/dev/null)

build: deps
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/engine

run: build
	$(RUN_BIN)

test: fmt-check vet unit race nocgo-test pytest perft-suites train-smoke fuzz-short fuzz-syzygy test-browser

# The AlphaBeta-only build (no cgo, so no ONNX Runtime binding): vet, the
# tests that say MCTS is not in it, and a build for every release platform.
nocgo-test:
	CGO_ENABLED=0 $(GO) vet ./...
	CGO_ENABLED=0 $(GO) test -short ./uci ./azero/... ./cmd/engine
	@for p in $(PLATFORMS); do \
	  echo "CGO_ENABLED=0 GOOS=$${p%-*} GOARCH=$${p#*-} go build ./cmd/engine"; \
	  CGO_ENABLED=0 GOOS=$${p%-*} GOARCH=$${p#*-} $(GO) build -o /dev/null ./cmd/engine || exit 1; done

pytest: py-deps
	$(PYTHON) -m unittest discover -s azero/train
	$(PYTHON) -m unittest discover -s nnue/train
	$(PYTHON) -m unittest discover -s scripts -p "*_test.py"

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt wants to change:"; echo "$$out"; exit 1; fi

vet: deps
	$(GO) vet ./...

unit: deps
	$(GO) test ./...
	GOEXPERIMENT= $(GO) test -short ./nnue ./search
	$(GO) test -tags spsa -run Tun ./uci ./search

race: deps
	$(GO) test -race -short ./...

# The binary's own suite mode, as a user runs it, over every suite position
# (counts up to 5M nodes each; `make perft-full` checks all of them).
perft-suites: build
	$(RUN_BIN) perft --suite testdata/perft126.epd --max-nodes 5000000 | tail -4
	$(RUN_BIN) perft --suite testdata/cpw_perft6.epd --max-nodes 5000000 | tail -4
	$(RUN_BIN) perft --suite testdata/frc_perft.epd --max-nodes 5000000 | tail -4

# The whole AlphaZero loop in miniature: self-play, training, export, gating,
# ladder, plot; then a second invocation must resume at iteration 2.
SMOKE := $(shell mktemp -u /tmp/twofold-smoke-XXXXXX)
TINY  := --games 4 --parallel 4 --playouts 8 --max-plies 80 --steps 3 --batch 32 --blocks 1 --channels 8 \
         --gate-games 2 --gate-playouts 8 --ladder-every 1 --ladder-games 2 --ladder-playouts 8 --workers 1 --q-ratio 0.5
TINY_CLIMB := --games 8 --chunk-games 1 --workers 1 --parallel 4 --playouts 8 --fast-playouts 4 --gumbel 4 --max-plies 80 \
         --holdout 2 --steps 3,2 --lr 0.01,0.001 --batch 32 --threads 1 --ladder-games 2 --ladder-playouts 8 \
         --ladder-rungs random,greedy --ladder-seeds 1,2 --progress 0s --python $(PYTHON)
train-smoke: build py-deps
	$(RUN_BIN) train --run-dir $(SMOKE) --iterations 1 $(TINY) > $(SMOKE).log 2>&1 || (cat $(SMOKE).log; exit 1)
	$(RUN_BIN) train --run-dir $(SMOKE) --iterations 2 $(TINY) > $(SMOKE).log2 2>&1 || (cat $(SMOKE).log2; exit 1)
	grep -q '^== iteration 2 (selfplay)' $(SMOKE).log2 && ! grep -q '^== iteration 1 ' $(SMOKE).log2
	test $$(ls $(SMOKE)/chunks/*.twfc.gz | wc -l) -ge 2 && test -s $(SMOKE)/games.pgn
	test -s $(SMOKE)/nets/iter-0002.onnx && test -s $(SMOKE)/nets/iter-0002.pt && test -s $(SMOKE)/ladder.png && test $$(wc -l < $(SMOKE)/ladder.csv) -eq 3
	test $$(grep -c '^\[Event "Twofold gating' $(SMOKE)/gating.pgn) -eq 4 && test $$(grep -c '^\[Event "Twofold ladder' $(SMOKE)/ladder.pgn) -eq 24
	$(RUN_BIN) ladder --network $(SMOKE)/nets/iter-0002.onnx --games 2 --playouts 8 --rungs random,greedy --workers 1 --pgn $(SMOKE)/l.pgn | tail -4
	test $$(grep -c '^\[Result ' $(SMOKE)/l.pgn) -eq 4
	# A win/draw/loss value head: trained, exported as the scalar the engine reads, loaded, gated.
	$(RUN_BIN) train --run-dir $(SMOKE)-wdl --iterations 1 $(TINY) --wdl --ladder-every 0 > $(SMOKE).log3 2>&1 || (cat $(SMOKE).log3; exit 1)
	grep -q 'x8 WDL net' $(SMOKE).log3 && grep -q '^gate: nets/iter-0001.onnx' $(SMOKE).log3 && test -s $(SMOKE)-wdl/nets/iter-0001.onnx
	rm -rf $(SMOKE) $(SMOKE)-wdl $(SMOKE).log $(SMOKE).log2 $(SMOKE).log3
	# The rounds of engine climb in miniature, from the embedded network: self-play, sample set,
	# two training segments, held-out loss, ladder under two seeds, the promotion test, the
	# curve; then a second invocation must go on with round 2 (every candidate promoted), trained
	# with the opt-in weight average and surprise weighting: its export is the average, vetted.
	$(RUN_BIN) climb --run-dir $(SMOKE)-climb --rounds 1 $(TINY_CLIMB) > $(SMOKE).log4 2>&1 || (cat $(SMOKE).log4; exit 1)
	grep -q '^round 1 check: held-out loss on ' $(SMOKE).log4 && grep -q '^round 1 promote: round-001/network.onnx against round-000/network.onnx: ' $(SMOKE).log4
	! grep -q 'weight average' $(SMOKE).log4
	$(RUN_BIN) climb --run-dir $(SMOKE)-climb --rounds 2 --always-promote --ema 0.99 --surprise-weight 0.5 $(TINY_CLIMB) > $(SMOKE).log5 2>&1 || (cat $(SMOKE).log5; exit 1)
	grep -q '^== round 2: selfplay;' $(SMOKE).log5 && ! grep -q '^== round [01]: ' $(SMOKE).log5 && grep -q '^done: 2 rounds; the current network is .*/round-002/network.onnx' $(SMOKE).log5
	grep -q 'round-002/network.onnx (the weight average of 5 updates)' $(SMOKE).log5 && grep -q '^policy-surprise weighting: 0.5 ' $(SMOKE).log5
	test -s $(SMOKE)-climb/round-002/network.onnx && test -s $(SMOKE)-climb/round-002/network.pt && test -s $(SMOKE)-climb/round-002/heldout.json && cmp -s $(SMOKE)-climb/best.onnx $(SMOKE)-climb/round-002/network.onnx
	test $$(wc -l < $(SMOKE)-climb/curve.csv) -eq 4 && test $$(wc -l < $(SMOKE)-climb/rounds.csv) -eq 3 && test -s $(SMOKE)-climb/curve.png
	test $$(grep -c '^\[Event "Twofold ladder, round-002/network.onnx, seed 2"' $(SMOKE)-climb/round-002/ladder/8p-2g-greedy+random-*/seed-2.pgn) -eq 4
	rm -rf $(SMOKE)-climb $(SMOKE).log4 $(SMOKE).log5

# The UCI stress fuzzer (ucifuzz) against the built engine: both minds,
# mutated commands, FENs, options, absurd numbers, huge lines and go/stop/
# ponderhit/quit interleavings; it checks liveness, isready within 2 s,
# bestmove legality and stop latency, and saves a reproducer per failure
# class. make test runs a short one; make fuzz the long one (SEED=n to vary).
FUZZ_INPUTS ?= 100000
fuzz: build
	$(GO) build -o bin/ucifuzz ./cmd/ucifuzz
	./bin/ucifuzz --engine $(RUN_BIN) --inputs $(FUZZ_INPUTS) --parallel 2 --seed $${SEED:-1} --huge-hash --risky --repro-dir /tmp/twofold-ucifuzz

fuzz-short: build
	$(GO) build -o bin/ucifuzz ./cmd/ucifuzz
	./bin/ucifuzz --engine $(RUN_BIN) --inputs 2000 --parallel 2 --seed $${SEED:-1} --repro-dir /tmp/twofold-ucifuzz-short

# Syzygy tablebases (docs/tablebases.md). fuzz-syzygy feeds FUZZ_EXECS
# mutated table files to the prober (make test; FUZZ_EXECS=.. to vary). A
# count, not a time: Go 1.26's fuzzer can fail a run whose -fuzztime
# deadline ends while a worker is busy (golang/go#75804); counts (of runs,
# and of minimization tries) have no deadline.
# tb-check compares the prober with Debian's fathom on TB_POSITIONS random
# positions spread over every table in TBDIR (fathom installed with apt):
#   make tb-check TBDIR=/path/to/tables
FUZZ_EXECS   ?= 30000
TB_POSITIONS ?= 100000
.PHONY: fuzz-syzygy tb-check fathom
fuzz-syzygy:
	$(GO) test -run '^$$' -fuzz FuzzTable -fuzztime $(FUZZ_EXECS)x -fuzzminimizetime 100x -parallel 1 ./syzygy

fathom:
	@command -v fathom >/dev/null 2>&1 || test -x /usr/games/fathom || \
	  ($(SUDO) apt-get update -qq || true; $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fathom >/dev/null)

tb-check: fathom
	@test -n "$(TBDIR)" || (echo "usage: make tb-check TBDIR=<directory of .rtbw and .rtbz files>"; exit 2)
	$(GO) run ./cmd/tbcheck --tbdir "$(TBDIR)" --positions $(TB_POSITIONS) --parallel 2

# Every reference count, including the billion-node ones (a few minutes).
perft-full: build
	$(RUN_BIN) perft --suite testdata/perft126.epd
	$(RUN_BIN) perft --suite testdata/cpw_perft6.epd
	$(RUN_BIN) perft --suite testdata/frc_perft.epd

# Speed: Go benchmarks plus the classic perft positions.
bench-perft: build
	$(GO) test -run '^$$' -bench . -benchmem ./movegen ./board ./perft
	$(RUN_BIN) perft --depth 6
	$(RUN_BIN) perft --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" --depth 5
	$(RUN_BIN) perft --fen "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" --depth 7

# MCTS speed: raw ONNX Runtime rates at batch 1-32 and playouts/s.
bench-mcts: build
	$(RUN_BIN) bench --search mcts --movetime 10000

# Cross builds into bin/<os>-<arch>/, the binary named twofold (GUIs list
# engines by file name) with ONNX Runtime beside it where it has both minds:
# Linux amd64 and arm64 and Windows amd64, with cgo through Debian's cross
# compilers and the library from the same npm package. macOS (no cross cgo
# toolchain here) and Windows arm64 (no arm64 mingw-w64 in Debian) are
# AlphaBeta-only builds.
PLATFORMS := linux-amd64 linux-arm64 windows-amd64 windows-arm64 darwin-amd64 darwin-arm64
CC_linux-amd64       := gcc
CC_linux-arm64       := aarch64-linux-gnu-gcc
CC_windows-amd64     := x86_64-w64-mingw32-gcc
ORTLIB_linux-amd64   := $(ORT_LIB)
ORTLIB_linux-arm64   := lib/linux-arm64/libonnxruntime.so.1
ORTLIB_windows-amd64 := lib/windows-amd64/onnxruntime.dll

lib/linux-arm64/libonnxruntime.so.1:
	$(call ort-extract,linux/arm64/libonnxruntime.so.1,$@)
lib/windows-amd64/onnxruntime.dll:
	$(call ort-extract,win32/x64/onnxruntime.dll,$@)

# Debian's cross compilers, wine, qemu-user and zip, installed when missing.
cross-deps:
	@command -v x86_64-w64-mingw32-gcc >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null && command -v zip >/dev/null || \
	  ($(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross zip >/dev/null)

platform-%: cross-deps
	$(if $(ORTLIB_$*),@$(MAKE) --no-print-directory $(ORTLIB_$*))
	@rm -rf bin/$* && mkdir -p bin/$*
	CGO_ENABLED=$(if $(CC_$*),1 CC=$(CC_$*),0) GOOS=$(word 1,$(subst -, ,$*)) GOARCH=$(word 2,$(subst -, ,$*)) \
	  $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS)" -o bin/$*/twofold$(if $(findstring windows,$*),.exe) ./cmd/engine
	$(if $(ORTLIB_$*),cp $(ORTLIB_$*) bin/$*/)

cross-build: $(addprefix platform-,$(PLATFORMS))

# The Windows build with both minds under wine: UCI handshake, go with
# AlphaBeta and MCTS, bench, perft (about a minute; not part of make test).
# Debian 12's wine lacks bcryptprimitives.dll, which Go programs need since
# Go 1.24 (every Windows 10 and 11 has it), so the prefix gets a stand-in.
wine-check: platform-windows-amd64
	@command -v wine >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wine wine64 >/dev/null)
	@export WINEDEBUG=-all WINEPREFIX=$${WINEPREFIX:-/tmp/twofold-wine} && \
	  wineboot -i >/dev/null 2>&1; \
	  x86_64-w64-mingw32-gcc -O2 -shared -o "$$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" scripts/bcryptprimitives.c -ladvapi32 && \
	  scripts/crosscheck.sh wine bin/windows-amd64/twofold.exe

# The same for Linux arm64 under qemu-user (slow: emulated).
qemu-check: platform-linux-arm64
	@command -v qemu-aarch64 >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null)
	scripts/crosscheck.sh "qemu-aarch64 -L /usr/aarch64-linux-gnu" bin/linux-arm64/twofold

# Release archives: dist/twofold-<version>-<os>-<arch>.tar.gz (.zip for
# Windows), each a folder with the binary, ONNX Runtime where the build uses
# it, LICENSE and README.txt; dist/SHA256SUMS lists them.
release:
	@rm -rf dist && mkdir -p dist
	@for p in $(PLATFORMS); do \
	  $(MAKE) --no-print-directory platform-$$p VERSION=$(VERSION) || exit 1; \
	  name=twofold-$(VERSION)-$$p; mkdir -p dist/$$name && cp bin/$$p/* LICENSE dist/$$name/ && \
	  sed 's/@VERSION@/$(VERSION)/; s/@PLATFORM@/'$$p'/' docs/release-README.txt > dist/$$name/README.txt || exit 1; \
	  case $$p in \
	    windows-*) (cd dist && zip -qrX $$name.zip $$name) ;; \
	    *) tar -C dist --sort=name --owner=0 --group=0 --numeric-owner -czf dist/$$name.tar.gz $$name ;; \
	  esac || exit 1; rm -rf dist/$$name; done
	cd dist && sha256sum twofold-* > SHA256SUMS
	@ls -l dist

clean:
	rm -rf bin lib dist

# Strength testing (scripts/README.md); fastchess is built outside the project
# and found through $FASTCHESS or PATH. make sprt [BASE=<rev>] [TC=..]:
# an SPRT of the working tree against BASE (default HEAD); make gauntlet
# [GAMES=..] [OPPONENTS_FILE=..]: against Debian's engines or the listed ones.
# Settings reach the scripts through the environment (see their headers).
.PHONY: sprt gauntlet
sprt:
	scripts/sprt.sh
gauntlet:
	scripts/gauntlet.sh

# The board in the browser (README, "Play in the browser"): make play builds
# the engine and serves the page on 127.0.0.1:8080 (PLAY_FLAGS to change,
# e.g. PLAY_FLAGS="--addr 127.0.0.1:9000 --open"); the binary prints the URL.
# make test-browser drives the page in Debian's headless Chromium (installed
# with apt, idempotently; never a downloaded browser) and keeps the
# screenshots in $(BROWSER_OUT).
PLAY_FLAGS  ?=
BROWSER_OUT ?= /tmp/twofold-browser
.PHONY: play test-browser chromium
play: build
	$(RUN_BIN) serve $(PLAY_FLAGS)

chromium:
	@command -v chromium >/dev/null 2>&1 || \
	  ($(SUDO) apt-get update -qq || true; $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

test-browser: deps chromium
	TWOFOLD_REQUIRE_BROWSER=1 TWOFOLD_BROWSER_OUT=$(BROWSER_OUT) $(GO) test -count=1 -run TestBrowser -v ./play
