"""Plot the ladder learning curve: plot.py LADDER.csv OUT.png

One line per rung: the network's score (%) against it by iteration.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("plot.py: no rows in", argv[1], file=sys.stderr)
        return 2
    rungs = [k for k in rows[0] if k != "iteration"]
    x = [int(r["iteration"]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for rung in rungs:
        pts = [(xi, float(r[rung])) for xi, r in zip(x, rows) if r[rung] != ""]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=rung)
    ax.set_xlabel("iteration")
    ax.set_ylabel("score against the rung (%)")
    ax.set_ylim(-2, 102)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    ax.set_title("Twofold MCTS on the fixed ladder")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
