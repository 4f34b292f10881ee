#!/usr/bin/env bash
# scripts/nps-compare.sh - search speed (nodes per second) of the working tree's engine against
# other UCI engines. Each engine gets one thread and Hash HASH, then searches each position of
# EPD with "go movetime MS" after a ucinewgame; the engines take turns position by position
# (round-robin), ROUNDS times over, so a change in the machine's load hits them alike. A search
# counts the nodes and time of its last "info" line that carries both (an engine that prints
# only nps counts nps x MS). Prints a table: thousands of nodes per second on each position,
# total nodes / total milliseconds, each engine's speed and its ratio to the first (Twofold);
# then, from /proc, the share of a core each engine had while it searched and its speed per
# processor second (knps over that share) with its ratio, which a busy machine disturbs less.
#
# Usage: scripts/nps-compare.sh [NAME=CMD ...]
#   e.g. scripts/nps-compare.sh "Ethereal=/usr/games/ethereal-chess" "Zahak=zahak"
#   CMD is run by bash from the current directory, so it may carry arguments; the processor
#   time is that of the process CMD starts. An engine without a Threads or Hash option is run
#   with its own default for it.
#
# Environment: ENGINE (Twofold's binary) [built from the working tree into runs/nps/engine],
#              MS [3000], ROUNDS [1], HASH [16], EPD [scripts/nps-positions.epd: the first six
#              positions of the engine's bench], START_TIMEOUT [60] (seconds to answer uciok)
set -euo pipefail
die() { echo "nps-compare.sh: $*" >&2; exit 2; }
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
MS=${MS:-3000}
ROUNDS=${ROUNDS:-1}
HASH=${HASH:-16}
EPD=${EPD:-$ROOT/scripts/nps-positions.epd}
START_TIMEOUT=${START_TIMEOUT:-60}
export GOEXPERIMENT=${GOEXPERIMENT-simd}
for v in MS ROUNDS HASH START_TIMEOUT; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, not '${!v}'"
done
[ -r "$EPD" ] && [ -f "$EPD" ] || die "no position file at $EPD (set EPD)"

# The positions: the first four fields of each EPD line (or FEN), with move counters added.
fens=()
while read -r a b c d _; do
    [ -n "$a" ] && [ "${a:0:1}" != "#" ] || continue
    fens+=("$a $b $c $d 0 1")
done <"$EPD"
[ ${#fens[@]} -gt 0 ] || die "no positions in $EPD"

if [ -z "${ENGINE:-}" ]; then
    ENGINE=$ROOT/runs/nps/engine
    mkdir -p "$ROOT/runs/nps"
    (cd "$ROOT" && go build -o "$ENGINE" ./cmd/engine) || die "go build failed"
fi
names=(Twofold)
cmds=("$(printf '%q' "$ENGINE")")
for arg in "$@"; do
    [[ $arg == ?*=?* ]] || die "an engine is NAME=CMD, not '$arg'"
    names+=("${arg%%=*}")
    cmds+=("${arg#*=}")
done

tmp=$(mktemp -d)
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap '' PIPE

# Each engine runs beside the script behind two FIFOs: IN[i] is the file descriptor the script
# writes commands to, OUT[i] the one it reads the engine's lines from.
IN=() OUT=()
send() {
    printf '%s\n' "$2" 2>/dev/null >&"${IN[$1]}" ||
        die "${names[$1]} stopped reading commands $(tail -3 "$tmp/err$1" 2>/dev/null)"
}
# expect I WORD SECONDS: reads engine I's lines until one starts with WORD; the line is in $line.
expect() {
    local rc
    while true; do
        IFS= read -r -t "$3" -u "${OUT[$1]}" line && rc=0 || rc=$?
        [ "$rc" -le 128 ] || die "${names[$1]} did not answer '${2:-uci}' within $3 s"
        [ "$rc" -eq 0 ] ||
            die "${names[$1]} exited before answering '${2:-uci}' $(tail -3 "$tmp/err$1" 2>/dev/null)"
        line=${line%$'\r'}
        [[ $line == "$2"* ]] && return
    done
}
for i in "${!names[@]}"; do
    mkfifo "$tmp/in$i" "$tmp/out$i"
    bash -c "exec ${cmds[$i]}" <"$tmp/in$i" >"$tmp/out$i" 2>"$tmp/err$i" &
    pids+=($!)
    exec {fd}>"$tmp/in$i"; IN[i]=$fd
    exec {fd}<"$tmp/out$i"; OUT[i]=$fd
    send "$i" uci
    opts=" "
    while expect "$i" "" "$START_TIMEOUT" && [ "$line" != uciok ]; do
        if [[ $line =~ ^option\ name\ (.*)\ type\  ]]; then opts+="${BASH_REMATCH[1]} "; fi
    done
    [[ $opts == *" Threads "* ]] && send "$i" "setoption name Threads value 1"
    [[ $opts == *" Hash "* ]] && send "$i" "setoption name Hash value $HASH"
    send "$i" isready
    expect "$i" readyok 30
done

# cpu_ms PID: the processor time (user and system, all threads) of process PID so far, in
# milliseconds; empty where /proc cannot tell.
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_ms() {
    local stat f
    [ -r "/proc/$1/stat" ] || return 0
    read -r stat <"/proc/$1/stat" || return 0
    read -ra f <<<"${stat##*) }"
    echo $(((f[11] + f[12]) * 1000 / CLK_TCK))
}

# search I POS: one search; adds its nodes and milliseconds to N[I,POS] and T[I,POS], and to
# C[I] those milliseconds scaled by the share of a core the engine had during the search
# (its processor time over the wall time from go to bestmove).
declare -A N T C
search() {
    local i=$1 pos=$2 n="" ms="" nps="" ln lt lp k words c0 c1 w0 w1
    send "$i" ucinewgame
    send "$i" "position fen ${fens[$pos]}"
    send "$i" isready
    expect "$i" readyok 30
    c0=$(cpu_ms "${pids[$i]}") w0=${EPOCHREALTIME/./}
    send "$i" "go movetime $MS"
    while expect "$i" "" $((MS / 1000 * 3 + 30)) && [[ $line != bestmove* ]]; do
        [[ $line == "info "* ]] || continue
        read -ra words <<<"$line"
        ln="" lt="" lp=""
        for ((k = 1; k + 1 < ${#words[@]}; k++)); do
            case ${words[k]} in
                nodes) ln=${words[k + 1]} ;;
                time) lt=${words[k + 1]} ;;
                nps) lp=${words[k + 1]} ;;
                string | pv) break ;;
            esac
        done
        if [[ $ln =~ ^[0-9]+$ && $lt =~ ^[1-9][0-9]*$ ]]; then n=$ln ms=$lt; fi
        if [[ $lp =~ ^[0-9]+$ ]]; then nps=$lp; fi
    done
    w1=${EPOCHREALTIME/./} c1=$(cpu_ms "${pids[$i]}")
    if [ -z "$n" ]; then
        [ -n "$nps" ] || die "${names[$i]} reported neither nodes and time nor nps on position $((pos + 1))"
        n=$((nps * MS / 1000)) ms=$MS
    fi
    N[$i,$pos]=$((${N[$i,$pos]:-0} + n))
    T[$i,$pos]=$((${T[$i,$pos]:-0} + ms))
    if [ -n "$c0" ] && [ -n "$c1" ] && [ "$w1" -gt "$w0" ]; then
        C[$i]=$((${C[$i]:-0} + ms * (c1 - c0) * 1000 / (w1 - w0)))
    fi
}

echo "nps-compare: ${#names[@]} engines, ${#fens[@]} positions, movetime $MS ms, $ROUNDS round(s), Hash $HASH, 1 thread" >&2
for ((r = 1; r <= ROUNDS; r++)); do
    for pos in "${!fens[@]}"; do
        for i in "${!names[@]}"; do
            search "$i" "$pos"
            echo "round $r, position $((pos + 1)): ${names[$i]} $((N[$i,$pos] / T[$i,$pos])) knps" >&2
        done
    done
done
for i in "${!names[@]}"; do
    printf 'quit\n' 2>/dev/null >&"${IN[$i]}" || true
done

# The table: knps on each position (wall time), the totals and the ratio to the first engine;
# then the share of a core the engines had and the speed per processor second with its ratio
# ("-" where /proc could not tell), which a busy machine disturbs less.
for i in "${!names[@]}"; do
    printf '%s' "${names[$i]}"
    tn=0 tt=0
    for pos in "${!fens[@]}"; do
        printf '\t%d' $((N[$i,$pos] / T[$i,$pos]))
        tn=$((tn + N[$i,$pos])) tt=$((tt + T[$i,$pos]))
    done
    printf '\t%d\t%d\t%d\n' "$tn" "$tt" "${C[$i]:-0}"
done | awk -F'\t' -v k=${#fens[@]} '
    { n++; name[n] = $1; for (j = 1; j <= k; j++) p[n, j] = $(j + 1)
      nodes[n] = $(k + 2); ms[n] = $(k + 3); cpu[n] = $(k + 4) }
    END {
        printf "%-12s", "engine"; for (j = 1; j <= k; j++) printf " %6s", "pos" j
        printf " %12s %7s %6s %6s %6s %8s %6s\n", "nodes", "ms", "knps", "ratio", "core%", "cpu-knps", "ratio"
        for (r = 1; r <= n; r++) {
            printf "%-12s", name[r]; for (j = 1; j <= k; j++) printf " %6d", p[r, j]
            printf " %12d %7d %6d %6.2f", nodes[r], ms[r], nodes[r] / ms[r], (nodes[r] / ms[r]) / (nodes[1] / ms[1])
            if (cpu[r] > 0 && cpu[1] > 0)
                printf " %6d %8d %6.2f\n", 100 * cpu[r] / ms[r], nodes[r] / cpu[r], (nodes[r] / cpu[r]) / (nodes[1] / cpu[1])
            else
                printf " %6s %8s %6s\n", "-", "-", "-"
        }
    }'
