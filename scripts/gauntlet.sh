#!/usr/bin/env bash
# scripts/gauntlet.sh - the working tree's engine against a list of opponents, one fastchess
# match each; prints W/D/L and Elo +/- error per opponent and a table at the end.
#
# Usage:
#   scripts/gauntlet.sh                           # the installed Debian engines (below)
#   scripts/gauntlet.sh "OPPONENT" ["OPPONENT" ...]
#   make gauntlet [OPPONENTS_FILE=file] [GAMES=100] [TC=8+0.08]
#
# An OPPONENT is one string: the engine's command (a path, or a name on PATH or in
# /usr/games), then fastchess engine settings as key=value words; quotes group words:
#   "/usr/games/stockfish name=sf-2000 option.UCI_LimitStrength=true option.UCI_Elo=2000"
#   "/usr/games/glaurung option.Threads=1"
#   "/usr/games/toga2 'option.Number of Threads=1'"
#   "$HOME/engines/chess-3 name=chess-3"         # an engine built outside the repository
# OPPONENTS_FILE: one OPPONENT per line (# comments and blank lines skipped).
# With neither, the Debian engines that are installed (apt-get install stockfish glaurung
# toga2 ethereal-chess): Glaurung 2.2 (Threads 1), Toga II 3.0, Ethereal 12, and Stockfish
# 15.1 limited to UCI_Elo 2000.
#
# Every engine gets Hash 16 (HASH) and the time control; opponents that default to more
# than one thread need their own option (Glaurung's default is 2, hence Threads=1 above).
# Twofold plays with Threads 1. Openings come from BOOK in random order, each played twice
# with colours swapped.
#
# fastchess is not part of this project; build it from its public source outside the
# repository and set FASTCHESS (scripts/sprt.sh's header says how).
#
# Environment (defaults in brackets):
#   FASTCHESS     path of the fastchess binary [fastchess on PATH]
#   ENGINE        Twofold binary to test [built from the working tree into RUN_DIR]
#   GAMES         games per opponent, rounded up to even [100]
#   TC            time control [8+0.08]
#   CONCURRENCY   games in parallel [2]
#   HASH          Hash for every engine [16]
#   BOOK          opening file, .epd or .pgn [scripts/openings-2moves.epd]
#   SEED          opening-order seed [random, printed]
#   RUN_DIR       PGNs and logs; outside the checkout or git-ignored inside it
#                 [runs/gauntlet/<date>-<time>]
#   ADJUDICATE    1 = draw/resign adjudication as in sprt.sh, 0 = none [1]
#   MAX_LOAD      skip the remaining opponents when the 1-minute load average is above it
#                 [twice the cores]
#   EXTRA         more fastchess arguments, split on spaces
set -euo pipefail

die() { echo "gauntlet.sh: $*" >&2; exit 2; }

ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
cd "$ROOT"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

case ${1:-} in -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac

FASTCHESS=$(find_fastchess)

GAMES=${GAMES:-100}
TC=${TC:-8+0.08}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-16}
BOOK=${BOOK:-$(default_book)}
SEED=${SEED:-$(( (RANDOM << 15) | RANDOM ))}
ADJUDICATE=${ADJUDICATE:-1}
EXTRA=${EXTRA:-}
case $GAMES in ''|*[!0-9]*|0) die "GAMES must be a positive integer" ;; esac
ROUNDS=$(( (GAMES + 1) / 2 ))
BOOK_FORMAT=$(check_book "$BOOK")
BOOK=$(realpath "$BOOK")

# The opponents.
OPPONENTS=()
if [ $# -gt 0 ]; then
    OPPONENTS=("$@")
elif [ -n "${OPPONENTS_FILE:-}" ]; then
    [ -r "$OPPONENTS_FILE" ] || die "OPPONENTS_FILE not readable: $OPPONENTS_FILE"
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in ''|'#'*) continue ;; esac
        OPPONENTS+=("$line")
    done <"$OPPONENTS_FILE"
else
    [ -x /usr/games/glaurung ] && OPPONENTS+=("/usr/games/glaurung name=glaurung-2.2 option.Threads=1")
    [ -x /usr/games/toga2 ] && OPPONENTS+=("/usr/games/toga2 name=toga2-3.0")
    [ -x /usr/games/ethereal-chess ] && OPPONENTS+=("/usr/games/ethereal-chess name=ethereal-12")
    [ -x /usr/games/stockfish ] &&
        OPPONENTS+=("/usr/games/stockfish name=sf15.1-elo2000 option.UCI_LimitStrength=true option.UCI_Elo=2000")
fi
[ ${#OPPONENTS[@]} -gt 0 ] ||
    die "no opponents: name some, or apt-get install stockfish glaurung toga2 ethereal-chess"

RUN_DIR=$(run_dir gauntlet)

LABEL=$(git rev-parse --short HEAD)
if [ -n "${ENGINE:-}" ]; then
    [ -x "$ENGINE" ] || die "ENGINE is not executable: $ENGINE"
    cp "$ENGINE" "$RUN_DIR/engine"
    LABEL=$(basename "$ENGINE")
else
    [ -z "$(git status --porcelain)" ] || LABEL="$LABEL-dirty"
    echo "== building twofold-$LABEL (working tree)"
    go build -ldflags "-X github.com/twofold-chess/twofold/uci.Version=$LABEL" -o "$RUN_DIR/engine" ./cmd/engine
fi
ME="twofold-$LABEL"
echo "== bench: $("$RUN_DIR/engine" bench </dev/null 2>&1 | tail -1)"
echo "== $ME vs ${#OPPONENTS[@]} opponent(s): $((ROUNDS * 2)) games each, tc $TC, Hash $HASH," \
     "$(basename "$BOOK") (seed $SEED), concurrency $CONCURRENCY; run dir $RUN_DIR"

ADJ=()
[ "$ADJUDICATE" = 1 ] && ADJ=(-draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600)
read -r -a EXTRA_ARGS <<<"$EXTRA"

SUMMARY=()
INTERRUPTED=0
trap 'INTERRUPTED=1' INT
for spec in "${OPPONENTS[@]}"; do
    [ "$INTERRUPTED" = 0 ] || break
    if ! load_ok; then echo "gauntlet.sh: machine overloaded; skipping the remaining opponents" >&2; break; fi
    # Split the spec into words, honouring quotes (xargs does that without eval).
    mapfile -t WORDS < <(xargs -n1 printf '%s\n' <<<"$spec")
    [ ${#WORDS[@]} -gt 0 ] || continue
    cmd=${WORDS[0]}
    if [ "${cmd#*/}" = "$cmd" ]; then
        cmd=$(PATH=$PATH:/usr/games command -v "$cmd") || { echo "opponent not found: ${WORDS[0]}" >&2; continue; }
    fi
    [ -x "$cmd" ] || { echo "opponent not executable: $cmd" >&2; continue; }
    name=$(basename "$cmd")
    SETTINGS=()
    for w in "${WORDS[@]:1}"; do
        case $w in
            name=*) name=${w#name=} ;;
            *=*) SETTINGS+=("$w") ;;
            *) die "opponent word '$w' is not key=value: $spec" ;;
        esac
    done
    [ "$name" != "$ME" ] || name="$name-opp"
    dir=$RUN_DIR/$name
    mkdir -p "$dir"
    log=$dir/fastchess.log
    CMD=("$FASTCHESS"
         -engine "cmd=$RUN_DIR/engine" "name=$ME" option.Threads=1
         -engine "cmd=$cmd" "name=$name" "${SETTINGS[@]}"
         -each "tc=$TC" "option.Hash=$HASH"
         -openings "file=$BOOK" "format=$BOOK_FORMAT" order=random -srand "$SEED"
         -rounds "$ROUNDS" -repeat -concurrency "$CONCURRENCY" -recover
         "${ADJ[@]}" -ratinginterval 0 -pgnout "file=$dir/games.pgn"
         "${EXTRA_ARGS[@]}")
    printf '%q ' "${CMD[@]}" >"$dir/command.txt"; echo >>"$dir/command.txt"
    echo "== $ME vs $name ($cmd ${SETTINGS[*]})"
    start=$(date +%s)
    rc=0
    (cd "$dir" && exec "${CMD[@]}") 2>&1 | tee -i -p "$log" | grep --line-buffered -E '^Finished game' || rc=$?
    read -r W D L < <(wdl_from_log "$log" "$ME")
    N=$(( W + D + L ))
    # fastchess's own Elo line when its last report covers every finished game.
    elo=
    block=$(awk '/^Results of /{buf=""; inblk=1} inblk{buf=buf $0 "\n"} inblk && /^Games:/{last=buf; inblk=0} END{printf "%s", last}' "$log")
    if [ -n "$block" ] && [ "$(sed -nE 's/^Games: ([0-9]+),.*/\1/p' <<<"$block")" = "$N" ]; then
        elo="Elo $(sed -nE 's/^Elo: ([^,]*),.*/\1/p' <<<"$block") (95%, fastchess), score $(sed -nE 's/.*Points: [0-9.]+ \(([0-9.]+) %\).*/\1/p' <<<"$block")%"
    fi
    if [ -z "${elo:-}" ] || grep -qiE 'inf|nan' <<<"$elo"; then
        elo=$(elo_of "$W" "$D" "$L")
    fi
    tl=$(grep -c "$ME loses on time" "$log" || true)
    il=$(grep -c "$ME makes an illegal move" "$log" || true)
    dc=$(grep -cE "$ME (disconnects|'s connection stalls)" "$log" || true)
    line=$(printf '%-18s %4d games  W/D/L %d/%d/%d  %s  (Twofold: %d time losses, %d illegal moves, %d crashes/stalls; %ds)' \
        "$name" "$N" "$W" "$D" "$L" "$elo" "$tl" "$il" "$dc" "$(( $(date +%s) - start ))")
    [ "$rc" = 0 ] || line="$line [fastchess exit status $rc]"
    echo "   $line"
    SUMMARY+=("$line")
done
trap - INT

echo "================================================================"
echo "$ME, tc $TC, $(basename "$BOOK"), from Twofold's side:"
[ ${#SUMMARY[@]} -gt 0 ] || { echo "no match was played"; exit 1; }
printf '  %s\n' "${SUMMARY[@]}"
echo "PGNs and logs: $RUN_DIR/<opponent>/"
