"""Tests of scripts/sprt.sh's resumption and scripts/lib.sh's game count, with a stand-in
for fastchess (fastchess itself is not part of the project)."""

import os
import stat
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# Two runs of one test: the first was interrupted after game 5 (the first game of a pair),
# so the resumed run plays games 5 and 6 again.
FIRST_RUN = """Indexing opening suite...
Finished game 1 (dev-a vs base-b): 1-0 {White wins by adjudication}
Finished game 2 (base-b vs dev-a): 1-0 {White wins by adjudication}
Finished game 3 (dev-a vs base-b): 1/2-1/2 {Draw by 3-fold repetition}
Finished game 4 (base-b vs dev-a): 0-1 {Black wins by adjudication}
Finished game 5 (dev-a vs base-b): 0-1 {Black wins by adjudication}
Tournament was interrupted.
"""

# What the stand-in prints when resumed: games 5-8, then fastchess's report of all 8.
RESUMED_RUN = """Finished game 5 (dev-a vs base-b): 1-0 {White wins by adjudication}
Finished game 6 (base-b vs dev-a): 1/2-1/2 {Draw by 3-fold repetition}
Finished game 7 (dev-a vs base-b): 1-0 {White wins by adjudication}
Finished game 8 (base-b vs dev-a): 1-0 {White wins by adjudication}
Results of dev-a vs base-b (3+0.03, 1t, 16MB, book.epd):
Elo: 88.74 +/- 200.00, nElo: 100.00 +/- 200.00
LOS: 80.00 %, DrawRatio: 25.00 %, PairsRatio: 2.00
Games: 8, Wins: 4, Losses: 2, Draws: 2, Points: 5.0 (62.50 %)
Ptnml(0-2): [0, 0, 2, 2, 0], WL/DD Ratio: 1.00
LLR: 0.50 (17.0%) (-2.94, 2.94) [0.00, 10.00]
"""


def bash_lib(script):
    return subprocess.run(
        ["bash", "-c", 'ROOT=%s; die() { echo "$*" >&2; exit 2; }; . "$ROOT/scripts/lib.sh"; %s'
         % (os.path.dirname(HERE), script)],
        capture_output=True, text=True, check=True).stdout


class WdlFromLogTest(unittest.TestCase):
    def test_a_replayed_game_counts_once_with_its_last_result(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "fastchess.log")
            with open(log, "w") as f:
                f.write(FIRST_RUN)
            self.assertEqual(bash_lib('wdl_from_log "%s" dev-a' % log), "2 1 2\n")
            with open(log, "a") as f:
                f.write(RESUMED_RUN)
            # games 1-8 once each; game 5 as the resumed run played it
            self.assertEqual(bash_lib('wdl_from_log "%s" dev-a' % log), "4 2 2\n")
            self.assertEqual(bash_lib('wdl_from_log "%s" base-b' % log), "2 2 4\n")


class ResumeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.run_dir = os.path.join(self.tmp.name, "run")
        os.mkdir(self.run_dir)
        with open(os.path.join(self.run_dir, "config.json"), "w") as f:
            f.write('{\n    "games": 2,\n    "rounds": 3,\n    "concurrency": 2\n}\n')
        with open(os.path.join(self.run_dir, "sprt.env"), "w") as f:
            f.write("TC=3+0.03\nELO0=0\nELO1=10\nMODEL=normalized\nBASE_NAME=base-b\nDEV_NAME=dev-a\n"
                    "BASE_LABEL=b\nBASE_BENCH=2000\\ nodes\\ 1000000\\ nps\n"
                    "DEV_BENCH=1900\\ nodes\\ 1100000\\ nps\n")
        with open(os.path.join(self.run_dir, "fastchess.log"), "w") as f:
            f.write(FIRST_RUN)
        # The stand-in records where and how it was called, then plays "the rest".
        self.fake = os.path.join(self.tmp.name, "fastchess")
        self.calls = os.path.join(self.tmp.name, "calls")
        self.resumed = os.path.join(self.tmp.name, "resumed.txt")
        with open(self.resumed, "w") as f:
            f.write(RESUMED_RUN)
        with open(self.fake, "w") as f:
            f.write('#!/bin/sh\necho "$PWD $*" >> %s\ncat %s\n' % (self.calls, self.resumed))
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IEXEC)

    def sprt(self, **env):
        full = {k: v for k, v in os.environ.items() if k not in ("MAX_GAMES", "RESUME", "RUN_DIR")}
        full.update(FASTCHESS=self.fake, **env)
        return subprocess.run(["bash", os.path.join(HERE, "sprt.sh")], env=full,
                              capture_output=True, text=True)

    def test_resume_goes_on_from_config_json(self):
        r = self.sprt(RESUME=self.run_dir, MAX_GAMES="20")
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        with open(self.calls) as f:
            self.assertEqual(f.read(), "%s -config file=config.json\n" % os.path.realpath(self.run_dir))
        with open(os.path.join(self.run_dir, "config.json")) as f:
            self.assertIn('"rounds": 10,', f.read())  # the new cap: 20 games
        self.assertIn("at most 20 games", r.stdout)
        self.assertIn("games   8   W/D/L 4/2/2 (from dev-a's side)", r.stdout)
        self.assertIn("LLR 0.50 in (-2.94, 2.94)", r.stdout)
        self.assertIn("Bench: 1900", r.stdout)
        with open(os.path.join(self.run_dir, "fastchess.log")) as f:
            self.assertTrue(f.read().startswith(FIRST_RUN), "the first run's log is kept")

    def test_resume_keeps_the_cap_unless_given(self):
        r = self.sprt(RESUME=self.run_dir)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("at most 6 games", r.stdout)

    def test_resume_of_a_directory_without_a_test(self):
        os.remove(os.path.join(self.run_dir, "sprt.env"))
        r = self.sprt(RESUME=self.run_dir)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not a run directory of this script", r.stderr)
        self.assertFalse(os.path.exists(self.calls), "fastchess must not run")


if __name__ == "__main__":
    unittest.main()
