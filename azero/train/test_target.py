"""Tests for --target-key: a restarted trainer finishes the iteration's steps, no more.

    /usr/bin/python3 -m unittest discover -s azero/train -v
"""

import json
import os
import shutil
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chunks  # noqa: E402
import train  # noqa: E402
from test_train import learnable_sample, parse_steps, run_main  # noqa: E402


class TestTargetKey(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.chunks = os.path.join(self.dir, "chunks")
        os.makedirs(self.chunks)
        chunks.write_chunk(os.path.join(self.chunks, "000.twfc.gz"),
                           [learnable_sample(np.random.RandomState(3)) for _ in range(50)])
        self.run_dir = os.path.join(self.dir, "run")
        torch.set_num_threads(2)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def train(self, key, steps):
        rc, out, err = run_main(train.main, [
            "--chunks", self.chunks, "--run-dir", self.run_dir, "--blocks", "1", "--channels", "8",
            "--batch", "16", "--device", "cpu", "--threads", "2", "--steps", str(steps),
            "--checkpoint-every", "2", "--target-key", key])
        self.assertEqual(rc, 0, err)
        return [s for s, _ in parse_steps(out)]

    def test_restart_finishes_the_same_target(self):
        self.assertEqual(self.train("iter-0001", 6), list(range(1, 7)))
        # The loop restarted after a kill: the same key trains nothing more.
        self.assertEqual(self.train("iter-0001", 6), [])
        # A trainer killed at step 10 of iteration 2 (target 12; checkpoint at 10)...
        self.assertEqual(self.train("iter-0002", 4), [7, 8, 9, 10])
        with open(os.path.join(self.run_dir, train.TARGET), "w") as f:
            json.dump({"key": "iter-0002", "step": 12}, f)
        # ...ends at 12 when restarted, not at 10 + --steps.
        self.assertEqual(self.train("iter-0002", 6), [11, 12])
        # The next iteration gets its full --steps again.
        self.assertEqual(self.train("iter-0003", 3), [13, 14, 15])
        ckpt = torch.load(os.path.join(self.run_dir, train.CHECKPOINT), map_location="cpu")
        self.assertEqual(ckpt["step"], 15)


if __name__ == "__main__":
    unittest.main()
