# scripts/recipe-lib.sh - the machinery of recipe-nnue.sh and recipe-zero.sh (sourced, not
# run): the command line, the dry-run runners and the stages. A recipe sources this file, calls
# recipe_init "$@" and then recipe_engine DIR once its own checks are done; its stages are its
# lines that begin with `stage NAME`.
# shellcheck shell=bash

die() { echo "${0##*/}: $*" >&2; exit 2; }

# recipe_init ARGS...: goes to the checkout's root and reads the command line into DRY_RUN,
# INSTALL, STOP_AFTER and RUN_DIR; --help prints the recipe's header comment.
recipe_init() {
    ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside a git checkout"
    local self
    self=$(cd "$(dirname "$0")" && pwd)/${0##*/}  # $0 may be relative to where we were
    cd "$ROOT"
    # The stage names, each with a space on both sides, read from the recipe's own stage lines.
    STAGES="$(awk '/^stage [A-Za-z0-9_-]+ / { printf " %s", $2 } END { print " " }' "$self")"

    DRY_RUN=${DRY_RUN:-0}
    INSTALL=0
    STOP_AFTER=
    while [ $# -gt 0 ]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --install) INSTALL=1 ;;
            --run-dir) [ $# -ge 2 ] || die "--run-dir needs a directory"; RUN_DIR=$2; shift ;;
            --stop-after) [ $# -ge 2 ] || die "--stop-after needs a stage"; STOP_AFTER=$2; shift ;;
            -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$self"; exit 0 ;;
            *) die "unknown argument $1 (see --help)" ;;
        esac
        shift
    done

    [ -z "$STOP_AFTER" ] || [[ $STAGES == *" $STOP_AFTER "* ]] || die "no stage $STOP_AFTER; the stages:$STAGES"
}

# recipe_engine DIR [VAR=VALUE...]: ENGINE, or else DIR/engine built from the working tree
# (VAR=VALUE in go build's environment); a dry run prints its header and the build instead.
recipe_engine() {
    local dir=$1
    shift
    if [ "$DRY_RUN" = 1 ]; then
        ENGINE=${ENGINE:-$dir/engine}
        echo "# dry run: the commands of every stage, in order (run dir $dir)"
        echo "GOEXPERIMENT=simd ${*:+$* }go build -o $ENGINE ./cmd/engine"
        return
    fi
    if [ -z "${ENGINE:-}" ]; then
        ENGINE=$dir/engine
        echo "# building $ENGINE from the working tree"
        env GOEXPERIMENT="${GOEXPERIMENT-simd}" "$@" go build -o "$ENGINE" ./cmd/engine || die "go build failed"
    fi
    [ -x "$ENGINE" ] || die "ENGINE is not an executable: $ENGINE"
}

# q WORD...: the words quoted for the shell where they need it.
q() {
    local w out=()
    for w in "$@"; do
        if [[ $w =~ ^[A-Za-z0-9_./,=:+@%-]+$ ]]; then out+=("$w"); else out+=("$(printf '%q' "$w")"); fi
    done
    echo "${out[*]}"
}

# run CMD...: prints the command, then runs it (not with --dry-run).
run() {
    q "$@"
    [ "$DRY_RUN" = 1 ] || "$@"
}

# run_sh SCRIPT: the same for a line of shell; run_bg SCRIPT starts it in the background.
run_sh() {
    echo "$1"
    [ "$DRY_RUN" = 1 ] || bash -c "set -euo pipefail; $1"
}
run_bg() {
    echo "$1 &"
    [ "$DRY_RUN" = 1 ] || bash -c "set -euo pipefail; $1" &
}

# done_or FILE: true (and a note) when FILE exists and this is not a dry run.
done_or() {
    if [ "$DRY_RUN" != 1 ] && [ -e "$1" ]; then
        echo "# $1 exists: done"
        return 0
    fi
    return 1
}

# stage NAME TEXT: announces a stage; stops the script after the --stop-after stage.
LAST_STAGE=
stage() {
    [ -z "$LAST_STAGE" ] || [ "$LAST_STAGE" != "$STOP_AFTER" ] || { echo "# stopped after $STOP_AFTER"; exit 0; }
    LAST_STAGE=$1
    echo
    echo "# == $1: $2"
}
