#!/usr/bin/env bash
# scripts/datagen-parallel.sh - NNUE training data on every core: one `engine datagen` worker per
# core, each with its own seeds, writing the games format (a frame per game) into a run directory
# in pieces of a fixed size, so finished pieces can be copied off while the run goes on.
#
# Usage:
#   scripts/datagen-parallel.sh [flags] [-- datagen flags...]
#   scripts/datagen-parallel.sh --run-dir runs/dg --duration 8h            # one worker per core
#   scripts/datagen-parallel.sh --run-dir runs/dg --workers 14 -- --network nets/n15.nnue
#   scripts/datagen-parallel.sh --run-dir runs/dg --finish                 # close the open pieces
#   scripts/datagen-parallel.sh --run-dir runs/dg --status                 # pieces and bytes so far
#
# Flags:
#   --run-dir DIR      the run directory [runs/datagen]
#   --workers N        datagen workers, one search thread each [nproc]
#   --piece-size SIZE  a piece is finished once it holds this many bytes (K, M, G suffixes) [32M]
#   --duration D       stop after this long (Go duration: 90m, 8h) [until Ctrl-C or SIGTERM]
#   --seed N           the run's seed, 1..1048575: give each machine or run its own [1]
#   --finish           move every worker's open piece to done/ (when no run is going on)
#   --status           print what done/ and work/ hold, and exit
# After --, flags for every worker's `engine datagen`; the defaults come first, so these win:
#   --soft-nodes 2000 --nodes 100000 --book scripts/openings-2moves.epd --random-plies 8 --frc 0.1
#   (nearly the completed depth of the recipe's --nodes 5000, 7.4 plies a move against 7.5, for
#   three quarters of its CPU time a position; --soft-nodes 5000 reaches 9.1 for 2.7 times it)
#
# The run directory:
#   work/wNN.games   worker NN's open piece; work/wNN.piece its number; logs/wNN.log its output
#   done/wNN-PPPPP.games   finished pieces, each at least --piece-size bytes: copy them off and
#                    delete them at will (the numbering goes on in work/wNN.piece)
#
# Resuming: run the same command again. Each worker appends to its open piece (a frame cut by a
# kill is cut off first), drawing new games: piece P of worker W plays the games of seed
# SEED<<32 | W<<20 | P, from a stream named by the positions the piece already holds. Two runs
# with the same --seed play the same games, so give every machine its own seed.
#
# Pieces are games files: `engine datagen --unpack --out FILE.bin PIECES...` expands them into
# the 32-byte records nnue/train reads (docs/classical.md, "NNUE data").
#
# Environment: ENGINE  the engine binary [built from the checkout into RUN_DIR/engine]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "datagen-parallel: $*" >&2; exit 1; }

RUN_DIR=runs/datagen
WORKERS=$(nproc)
PIECE_SIZE=32M
DURATION=
SEED=1
MODE=run
EXTRA=()
while [ $# -gt 0 ]; do
    case $1 in
        --run-dir) RUN_DIR=${2:?--run-dir needs a directory}; shift 2 ;;
        --workers) WORKERS=${2:?--workers needs a number}; shift 2 ;;
        --piece-size) PIECE_SIZE=${2:?--piece-size needs a size}; shift 2 ;;
        --duration) DURATION=${2:?--duration needs a duration}; shift 2 ;;
        --seed) SEED=${2:?--seed needs a number}; shift 2 ;;
        --finish) MODE=finish; shift ;;
        --status) MODE=status; shift ;;
        -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        *) die "unknown flag $1 (--help lists them)" ;;
    esac
done
[[ $WORKERS =~ ^[1-9][0-9]{0,2}$ ]] && [ "$WORKERS" -le 999 ] || die "--workers must be 1..999"
[[ $SEED =~ ^[0-9]+$ ]] && [ "$SEED" -ge 1 ] && [ "$SEED" -lt 1048576 ] || die "--seed must be 1..1048575"
[[ $PIECE_SIZE =~ ^[1-9][0-9]*[KMG]?$ ]] || die "--piece-size must be a size such as 32M"
piece_bytes=${PIECE_SIZE%[KMG]}
case $PIECE_SIZE in *K) piece_bytes=$((piece_bytes << 10)) ;; *M) piece_bytes=$((piece_bytes << 20)) ;; *G) piece_bytes=$((piece_bytes << 30)) ;; esac

mkdir -p "$RUN_DIR/work" "$RUN_DIR/done" "$RUN_DIR/logs"
RUN_DIR=$(cd "$RUN_DIR" && pwd)
WORK=$RUN_DIR/work
DONE=$RUN_DIR/done

status() {
    local n bytes
    n=$(find "$DONE" -name 'w*.games' | wc -l)
    bytes=$(find "$DONE" -name 'w*.games' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    echo "done: $n pieces, $bytes bytes (about $((bytes / 6)) positions at 6 bytes each) in $DONE"
    n=$(find "$WORK" -name 'w*.games' | wc -l)
    bytes=$(find "$WORK" -name 'w*.games' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    echo "open: $n pieces, $bytes bytes in $WORK"
}
if [ "$MODE" = status ]; then
    status
    exit 0
fi

# One run at a time per run directory.
exec 9>"$RUN_DIR/lock"
flock -n 9 || die "another run holds $RUN_DIR/lock"

piece_of() { if [ -f "$WORK/$1.piece" ]; then cat "$WORK/$1.piece"; else echo 0; fi; }

# close_piece NAME: number the next piece first, then move the open one to done/, so that a
# kill between the two leaves a piece that is moved (under the next number) by the next close.
close_piece() {
    local name=$1 piece target
    piece=$(piece_of "$name")
    target=$DONE/$name-$(printf %05d "$piece").games
    [ -e "$target" ] && die "$target exists: a piece number was used twice"
    echo $((piece + 1)) >"$WORK/$name.piece.tmp"
    mv "$WORK/$name.piece.tmp" "$WORK/$name.piece"
    mv "$WORK/$name.games" "$target"
    echo "datagen-parallel: $target"
}

if [ "$MODE" = finish ]; then
    for f in "$WORK"/w*.games; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .games)
        if [ -s "$f" ]; then close_piece "$name"; else rm -f "$f"; fi
    done
    status
    exit 0
fi

if [ -z "${ENGINE:-}" ]; then
    ENGINE=$RUN_DIR/engine
    echo "datagen-parallel: building $ENGINE"
    (cd "$ROOT" && GOEXPERIMENT=${GOEXPERIMENT-simd} go build -o "$ENGINE" ./cmd/engine) || die "go build failed (set ENGINE to a built engine)"
fi
[ -x "$ENGINE" ] || die "ENGINE=$ENGINE is not an executable"
end=
if [ -n "$DURATION" ]; then
    secs=$(awk -v d="$DURATION" 'BEGIN {
        s = 0; n = ""
        for (i = 1; i <= length(d); i++) {
            c = substr(d, i, 1)
            if (c ~ /[0-9.]/) { n = n c; continue }
            m = (c == "h") ? 3600 : (c == "m") ? 60 : (c == "s") ? 1 : -1
            if (m < 0 || n == "") { print "bad"; exit }
            s += n * m; n = ""
        }
        if (n != "") { print "bad"; exit }
        printf "%d\n", s }')
    [[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || die "--duration must be a duration such as 90m or 8h"
    end=$(($(date +%s) + secs))
fi

DEFAULTS=(--soft-nodes 2000 --nodes 100000 --book "$ROOT/scripts/openings-2moves.epd" --random-plies 8 --frc 0.1)

# reap PID: sets rc to the exit status of a child of this shell once it has exited (a trap that
# interrupts a wait makes the wait return 128+signal while the child runs on, or just as it
# exits). Not in $(...): a subshell cannot wait for its parent's children.
reap() {
    while :; do
        rc=0
        wait "$1" || rc=$?
        kill -0 "$1" 2>/dev/null || break
    done
    if [ "$rc" -gt 128 ]; then
        rc=0
        wait "$1" || rc=$?
    fi
}

# worker N: datagen into worker N's open piece until it is full, then the next piece, until the
# deadline or a stop (SIGTERM from the main script: datagen writes its finished games and exits).
worker() {
    local w=$1 name pid rc piece seed left stop=0
    name=w$(printf %02d "$w")
    trap 'stop=1; [ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null' TERM
    while [ "$stop" = 0 ]; do
        if [ -f "$WORK/$name.games" ] && [ "$(stat -c %s "$WORK/$name.games")" -ge "$piece_bytes" ]; then
            close_piece "$name"
            continue
        fi
        left=()
        if [ -n "$end" ]; then
            [ "$(date +%s)" -lt "$end" ] || break
            left=(--duration "$((end - $(date +%s)))s")
        fi
        piece=$(piece_of "$name")
        seed=$(((SEED << 32) | (w << 20) | piece))
        "$ENGINE" datagen --out "$WORK/$name.games" --format games --workers 1 --seed "$seed" \
            --max-bytes "$piece_bytes" "${left[@]}" "${DEFAULTS[@]}" "${EXTRA[@]}" >>"$RUN_DIR/logs/$name.log" 2>&1 &
        pid=$!
        reap "$pid"
        pid=
        if [ "$rc" != 0 ] && ! { [ "$stop" = 1 ] && [ "$rc" = 143 ]; }; then
            echo "datagen-parallel: worker $w failed (exit $rc), see $RUN_DIR/logs/$name.log" >&2
            tail -n 3 "$RUN_DIR/logs/$name.log" >&2
            return 1
        fi
        [ -f "$WORK/$name.games" ] && [ "$(stat -c %s "$WORK/$name.games")" -ge "$piece_bytes" ] || break
    done
}

echo "datagen-parallel: $WORKERS workers into $RUN_DIR, pieces of $PIECE_SIZE, seed $SEED${DURATION:+, for $DURATION}"
pids=()
for ((w = 0; w < WORKERS; w++)); do
    worker "$w" &
    pids+=($!)
done
trap 'echo "datagen-parallel: stopping" >&2; kill -TERM "${pids[@]}" 2>/dev/null || true' INT TERM
failed=0
for pid in "${pids[@]}"; do
    reap "$pid"
    [ "$rc" = 0 ] || failed=1
done
status
[ "$failed" = 0 ] || die "a worker failed"
