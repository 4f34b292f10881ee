#!/usr/bin/env bash
# scripts/recipe-nnue.sh - the recipe of the shipped NNUE network (nnue/default.nnue, network 14),
# rebuilt from the repository alone: every generation's self-play data (`engine datagen`) and
# training run (the NNUE trainer, nnue_train.py), from the hand-crafted evaluation's games up.
#
# Usage:
#   scripts/recipe-nnue.sh --dry-run            # print every command, run nothing
#   scripts/recipe-nnue.sh                      # run (or resume) the whole chain
#   scripts/recipe-nnue.sh --stop-after net8    # run up to and including a stage
#   scripts/recipe-nnue.sh --install            # then copy network 14 to nnue/default.nnue
#   scripts/recipe-nnue.sh --run-dir DIR ...    # another run directory (default RUN_DIR)
#
# Each generation plays the alpha-beta searcher against itself at 5000 nodes a move with the
# network before it (`engine datagen --network FILE`; the first with the hand-crafted
# evaluation) and keeps quiet positions with the search's score; the next network learns
# them, with the older generations' positions beside them. Stages and their time on an AMD
# EPYC with 2 cores (datagen with 2 workers makes 450-750 positions a second; training uses
# 2 threads):
#
#   stage   what                                                              time
#   hce     hce.bin: 1,998,001 positions of the hand-crafted search           75 min
#   net1b   H=128, 12 epochs on hce.bin                                         4 min
#   gen1b   net1b-gen.bin: 2,758,188 positions of net 1b's search              70 min
#   net2    H=128, 15 epochs on net1b-gen.bin                                   5 min
#   gen2    net2-gen.bin: 2,634,416 positions of net 2's search                75 min
#   net3    H=128, 8 output buckets, 15 epochs on net2-gen.bin                  7 min
#   gen3    net3-gen.bin: 2,364,602 positions of net 3's search                65 min
#   net4    as net 3, 18 epochs on net 2's and net 3's games                   15 min
#   gen4    net4-gen.bin: 2,653,498 positions of net 4's search                70 min
#   net5    as net 4 on the games of nets 2-4                                  23 min
#   gen5    net5-gen.bin: 2,181,623 positions of net 5's search                60 min
#   net6    as net 4 on the games of nets 2-5                                  29 min
#   gen6    net6-gen.bin and net6-gen-b.bin: 4,822,505 positions of net 6's  130 min
#   net8    H=256, 16 epochs on the games of nets 2-6 (14.66M positions)       55 min
#   gen8    net8-gen.bin: 6,808,906 positions of net 8's search               155 min
#   net9    net 8 fine-tuned on net8-gen.bin: 5 epochs, lr 3e-4 x 0.85;         7 min
#           epoch 4 is network 9
#   gen9    net9-gen.bin: 4,614,153 positions of net 9's search               100 min
#   net11   H=256, 16 epochs from scratch on net8-gen.bin and net9-gen.bin     26 min
#   gen9b   net9-gen.bin grown to 8,677,868 positions                          60 min
#   net12   net 11's run resumed on the grown data to epoch 25                 22 min
#   gen12   net12-gen.bin: 5,530,387 positions of net 12's search             140 min
#   net14   H=256, 8 buckets, 22 epochs, lr 1e-3 x 0.88, from scratch on       70 min
#           net8-gen.bin, net9-gen.bin and net12-gen.bin (21,017,161 positions)
#
# About 21 hours in all (16.5 of them datagen; more workers on more cores shorten it in
# proportion). Networks 7, 10, 11x and 13 were trained too and not shipped; network 7's data
# is gen6's first file, network 11 is the start of network 12.
#
# Resuming: run the same command again. A datagen stage is done when its file holds its
# positions (`--positions` counts the whole file, and a rerun appends new games: the games
# are drawn from a stream named by the seed and the records already there); a training stage
# when its network file exists (the trainer itself resumes after its last finished epoch).
#
# What is not the same as the first time: the search of today's engine (every generation
# was made by the engine of its day, whose node counts differed), the opening book (the
# first run used fishtest's 2moves_v1.epd: set BOOK to it for that), and the order in which
# a few files were made (network 5's and 6's games partly came from eight runs of two
# workers side by side, with seeds 601-608, 701-708 and 801-808; network 8 trained 4 epochs
# before its last file arrived; the growing files had several seeds). So this rebuilds
# network 14's recipe, not its bytes; the result should be measured against the shipped
# network (scripts/gauntlet.sh with ENGINE= a build with it embedded).
#
# Environment (defaults in brackets; relative paths are from the checkout's root):
#   RUN_DIR      data/ and nets/ of the run [runs/recipe-nnue, git-ignored]
#   BOOK         openings of the datagen games [scripts/openings-2moves.epd]
#   ENGINE       engine binary [built from the working tree into RUN_DIR/engine]
#   PYTHON       Python with PyTorch [/usr/bin/python3]
#   NNUE_TRAIN   the trainer's directory (nnue_train.py, nnue_format.py) [nnue/train]
#   WORKERS      datagen workers [2]; THREADS  trainer threads [2]
#   DRY_RUN      1 = as --dry-run
set -euo pipefail

# shellcheck source=scripts/recipe-lib.sh
. "$(dirname "$0")/recipe-lib.sh"
recipe_init "$@"

RUN_DIR=${RUN_DIR:-runs/recipe-nnue}
BOOK=${BOOK:-scripts/openings-2moves.epd}
PYTHON=${PYTHON:-/usr/bin/python3}
NNUE_TRAIN=${NNUE_TRAIN:-nnue/train}
WORKERS=${WORKERS:-2}
THREADS=${THREADS:-2}
DATA=$RUN_DIR/data
NETS=$RUN_DIR/nets
TRAIN=("$PYTHON" "$NNUE_TRAIN/nnue_train.py")

records() { if [ -f "$1" ]; then echo $(($(stat -c %s "$1") / 32)); else echo 0; fi; }

# gen FILE NETWORK SEED POSITIONS: datagen until DATA/FILE.bin holds POSITIONS records.
gen() {
    local out=$DATA/$1.bin
    if [ "$DRY_RUN" != 1 ] && [ "$(records "$out")" -ge "$4" ]; then
        echo "# $out holds $(records "$out") positions: done"
        return
    fi
    run "$ENGINE" datagen --out "$out" --network "$2" --nodes 5000 --workers "$WORKERS" \
        --book "$BOOK" --random-plies 8 --frc 0.1 --seed "$3" --positions "$4"
}

# train NET FILE FLAGS...: nnue_train.py --run-dir NETS/NET FLAGS, unless NETS/NET/FILE exists.
train() {
    local net=$1 file=$2
    shift 2
    if [ "$DRY_RUN" != 1 ] && [ -f "$NETS/$net/$file" ]; then
        echo "# $NETS/$net/$file exists: done"
        return
    fi
    run "${TRAIN[@]}" --run-dir "$NETS/$net" "$@"
}

d() { local f out=(); for f in "$@"; do out+=("$DATA/$f.bin"); done; echo "${out[@]}"; }

if [ "$DRY_RUN" != 1 ]; then
    [ -f "$NNUE_TRAIN/nnue_train.py" ] || die "no $NNUE_TRAIN/nnue_train.py: set NNUE_TRAIN to the NNUE trainer's directory"
    [ -r "$BOOK" ] || die "opening book not readable: $BOOK (set BOOK to an EPD file of openings)"
    "$PYTHON" -c 'import torch, numpy' 2>/dev/null || die "$PYTHON lacks PyTorch or numpy (make py-deps, or set PYTHON)"
    mkdir -p "$DATA" "$NETS"
fi
recipe_engine "$RUN_DIR"
# The same training flags for every generation from scratch: a random half of each batch
# mirrored, batch 4096, Adam lr 1e-3 x 0.9 an epoch (the trainer's defaults), 2% held out.
COMMON=(--batch 4096 --mirror --threads "$THREADS")

stage hce "the hand-crafted search's games (the first 1,998,001 positions are network 1b's data)"
gen hce none 1 1998001
if [ "$DRY_RUN" = 1 ] || [ "$(records "$DATA/hce.bin")" -gt 1998001 ]; then
    run truncate -s $((1998001 * 32)) "$DATA/hce.bin"
fi

stage net1b "H=128, the search score as the target (lambda 1)"
# shellcheck disable=SC2046 # d prints file names without spaces
train net1b net.nnue --data $(d hce) --hidden 128 --epochs 12 "${COMMON[@]}" --export "$NETS/net1b/net.nnue"

stage gen1b "network 1b's games"
gen net1b-gen "$NETS/net1b/net.nnue" 2 2758188
stage net2 "H=128 on network 1b's games"
# shellcheck disable=SC2046
train net2 net.nnue --data $(d net1b-gen) --hidden 128 --epochs 15 "${COMMON[@]}" --export "$NETS/net2/net.nnue"

stage gen2 "network 2's games"
gen net2-gen "$NETS/net2/net.nnue" 3 2634416
stage net3 "8 output buckets by piece count"
# shellcheck disable=SC2046
train net3 net.nnue --data $(d net2-gen) --hidden 128 --output-buckets 8 --epochs 15 "${COMMON[@]}" \
    --export "$NETS/net3/net.nnue"

stage gen3 "network 3's games"
gen net3-gen "$NETS/net3/net.nnue" 4 2364602
stage net4 "on network 3's and network 2's games"
# shellcheck disable=SC2046
train net4 net.nnue --data $(d net2-gen net3-gen) --hidden 128 --output-buckets 8 --epochs 18 "${COMMON[@]}" \
    --export "$NETS/net4/net.nnue"

stage gen4 "network 4's games"
gen net4-gen "$NETS/net4/net.nnue" 5 2653498
stage net5 "on the games of networks 2, 3 and 4"
# shellcheck disable=SC2046
train net5 net.nnue --data $(d net2-gen net3-gen net4-gen) --hidden 128 --output-buckets 8 --epochs 18 \
    "${COMMON[@]}" --export "$NETS/net5/net.nnue"

stage gen5 "network 5's games"
gen net5-gen "$NETS/net5/net.nnue" 6 2181623
stage net6 "on the games of networks 2 to 5"
# shellcheck disable=SC2046
train net6 net.nnue --data $(d net2-gen net3-gen net4-gen net5-gen) --hidden 128 --output-buckets 8 --epochs 18 \
    "${COMMON[@]}" --export "$NETS/net6/net.nnue"

stage gen6 "network 6's games, two files (network 7, not shipped, learned the first)"
gen net6-gen "$NETS/net6/net.nnue" 7 2327876
gen net6-gen-b "$NETS/net6/net.nnue" 8 2494629
stage net8 "H=256 on the games of networks 2 to 6 (14,656,644 positions)"
# shellcheck disable=SC2046
train net8 net.nnue --data $(d net2-gen net3-gen net4-gen net5-gen net6-gen net6-gen-b) --hidden 256 \
    --output-buckets 8 --epochs 16 "${COMMON[@]}" --export "$NETS/net8/net.nnue"

stage gen8 "network 8's games (the files of networks 2 to 6 are not used again)"
gen net8-gen "$NETS/net8/net.nnue" 9 6808906
stage net9 "network 8 fine-tuned on its own games; epoch 4, the lowest validation loss, is network 9"
# shellcheck disable=SC2046
train net9 epoch-004.nnue --data $(d net8-gen) --init "$NETS/net8/net.nnue" --lr 3e-4 --lr-decay 0.85 --epochs 5 \
    --batch 16384 --mirror --threads "$THREADS"

stage gen9 "network 9's games"
gen net9-gen "$NETS/net9/epoch-004.nnue" 10 4614153
stage net11 "from scratch on the games of networks 8 and 9 (11,423,059 positions); the start of network 12"
# shellcheck disable=SC2046
train net11 net.nnue --data $(d net8-gen net9-gen) --hidden 256 --output-buckets 8 --epochs 16 "${COMMON[@]}" \
    --export "$NETS/net11/net.nnue"

stage gen9b "more of network 9's games (the file grows to 8,677,868 positions)"
gen net9-gen "$NETS/net9/epoch-004.nnue" 11 8677868
stage net12 "network 11's run resumed on all 15,486,774 positions for epochs 17-25 (lr 1.85e-4 x 0.9)"
if [ "$DRY_RUN" = 1 ] || [ ! -e "$NETS/net12" ]; then
    run cp -r "$NETS/net11" "$NETS/net12"
fi
# shellcheck disable=SC2046
train net12 epoch-025.nnue --data $(d net8-gen net9-gen) --hidden 256 --output-buckets 8 --epochs 25 "${COMMON[@]}"

stage gen12 "network 12's games"
gen net12-gen "$NETS/net12/epoch-025.nnue" 14 5530387
stage net14 "network 14: from scratch on the games of networks 8, 9 and 12 (21,017,161 positions)"
# shellcheck disable=SC2046
train net14 net.nnue --data $(d net8-gen net9-gen net12-gen) --hidden 256 --output-buckets 8 --epochs 22 \
    --lr-decay 0.88 "${COMMON[@]}" --export "$NETS/net14/net.nnue"

stage check "the file's header and checksum, and the search's speed and node count with it"
run "$PYTHON" "$NNUE_TRAIN/nnue_format.py" --check "$NETS/net14/net.nnue"
run "$ENGINE" bench --network "$NETS/net14/net.nnue"
if [ "$INSTALL" = 1 ]; then
    run cp "$NETS/net14/net.nnue" nnue/default.nnue
    echo "# nnue/default.nnue replaced: make build embeds it; measure it against the network it replaced"
fi
