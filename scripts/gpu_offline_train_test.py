"""Smoke test of scripts/gpu-offline-train.sh on the CPU: pack a few chunks, train one tiny shape
through the four segments, export, evaluate and pack the results as on a GPU machine.

    /usr/bin/python3 -m unittest discover -s scripts -p "*_test.py"
"""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "azero", "train"))

import chunks  # noqa: E402
from test_train import learnable_sample  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "gpu-offline-train.sh")


class TestGPUOfflineTrain(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_prepare_and_run(self):
        src = os.path.join(self.dir, "chunks")
        os.makedirs(src)
        rs = np.random.RandomState(3)
        for k in range(4):
            chunks.write_chunk(os.path.join(src, "%03d.twfc.gz" % k), [learnable_sample(rs) for _ in range(50)])
        env = dict(os.environ, BUNDLE=os.path.join(self.dir, "bundle"), PYTHON=sys.executable, DEVICE="cpu",
                   OUT=os.path.join(self.dir, "out"), RUN=os.path.join(self.dir, "run"), BATCH="16",
                   STEPS1="2", STEPS2="2", STEPS3="2", STEPS4="2", RECENT="60", SHAPES="tiny --blocks 1 --channels 8",
                   TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD="1")
        r = subprocess.run(["bash", SCRIPT, "prepare", src, "1"], env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('"hold": {"samples": 50, "files": 1', r.stdout)
        r = subprocess.run(["bash", SCRIPT, "run"], env=env, capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(env["OUT"], "eval.txt")) as f:
            lines = [l for l in f if "samples: policy" in l]
        self.assertEqual(sum("hold split, 50 samples" in l for l in lines), 4, lines)
        self.assertEqual(sum("train split, 150 samples" in l for l in lines), 4, lines)
        with tarfile.open(os.path.join(env["OUT"], "tiny.tar.gz")) as t:
            self.assertEqual(sorted(t.getnames()), ["log"] + ["tiny-c%d.onnx" % n for n in (1, 2, 3, 4)])
        with open(os.path.join(env["RUN"], "tiny", "log")) as f:
            log = f.read()
        self.assertIn("window: 150 samples of sample set", log)
        self.assertIn("window: 60 samples of sample set", log)  # the last segment: newest only

    def test_usage(self):
        r = subprocess.run(["bash", SCRIPT, "prepare", os.path.join(self.dir, "none")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage", r.stderr)


if __name__ == "__main__":
    unittest.main()
