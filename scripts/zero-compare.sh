#!/usr/bin/env bash
# scripts/zero-compare.sh - a learning-efficiency comparison of self-play recipes at equal
# compute: every RECIPE runs `engine train` from scratch in its own run directory, all of them
# side by side for the same wall time (so each gets the same share of the cores), then the best
# network of each climbs the ladder. Prints a table: iterations, self-play games, promotions,
# best network and the score on each rung. The documentation's learning-efficiency tables
# were made with it (DURATION=1500: 25 minutes a recipe, three side by side on 2 cores).
#
# Usage:
#   scripts/zero-compare.sh "NAME FLAGS..." ["NAME FLAGS..." ...]
#   scripts/zero-compare.sh                      # the three recipes A, B, C (below)
#   DURATION=3600 RUN_DIR=runs/cmp-wdl scripts/zero-compare.sh "base --gumbel 16 --playouts 32 --fast-playouts 16" ...
#
# A RECIPE is a name followed by `engine train` flags; COMMON flags (below) come first, so a
# recipe's own flags override them. Run the same command again with the same RUN_DIR to
# resume: each loop resumes from its state.json, and its time starts again at DURATION.
#
# Environment (defaults in brackets):
#   ENGINE        engine binary [built from the working tree into RUN_DIR]
#   ONNXRUNTIME   libonnxruntime.so.1 [lib/libonnxruntime.so.1 of the checkout; make ort]
#   DURATION      wall seconds of each loop [1500]; 0 runs no loop, only the ladders of the
#                 run directories already in RUN_DIR (after an interrupted comparison)
#   COMMON        flags every recipe gets [see below]
#   LADDER_PLAYOUTS, LADDER_GAMES, LADDER_RUNGS
#                 the final ladder [200, 20, random,greedy,alphabeta-d1,alphabeta-d2]
#   RUN_DIR       run directories and logs [runs/zero-compare/<date>-<time>, git-ignored]
set -euo pipefail

die() { echo "zero-compare.sh: $*" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
RUN_DIR=$(realpath -m "${RUN_DIR:-$ROOT/runs/zero-compare/$(date +%Y%m%d-%H%M%S)}")
DURATION=${DURATION:-1500}
ONNXRUNTIME=${ONNXRUNTIME:-$ROOT/lib/libonnxruntime.so.1}
COMMON=${COMMON:---workers 1 --parallel 16 --games 128 --max-plies 300 --steps 60 --window 100 --blocks 4 --channels 32 --gate-games 20 --gate-playouts 64 --gate-random-plies 8 --gate-sample-moves 15 --ladder-every 0 --seed 1}
LADDER_PLAYOUTS=${LADDER_PLAYOUTS:-200}
LADDER_GAMES=${LADDER_GAMES:-20}
LADDER_RUNGS=${LADDER_RUNGS:-random,greedy,alphabeta-d1,alphabeta-d2}

case $DURATION in ''|*[!0-9]*) die "DURATION must be a number of seconds" ;; esac
[ -f "$ONNXRUNTIME" ] || die "no ONNX Runtime library at $ONNXRUNTIME (make ort, or set ONNXRUNTIME)"
if [ $# -eq 0 ]; then
    set -- "A --playouts 128 --fast-playouts 32 --full-share 0.25" \
        "B --gumbel 16 --playouts 32 --fast-playouts 16" \
        "C --playouts 32 --fast-playouts 16"
fi
mkdir -p "$RUN_DIR"
if [ -z "${ENGINE:-}" ]; then
    ENGINE=$RUN_DIR/engine
    (cd "$ROOT" && GOEXPERIMENT=${GOEXPERIMENT-simd} go build -o "$ENGINE" ./cmd/engine) || die "build failed"
fi
[ -x "$ENGINE" ] || die "ENGINE $ENGINE is not an executable"

# One thread per PyTorch trainer and per ONNX Runtime session: the loops share the cores.
export OMP_NUM_THREADS=1
names=()
for recipe in "$@"; do
    read -r name flags <<<"$recipe"
    [ -n "$name" ] || die "empty recipe"
    case $name in -*) die "a recipe starts with its name, not a flag: $recipe" ;; esac
    names+=("$name")
    [ "$DURATION" -gt 0 ] || continue
    echo "== $name: $flags (for ${DURATION}s) -> $RUN_DIR/$name, log $RUN_DIR/$name.log"
    # shellcheck disable=SC2086 # the flags are words on purpose
    timeout -s INT "$DURATION" "$ENGINE" train --run-dir "$RUN_DIR/$name" --onnxruntime "$ONNXRUNTIME" \
        --trainer "$ROOT/azero/train" $COMMON $flags >>"$RUN_DIR/$name.log" 2>&1 &
done
trap 'kill $(jobs -p) 2>/dev/null' INT TERM
wait || true # timeout's status is 124 for every loop that ran its full time

# best_of DIR: the best network's file name from the loop's state.json.
best_of() { sed -n 's/.*"best": *"nets\/\([^"]*\)".*/\1/p' "$1/state.json" | head -n 1; }

IFS=, read -ra rungs <<<"$LADDER_RUNGS"
header='| recipe | flags | iterations | self-play games | promotions | best |'
rule='| --- | --- | --- | --- | --- | --- |'
for r in "${rungs[@]}"; do header+=" $r |"; rule+=' --- |'; done
rows=()
for recipe in "$@"; do
    read -r name flags <<<"$recipe"
    dir=$RUN_DIR/$name
    [ -f "$dir/state.json" ] || { echo "$name: no state.json (see $dir.log)"; continue; }
    best=$(best_of "$dir")
    # The first "iteration" is the loop's; a self-play phase in progress repeats it.
    iterations=$(sed -n 's/.*"iteration": *\([0-9]*\).*/\1/p' "$dir/state.json" | head -n 1)
    games=$(grep -c '^\[Result ' "$dir/games.pgn" 2>/dev/null || true)
    promotions=$(grep -c -- '-> promoted' "$dir.log" || true)
    "$ENGINE" ladder --network "$dir/nets/$best" --onnxruntime "$ONNXRUNTIME" --playouts "$LADDER_PLAYOUTS" \
        --games "$LADDER_GAMES" --rungs "$LADDER_RUNGS" --workers 2 >"$dir.ladder" 2>&1 || die "ladder of $name failed: $dir.ladder"
    row="| $name | \`$flags\` | $((iterations - 1)) | ${games:-0} | $promotions | ${best%.onnx} |"
    for r in "${rungs[@]}"; do
        row+=" $(awk -v r="$r" '$1 == r && NF == 6 { print $6 "%" }' "$dir.ladder") |"
    done
    rows+=("$row")
    echo "$name: ladder done"
done
echo
echo "$header"
echo "$rule"
printf '%s\n' "${rows[@]}"
echo "ladder: $LADDER_PLAYOUTS playouts, $LADDER_GAMES games per rung; iterations = completed ones; run dir $RUN_DIR"
