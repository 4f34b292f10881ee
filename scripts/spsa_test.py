"""Tests of scripts/spsa.py's arithmetic and result parsing (no engine needed)."""

import unittest

import spsa


class ScheduleTest(unittest.TestCase):
    def test_ends_at_c_end(self):
        s = spsa.Schedule(1000, 0.002)
        self.assertAlmostEqual(s.c(999, 6.0), 6.0)
        self.assertGreater(s.c(0, 6.0), s.c(500, 6.0))

    def test_step_follows_the_winner(self):
        s = spsa.Schedule(1000, 0.002)
        self.assertGreater(s.step(0, 80.0, 6.0, +1, 2), 80.0)
        self.assertLess(s.step(0, 80.0, 6.0, -1, 2), 80.0)
        self.assertEqual(s.step(0, 80.0, 6.0, +1, 0), 80.0)
        # At the end one won pair moves theta by r_end * c_end per unit of result.
        self.assertAlmostEqual(s.step(999, 80.0, 6.0, +1, 1) - 80.0, 0.002 * 6.0, places=9)


class ScoreTest(unittest.TestCase):
    def test_wins_minus_losses_of_plus(self):
        log = "\n".join([
            "Started game 1 of 4 (plus vs minus)",
            "Finished game 1 (plus vs minus): 1-0 {White mates}",
            "Finished game 2 (minus vs plus): 1-0 {White mates}",
            "Finished game 3 (minus vs plus): 0-1 {Black mates}",
            "Finished game 4 (plus vs minus): 1/2-1/2 {Draw by 3-fold repetition}",
        ])
        self.assertEqual(spsa.score_games(log, "plus"), 1)
        self.assertEqual(spsa.score_games(log, "minus"), -1)


if __name__ == "__main__":
    unittest.main()
