#!/usr/bin/env bash
# scripts/smp-scaling.sh - how the alpha-beta search's speed grows with threads (Lazy SMP): runs
# the speed bench (`engine bench --movetime MS --threads T --hash HASH`) once for each thread
# count in THREADS, in turn, and prints a table: nodes a second, the speed-up over the first
# count (its nodes a second over theirs, times the first count), the efficiency (speed-up per
# thread) and the mean depth the searches completed. Every count searches the same positions
# for the same time with one table of HASH MB, emptied before each position.
#
# A busy machine makes the figures meaningless: it stops when the load average is above a
# tenth of a core per core (set MAX_LOAD to run anyway), and counts beyond the machine's cores
# measure the scheduler, not the search.
#
# Usage: scripts/smp-scaling.sh
#   e.g. THREADS="1 2 4 8 16" MS=2000 scripts/smp-scaling.sh
#
# Environment: ENGINE (the binary) [built from the working tree into runs/smp/engine],
#              THREADS [1 2 4 ... up to the number of cores], MS [1000] (a position),
#              HASH [256] (MB), POSITIONS [all 50 of the bench], MAX_LOAD [cores / 10],
#              OUT [print only] (also write the table as CSV to this file)
set -euo pipefail
die() { echo "smp-scaling.sh: $*" >&2; exit 2; }
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) || ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
cores=$(nproc)
if [ -z "${THREADS:-}" ]; then
    THREADS=1
    for ((t = 2; t <= cores; t *= 2)); do THREADS+=" $t"; done
    ((cores & (cores - 1))) && THREADS+=" $cores" # not a power of two: all cores last
fi
MS=${MS:-1000}
HASH=${HASH:-256}
for v in MS HASH; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, not '${!v}'"
done
for t in $THREADS; do
    [[ $t =~ ^[1-9][0-9]*$ ]] || die "THREADS must list positive integers, not '$t'"
done
pos=()
if [ -n "${POSITIONS:-}" ]; then
    [[ $POSITIONS =~ ^[1-9][0-9]*$ ]] || die "POSITIONS must be a positive integer, not '$POSITIONS'"
    pos=(--positions "$POSITIONS")
fi
MAX_LOAD=${MAX_LOAD:-$(awk -v c="$cores" 'BEGIN { print c / 10 }')}
load_ok || die "the machine is busy; wait, or set MAX_LOAD"

if [ -z "${ENGINE:-}" ]; then
    export GOEXPERIMENT=${GOEXPERIMENT-simd}
    ENGINE=$ROOT/runs/smp/engine
    mkdir -p "$ROOT/runs/smp"
    (cd "$ROOT" && go build -o "$ENGINE" ./cmd/engine) || die "go build failed"
fi
[ -x "$ENGINE" ] || die "no engine binary at $ENGINE (set ENGINE)"

echo "# $("$ENGINE" version 2>/dev/null | head -1), $cores cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
echo "# engine bench --movetime $MS --hash $HASH${pos:+ ${pos[*]}} --threads T"
printf '%7s %12s %9s %10s %10s\n' threads knps speed-up efficiency "mean depth"
[ -z "${OUT:-}" ] || echo "threads,nps,speedup,efficiency,mean_depth" >"$OUT"
base_nps= base_t=
for t in $THREADS; do
    report=$("$ENGINE" bench --movetime "$MS" --hash "$HASH" --threads "$t" "${pos[@]}") ||
        die "engine bench --threads $t failed"
    nps=$(tail -1 <<<"$report" | awk '$2 == "nodes" && $4 == "nps" { print $3 }')
    depth=$(awk -F': ' '/^Mean depth/ { print $2 }' <<<"$report")
    [ -n "$nps" ] && [ -n "$depth" ] || die "no totals in the report of --threads $t"
    if [ -z "$base_nps" ]; then base_nps=$nps base_t=$t; fi
    row=$(awk -v n="$nps" -v b="$base_nps" -v bt="$base_t" -v t="$t" -v d="$depth" \
        'BEGIN { s = n / b * bt; printf "%d %.0f %.2f %.2f %s", t, n, s, s / t, d }')
    read -r _ _ speedup eff _ <<<"$row"
    printf '%7d %12s %9s %10s %10s\n' "$t" "$(awk -v n="$nps" 'BEGIN { printf "%.0f", n / 1000 }')" "$speedup" "$eff" "$depth"
    [ -z "${OUT:-}" ] || echo "$t,$nps,$speedup,$eff,$depth" >>"$OUT"
done
