#!/usr/bin/env bash
# scripts/sprt.sh - SPRT of the working tree against a base commit, played by fastchess.
#
# Usage:
#   scripts/sprt.sh                      # working tree vs HEAD, 8+0.08, SPRT [0, 5]
#   BASE=<rev> scripts/sprt.sh           # working tree vs <rev>
#   BASE=HEAD~1 DEV=HEAD scripts/sprt.sh # two commits (DEV unset = the working tree)
#   TC=40+0.4 scripts/sprt.sh            # the longer confirmation for big changes
#   make sprt BASE=<rev>                 # the same through make
#   RESUME=<run dir> scripts/sprt.sh     # go on with a test that was stopped
#
# It builds both engines (BASE in a temporary `git worktree`, DEV from the working tree or
# from its own worktree), prints each `engine bench` signature, then runs fastchess:
# 1 thread, Hash 16, openings from BOOK in random order, each opening played
# twice with colours swapped, SPRT on the Elo of DEV over BASE. At the end it prints
# W/D/L, Elo +/- error, the LLR and the verdict (H1 accepted = DEV is stronger by the
# hypothesis, H0 accepted = it is not, inconclusive = the games cap was reached), time
# losses / illegal moves / disconnects, and a line to paste into the commit message.
#
# fastchess is not part of this project. Build it from its public source, outside the
# repository, and point FASTCHESS at the binary:
#   git clone https://github.com/Disservin/fastchess ~/src/fastchess
#   cd ~/src/fastchess && git checkout v1.8.2-alpha && make -j2   # g++ (build-essential)
#   export FASTCHESS=~/src/fastchess/fastchess
#
# Environment (defaults in brackets):
#   FASTCHESS    path of the fastchess binary [fastchess on PATH]
#   BASE         base revision [HEAD]
#   DEV          test revision [unset: the working tree, uncommitted changes included]
#   TC           time control, fastchess/cutechess syntax [8+0.08]
#   ELO0 ELO1    SPRT hypotheses [0 5]
#   ALPHA BETA   SPRT error rates [0.05 0.05]
#   MODEL        SPRT Elo model: normalized | logistic | bayesian [normalized, fastchess's default]
#   CONCURRENCY  games in parallel [2]
#   HASH THREADS engine options for both sides [16 1]
#   BOOK         opening file, .epd or .pgn [scripts/openings-2moves.epd: 1000 balanced 2-move
#                openings; a larger book such as fishtest's 2moves_v1.epd or UHO_4060_v4.epd
#                repeats fewer openings in a long test]
#   MAX_GAMES    games cap; the test stops there if the SPRT has not decided [20000]
#   SEED         opening-order seed (-srand) [random; printed, so a run can be repeated]
#   RUN_DIR      where the PGN, log, binaries and fastchess config go; outside the checkout
#                or git-ignored inside it [runs/sprt/<date>-<time>-<base>-vs-<dev>]
#   ADJUDICATE   1 = draw (move 40, 8 moves within 10 cp) and resign (3 moves beyond 600 cp)
#                adjudication, 0 = play every game out [1]
#   EXTRA        more fastchess arguments, split on spaces
#   RESUME       the run directory of a stopped test to go on with (below) [unset]
#
# Resuming: fastchess keeps the test's state in RUN_DIR/config.json (results so far, the
# opening order, both engines' settings). RESUME=RUN_DIR goes on with that test where it
# stopped (an interrupt, a reboot, or the games cap) with the binaries of the first run: no
# build, the same openings in the same order, one SPRT over all the games. MAX_GAMES, when
# given, sets the new cap (count all games, those played included); nothing else is read.
#
# Exit status: 0 when fastchess finished (whatever the verdict), non-zero on a build or
# runner failure.
set -euo pipefail

die() { echo "sprt.sh: $*" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
cd "$ROOT"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

case ${1:-} in -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments; settings come from the environment (see --help)"

FASTCHESS=$(find_fastchess)

BASE=${BASE:-HEAD}
DEV=${DEV:-}
TC=${TC:-8+0.08}
ELO0=${ELO0:-0}
ELO1=${ELO1:-5}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
MODEL=${MODEL:-normalized}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-16}
THREADS=${THREADS:-1}
BOOK=${BOOK:-$(default_book)}
MAX_GAMES_GIVEN=${MAX_GAMES:+1}
MAX_GAMES=${MAX_GAMES:-20000}
SEED=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
ADJUDICATE=${ADJUDICATE:-1}
EXTRA=${EXTRA:-}
RESUME=${RESUME:-}

case $MAX_GAMES in ''|*[!0-9]*|0) die "MAX_GAMES must be a positive integer" ;; esac
case $CONCURRENCY in ''|*[!0-9]*|0) die "CONCURRENCY must be a positive integer" ;; esac
ROUNDS=$(( (MAX_GAMES + 1) / 2 ))   # a round = one opening, both colours

# The settings the report at the end needs, kept in the run directory for RESUME.
SETTINGS=(TC ELO0 ELO1 MODEL BASE_NAME DEV_NAME BASE_LABEL BASE_BENCH DEV_BENCH)

if [ -n "$RESUME" ]; then
    RUN_DIR=$(realpath "$RESUME") || die "RESUME: no directory $RESUME"
    [ -f "$RUN_DIR/config.json" ] && [ -f "$RUN_DIR/sprt.env" ] ||
        die "RESUME=$RUN_DIR: not a run directory of this script (no config.json or sprt.env)"
    # shellcheck source=/dev/null  # written by this script's first run below
    . "$RUN_DIR/sprt.env"
    if [ -n "$MAX_GAMES_GIVEN" ]; then
        grep -qE '"rounds": [0-9]+' "$RUN_DIR/config.json" || die "no rounds in $RUN_DIR/config.json"
        sed -i -E "s/\"rounds\": [0-9]+/\"rounds\": $ROUNDS/" "$RUN_DIR/config.json"
    fi
    ROUNDS=$(sed -nE 's/.*"rounds": ([0-9]+).*/\1/p' "$RUN_DIR/config.json" | head -1)
    LOG=$RUN_DIR/fastchess.log
    PGN=$RUN_DIR/games.pgn
    CMD=("$FASTCHESS" -config "file=config.json")
    echo "== resuming the SPRT $DEV_NAME vs $BASE_NAME in $RUN_DIR: tc $TC, elo0=$ELO0 elo1=$ELO1 ($MODEL), at most $((ROUNDS * 2)) games"
else
    BOOK_FORMAT=$(check_book "$BOOK")
    BOOK=$(realpath "$BOOK")
    BASE_SHA=$(git rev-parse --verify --quiet "$BASE^{commit}") || die "BASE is not a commit: $BASE"
    BASE_LABEL=$(git rev-parse --short "$BASE_SHA")
    if [ -n "$DEV" ]; then
        DEV_SHA=$(git rev-parse --verify --quiet "$DEV^{commit}") || die "DEV is not a commit: $DEV"
        DEV_LABEL=$(git rev-parse --short "$DEV_SHA")
    else
        DEV_LABEL=$(git rev-parse --short HEAD)
        [ -z "$(git status --porcelain)" ] || DEV_LABEL="$DEV_LABEL-dirty"
    fi
    BASE_NAME="base-$BASE_LABEL"
    DEV_NAME="dev-$DEV_LABEL"
    [ "$BASE_NAME" != "$DEV_NAME" ] || { BASE_NAME="$BASE_NAME-b"; DEV_NAME="$DEV_NAME-a"; }

    RUN_DIR=${RUN_DIR:-$ROOT/runs/sprt/$(date +%Y%m%d-%H%M%S)-$BASE_LABEL-vs-$DEV_LABEL}
    RUN_DIR=$(run_dir sprt)

    # Builds: the base (and DEV when it is a commit) in throw-away worktrees.
    BUILD_TMP=$(mktemp -d /tmp/twofold-sprt-build.XXXXXX)
    WORKTREES=()
    # shellcheck disable=SC2317  # called by the EXIT trap
    cleanup() {
        local wt
        for wt in "${WORKTREES[@]}"; do git worktree remove --force "$wt" >/dev/null 2>&1 || true; done
        rm -rf "$BUILD_TMP"
        git worktree prune >/dev/null 2>&1 || true
    }
    trap cleanup EXIT

    build_commit() { # sha label out
        local wt=$BUILD_TMP/wt-$2
        git worktree add --detach --quiet "$wt" "$1"
        WORKTREES+=("$wt")
        (cd "$wt" && go build -ldflags "-X github.com/twofold-chess/twofold/uci.Version=$2" -o "$3" ./cmd/engine)
    }

    echo "== building $BASE_NAME ($BASE_SHA)"
    build_commit "$BASE_SHA" "$BASE_LABEL" "$RUN_DIR/engine-base"
    if [ -n "$DEV" ]; then
        echo "== building $DEV_NAME ($DEV_SHA)"
        build_commit "$DEV_SHA" "$DEV_LABEL" "$RUN_DIR/engine-dev"
    else
        echo "== building $DEV_NAME (working tree)"
        [ "${DEV_LABEL%-dirty}" = "$DEV_LABEL" ] || git status --short | sed 's/^/   /'
        go build -ldflags "-X github.com/twofold-chess/twofold/uci.Version=$DEV_LABEL" -o "$RUN_DIR/engine-dev" ./cmd/engine
    fi

    bench_of() { "$1" bench </dev/null 2>&1 | tail -1; }
    echo "== bench signatures (engine bench: nodes, nps)"
    BASE_BENCH=$(bench_of "$RUN_DIR/engine-base")
    DEV_BENCH=$(bench_of "$RUN_DIR/engine-dev")
    printf '   %-24s %s\n' "$BASE_NAME" "$BASE_BENCH" "$DEV_NAME" "$DEV_BENCH"
    [ "${BASE_BENCH%% *}" != "${DEV_BENCH%% *}" ] || echo "   (same node count: the search did not change, unless the change is in time management)"

    load_ok || echo "warning: a busy machine distorts time-controlled games; consider waiting" >&2

    ADJ=()
    [ "$ADJUDICATE" = 1 ] && ADJ=(-draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600)
    read -r -a EXTRA_ARGS <<<"$EXTRA"
    LOG=$RUN_DIR/fastchess.log
    PGN=$RUN_DIR/games.pgn
    CMD=("$FASTCHESS"
         -engine "cmd=$RUN_DIR/engine-dev" "name=$DEV_NAME"
         -engine "cmd=$RUN_DIR/engine-base" "name=$BASE_NAME"
         -each "tc=$TC" "option.Hash=$HASH" "option.Threads=$THREADS"
         -openings "file=$BOOK" "format=$BOOK_FORMAT" order=random -srand "$SEED"
         -rounds "$ROUNDS" -repeat -concurrency "$CONCURRENCY"
         -sprt "elo0=$ELO0" "elo1=$ELO1" "alpha=$ALPHA" "beta=$BETA" "model=$MODEL"
         "${ADJ[@]}" -ratinginterval 10 -pgnout "file=$PGN"
         "${EXTRA_ARGS[@]}")
    printf '%q ' "${CMD[@]}" >"$RUN_DIR/command.txt"; echo >>"$RUN_DIR/command.txt"
    {
        echo "base $BASE_NAME $BASE_SHA bench $BASE_BENCH"
        echo "dev  $DEV_NAME ${DEV_SHA:-working-tree} bench $DEV_BENCH"
    } >"$RUN_DIR/engines.txt"
    for v in "${SETTINGS[@]}"; do printf '%s=%q\n' "$v" "${!v}"; done >"$RUN_DIR/sprt.env"

    echo "== SPRT $DEV_NAME vs $BASE_NAME: tc $TC, elo0=$ELO0 elo1=$ELO1 alpha=$ALPHA beta=$BETA ($MODEL)," \
         "$THREADS thread, Hash $HASH, $(basename "$BOOK") (seed $SEED), concurrency $CONCURRENCY, at most $((ROUNDS * 2)) games"
    echo "   run dir: $RUN_DIR"
fi
BASE_NODES=${BASE_BENCH%% *}
DEV_NODES=${DEV_BENCH%% *}

# fastchess runs in the background with its output in the log; the terminal follows the
# log. Ctrl-C reaches fastchess, which stops its games and prints its last results.
START=$(date +%s)
[ -n "$RESUME" ] || : >"$LOG"
(cd "$RUN_DIR" && exec "$FASTCHESS" "${CMD[@]:1}") >>"$LOG" 2>&1 &
FC_PID=$!
trap 'kill -INT "$FC_PID" 2>/dev/null || true' INT TERM
tail -n 0 -s 0.5 --pid="$FC_PID" -f "$LOG" | grep --line-buffered -v '^Started game' || true
while kill -0 "$FC_PID" 2>/dev/null; do sleep 1; done
RC=0
wait "$FC_PID" || RC=$?
trap - INT TERM
ELAPSED=$(( $(date +%s) - START ))

# W/D/L from the finished games (complete even after an interrupt), and the last
# results block fastchess printed (Elo, LLR), if it covers the same games.
read -r W D L < <(wdl_from_log "$LOG" "$DEV_NAME")
N=$(( W + D + L ))
[ "$N" -gt 0 ] || { echo "sprt.sh: no finished game in $LOG (fastchess exit status $RC); last lines:" >&2; tail -20 "$LOG" >&2; exit $(( RC == 0 ? 1 : RC )); }
BLOCK=$(awk '/^Results of /{buf=""; inblk=1} inblk{buf=buf $0 "\n"} inblk && /^LLR:/{last=buf; inblk=0} END{printf "%s", last}' "$LOG")
BLOCK_N=$(sed -nE 's/^Games: ([0-9]+),.*/\1/p' <<<"$BLOCK")
if [ -n "$BLOCK" ] && [ "$BLOCK_N" = "$N" ]; then
    ELO=$(sed -nE 's/^Elo: ([^,]*),.*/\1/p' <<<"$BLOCK")
    ELO="$ELO (fastchess, 95%)"
    if grep -qiE 'inf|nan' <<<"$ELO"; then ELO=$(elo_of "$W" "$D" "$L"); ELO=${ELO#Elo }; fi
    # "LLR: 2.95 (100.3%) (-2.94, 2.94) [0.00, 5.00]"
    read -r LLR LOWER UPPER < <(sed -nE 's/^LLR: ([-0-9.]+) .*\(([-0-9.]+), ([-0-9.]+)\).*/\1 \2 \3/p' <<<"$BLOCK")
    VERDICT=$(awk -v x="$LLR" -v lo="$LOWER" -v hi="$UPPER" 'BEGIN {
        if (x >= hi) print "H1 accepted (dev is stronger)"
        else if (x <= lo) print "H0 accepted (dev is not stronger)"
        else print "inconclusive (stopped before a bound)" }')
    LLR_TEXT="$LLR in ($LOWER, $UPPER)"
    # "Ptnml(0-2): [35, 166, 278, 180, 51], WL/DD Ratio: 0.64": the pair counts
    # scripts/elo.py pools when two runs of the same builds are added up.
    PTNML=$(sed -nE 's/^Ptnml\(0-2\): \[([0-9, ]+)\].*/\1/p' <<<"$BLOCK" | tr -d ' ')
else
    ELO=$(elo_of "$W" "$D" "$L"); ELO="${ELO#Elo } (this script's count)"
    LLR_TEXT="n/a"
    VERDICT="interrupted before fastchess's report of game $N; its last report:"
    [ -n "$BLOCK" ] && VERDICT="$VERDICT $(grep -E '^LLR: ' <<<"$BLOCK") after $BLOCK_N games"
    [ -n "$BLOCK" ] || VERDICT="$VERDICT none"
fi
TIMELOSS=$(grep -c 'loses on time' "$LOG" || true)
ILLEGAL=$(grep -c 'makes an illegal move' "$LOG" || true)
BROKEN=$(grep -cE 'disconnects|connection stalls' "$LOG" || true)

echo "================================================================"
[ -z "$BLOCK" ] || { printf '%s\n' "$BLOCK"; echo "================================================================"; }
echo "bench   $DEV_NAME: $DEV_BENCH   $BASE_NAME: $BASE_BENCH"
echo "games   $N   W/D/L $W/$D/$L (from $DEV_NAME's side)"
echo "elo     $ELO"
echo "llr     $LLR_TEXT [$ELO0, $ELO1] ($MODEL): $VERDICT"
echo "errors  time losses $TIMELOSS, illegal moves $ILLEGAL, disconnects/stalls $BROKEN"
echo "time    ${ELAPSED}s; pgn $PGN, log $LOG"
echo "commit message:"
echo "  Bench: $DEV_NODES"
echo "  SPRT $TC [$ELO0, $ELO1] vs $BASE_LABEL: LLR $LLR_TEXT, $N games, W/D/L $W/$D/$L,${PTNML:+ pentanomial $PTNML,} Elo ${ELO%% (*}, ${VERDICT%%;*}"
exit "$RC"
