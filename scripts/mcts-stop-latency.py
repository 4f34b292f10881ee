#!/usr/bin/env python3
"""Stop latency of the MCTS searcher through UCI: how long after "stop" the bestmove comes.

Starts the engine with Search=MCTS, then N times: a new game in one of four
positions, "go infinite", a random wait of 0.1-0.6 s, "stop", and the time
from writing "stop" to reading "bestmove". Prints p50/p90/p99/max, how often
an info line came right before the bestmove, and the load average.

  go build -o bin/engine ./cmd/engine
  python3 scripts/mcts-stop-latency.py --engine bin/engine --threads 2 --batch 256 --n 60
"""
import subprocess, sys, time, random, os, argparse, threading, queue

ap = argparse.ArgumentParser()
ap.add_argument("--engine", required=True)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--batch", type=int, default=256)
ap.add_argument("--n", type=int, default=60)
ap.add_argument("--ram", type=int, default=1024)
ap.add_argument("--seed", type=int, default=1)
a = ap.parse_args()
rng = random.Random(a.seed)
p = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s):
    p.stdin.write(s + "\n"); p.stdin.flush()
q_ = queue.Queue()
def reader():
    for l in p.stdout:
        q_.put((time.monotonic(), l.rstrip("\n")))
threading.Thread(target=reader, daemon=True).start()
def wait_for(prefix, timeout=30):
    end = time.monotonic() + timeout
    lines = []
    while True:
        try:
            t, l = q_.get(timeout=max(0.001, end - time.monotonic()))
        except queue.Empty:
            p.kill()
            raise SystemExit(f"timeout waiting for {prefix}")
        lines.append(l)
        if l.startswith(prefix):
            return t, lines
send("uci"); wait_for("uciok")
for o in [f"Threads value {a.threads}", "Search value MCTS", f"MCTSBatchSize value {a.batch}", f"RamLimitMb value {a.ram}"]:
    send("setoption name " + o)
send("isready"); wait_for("readyok")
fens = ["startpos", "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 8",
        "fen 8/5k2/8/3K4/8/8/6P1/8 w - - 12 60", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
lat = []
finals = 0
for i in range(a.n):
    send("ucinewgame"); send("position " + fens[i % len(fens)])
    send("isready"); wait_for("readyok")
    send("go infinite")
    time.sleep(rng.uniform(0.1, 0.6))
    t0 = time.monotonic(); send("stop")
    t1, lines = wait_for("bestmove")
    lat.append((t1 - t0) * 1000)
    if len(lines) >= 2 and lines[-2].startswith("info depth"):
        finals += 1
send("quit"); p.wait()
lat.sort()
q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))]
print(f"threads {a.threads} batch {a.batch} n {len(lat)}: p50 {q(0.5):.1f} ms p90 {q(0.9):.1f} ms p99 {q(0.99):.1f} ms max {lat[-1]:.1f} ms; info line right before bestmove {finals}/{len(lat)}; load {os.getloadavg()[0]:.1f}")
