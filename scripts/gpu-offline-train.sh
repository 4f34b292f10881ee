#!/usr/bin/env bash
# scripts/gpu-offline-train.sh - train networks from scratch on all of a run's games on a GPU
# machine (PyTorch, no Go needed), several shapes at once, then export them and measure them on
# held-out games. Its first three segments made n4x32, from which the shipped MCTS network
# descends, on one H200 GPU in minutes (scripts/recipe-zero.sh, stages n4x32 and n4x32ft, holds
# the whole recipe).
#
#   scripts/gpu-offline-train.sh prepare CHUNKS [HOLDOUT]   # where the games are: CHUNKS -> BUNDLE/set
#   scripts/gpu-offline-train.sh run                         # on the GPU machine, from the checkout's root
#
# prepare packs every sample of the chunk directory CHUNKS into a sample set
# (azero/train/sampleset.py; 1.05M samples take 43 MB, small enough to copy anywhere), the
# newest HOLDOUT chunk files [24] held out, and adds BUNDLE to .git/info/exclude when it is
# inside the checkout. run trains each of SHAPES in its own process on the one GPU, in four
# segments: STEPS1 and STEPS2 steps at LR over every sample, STEPS3 at LR3 (SGD's learning-rate
# drop), then STEPS4 at LR4 on the newest RECENT samples only (the games of the strongest
# networks; 0 steps skips a segment), each also ended by a wall-clock deadline (E1..E4 seconds
# after the start) so the whole run fits a fixed time budget; it exports every segment's
# checkpoint (NAME-cN.onnx) and writes to OUT:
#   eval.txt       held-out policy loss and value error of every checkpoint (evaluate.py), and
#                  the same on the training split's newest samples (the overfitting gap)
#   NAME.tar.gz    per shape: the trainer's log and NAME-c1..c4.onnx (the earlier segments'
#                  networks are left out while the archive is over MAX_ARCHIVE_BYTES)
#   log.txt        the machine and the timings
#
# Environment (defaults in brackets; relative paths are from the checkout's root):
#   BUNDLE   the folder carried to the GPU machine, in the checkout or absolute [gpu-bundle]
#   OUT      results [runs/gpu-offline-train/out]; RUN  the trainers' run directories [runs/gpu-offline-train/run]
#   SHAPES   comma-separated "NAME train.py-flags" [n4x32, n4x64, n6x64, n6x64w (WDL), n6x96, n8x128]
#   STEPS1 STEPS2 STEPS3 STEPS4 [4000 4000 2000 800]  LR LR3 LR4 [0.02 0.002 0.003]  RECENT [400000]
#   BATCH [1024]  E1 E2 E3 E4 [210 350 430 480]  DEVICE [cuda]  PYTHON [python3]
#   MAX_ARCHIVE_BYTES [16000000]
set -uo pipefail

die() { echo "gpu-offline-train.sh: $*" >&2; exit 2; }

cd "$(dirname "$0")/.." || die "no checkout"
case ${BUNDLE:=gpu-bundle} in
/*) B=$BUNDLE ;;
*) B=$(pwd)/$BUNDLE ;;
esac
PY=${PYTHON:-python3}

prepare() {
	local chunks=${1:-} holdout=${2:-24}
	[ -d "$chunks" ] || die "usage: scripts/gpu-offline-train.sh prepare CHUNK-DIR [HOLDOUT]"
	mkdir -p "$B" || die "cannot create $B"
	if [ "${BUNDLE#/}" = "$BUNDLE" ]; then # inside the checkout: keep it out of git
		local exclude
		exclude="$(git rev-parse --git-dir)/info/exclude"
		grep -qx "/$BUNDLE/" "$exclude" 2>/dev/null || echo "/$BUNDLE/" >>"$exclude"
	fi
	"$PY" azero/train/sampleset.py --chunks "$chunks" --out "$B/set" --holdout "$holdout" || die "packing failed"
	du -sh "$B/set"
}

# shape NAME T0 FLAGS...: four segments, each ended by an export of its checkpoint.
shape() {
	local name=$1 t0=$2
	shift 2
	local dir=$RUN/$name
	mkdir -p "$dir"
	local tr=("$PY" azero/train/train.py --sample-set "$B/set" --run-dir "$dir" --batch "${BATCH:-1024}"
		--device "${DEVICE:-cuda}" --threads 2 --log-every 500 --checkpoint-every 500 --seed 33 "$@")
	local seg steps lr deadline recent
	for seg in 1 2 3 4; do
		recent=0
		case $seg in
		1) steps=${STEPS1:-4000} lr=${LR:-0.02} deadline=${E1:-210} ;;
		2) steps=${STEPS2:-4000} lr=${LR:-0.02} deadline=${E2:-350} ;;
		3) steps=${STEPS3:-2000} lr=${LR3:-0.002} deadline=${E3:-430} ;;
		4) steps=${STEPS4:-800} lr=${LR4:-0.003} deadline=${E4:-480} recent=${RECENT:-400000} ;;
		esac
		((steps > 0)) || continue
		local left=$((t0 + deadline - $(date +%s)))
		((left < 5)) && left=5
		# SIGTERM: the trainer finishes its step and saves the checkpoint (no export).
		timeout -s TERM -k 30 "$left" "${tr[@]}" --steps "$steps" --lr "$lr" --window-samples "$recent" >>"$dir/log" 2>&1
		cp "$dir/checkpoint.pt" "$dir/c$seg.pt" || return
		"$PY" azero/train/export.py --checkpoint "$dir/c$seg.pt" --out "$dir/$name-c$seg.onnx" >>"$dir/log" 2>&1
	done
}

run() {
	[ -d "$B/set" ] || die "no $B/set: run 'scripts/gpu-offline-train.sh prepare CHUNKS' first"
	OUT=${OUT:-runs/gpu-offline-train/out}
	RUN=${RUN:-runs/gpu-offline-train/run}
	mkdir -p "$OUT" "$RUN" || die "cannot create $OUT or $RUN"
	export PYTHONUNBUFFERED=1
	# PyTorch 2.6+ loads checkpoints with weights_only=True; the trainer's own are trusted.
	export TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1
	local t0
	t0=$(date +%s)
	{
		date -u
		echo "cores $(nproc)"
		nvidia-smi -L
		"$PY" -c 'import torch, onnx; print("torch", torch.__version__, "onnx", onnx.__version__, "cuda", torch.cuda.is_available())'
		cat "$B/set/meta.json"
	} >"$OUT/log.txt" 2>&1
	local configs=("n4x32 --blocks 4 --channels 32" "n4x64 --blocks 4 --channels 64" "n6x64 --blocks 6 --channels 64"
		"n6x64w --blocks 6 --channels 64 --wdl" "n6x96 --blocks 6 --channels 96" "n8x128 --blocks 8 --channels 128")
	[ -n "${SHAPES:-}" ] && IFS=, read -ra configs <<<"$SHAPES"
	local c name
	for c in "${configs[@]}"; do
		read -ra c <<<"$c"
		shape "${c[0]}" "$t0" "${c[@]:1}" &
	done
	wait
	echo "training done after $(($(date +%s) - t0)) s" >>"$OUT/log.txt"
	local ckpts=("$RUN"/*/c?.pt)
	"$PY" azero/train/evaluate.py --sample-set "$B/set" --device "${DEVICE:-cuda}" "${ckpts[@]}" >"$OUT/eval.txt" 2>&1
	"$PY" azero/train/evaluate.py --sample-set "$B/set" --split train --last 7000 --device "${DEVICE:-cuda}" \
		"${ckpts[@]}" >>"$OUT/eval.txt" 2>&1
	for c in "$RUN"/*/; do
		name=$(basename "$c")
		local files=(log) n
		for n in 4 3 2 1; do [ -f "$c/$name-c$n.onnx" ] && files+=("$name-c$n.onnx"); done
		# at most MAX_ARCHIVE_BYTES an archive: drop the earlier segments' networks first
		for ((n = ${#files[@]}; n >= 2; n--)); do
			tar -czf "$OUT/$name.tar.gz" -C "$c" "${files[@]:0:n}" 2>/dev/null
			(($(stat -c %s "$OUT/$name.tar.gz") <= ${MAX_ARCHIVE_BYTES:-16000000})) && break
		done
	done
	echo "all done after $(($(date +%s) - t0)) s" >>"$OUT/log.txt"
	grep -v -i warn "$OUT/eval.txt"
	cat "$OUT/log.txt"
	ls -la "$OUT"
}

case "${1:-}" in
prepare) prepare "${@:2}" ;;
run) run ;;
*) die "usage: scripts/gpu-offline-train.sh prepare CHUNKS [HOLDOUT] | run" ;;
esac
