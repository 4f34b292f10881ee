# scripts/lib.sh - helpers shared by sprt.sh, gauntlet.sh and calibrate-elo.sh (sourced, not run;
# they expect ROOT, the checkout, and a die function).
# shellcheck shell=bash

# The engines are built as "make build" builds them: with the NNUE vector
# kernels (simd/archsimd). GOEXPERIMENT= (set and empty) builds the Go kernels.
export GOEXPERIMENT=${GOEXPERIMENT-simd}

# wdl_from_log LOG NAME: "W D L" for engine NAME, counted from fastchess's
# "Finished game N (WHITE vs BLACK): RESULT {...}" lines (complete even when a run was
# interrupted before fastchess printed its last report). A game number seen again counts
# once, with its last result: a resumed run (sprt.sh's RESUME) replays the games of a pair
# the interrupt left unfinished.
wdl_from_log() {
    awk -v me="$2" '
    /^Finished game [0-9]+ \(/ {
        n = $3
        line = $0
        sub(/^Finished game [0-9]+ \(/, "", line)
        split(line, halves, "\\): ")
        split(halves[1], pair, " vs ")
        res = halves[2]; sub(/ .*/, "", res)
        if (pair[1] == me) side = 1; else if (pair[2] == me) side = -1; else next
        if (res == "1/2-1/2") score[n] = "d"
        else if ((res == "1-0" && side == 1) || (res == "0-1" && side == -1)) score[n] = "w"
        else if (res == "1-0" || res == "0-1") score[n] = "l"
        else delete score[n]
    }
    END {
        for (n in score) count[score[n]]++
        printf "%d %d %d\n", count["w"], count["d"], count["l"]
    }' "$1"
}

# elo_of W D L: "Elo E +/- M (95%), score S%" from the trinomial model, as cutechess-cli
# computes it; no finite interval when every game was won or lost.
elo_of() {
    awk -v w="$1" -v d="$2" -v l="$3" '
    function elo(s) { return -400 * log(1 / s - 1) / log(10) }
    BEGIN {
        n = w + d + l
        if (n == 0) { print "no games"; exit }
        s = (w + d / 2) / n
        if (s <= 0 || s >= 1) { printf "Elo %s (every game %s), score %.1f%%\n", (s >= 1 ? "+inf" : "-inf"), (s >= 1 ? "won" : "lost"), 100 * s; exit }
        var = (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n
        se = sqrt(var / n); lo = s - 1.96 * se; hi = s + 1.96 * se
        if (lo <= 0 || hi >= 1) { printf "Elo %.1f (95%% interval unbounded: too few games), score %.1f%%\n", elo(s), 100 * s; exit }
        printf "Elo %.1f +/- %.1f (95%%), score %.1f%%\n", elo(s), (elo(hi) - elo(lo)) / 2, 100 * s
    }'
}

# load_ok: false (and a message) when the 1-minute load average exceeds MAX_LOAD
# (default: twice the number of cores).
load_ok() {
    local load max
    load=$(cut -d' ' -f1 /proc/loadavg)
    max=${MAX_LOAD:-$(( 2 * $(nproc) ))}
    if awk -v l="$load" -v m="$max" 'BEGIN { exit !(l > m) }'; then
        echo "load average $load is above MAX_LOAD=$max" >&2
        return 1
    fi
}

# default_book: the opening book the match scripts use when BOOK is not set: the balanced
# 2-move openings committed beside the scripts (scripts/openings.py made them).
default_book() {
    echo "$ROOT/scripts/openings-2moves.epd"
}

# check_book FILE: dies unless FILE is a readable .epd or .pgn file; prints its fastchess
# format (epd or pgn).
check_book() {
    [ -r "$1" ] && [ -f "$1" ] ||
        die "opening book not readable: $1 (set BOOK to an .epd or .pgn file of openings)"
    case $1 in
        *.epd|*.EPD) echo epd ;;
        *.pgn|*.PGN) echo pgn ;;
        *) die "BOOK must end in .epd or .pgn: $1" ;;
    esac
}

# find_fastchess: the fastchess binary from $FASTCHESS or PATH, or dies saying how to get one.
find_fastchess() {
    local f=${FASTCHESS:-$(command -v fastchess || true)}
    if [ -z "$f" ] || [ ! -x "$f" ]; then
        echo -n "${0##*/}: " >&2
        cat >&2 <<'MSG'
fastchess not found: set FASTCHESS to its binary, or put it on PATH. It is not part of this
project; build it from its public source in a directory outside the checkout, for example:
  git clone https://github.com/Disservin/fastchess ~/src/fastchess
  (cd ~/src/fastchess && git checkout v1.8.2-alpha && make -j2)   # g++ (build-essential)
  export FASTCHESS=~/src/fastchess/fastchess
MSG
        exit 2
    fi
    echo "$f"
}

# run_dir NAME: creates and prints the run directory: $RUN_DIR if set, else
# runs/NAME/<date>-<time> inside the checkout (git-ignored). A directory inside the checkout
# must be git-ignored, so the builds' "-dirty" labels stay true.
run_dir() {
    local d=${RUN_DIR:-$ROOT/runs/$1/$(date +%Y%m%d-%H%M%S)}
    d=$(realpath -m "$d")
    case $d/ in
        "$ROOT"/*) git -C "$ROOT" check-ignore -q "$d" ||
            die "RUN_DIR inside the checkout must be git-ignored (runs/ is): $d" ;;
    esac
    mkdir -p "$d" || die "cannot create the run directory $d"
    echo "$d"
}
