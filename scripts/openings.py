#!/usr/bin/env python3
"""Balanced short openings for matches and data generation, made by the engine itself.

Each opening is a random walk of --plies legal moves from the start position (the moves come
from the engine's own "go perft 1"), kept when the engine's search at --depth scores it within
--max-score centipawns of equality and it is not a position already kept. The result is an EPD
file of full FENs, one opening a line, as the match scripts (BOOK=), spsa.py (--book) and
`engine datagen --book` read. scripts/openings-2moves.epd, the scripts' default book, is

    go build -o bin/engine ./cmd/engine
    /usr/bin/python3 scripts/openings.py --engine bin/engine --count 1000 --seed 1 \\
        > scripts/openings-2moves.epd

(2 moves a side, depth 8, within 60 cp, with the embedded network). With the same engine, seed
and settings the output is the same: the walk uses Python's random.Random(seed), and every
search starts from "ucinewgame" with one thread at a fixed depth.
"""

import argparse
import random
import subprocess
import sys


class Engine:
    """A UCI engine driven line by line, each command answered before the next is sent."""

    def __init__(self, path, options):
        try:
            self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, bufsize=1)
        except OSError as e:
            sys.exit("openings.py: cannot start the engine %s: %s" % (path, e))
        self.send("uci")
        self.until("uciok")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines up to and including the first that starts with prefix."""
        lines = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines
        sys.exit("openings.py: the engine ended before %r" % prefix)

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal_moves(self, moves):
        self.position(moves)
        self.send("go perft 1")
        return parse_perft(self.until("Nodes searched"))

    def fen(self, moves):
        self.position(moves)
        self.send("d")
        for line in self.until("Fen:"):
            if line.startswith("Fen:"):
                return line[len("Fen:"):].strip()
        return None

    def score(self, moves, depth):
        self.send("ucinewgame")
        self.position(moves)
        self.send("go depth %d" % depth)
        return parse_score(self.until("bestmove"))

    def close(self):
        self.send("quit")
        self.p.wait()


def parse_perft(lines):
    """The moves of "go perft 1" output ("e2e4: 1" lines), in the engine's order."""
    out = []
    for line in lines:
        move, sep, count = line.partition(": ")
        if sep and count.strip().isdigit() and " " not in move:
            out.append(move)
    return out


def parse_score(lines):
    """The last centipawn score of the search's info lines; None for a mate score or none."""
    score = None
    for line in lines:
        words = line.split()
        if words[:1] != ["info"] or "score" not in words:
            continue
        i = words.index("score")
        if words[i + 1] == "cp":
            score = int(words[i + 2])
        elif words[i + 1] == "mate":
            score = None
    return score


def generate(engine, count, plies, depth, max_score, rng, tries):
    kept, seen = [], set()
    for _ in range(tries):
        if len(kept) == count:
            break
        moves = []
        for _ in range(plies):
            legal = engine.legal_moves(moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        if len(moves) < plies:
            continue
        fen = engine.fen(moves)
        key = " ".join(fen.split()[:4]) if fen else None
        if key is None or key in seen:
            continue
        seen.add(key)
        score = engine.score(moves, depth)
        if score is not None and abs(score) <= max_score:
            kept.append(fen)
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the engine binary (go build -o bin/engine ./cmd/engine)")
    ap.add_argument("--count", type=int, default=1000, help="openings to write")
    ap.add_argument("--plies", type=int, default=4, help="random moves from the start (4 = 2 a side)")
    ap.add_argument("--depth", type=int, default=8, help="search depth of the balance check")
    ap.add_argument("--max-score", type=int, default=60, help="keep openings scored within this many cp")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hce", action="store_true", help="score with the hand-crafted evaluation (Use NNUE false)")
    args = ap.parse_args()
    options = [("Threads", 1), ("Hash", 16)]
    if args.hce:
        options.append(("Use NNUE", "false"))
    engine = Engine(args.engine, options)
    kept = generate(engine, args.count, args.plies, args.depth, args.max_score,
                    random.Random(args.seed), tries=50 * args.count)
    engine.close()
    for fen in kept:
        print(fen)
    if len(kept) < args.count:
        sys.exit("openings.py: only %d openings found" % len(kept))


if __name__ == "__main__":
    main()
