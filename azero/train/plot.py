"""Plot a ladder learning curve: plot.py CURVE.csv OUT.png

One line per rung: the network's score (%) against it. Two kinds of CSV:

  ladder.csv of `engine train` (iteration, then a column per rung): the score by iteration.
  curve.csv of `engine climb` (round, network, games, cpu_hours, promoted, then a column
      per rung): the score of each round's network by the self-play games played so far
      and by the processor hours spent (when every row has them), one panel each; a network that was not promoted
      is an open marker off the line, which joins the networks that were.

An empty field is a rung that was not measured.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

META = ("iteration", "round", "network", "games", "cpu_hours", "promoted")


def rung_points(rows, rung, x):
    """(x, score) of the rows that measured rung."""
    return [(xi, float(r[rung])) for xi, r in zip(x, rows) if r[rung] != ""]


def plot_iterations(rows, rungs, out):
    x = [int(r["iteration"]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for rung in rungs:
        pts = rung_points(rows, rung, x)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=rung)
    ax.set_xlabel("iteration")
    style(ax)
    ax.set_title("Twofold MCTS on the fixed ladder")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def plot_rounds(rows, rungs, out):
    # The processor-hours panel only when every round has them (a history
    # written by hand may know the games alone).
    panels = [("games", "self-play games")]
    if all(r.get("cpu_hours", "") != "" for r in rows):
        panels.append(("cpu_hours", "processor hours"))
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), sharey=True, squeeze=False)
    axes = axes[0]
    promoted = [r["promoted"] == "true" for r in rows]
    for ax, (key, label) in zip(axes, panels):
        x = [float(r[key]) for r in rows]
        for i, rung in enumerate(rungs):
            colour = "C%d" % i
            kept = [(xi, float(r[rung])) for xi, r, p in zip(x, rows, promoted) if p and r[rung] != ""]
            refused = [(xi, float(r[rung])) for xi, r, p in zip(x, rows, promoted) if not p and r[rung] != ""]
            if kept:
                ax.plot([p[0] for p in kept], [p[1] for p in kept], marker="o", color=colour, label=rung)
            if refused:
                ax.plot([p[0] for p in refused], [p[1] for p in refused], marker="o", linestyle="none",
                        markerfacecolor="none", color=colour, label=rung + " (not promoted)")
        ax.set_xlabel(label)
        style(ax)
    for ax in axes[1:]:
        ax.set_ylabel("")
    fig.suptitle("Twofold MCTS, rounds of engine climb, on the fixed ladder (round %s)" % rows[-1]["round"])
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def style(ax):
    ax.set_ylabel("score against the rung (%)")
    ax.set_ylim(-2, 102)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("plot.py: no rows in", argv[1], file=sys.stderr)
        return 2
    rungs = [k for k in rows[0] if k not in META and any(r[k] != "" for r in rows)]
    if "games" in rows[0]:
        plot_rounds(rows, rungs, argv[2])
    else:
        plot_iterations(rows, rungs, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
