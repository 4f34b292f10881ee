"""Tests of scripts/elo.py against figures fastchess printed for the same games."""

import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import elo


class SummarizeTest(unittest.TestCase):
    def test_matches_fastchess(self):
        # fastchess: "Elo: 11.26 +/- 12.59", "LOS: 96.04 %" for these 710 pairs.
        games, e, err, los = elo.summarize([35, 166, 278, 180, 51])
        self.assertEqual(games, 1420)
        self.assertAlmostEqual(e, 11.26, places=2)
        self.assertAlmostEqual(err, 12.59, places=2)
        self.assertAlmostEqual(los, 0.9604, places=4)

    def test_even_and_mirrored(self):
        _, e, _, los = elo.summarize([10, 20, 40, 20, 10])
        self.assertAlmostEqual(e, 0.0)
        self.assertAlmostEqual(los, 0.5)
        _, up, err_up, _ = elo.summarize([5, 10, 20, 30, 15])
        _, down, err_down, _ = elo.summarize([15, 30, 20, 10, 5])
        self.assertAlmostEqual(up, -down)
        self.assertAlmostEqual(err_up, err_down)

    def test_pooling_narrows_the_error(self):
        _, _, one, _ = elo.summarize([35, 166, 278, 180, 51])
        _, _, two, _ = elo.summarize([70, 332, 556, 360, 102])
        self.assertLess(two, one / 1.3)

    def test_degenerate(self):
        for counts in ([0, 0, 0, 0, 0], [0, 0, 0, 0, 7], [3, 0, 0, 0, 0]):
            with self.assertRaises(ValueError):
                elo.summarize(counts)
        self.assertEqual(elo.summarize([0, 0, 9, 0, 0])[1:], (0.0, 0.0, 0.5))


class ParseTest(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(elo.parse_counts("1, 2,3 ,4,5"), [1, 2, 3, 4, 5])
        for bad in ("1,2,3", "1,2,3,4,x", "1,2,3,4,-5", ""):
            with self.assertRaises(ValueError):
                elo.parse_counts(bad)

    def test_last_ptnml_line_counts(self):
        lines = ["Ptnml(0-2): [0, 3, 4, 2, 1], WL/DD Ratio: 0.00",
                 "Elo: 4.83 +/- 24.03, nElo: 7.22 +/- 35.89",
                 "Ptnml(0-2): [9, 43, 70, 50, 8], WL/DD Ratio: 0.63"]
        self.assertEqual(elo.counts_from_log(lines), [9, 43, 70, 50, 8])
        with self.assertRaises(ValueError):
            elo.counts_from_log(["bestmove e2e4"])

    def test_main_pools_a_log_and_counts(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "fastchess.log")
            with open(log, "w") as f:
                f.write("Ptnml(0-2): [35, 166, 278, 180, 51], WL/DD Ratio: 0.9\n")
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(elo.main([log, "35,166,278,180,51"]), 0)
            self.assertIn("pooled: 2840 games, pentanomial 70 / 332 / 556 / 360 / 102", out.getvalue())
            with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
                self.assertEqual(elo.main([os.path.join(d, "missing.log")]), 2)
                self.assertEqual(elo.main(["1,2"]), 2)


if __name__ == "__main__":
    unittest.main()
