#!/usr/bin/env bash
# scripts/gpu-zero-loop.sh - the zero loop on a machine with many cores and a GPU (for example
# 16 cores and an H100, with PyTorch but no Go), for a fixed wall time, then everything needed
# to measure or resume the run packed into two archives.
#
#   scripts/gpu-zero-loop.sh prepare     # on a machine with Go: build the bundle into BUNDLE (git-ignored)
#   scripts/gpu-zero-loop.sh run         # on the GPU machine, from the checkout's root, BUNDLE beside it
#   scripts/gpu-zero-loop.sh climb       # the same for the rounds of `engine climb` instead of the loop
#
# prepare builds a cgo `engine` (dynamically linked: it needs glibc 2.34 or newer; the building
# machine's glibc is copied into BUNDLE/glibc as a fallback for older ones), copies
# libonnxruntime.so.1 (make ort) and adds BUNDLE to .git/info/exclude, so a tool that ships the
# working tree can carry it (about 50 MB). run starts `engine train --init-network NETWORK` with
# one self-play worker per core less two, the trainer on the GPU (train.py --device auto), stops
# it after DURATION seconds (the loop resumes from its directory) and writes to OUT:
#   machine.txt      what ran where, the loop's exit status
#   loop.log         the loop's output
#   nets.tar.gz      the run directory without its chunks: nets/*.onnx, state.json, gating.csv,
#                    games.pgn and trainer/checkpoint.pt (resume: unpack, add chunks, same flags)
#   chunks.tar.gz    the newest CHUNKS chunk files (the replay window a resumed run trains on)
# climb runs `engine climb --init-network NETWORK` instead (the rounds of policy iteration, with
# their defaults: 24,000 games a round, the ladder at 800 playouts), self-play and the ladder
# on the cores less two, the trainer on the GPU (--device auto), for DURATION seconds, and
# writes machine.txt, climb.log and
#   climb.tar.gz     the run directory without the chunk files and sample sets of the finished
#                    rounds (the current round's are in it, and with --window N in CLIMB_FLAGS
#                    the chunk files of the N - 1 rounds before it): unpack it anywhere and run
#                    `engine climb --run-dir DIR` with the same flags to go on
#
# Environment (defaults in brackets; relative paths are from the checkout's root):
#   BUNDLE     the folder carried to the GPU machine [gpu-bundle]
#   OUT        where the results go [runs/gpu-zero-loop/out]
#   RUN        the run directory [runs/gpu-zero-loop/run; climb: runs/gpu-zero-climb/run]
#   DURATION   wall seconds of the loop [480]
#   NETWORK    the starting network [<default>: the embedded one]
#   WORKERS    self-play workers [cores - 2]
#   GAMES, STEPS  games and training steps per iteration [32 per worker, 60 per 128 games];
#              climb: GAMES is the games a round [engine climb's 24,000]
#   CLIMB_FLAGS   climb: more flags of engine climb (--rounds, --steps, --lr, ...) [none]
#   CHUNKS     chunk files brought back [64]
#   RECIPE     the rest of the loop's flags [below; --window 3000: train on every game made,
#              not only the newest files (the replay window)]
set -uo pipefail

die() { echo "gpu-zero-loop.sh: $*" >&2; exit 2; }

cd "$(dirname "$0")/.." || die "no checkout"
ROOT=$(pwd)
BUNDLE=${BUNDLE:-gpu-bundle}
B=$ROOT/$BUNDLE

prepare() {
	mkdir -p "$B/glibc" || die "cannot create $B"
	local exclude
	exclude="$(git rev-parse --git-dir)/info/exclude"
	mkdir -p "$(dirname "$exclude")"
	grep -qx "/$BUNDLE/" "$exclude" 2>/dev/null || echo "/$BUNDLE/" >>"$exclude"
	GOEXPERIMENT=${GOEXPERIMENT:-simd} CGO_ENABLED=1 go build -ldflags "-s -w" -o "$B/engine" ./cmd/engine ||
		die "go build failed"
	[ -f lib/libonnxruntime.so.1 ] || make ort || die "no lib/libonnxruntime.so.1 (make ort)"
	cp -L lib/libonnxruntime.so.1 "$B/" || die "cannot copy ONNX Runtime"
	local l
	for l in libc.so.6 libm.so.6 libdl.so.2 librt.so.1 libpthread.so.0 libstdc++.so.6 libgcc_s.so.1; do
		cp -L "$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ {print $NF; exit}')" "$B/glibc/" ||
			die "cannot copy $l"
	done
	cp -L /lib64/ld-linux-x86-64.so.2 "$B/glibc/" || die "cannot copy the loader"
	du -sh "$B"
	git status --short --ignored "$BUNDLE" | grep -q '^!!' || die "$BUNDLE is not ignored by git"
}

# machine OUT: what runs where into OUT/machine.txt; sets ENG, the engine's command (with the
# carried glibc where the machine's is too old), and PY, the Python.
machine() {
	[ -x "$B/engine" ] || die "no $B/engine: run 'scripts/gpu-zero-loop.sh prepare' first"
	PY=$(command -v python3) || die "no python3"
	mkdir -p "$1" || die "cannot create $1"
	export PYTHONUNBUFFERED=1
	# PyTorch 2.6+ loads checkpoints with weights_only=True; the trainer's own are trusted.
	export TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1
	{
		date -u
		echo "cores $(nproc)"
		nvidia-smi -L
		ldd --version | head -1
		"$PY" -c 'import torch, onnx; print("torch", torch.__version__, "onnx", onnx.__version__, "cuda", torch.cuda.is_available())'
	} >"$1/machine.txt" 2>&1
	ENG=("$B/engine")
	if ! "$B/engine" version >/dev/null 2>&1; then
		chmod +x "$B/glibc/ld-linux-x86-64.so.2"
		ENG=("$B/glibc/ld-linux-x86-64.so.2" --library-path "$B/glibc" "$B/engine")
		echo "the engine needs a newer glibc: using the carried one" >>"$1/machine.txt"
	fi
	"${ENG[@]}" version >>"$1/machine.txt" 2>&1
}

run() {
	local out=${OUT:-$ROOT/runs/gpu-zero-loop/out} run=${RUN:-$ROOT/runs/gpu-zero-loop/run} dur=${DURATION:-480}
	local workers=${WORKERS:-$(($(nproc) - 2))}
	((workers >= 1)) || workers=1
	local games=${GAMES:-$((32 * workers))}
	local steps=${STEPS:-$((games * 60 / 128))}
	local recipe=${RECIPE:-"--gumbel 16 --playouts 200 --fast-playouts 32 --parallel 16 --max-plies 300 --window 3000 --lr 0.01 --gate-games 0 --ladder-every 0 --seed 20"}
	machine "$out"
	echo "workers $workers games $games steps $steps duration $dur s: $recipe" >>"$out/machine.txt"
	cat "$out/machine.txt"
	# shellcheck disable=SC2086 # RECIPE is a list of flags
	timeout -k 20 -s INT "$dur" "${ENG[@]}" train --run-dir "$run" --init-network "${NETWORK:-<default>}" \
		--trainer "$ROOT/azero/train" --python "$PY" --onnxruntime "$B/libonnxruntime.so.1" \
		--workers "$workers" --games "$games" --steps "$steps" $recipe >"$out/loop.log" 2>&1
	echo "loop exit status $? (124: stopped after $dur s)" | tee -a "$out/machine.txt"
	tail -20 "$out/loop.log"
	tar -czf "$out/nets.tar.gz" -C "$run" --exclude=./chunks --exclude=./lock --exclude='iter-*.pt' . ||
		echo "could not pack the run directory"
	(cd "$run" && ls -t chunks/ 2>/dev/null | head -"${CHUNKS:-64}" | sed 's|^|chunks/|') >"$out/chunks.list"
	tar -czf "$out/chunks.tar.gz" -C "$run" -T "$out/chunks.list" || echo "could not pack the chunks"
	ls -la "$out"
}

# climb: the rounds of `engine climb` for DURATION seconds, self-play and the ladder on the cores,
# the trainer on the GPU; OUT/climb.tar.gz is the run directory without the chunk files and
# sample sets of the finished rounds, enough for the same command to resume it anywhere.
climb() {
	local out=${OUT:-$ROOT/runs/gpu-zero-loop/out} run=${RUN:-$ROOT/runs/gpu-zero-climb/run} dur=${DURATION:-480}
	local workers=${WORKERS:-$(($(nproc) - 2))}
	((workers >= 1)) || workers=1
	local flags=${CLIMB_FLAGS:-}
	machine "$out"
	echo "climb: workers $workers duration $dur s: ${GAMES:+--games $GAMES }$flags" >>"$out/machine.txt"
	cat "$out/machine.txt"
	# shellcheck disable=SC2086 # CLIMB_FLAGS is a list of flags
	timeout -k 20 -s INT "$dur" "${ENG[@]}" climb --run-dir "$run" --init-network "${NETWORK:-<default>}" \
		--trainer "$ROOT/azero/train" --python "$PY" --onnxruntime "$B/libonnxruntime.so.1" --device auto \
		--workers "$workers" --ladder-workers "$workers" ${GAMES:+--games "$GAMES"} $flags >"$out/climb.log" 2>&1
	echo "climb exit status $? (124: stopped after $dur s)" | tee -a "$out/machine.txt"
	tail -20 "$out/climb.log"
	local cur d n window=1 skip=()
	cur=$(sed -n 's/^ *"round": \([0-9]*\),*$/\1/p' "$run/state.json" 2>/dev/null | head -1)
	[[ $flags =~ --window[=\ ]+([0-9]+) ]] && window=${BASH_REMATCH[1]}
	for d in "$run"/round-*/; do
		d=${d%/}
		d=${d##*/}
		n=$((10#${d#round-}))
		if [ "$n" = "${cur:--1}" ]; then
			continue
		elif ((n < ${cur:-0} && n > ${cur:-0} - window)); then
			skip+=(--exclude="./$d/set") # the window's games go on with the run
		else
			skip+=(--exclude="./$d/chunks" --exclude="./$d/set")
		fi
	done
	tar -czf "$out/climb.tar.gz" -C "$run" --exclude=./lock "${skip[@]}" . || echo "could not pack the run directory"
	ls -la "$out"
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
climb) climb ;;
*) die "usage: scripts/gpu-zero-loop.sh prepare|run|climb" ;;
esac
