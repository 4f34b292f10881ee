"""Tests of scripts/openings.py's parsing and of the committed book scripts/openings-2moves.epd
(no engine needed)."""

import os
import unittest

import openings

BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "openings-2moves.epd")


class ParseTest(unittest.TestCase):
    def test_perft_moves(self):
        lines = ["e2e4: 1", "g1f3: 1", "", "Nodes searched: 2"]
        self.assertEqual(openings.parse_perft(lines), ["e2e4", "g1f3"])

    def test_last_cp_score(self):
        lines = ["info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 pv e2e4",
                 "info depth 8 seldepth 12 multipv 1 score cp -35 nodes 9000 pv d7d5",
                 "bestmove d7d5"]
        self.assertEqual(openings.parse_score(lines), -35)
        self.assertIsNone(openings.parse_score(["info depth 3 score mate 2 pv a1a8", "bestmove a1a8"]))
        self.assertIsNone(openings.parse_score(["bestmove 0000"]))


class BookTest(unittest.TestCase):
    def test_committed_book(self):
        with open(BOOK) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 1000)
        keys = set()
        for line in lines:
            fields = line.split()
            self.assertEqual(len(fields), 6, line)
            self.assertEqual(len(fields[0].split("/")), 8, line)
            self.assertEqual(fields[1], "w", line)  # two moves a side: White to move
            self.assertEqual(fields[5], "3", line)
            self.assertEqual(fields[0].count("K"), 1, line)
            self.assertEqual(fields[0].count("k"), 1, line)
            keys.add(" ".join(fields[:4]))
        self.assertEqual(len(keys), len(lines), "an opening is there twice")


if __name__ == "__main__":
    unittest.main()
