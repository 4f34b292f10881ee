#!/usr/bin/env python3
"""Elo with its 95% error from pentanomial counts, pooling several runs of the same two builds.

Two SPRTs of one change against one base that stopped undecided are pooled as one fixed-game
match: their game pairs add up. Each argument is one run, either five pair counts
(LL,LD,DD+WL,WD,WW: the pairs scoring 0, 0.5, 1, 1.5 and 2 points for the tested side) or a
fastchess or scripts/sprt.sh log, of which the last "Ptnml(0-2): [...]" line counts.

  scripts/elo.py 35,166,278,180,51 runs/sprt-b/fastchess.log

The figures are fastchess's: the score per pair, its variance over pairs, Elo = -400 log10(1/s - 1)
and the error from the score's 95% interval, so one run gives what fastchess printed for it.
"""

import math
import re
import sys

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
PTNML = re.compile(r"Ptnml\(0-2\):\s*\[([\d,\s]+)\]")


def parse_counts(text):
    """Five non-negative pair counts from "a,b,c,d,e" (spaces allowed)."""
    fields = [f.strip() for f in text.split(",")]
    if len(fields) != 5 or not all(f.isdigit() for f in fields):
        raise ValueError(f"{text!r}: want five pair counts such as 35,166,278,180,51")
    return [int(f) for f in fields]


def counts_from_log(lines):
    """The pair counts of the last Ptnml(0-2) line of a fastchess log."""
    found = None
    for line in lines:
        m = PTNML.search(line)
        if m:
            found = parse_counts(m.group(1))
    if found is None:
        raise ValueError("no 'Ptnml(0-2): [...]' line")
    return found


def elo(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def summarize(counts):
    """(games, Elo, its 95% error, LOS) of pooled pentanomial counts."""
    pairs = sum(counts)
    if pairs == 0:
        raise ValueError("no game pairs")
    points = [0.0, 0.25, 0.5, 0.75, 1.0]  # a pair's score, per game
    mean = sum(n * s for n, s in zip(counts, points)) / pairs
    var = sum(n * (s - mean) ** 2 for n, s in zip(counts, points)) / pairs
    if mean <= 0.0 or mean >= 1.0:
        raise ValueError(f"score {mean:.3f}: Elo is infinite")
    if var == 0.0:
        return 2 * pairs, elo(mean), 0.0, 0.5 if mean == 0.5 else float(mean > 0.5)
    half = Z95 * math.sqrt(var / pairs)
    lo, hi = max(mean - half, 1e-9), min(mean + half, 1.0 - 1e-9)
    los = 0.5 * (1.0 + math.erf((mean - 0.5) / math.sqrt(2.0 * var / pairs)))
    return 2 * pairs, elo(mean), (elo(hi) - elo(lo)) / 2.0, los


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    total = [0] * 5
    for arg in argv:
        try:
            if re.fullmatch(r"[\d,\s]+", arg):
                counts = parse_counts(arg)
            else:
                with open(arg, encoding="utf-8", errors="replace") as f:
                    counts = counts_from_log(f)
            games, e, err, _ = summarize(counts)
        except (OSError, ValueError) as exc:
            print(f"elo.py: {arg}: {exc}", file=sys.stderr)
            return 2
        print(f"{arg}: {games} games, pentanomial {' / '.join(map(str, counts))}, Elo {e:+.1f} ± {err:.1f}")
        total = [a + b for a, b in zip(total, counts)]
    games, e, err, los = summarize(total)
    print(f"pooled: {games} games, pentanomial {' / '.join(map(str, total))}, "
          f"Elo {e:+.1f} ± {err:.1f}, LOS {100 * los:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
