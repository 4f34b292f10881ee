#!/usr/bin/env bash
# scripts/recipe-zero.sh - the recipe of the shipped MCTS network (azero/onnx/default.onnx, r10g),
# rebuilt from the repository alone: from a random network through the self-play loops, an
# offline pass over all their games, ten rounds of policy iteration on the CPU, and the last
# rounds' games once more for the network grown wider.
#
# Usage:
#   scripts/recipe-zero.sh --dry-run            # print every command, run nothing
#   scripts/recipe-zero.sh                      # run (or resume) the whole chain
#   scripts/recipe-zero.sh --stop-after n4x32   # run up to and including a stage
#   scripts/recipe-zero.sh --install            # then copy r10g to azero/onnx/default.onnx
#   scripts/recipe-zero.sh --run-dir DIR ...    # another run directory (default RUN_DIR)
#
# Stages and their time on an AMD EPYC with 2 cores (every network up to r10w is a ResNet of 4
# blocks x 32 channels, r10g one of 4 x 48; "recipe B" is Gumbel AlphaZero's root over 16 moves
# with playout cap randomization; the ladder's alpha-beta rungs d2 and d3 are the yardstick):
#
#   stage    what                                                                    time
#   r1       `engine train` from a random network: 20 iterations of 64 games at    2 h 15
#            64 playouts, then to iteration 124 with playout cap randomization
#            (128/32 playouts), gated; r1's iteration 124 is the start of the rest
#   z29      786 self-play games of it, then the loop from it with recipe B at      1 h 55
#            64 playouts for 86 iterations (lr 0.01)
#   z30      the loop from r1's network again, recipe B at 200 playouts, 30         1 h 15
#            iterations
#   o2       train.py over every game of z29 and z30 (the replay window): 2,000       20 min
#            steps at lr 0.01 (o1), then 3,000 at 0.005 (o2), batch 256
#   z31      the loop from o2, z29's and z30's games in its window (3,000 files),   1 h 50
#            recipe B at 64 playouts, no gate, 91 iterations
#   n4x32    a sample set of all of z31's chunk files (26,600 games; the newest 24  2 h on the
#            held out) and a 4 x 32 network from scratch on it, batch 1024: 4,000 +   CPU; minutes
#            4,000 steps at lr 0.02, 2,000 at 0.002                                  on a GPU
#   n4x32ft  n4x32 fine-tuned 800 steps at lr 0.003 on the newest 400,000 samples     30 min
#            (n4x32-ft)
#   round1   `engine climb` from n4x32-ft (run directory RUN/climb): its round 0       2 h 30
#            measures n4x32-ft on the ladder; its round 1 is n4x32-ft's self-play
#            (recipe B, 64 playouts, 20,743 games on two workers: 46 min), packed into
#            a sample set (the newest 24 chunk files held out), n4x32-ft trained on
#            it, batch 1024: 3,000 steps at lr 0.005, 838 at 0.0005 (50 min) -> w5,
#            and w5's ladder
#   round2   the same from w5: 23,065 games; 1,904 steps at 0.005, 708 at 0.0005    1 h 45
#            -> rn
#   round3   the same from rn: 23,277 games; 3,000 steps at 0.01, 702 at 0.001      2 h
#            -> r3h
#   round4   the same from r3h: 24,725 games; 3,000 steps at 0.01, 886 at 0.001     2 h
#            -> r4n
#   round5   the same from r4n: 24,000 games; 3,000 steps at 0.01, 900 at 0.001,   1 h 30 on
#            exporting the weights' moving average (--ema 0.999); the ladder        an Intel
#            against alphabeta-d3 and -d4 -> r5e                                     Xeon
#   round6   the same from r5e: 24,000 games -> r6e, which did not pass the         1 h 25
#            promotion test: r5e stays the current network
#   round7   24,000 more games of r5e, trained with round 6's (--window 2, 48,000   1 h 50
#            games): 6,000 steps at 0.01, 1,800 at 0.001, averaged -> r7w
#   round8   r7w's own games at twice the playouts (128 a full search, 32 a fast     2 h 10 on
#            one: progressive simulation), 25,000 games: 3,125 steps at 0.01, 940   an Intel
#            at 0.001, averaged -> r8p                                               Xeon
#   round9   r8p's own games at the same playouts, 25,000: 3,125 steps at 0.01,    2 h
#            940 at 0.001 -> r9c, kept out by the test: r8p stays current
#   round10  20,000 more games of r8p, trained with round 9's (--window 2, 45,000  1 h 50
#            games): 5,625 steps at 0.01, 1,690 at 0.001 -> r10w, kept out
#   r10g     r8p grown to 4 x 48 channels (azero/train/grow.py: it plays as r8p),   1 h 10
#            trained as r10w on round 10's window -> r10g, the shipped network, and
#            its ladder (d3 and d4, as the rounds')
#
# About 30 hours on 2 cores. The rounds are `engine climb --rounds K`, one invocation a round
# with that round's games, seed and training segments; every network plays the ladder (800
# playouts a move, 50 games a rung against alphabeta-d2 and -d3, from round 5 -d3 and -d4,
# under each of LADDER_SEEDS): each round's network scored above its parent's on both rungs
# over the same 150 games (r4n: 77.3% against d2, 52.7% against d3) and r5e above r4n's
# points by 1.55 standard errors, r7w above r5e's by 1.56, r8p above r7w's by 2.06; the
# rounds here promote as the first time, every candidate (--always-promote) but r6e, r9c and
# r10w, kept out by the test, which stay out here whatever their scores (--never-promote);
# RUN/climb/rounds.csv says what engine climb's promotion test (one standard error) makes of
# each. A round's training ran against wall-clock deadlines (round 1's second segment 16
# minutes; round 2 25 then 8 minutes; rounds 3 and 4 40 then 13), which ended some segments
# early: the step counts above are the ones reached, so a rerun needs no deadline. The offline
# pass of stage n4x32 ran on a GPU the first time
# (scripts/gpu-offline-train.sh runs the same segments there, with their deadlines); DEVICE=cuda
# here does the same.
#
# Resuming: run the same command again. The loops and the rounds resume from their state.json;
# a training segment is done when RUN/NAME/segN.done exists (the trainer resumes an interrupted
# segment at its target step, train.py --target-key); a self-play process is done when its .done
# file exists (an unfinished one starts again); a sample set when its meta.json exists; a round
# when its network has been copied to RUN/roundK/NAME.onnx.
#
# What is not the same as the first time: the engine (every stage ran on the engine of its
# day: r1's first iterations gated from the fixed openings, and its iterations 21-37 ran with
# flags between the two sets here), the games' number where a round also linked in a few
# hundred games of other seeds (rounds 2 and 3), wall-clock choices (self-play stopped
# after a time, not a number of games), and the rounds' self-play (two processes of one
# worker, seeds 29 and 30 in round 1, where engine climb runs one process of two workers
# from the first seed). Self-play is random: this rebuilds r10g's recipe, not
# its bytes; measure the result on the ladder against the shipped network.
#
# Environment (defaults in brackets; relative paths are from the checkout's root):
#   RUN_DIR       every run of the chain [runs/recipe-zero, git-ignored]
#   ENGINE        engine binary, built with cgo [built from the working tree into RUN_DIR/engine]
#   ONNXRUNTIME   libonnxruntime.so.1 [lib/libonnxruntime.so.1: make ort]
#   PYTHON        Python with PyTorch and onnx [/usr/bin/python3]
#   DEVICE        train.py --device: auto, cpu or cuda [auto]
#   THREADS       trainer threads [2]
#   LADDER_SEEDS  ladder seeds after each network [1 2 3]
#   DRY_RUN       1 = as --dry-run
set -euo pipefail

# shellcheck source=scripts/recipe-lib.sh
. "$(dirname "$0")/recipe-lib.sh"
recipe_init "$@"

R=${RUN_DIR:-runs/recipe-zero}
ONNXRUNTIME=${ONNXRUNTIME:-lib/libonnxruntime.so.1}
PYTHON=${PYTHON:-/usr/bin/python3}
DEVICE=${DEVICE:-auto}
THREADS=${THREADS:-2}
read -r -a LADDER_SEEDS <<<"${LADDER_SEEDS:-1 2 3}"
LADDER_SEEDS_CSV=$(IFS=,; echo "${LADDER_SEEDS[*]}")
TRAINPY=("$PYTHON" azero/train/train.py)

if [ "$DRY_RUN" != 1 ]; then
    [ -f "$ONNXRUNTIME" ] || die "no ONNX Runtime library at $ONNXRUNTIME (make ort, or set ONNXRUNTIME)"
    "$PYTHON" -c 'import torch, numpy, onnx' 2>/dev/null ||
        die "$PYTHON lacks PyTorch, numpy or onnx (make py-deps, or set PYTHON)"
    mkdir -p "$R"
fi
recipe_engine "$R" CGO_ENABLED=1

# loop DIR ITERATIONS FLAGS...: `engine train` until DIR has done ITERATIONS iterations.
loop() {
    local dir=$1 iterations=$2
    shift 2
    done_or "$dir/done-$iterations" && return
    run "$ENGINE" train --run-dir "$dir" --onnxruntime "$ONNXRUNTIME" --trainer azero/train --python "$PYTHON" \
        --iterations "$iterations" "$@"
    run touch "$dir/done-$iterations"
}

# segment RUN N FLAGS...: one train.py invocation in RUN, done once RUN/segN.done exists.
segment() {
    local dir=$1 n=$2
    shift 2
    done_or "$dir/seg$n.done" && return
    run "${TRAINPY[@]}" --run-dir "$dir" --device "$DEVICE" --threads "$THREADS" --target-key "seg$n" "$@"
    run touch "$dir/seg$n.done"
}

# sampleset CHUNKS OUT: every sample of CHUNKS, the newest 24 files held out.
sampleset() {
    done_or "$2/meta.json" && return
    run "$PYTHON" azero/train/sampleset.py --chunks "$1" --out "$2" --holdout 24
}

# link_chunks FROM TO PREFIX: symbolic links TO/PREFIXNAME to every chunk file FROM/NAME (names
# that are not the loop's own iterNNNN-*, so a loop in TO keeps them).
link_chunks() {
    run mkdir -p "$2"
    run_sh "for f in $(q "$1")/*.twfc.gz; do ln -sfn \"\$(realpath \"\$f\")\" $(q "$2")/$3\"\${f##*/}\"; done"
}

# climb K NAME SEED GAMES STEPS LRS RUNGS PROMOTE [FLAG...]: round K of `engine climb` from
# n4x32-ft (run directory R/climb): GAMES self-play games of the current network under SEED,
# the training segments STEPS at LRS (comma-separated) with the FLAGs, self-play at PLAYOUTS, the
# ladder against RUNGS;
# the round's network copied to R/roundK/NAME.onnx. PROMOTE "always" makes it the current
# network whatever the test says, "never" keeps the parent, as the first time.
climb() {
    local k=$1 name=$2 seed=$3 games=$4 steps=$5 lrs=$6 rungs=$7 promote
    case $8 in
    always) promote=(--always-promote) ;;
    never) promote=(--never-promote) ;;
    *) die "climb: PROMOTE is always or never, not $8" ;;
    esac
    shift 8
    done_or "$R/round$k/$name.onnx" && return
    run "$ENGINE" climb --run-dir "$R/climb" --init-network "$R/n4x32/n4x32-ft.onnx" --onnxruntime "$ONNXRUNTIME" \
        --trainer azero/train --python "$PYTHON" --device "$DEVICE" --threads "$THREADS" --rounds "$k" \
        --games "$games" --seed "$seed" --gumbel 16 "${PLAYOUTS[@]}" --workers 2 --parallel 16 \
        --max-plies 300 --holdout 24 --batch 1024 --steps "$steps" --lr "$lrs" --ladder-playouts 800 \
        --ladder-games 50 --ladder-rungs "$rungs" --ladder-seeds "$LADDER_SEEDS_CSV" "${promote[@]}" "$@"
    run mkdir -p "$R/round$k"
    run cp "$R/climb/$(printf 'round-%03d' "$k")/network.onnx" "$R/round$k/$name.onnx"
}

# --- from a random network -------------------------------------------------------------------
stage r1 "the loop from a random network to iteration 124"
R1=$R/r1/nets/iter-0124.onnx
loop "$R/r1" 20 --games 64 --playouts 64 --parallel 16 --max-plies 300 --steps 200 --window 40 \
    --blocks 4 --channels 32 --gate-games 16 --gate-playouts 64
loop "$R/r1" 124 --games 128 --playouts 128 --fast-playouts 32 --full-share 0.25 --parallel 16 --max-plies 300 \
    --steps 60 --window 100 --blocks 4 --channels 32 --gate-games 20 --gate-playouts 64 --gate-random-plies 8 \
    --gate-sample-moves 15 --ladder-every 4 --ladder-games 8 --ladder-playouts 200

stage z29 "recipe B at 64 playouts from r1's iteration 124, after 786 games of its self-play"
if ! done_or "$R/z29/seed-games.done"; then
    run mkdir -p "$R/z29"
    run "$ENGINE" selfplay --network "$R1" --onnxruntime "$ONNXRUNTIME" --gumbel 16 --playouts 64 --fast-playouts 16 \
        --workers 2 --parallel 16 --max-plies 300 --games 786 --seed 19 --chunks "$R/z29/chunks" --pgn "$R/z29/seed-games.pgn"
    run touch "$R/z29/seed-games.done"
fi
loop "$R/z29" 86 --init-network "$R1" --gumbel 16 --playouts 64 --fast-playouts 16 --workers 2 --parallel 16 \
    --games 128 --max-plies 300 --steps 60 --window 100 --lr 0.01 --gate-games 20 --gate-playouts 64 --seed 19 \
    --ladder-every 8 --ladder-games 10 --ladder-playouts 200 --ladder-rungs alphabeta-d1,alphabeta-d2

stage z30 "recipe B at 200 playouts from r1's iteration 124"
loop "$R/z30" 30 --init-network "$R1" --gumbel 16 --playouts 200 --fast-playouts 32 --workers 2 --parallel 16 \
    --games 128 --max-plies 300 --steps 60 --window 100 --lr 0.01 --gate-games 20 --gate-playouts 64 --seed 20 \
    --ladder-every 8 --ladder-games 10 --ladder-playouts 200 --ladder-rungs alphabeta-d1,alphabeta-d2

stage o2 "r1's network trained on every game of z29 and z30 (the replay window)"
for z in z29 z30; do
    link_chunks "$R/$z/chunks" "$R/o-chunks" "$z-"
done
segment "$R/o1" 1 --chunks "$R/o-chunks" --window 3000 --init-onnx "$R1" --steps 2000 --batch 256 --lr 0.01 \
    --export "$R/o1/net.onnx"
if ! done_or "$R/o2/seg2.done"; then
    run_sh "rm -rf $(q "$R/o2") && cp -r $(q "$R/o1" "$R/o2")"
fi
segment "$R/o2" 2 --chunks "$R/o-chunks" --window 3000 --steps 3000 --batch 256 --lr 0.005 --export "$R/o2/net.onnx"

stage z31 "the loop from o2 with z29's and z30's games in its window"
for z in z29 z30; do
    link_chunks "$R/$z/chunks" "$R/z31/chunks" "seed-$z-"
done
loop "$R/z31" 91 --init-network "$R/o2/net.onnx" --gumbel 16 --playouts 64 --fast-playouts 16 --workers 2 \
    --parallel 16 --games 128 --max-plies 300 --steps 100 --window 3000 --lr 0.005 --gate-games 0 --ladder-every 0 \
    --seed 21

# --- offline: every game, many passes, a learning-rate drop -------------------------------------
stage n4x32 "a 4 x 32 network from scratch on all of z31's chunk files"
sampleset "$R/z31/chunks" "$R/n4x32/set"
OFF=(--sample-set "$R/n4x32/set" --batch 1024 --blocks 4 --channels 32 --log-every 500 --checkpoint-every 500 --seed 33)
segment "$R/n4x32/run" 1 "${OFF[@]}" --steps 4000 --lr 0.02
segment "$R/n4x32/run" 2 "${OFF[@]}" --steps 4000 --lr 0.02
segment "$R/n4x32/run" 3 "${OFF[@]}" --steps 2000 --lr 0.002 --export "$R/n4x32/n4x32.onnx"

stage n4x32ft "n4x32 fine-tuned on the newest 400,000 samples (the strongest networks' games)"
segment "$R/n4x32/ft" 1 --init-onnx "$R/n4x32/n4x32.onnx" --sample-set "$R/n4x32/set" --window-samples 400000 \
    --batch 1024 --log-every 100 --seed 33 --steps 800 --lr 0.003 --export "$R/n4x32/n4x32-ft.onnx"
if ! done_or "$R/n4x32/eval.txt"; then  # held-out policy loss and value error of both
    run_sh "$(q "$PYTHON" azero/train/evaluate.py --sample-set "$R/n4x32/set" "$R/n4x32/n4x32.onnx" \
        "$R/n4x32/n4x32-ft.onnx") > $(q "$R/n4x32/eval.txt.tmp") && mv $(q "$R/n4x32/eval.txt.tmp" "$R/n4x32/eval.txt")"
fi

RUNGS_D2_D3=alphabeta-d2,alphabeta-d3  # the ladder of rounds 1-4
PLAYOUTS=(--playouts 64 --fast-playouts 16)  # self-play's full and fast searches, rounds 1-7

# --- eight rounds of policy iteration on the CPU: engine climb -----------------------------------
stage round1 "n4x32-ft's ladder, then its own games -> w5"
climb 1 w5 29 20743 3000,838 0.005,0.0005 "$RUNGS_D2_D3" always
stage round2 "w5's own games -> rn"
climb 2 rn 35 23065 1904,708 0.005,0.0005 "$RUNGS_D2_D3" always
stage round3 "rn's own games -> r3h"
climb 3 r3h 39 23277 3000,702 0.01,0.001 "$RUNGS_D2_D3" always
stage round4 "r3h's own games -> r4n"
climb 4 r4n 41 24725 3000,886 0.01,0.001 "$RUNGS_D2_D3" always
RUNGS_D3_D4=alphabeta-d3,alphabeta-d4  # from round 5
stage round5 "r4n's own games, the weights averaged -> r5e"
climb 5 r5e 71 24000 3000,900 0.01,0.001 "$RUNGS_D3_D4" always --ema 0.999
stage round6 "r5e's own games -> r6e, measured and kept out: r5e stays the current network"
climb 6 r6e 72 24000 3000,900 0.01,0.001 "$RUNGS_D3_D4" never --ema 0.999
stage round7 "more of r5e's games, trained with round 6's -> r7w"
climb 7 r7w 73 24000 6000,1800 0.01,0.001 "$RUNGS_D3_D4" always --ema 0.999 --window 2
PLAYOUTS=(--playouts 128 --fast-playouts 32)  # from round 8: twice the playouts
stage round8 "r7w's own games at twice the playouts -> r8p"
climb 8 r8p 74 25000 3125,940 0.01,0.001 "$RUNGS_D3_D4" always --ema 0.999
stage round9 "r8p's own games -> r9c, measured and kept out: r8p stays the current network"
climb 9 r9c 76 25000 3125,940 0.01,0.001 "$RUNGS_D3_D4" never --ema 0.999
stage round10 "more of r8p's games, trained with round 9's -> r10w, kept out"
climb 10 r10w 77 20000 5625,1690 0.01,0.001 "$RUNGS_D3_D4" never --ema 0.999 --window 2

# --- a wider network on the same games ---------------------------------------------------------
stage r10g "r8p grown to 4 x 48, trained as r10w on round 10's window -> r10g, the shipped network"
if ! done_or "$R/r10g/grown.onnx"; then
    run mkdir -p "$R/r10g"
    run "$PYTHON" azero/train/grow.py --network "$R/round8/r8p.onnx" --channels 48 --out "$R/r10g/grown.onnx"
fi
GROWN=(--sample-set "$R/climb/round-010/set" --batch 1024 --ema 0.999 --log-every 50)
segment "$R/r10g/run" 1 "${GROWN[@]}" --init-onnx "$R/r10g/grown.onnx" --steps 5625 --lr 0.01 --export "$R/r10g/seg1.onnx"
segment "$R/r10g/run" 2 "${GROWN[@]}" --steps 1690 --lr 0.001 --export "$R/r10g/r10g.onnx"
for s in "${LADDER_SEEDS[@]}"; do  # the rounds' ladder, by hand: no round made this network
    done_or "$R/r10g/ladder-seed-$s.txt" && continue
    run_sh "$(q "$ENGINE" ladder --network "$R/r10g/r10g.onnx" --onnxruntime "$ONNXRUNTIME" --playouts 800 --games 50 \
        --seed "$s" --rungs "$RUNGS_D3_D4" --workers 2) > $(q "$R/r10g/ladder.tmp") && mv $(q "$R/r10g/ladder.tmp" "$R/r10g/ladder-seed-$s.txt")"
done

echo
echo "# ladder results ($((50 * ${#LADDER_SEEDS[@]})) games a rung): $R/climb/curve.csv, rounds.csv, $R/r10g/ladder-seed-*.txt"
if [ "$INSTALL" = 1 ]; then
    run cp "$R/r10g/r10g.onnx" azero/onnx/default.onnx
    # The golden outputs the Go tests compare the embedded network with, from the same weights.
    run "$PYTHON" azero/train/export.py --checkpoint "$R/r10g/run/checkpoint.pt" --averaged \
        --out "$R/r10g/r10g-export.onnx" --golden azero/onnx/testdata/golden.json
    echo "# azero/onnx/default.onnx and its golden outputs replaced: make build embeds it"
fi
