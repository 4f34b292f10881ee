#!/usr/bin/env bash
# scripts/tb-endgames.sh - Syzygy tablebases in play: Twofold against Stockfish without tables in
# won and drawn endings, once with Twofold's tables and once without (the baseline).
#
# Usage:
#   TBDIR=/path/to/tables scripts/tb-endgames.sh
#   TBDIR=... RUNS=tables POSITIONS=10 scripts/tb-endgames.sh   # a short check
#
# Each position of EPD (scripts/tb-endgames.epd: 28 won positions, 6 each of KQvKR, KRvKP,
# KBNvK and KRPvKR and 4 of KPPvKP, the winning side to move, and 20 drawn ones of KRPvKR,
# KRvKP and KPPvKP in which some move loses) is played twice, colours swapped, at TC against
# Stockfish with no tables (its SyzygyPath empty), 1 thread, Hash 16 and a Move Overhead of
# OVERHEAD ms each (a loaded machine made Stockfish lose on time with its default 10). Run
# "tables" gives Twofold SyzygyPath=TBDIR, run "baseline" nothing. No adjudication: every game
# is played to mate, the fifty-move rule, repetition or insufficient material. The positions
# came from random positions of those tables (internal/tbcheck.RandomPosition), kept when the
# tables said win with a DTZ of at least 20 (KQvKR), 12 (KRvKP), 40 (KBNvK) or 10 (KRPvKR), or
# draw; the eight KPPvKP ones (the last lines) from "go run ./cmd/tbcheck --tbdir TBDIR --seed 1
# --pick KPPvKP:win:4:8,KPPvKP:draw:4", which picks such positions for any table
# (docs/tablebases.md).
#
# At the end each run's games are split by what the tables say of the start position for
# Twofold's side (engine probe --syzygy TBDIR): winning (converted: won, which under the
# fifty-move rule fastchess applies means within it), drawn (held: not lost) and losing, with
# W/D/L for each and overall, and how many of the wins came on time rather than on the board.
#
# TBDIR must hold the tables of every position and of what captures and promotions lead to:
# every 3- and 4-piece table, and the 5-piece tables KRPvKR and KPPvKP lead to
# (scripts/syzygy-gen.sh GENDIR OUTDIR KRPvKR KPPvKP makes them; docs/tablebases.md).
#
# fastchess is not part of this project: see scripts/sprt.sh's header for how to build it.
#
# Environment (defaults in brackets):
#   TBDIR        the tables (required)
#   FASTCHESS    path of the fastchess binary [fastchess on PATH]
#   STOCKFISH    Stockfish 15.1 [/usr/games/stockfish]
#   EPD          the positions [scripts/tb-endgames.epd]
#   POSITIONS    play only the first N positions [all]
#   RUNS         which runs, in order [tables baseline]
#   TC           time control [5+0.05]
#   CONCURRENCY  games in parallel [2]
#   OVERHEAD     Move Overhead of both engines, ms [100]
#   RUN_DIR      where the binary, PGNs and logs go [runs/tb-endgames/<date>-<time>]
#
# Exit status: 0 when every run finished, non-zero on a build or runner failure.
set -euo pipefail

die() { echo "tb-endgames.sh: $*" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
cd "$ROOT"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

case ${1:-} in -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac
[ $# -eq 0 ] || die "no arguments; settings come from the environment (see --help)"

[ -n "${TBDIR:-}" ] || die "set TBDIR to the tablebase directory (see --help)"
FASTCHESS=$(find_fastchess)
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[ -x "$STOCKFISH" ] || die "Stockfish not found: apt-get install stockfish, or set STOCKFISH"
EPD=$(realpath "${EPD:-$ROOT/scripts/tb-endgames.epd}")
[ -r "$EPD" ] || die "positions not readable: $EPD"
RUNS=${RUNS:-tables baseline}
TC=${TC:-5+0.05}
CONCURRENCY=${CONCURRENCY:-2}
OVERHEAD=${OVERHEAD:-100}
case $CONCURRENCY in ''|*[!0-9]*|0) die "CONCURRENCY must be a positive integer" ;; esac
RUN_DIR=$(run_dir tb-endgames)

POS_FILE=$RUN_DIR/positions.epd
if [ -n "${POSITIONS:-}" ]; then head -n "$POSITIONS" "$EPD" >"$POS_FILE"; else cp "$EPD" "$POS_FILE"; fi
ROUNDS=$(grep -c . "$POS_FILE")

echo "== building the engine (working tree)"
ENGINE=$RUN_DIR/engine
go build -o "$ENGINE" ./cmd/engine
echo "   $("$ENGINE" version 2>/dev/null || true)"

# The tables' verdict of each start position, for the side to move: win, draw or loss.
declare -A VERDICT
while IFS= read -r fen; do
    [ -n "$fen" ] || continue
    wdl=$("$ENGINE" probe --syzygy "$TBDIR" "$fen" | sed -nE 's/^\[WDL "(.*)"\]$/\1/p')
    case $wdl in
        Win) VERDICT[$fen]=win ;;
        Loss) VERDICT[$fen]=loss ;;
        Draw|CursedWin|BlessedLoss) VERDICT[$fen]=draw ;;
        *) die "the tables in $TBDIR do not hold $fen" ;;
    esac
done <"$POS_FILE"

load_ok || echo "warning: a busy machine distorts time-controlled games; consider waiting" >&2

# summarize PGN: W/D/L of twofold by the start position's verdict for its side.
summarize() {
    local pgn=$1 fen white result term side stm k
    declare -A w d l t
    for k in winning drawn losing all; do w[$k]=0; d[$k]=0; l[$k]=0; t[$k]=0; done
    while IFS='|' read -r fen white result term; do
        [ -n "$fen" ] || continue
        side=black; [ "$white" = twofold ] && side=white
        stm=${fen#* }; stm=${stm%% *}
        case ${VERDICT[$fen]:-} in
            draw) k=drawn ;;
            win) if [ "$stm" = "${side:0:1}" ]; then k=winning; else k=losing; fi ;;
            loss) if [ "$stm" = "${side:0:1}" ]; then k=losing; else k=winning; fi ;;
            *) continue ;;
        esac
        case $result in
            1/2-1/2) d[$k]=$(( d[$k] + 1 )); d[all]=$(( d[all] + 1 )) ;;
            1-0|0-1)
                if { [ "$result" = 1-0 ] && [ "$side" = white ]; } || { [ "$result" = 0-1 ] && [ "$side" = black ]; }; then
                    w[$k]=$(( w[$k] + 1 )); w[all]=$(( w[all] + 1 ))
                    if [ "$term" = "time forfeit" ]; then t[$k]=$(( t[$k] + 1 )); t[all]=$(( t[all] + 1 )); fi
                else
                    l[$k]=$(( l[$k] + 1 )); l[all]=$(( l[all] + 1 ))
                fi ;;
        esac
    done < <(awk '
        /^\[FEN "/ { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen) }
        /^\[White "/ { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white) }
        /^\[Result "/ { res = $0; sub(/^\[Result "/, "", res); sub(/"\]$/, "", res) }
        /^\[Termination "/ { term = $0; sub(/^\[Termination "/, "", term); sub(/"\]$/, "", term) }
        /^1\.|^[0-9]+\.\.\./ && fen != "" { print fen "|" white "|" res "|" term; fen = ""; term = "" }' "$pgn")
    printf '   %-36s W/D/L %d/%d/%d (wins on time %d)\n' \
        "winning for Twofold (converted = W)" "${w[winning]}" "${d[winning]}" "${l[winning]}" "${t[winning]}" \
        "drawn (held = W+D)" "${w[drawn]}" "${d[drawn]}" "${l[drawn]}" "${t[drawn]}" \
        "losing for Twofold" "${w[losing]}" "${d[losing]}" "${l[losing]}" "${t[losing]}" \
        "all" "${w[all]}" "${d[all]}" "${l[all]}" "${t[all]}"
}

RC=0
for run in $RUNS; do
    TB_OPT=()
    case $run in
        tables) TB_OPT=("option.SyzygyPath=$(realpath "$TBDIR")") ;;
        baseline) ;;
        *) die "RUNS: want tables and/or baseline, got $run" ;;
    esac
    LOG=$RUN_DIR/$run.log
    PGN=$RUN_DIR/$run.pgn
    echo "== $run: $ROUNDS positions x 2 colours against Stockfish without tables, tc $TC, Move Overhead $OVERHEAD ms, concurrency $CONCURRENCY"
    START=$(date +%s)
    (cd "$RUN_DIR" && exec "$FASTCHESS" \
        -engine "cmd=$ENGINE" name=twofold "${TB_OPT[@]}" \
        -engine "cmd=$STOCKFISH" name=stockfish \
        -each "tc=$TC" option.Hash=16 option.Threads=1 "option.Move Overhead=$OVERHEAD" \
        -openings "file=$POS_FILE" format=epd order=sequential \
        -rounds "$ROUNDS" -games 2 -repeat -concurrency "$CONCURRENCY" \
        -pgnout "file=$PGN") >"$LOG" 2>&1 || RC=$?
    read -r W D L < <(wdl_from_log "$LOG" twofold)
    echo "   $((W + D + L)) games in $(( $(date +%s) - START ))s, W/D/L $W/$D/$L;" \
         "time losses $(grep -c 'loses on time' "$LOG" || true), illegal moves $(grep -c 'makes an illegal move' "$LOG" || true)"
    [ -s "$PGN" ] && summarize "$PGN"
done
echo "   run dir: $RUN_DIR"
exit "$RC"
