#!/usr/bin/env python3
"""SPSA tuning of the search constants, played by fastchess (fishtest's recipe).

Each iteration perturbs every tunable at once by +/- c_k (a random sign per
parameter), plays game pairs between the engine with theta + c_k*delta and the
one with theta - c_k*delta (same opening, colours swapped), and moves theta by
a_k/c_k * (wins - losses) * delta. The schedules follow fishtest:
c_k = c_end * (N/(k+1))^gamma, a_k = r_end * c_end^2 * ((A+N)/(A+k+1))^alpha,
gamma 0.101, alpha 0.602, A = N/10; so each parameter ends with the step c_end
its Tunable declares, and r_end (the learning rate at the end) is one setting
for all.

The engine must be a -tags spsa build, which lists the tunables as UCI spin
options (the default, and each one's range and c_end, come from `engine
tunables`):

    go build -tags spsa -o bin/engine-spsa ./cmd/engine
    scripts/spsa.py --engine bin/engine-spsa --run-dir runs/spsa-1 \\
        --iterations 4000 --tc 5+0.05

fastchess comes from --fastchess, $FASTCHESS or PATH (scripts/sprt.sh's header says how to
build it); the openings from --book, $BOOK or scripts/openings-2moves.epd (a larger book,
such as fishtest's UHO_4060_v4.epd, repeats fewer openings over thousands of iterations);
the run directory from --run-dir, $RUN_DIR or runs/spsa (git-ignored).

The run directory keeps state.json (iteration, theta) after every iteration
and history.csv (one line per iteration); running the same command again
resumes. The result: the last line of history.csv, or `--print` for the
values as UCI setoption lines and as Go source. SPRT the tuned values against
the defaults before they land (scripts/sprt.sh with the new defaults).
"""

import argparse
import csv
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMMA = 0.101
ALPHA = 0.602
RESULT = re.compile(r"^Finished game \d+ \((\S+) vs (\S+)\): (1-0|0-1|1/2-1/2)")


def read_tunables(engine):
    """Name -> (default, min, max, c_end) from `engine tunables`."""
    proc = subprocess.run([engine, "tunables"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("spsa.py: %s tunables: %s" % (engine, proc.stderr.strip() or "exit status %d" % proc.returncode))
    out = proc.stdout
    params = {}
    for line in out.splitlines():
        name, default, lo, hi, step = line.split()
        params[name] = (int(default), int(lo), int(hi), float(step))
    if not params:
        sys.exit("spsa.py: %s lists no tunables" % engine)
    return params


class Schedule:
    """fishtest's gain sequences for one run of n iterations."""

    def __init__(self, iterations, r_end):
        self.n = iterations
        self.big_a = iterations / 10
        self.r_end = r_end

    def c(self, k, c_end):
        return c_end * (self.n / (k + 1)) ** GAMMA

    def a(self, k, c_end):
        return self.r_end * c_end ** 2 * ((self.big_a + self.n) / (self.big_a + k + 1)) ** ALPHA

    def step(self, k, theta, c_end, delta, wins_minus_losses):
        """The new theta after an iteration that scored wins_minus_losses for theta+."""
        return theta + self.a(k, c_end) / self.c(k, c_end) * wins_minus_losses * delta


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def score_games(log_text, plus_name):
    """Wins minus losses of plus_name over the finished games of a fastchess log."""
    score = 0
    for line in log_text.splitlines():
        m = RESULT.match(line)
        if not m:
            continue
        white, black, result = m.groups()
        if result == "1/2-1/2":
            continue
        white_won = result == "1-0"
        plus_won = white_won == (white == plus_name)
        score += 1 if plus_won else -1
    return score


def play(args, plus, minus, seed):
    """Plays args.pairs game pairs between the two settings; returns wins - losses of plus."""
    def engine(name, values):
        opts = ["option.%s=%d" % (k, round(v)) for k, v in sorted(values.items())]
        return ["-engine", "cmd=" + args.engine, "name=" + name] + opts
    cmd = ([args.fastchess] + engine("plus", plus) + engine("minus", minus) +
           ["-each", "tc=" + args.tc, "option.Hash=%d" % args.hash, "option.Threads=1",
            "-openings", "file=" + args.book, "format=epd", "order=random", "-srand", str(seed),
            "-rounds", str(args.pairs), "-repeat", "-concurrency", str(args.concurrency),
            "-draw", "movenumber=40", "movecount=8", "score=10",
            "-resign", "movecount=3", "score=600"])
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("spsa.py: fastchess failed (%d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return score_games(proc.stdout, "plus")


def load_state(path, params):
    if os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        if sorted(state["theta"]) != sorted(params):
            sys.exit("spsa.py: %s tunes other parameters than the engine lists" % path)
        return state
    return {"iteration": 0, "theta": {k: float(v[0]) for k, v in params.items()}}


def save_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a -tags spsa build of the engine")
    ap.add_argument("--run-dir", default=os.environ.get("RUN_DIR") or os.path.join(ROOT, "runs", "spsa"),
                    help="state.json and history.csv (resumable) [$RUN_DIR or runs/spsa]")
    ap.add_argument("--fastchess", default=os.environ.get("FASTCHESS") or "fastchess",
                    help="fastchess binary [$FASTCHESS or fastchess on PATH]")
    ap.add_argument("--iterations", type=int, default=4000)
    ap.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", default=os.environ.get("BOOK") or os.path.join(ROOT, "scripts", "openings-2moves.epd"),
                    help="EPD openings [$BOOK or scripts/openings-2moves.epd]")
    ap.add_argument("--only", help="comma-separated names: tune these, keep the rest at their defaults")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--print", action="store_true", help="print the current values and exit")
    args = ap.parse_args()

    params = read_tunables(args.engine)
    if args.only:
        keep = set(args.only.split(","))
        unknown = keep - set(params)
        if unknown:
            sys.exit("spsa.py: unknown tunables: %s" % ", ".join(sorted(unknown)))
        params = {k: v for k, v in params.items() if k in keep}
    os.makedirs(args.run_dir, exist_ok=True)
    state_path = os.path.join(args.run_dir, "state.json")
    state = load_state(state_path, params)
    if args.print:
        for k, v in sorted(state["theta"].items()):
            print("setoption name %s value %d   # default %d" % (k, round(v), params[k][0]))
        return
    args.book = os.path.abspath(args.book)
    if not os.path.isfile(args.book):
        sys.exit("spsa.py: opening book not found: %s (set --book or BOOK to an EPD file)" % args.book)
    fastchess = shutil.which(args.fastchess)
    if fastchess is None:
        sys.exit("spsa.py: fastchess not found: %s (set --fastchess or FASTCHESS; scripts/sprt.sh's "
                 "header says how to build it)" % args.fastchess)
    args.fastchess = fastchess
    sched = Schedule(args.iterations, args.r_end)
    rng = random.Random(args.seed * 1000003 + state["iteration"])
    hist_path = os.path.join(args.run_dir, "history.csv")
    new_hist = not os.path.exists(hist_path)
    with open(hist_path, "a", newline="") as hist:
        out = csv.writer(hist)
        if new_hist:
            out.writerow(["iteration", "result"] + sorted(params))
        while state["iteration"] < args.iterations:
            k = state["iteration"]
            theta = state["theta"]
            delta = {n: rng.choice((-1, 1)) for n in params}
            plus, minus = {}, {}
            for n, (_, lo, hi, c_end) in params.items():
                c = sched.c(k, c_end)
                plus[n] = clamp(theta[n] + c * delta[n], lo, hi)
                minus[n] = clamp(theta[n] - c * delta[n], lo, hi)
            result = play(args, plus, minus, rng.randrange(1 << 30))
            for n, (_, lo, hi, c_end) in params.items():
                theta[n] = clamp(sched.step(k, theta[n], c_end, delta[n], result), lo, hi)
            state["iteration"] = k + 1
            save_state(state_path, state)
            out.writerow([k + 1, result] + ["%.2f" % theta[n] for n in sorted(params)])
            hist.flush()
            if (k + 1) % 10 == 0:
                print("iteration %d/%d: %s" % (k + 1, args.iterations,
                      " ".join("%s=%.1f" % (n, theta[n]) for n in sorted(params))), flush=True)


if __name__ == "__main__":
    main()
