#!/usr/bin/env bash
# scripts/calibrate-elo.sh - measure Twofold's weakened configurations (the UCI_Elo ladder) on
# Stockfish 15.1's UCI_Elo scale: each POINT is one fixed-game fastchess match of Twofold,
# weakened one way, against Stockfish with UCI_LimitStrength at an anchor Elo; the point's
# Elo is anchor + Elo(score), with the 95% error of the trinomial model. Prints a table.
#
# Usage:
#   scripts/calibrate-elo.sh                         # the ladder below
#   scripts/calibrate-elo.sh "POINT" ["POINT" ...]
#   GAMES=80 TC=10+0.1 scripts/calibrate-elo.sh "depth=3,margin=0 1700"
#
# A POINT is "CONFIG ANCHOR": CONFIG is a search.Strength written depth=D,margin=M,
# nodes=N (both evaluated by hand) or nodes=N,net=1 (with the embedded network), played
# through a build with -tags calibrate, whose TWOFOLD_STRENGTH variable replaces what
# UCI_Elo maps to; elo=E (the normal build with UCI_LimitStrength and
# UCI_Elo E: the verification of the mapping), full (full strength), mcts (the zero mind,
# Search=MCTS with the embedded network, at the clock) or mcts,nodes=N (the zero mind at N
# playouts a move, e.g. 800 as the ladder plays; needs `make ort`); ANCHOR is Stockfish's
# UCI_Elo (1350..2850), best within about 200 of the point's expected Elo.
#
# Why one fast time control is enough: the ladder's configurations do not depend on the clock
# (fixed depth or a node cap; a depth-4 full-window move takes about 0.03 s, a 20000-node move
# about 0.03 s), and Stockfish 15.1's UCI_Elo picks its move from a MultiPV-4 search at depth
# 1 + level (level 0..19 from the Elo; depth 10 at UCI_Elo 2200), reached easily at 5+0.05, so
# neither side's play depends much on the clock, and 5+0.05 buys the most games. Stockfish
# calibrated its scale at 60+0.6 against CCRL 40/4. Full strength (config full) does depend on
# the clock and on the machine's load.
#
# Environment (defaults in brackets):
#   FASTCHESS     fastchess binary [fastchess on PATH]; scripts/sprt.sh's header says how to build it
#   STOCKFISH     [/usr/games/stockfish]
#   GAMES         games per point, rounded up to even [40]
#   TC            [5+0.05]
#   CONCURRENCY   [2 when the load average is below 2.5, else 1]
#   BOOK          opening file, .epd or .pgn [scripts/openings-2moves.epd], random order,
#                 colours swapped (-repeat)
#   SEED          opening-order seed [random, printed]
#   RUN_DIR       PGNs and logs; outside the checkout or git-ignored inside it
#                 [runs/calibrate-elo/<date>-<time>]
set -euo pipefail

die() { echo "calibrate-elo.sh: $*" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
cd "$ROOT"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

case ${1:-} in -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac

FASTCHESS=$(find_fastchess)
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[ -x "$STOCKFISH" ] || die "Stockfish not found: apt-get install stockfish, or set STOCKFISH"
GAMES=${GAMES:-40}
TC=${TC:-5+0.05}
BOOK=${BOOK:-$(default_book)}
BOOK_FORMAT=$(check_book "$BOOK")
BOOK=$(realpath "$BOOK")
SEED=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
case $GAMES in ''|*[!0-9]*|0) die "GAMES must be a positive integer" ;; esac
ROUNDS=$(( (GAMES + 1) / 2 ))

# The measured points (the documentation's UCI_Elo calibration), each against an anchor near
# its Elo; search.EloStrength's rungs are a line through the depth-3 points, nodes=3000,
# nodes=20000, the nodes=N,net=1 points (with the embedded network) and full.
POINTS=("$@")
[ ${#POINTS[@]} -gt 0 ] || POINTS=(
    "depth=1,margin=50 1350"
    "depth=2,margin=30 1350"
    "depth=2,margin=0 1500"
    "depth=3,margin=60 1350"
    "depth=3,margin=40 1450"
    "depth=3,margin=30 1550"
    "depth=3,margin=14 1650"
    "depth=3,margin=0 1750"
    "depth=4,margin=0 1700"
    "nodes=3000 1800"
    "nodes=20000 2000"
    "nodes=15000,net=1 2100"
    "nodes=40000,net=1 2250"
    "nodes=100000,net=1 2400"
    "nodes=300000,net=1 2500"
    "nodes=1000000,net=1 2600"
    "full 2700"
)
# To verify the mapping: scripts/calibrate-elo.sh "elo=1400 1400" "elo=1850 1850" "elo=2250 2250"
# The zero mind on the same scale: scripts/calibrate-elo.sh "mcts,nodes=800 1500" "mcts 1500"

RUN_DIR=$(run_dir calibrate-elo)

LABEL=$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain -- search uci cmd eval)" ] || LABEL="$LABEL-dirty"
echo "== building $LABEL: engine (release) and engine-cal (-tags calibrate) into $RUN_DIR"
go build -o "$RUN_DIR/engine" ./cmd/engine
go build -tags calibrate -o "$RUN_DIR/engine-cal" ./cmd/engine
echo "== bench: $("$RUN_DIR/engine" bench </dev/null 2>&1 | tail -1)"
echo "== $((ROUNDS * 2)) games per point, tc $TC, $(basename "$BOOK") (seed $SEED); run dir $RUN_DIR"

ORT_LIB=libonnxruntime.so.1
[ "$(uname -s)" = Darwin ] && ORT_LIB=libonnxruntime.dylib
ADJ=(-draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600)
TABLE=()
for point in "${POINTS[@]}"; do
    read -r config anchor <<<"$point"
    case $anchor in ''|*[!0-9]*) die "point '$point': want CONFIG ANCHOR" ;; esac
    dir=$RUN_DIR/$config-vs-$anchor
    mkdir -p "$dir"
    # The engine as fastchess starts it: a wrapper setting TWOFOLD_STRENGTH, or the release
    # build with UCI_Elo.
    ENG=(-engine "cmd=$dir/twofold" "name=twofold-$config" option.Threads=1)
    case $config in
        full) ln -sf "$RUN_DIR/engine" "$dir/twofold" ;;
        elo=*) ln -sf "$RUN_DIR/engine" "$dir/twofold"
               ENG+=(option.UCI_LimitStrength=true "option.UCI_Elo=${config#elo=}") ;;
        mcts|mcts,nodes=*)
               [ -f "$ROOT/lib/$ORT_LIB" ] || die "point '$point': the zero mind needs ONNX Runtime: make ort"
               printf '#!/bin/sh\nONNXRUNTIME_LIB=%s exec %s "$@"\n' "$ROOT/lib/$ORT_LIB" "$RUN_DIR/engine" >"$dir/twofold"
               chmod +x "$dir/twofold"
               ENG+=(option.Search=MCTS)
               case $config in *nodes=*) ENG+=("nodes=${config#*nodes=}") ;; esac ;;
        *) printf '#!/bin/sh\nTWOFOLD_STRENGTH=%s exec %s "$@"\n' "$config" "$RUN_DIR/engine-cal" >"$dir/twofold"
           chmod +x "$dir/twofold"
           ENG+=(option.UCI_LimitStrength=true) ;;
    esac
    conc=${CONCURRENCY:-$(awk '{ print ($1 < 2.5) ? 2 : 1 }' /proc/loadavg)}
    CMD=("$FASTCHESS" "${ENG[@]}"
         -engine "cmd=$STOCKFISH" "name=sf-$anchor" option.Threads=1 option.UCI_LimitStrength=true "option.UCI_Elo=$anchor"
         -each "tc=$TC" option.Hash=16
         -openings "file=$BOOK" "format=$BOOK_FORMAT" order=random -srand "$SEED"
         -rounds "$ROUNDS" -repeat -concurrency "$conc" "${ADJ[@]}" -ratinginterval 0
         -pgnout "file=$dir/games.pgn")
    printf '%q ' "${CMD[@]}" >"$dir/command.txt"; echo >>"$dir/command.txt"
    echo "== twofold-$config vs Stockfish UCI_Elo $anchor (concurrency $conc)"
    start=$(date +%s)
    (cd "$dir" && exec "${CMD[@]}") >"$dir/fastchess.log" 2>&1 || true
    read -r W D L < <(wdl_from_log "$dir/fastchess.log" "twofold-$config")
    tl=$(grep -c "twofold-$config loses on time" "$dir/fastchess.log" || true)
    row=$(awk -v c="$config" -v a="$anchor" -v w="$W" -v d="$D" -v l="$L" -v tl="$tl" -v t="$(( $(date +%s) - start ))" '
        function elo(s) { return -400 * log(1 / s - 1) / log(10) }
        BEGIN {
            n = w + d + l; s = n ? (w + d / 2) / n : 0
            m = "no games"
            if (n && s > 0 && s < 1) {
                var = (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n
                se = sqrt(var / n); lo = s - 1.96 * se; hi = s + 1.96 * se
                if (lo <= 0 && hi >= 1) m = sprintf("%d (too few games)", a + elo(s))
                else if (lo <= 0) m = sprintf("%d (upper %d)", a + elo(s), a + elo(hi))
                else if (hi >= 1) m = sprintf("%d (lower %d)", a + elo(s), a + elo(lo))
                else m = sprintf("%d +/- %d", a + elo(s), (elo(hi) - elo(lo)) / 2)
            } else if (n) m = (s >= 1 ? "above " : "below ") a
            printf "%-20s %5d %4d %3d/%3d/%3d %5.1f%%  %-18s %2d time losses %4ds", c, a, n, w, d, l, 100 * s, m, tl, t
        }')
    echo "   $row"
    TABLE+=("$row")
done
echo "================================================================"
echo "Twofold $LABEL vs Stockfish 15.1 (UCI_LimitStrength), tc $TC, $(basename "$BOOK"):"
printf '%-20s %5s %4s %11s %6s  %s\n' config anchor n W/D/L score "measured Elo (95%)"
printf '%s\n' "${TABLE[@]}"
echo "PGNs and logs: $RUN_DIR/<config>-vs-<anchor>/"
