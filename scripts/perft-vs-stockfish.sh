#!/usr/bin/env bash
# scripts/perft-vs-stockfish.sh - perft speed of the working tree's engine against Stockfish's
# "go perft" on three standard positions, the two engines alternating in one run; prints the
# best-of-RUNS wall time of each and the ratio (Stockfish's time / Twofold's: above 1 is faster).
# Both must print the known node count, or the script fails.
#
# Environment: ENGINE (engine binary) [built from the working tree into runs/perft/engine],
#              STOCKFISH [stockfish on PATH, else /usr/games/stockfish], RUNS [5]
set -euo pipefail
die() { echo "perft-vs-stockfish.sh: $*" >&2; exit 2; }
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
cd "$ROOT"
RUNS=${RUNS:-5}
STOCKFISH=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[ -x "$STOCKFISH" ] || die "no Stockfish at $STOCKFISH (apt-get install stockfish, or set STOCKFISH)"
if [ -z "${ENGINE:-}" ]; then
    ENGINE=runs/perft/engine
    mkdir -p runs/perft
    GOEXPERIMENT=simd go build -o "$ENGINE" ./cmd/engine
fi
names=(startpos kiwipete cpw3)
fens=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
depths=(6 5 7)
want=(119060324 193690690 178633661)
out=$(mktemp); trap 'rm -f "$out"' EXIT

# timed NAME CMD...: runs CMD, checks the node count, prints the wall seconds.
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" >"$out" 2>&1
    end=$(date +%s.%N)
    grep -q "Nodes searched: $expect" "$out" || die "$1 did not count $expect nodes: $(tail -2 "$out")"
    echo "$end - $start" | bc
}
sf() { printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$STOCKFISH"; }
best() { if [ -z "$1" ] || (( $(echo "$2 < $1" | bc) )); then echo "$2"; else echo "$1"; fi; }

declare -A B
for _ in $(seq "$RUNS"); do
    for j in 0 1 2; do
        expect=${want[$j]}
        B[sf$j]=$(best "${B[sf$j]:-}" "$(timed sf "${fens[$j]}" "${depths[$j]}")")
        B[tf$j]=$(best "${B[tf$j]:-}" "$(timed "$ENGINE" perft --fen "${fens[$j]}" --depth "${depths[$j]}")")
    done
done
for j in 0 1 2; do
    printf '%-9s d%s: Stockfish %6.2f s, Twofold %6.2f s, ratio %.2fx\n' "${names[$j]}" "${depths[$j]}" \
        "${B[sf$j]}" "${B[tf$j]}" "$(echo "scale=4; ${B[sf$j]}/${B[tf$j]}" | bc)"
done
