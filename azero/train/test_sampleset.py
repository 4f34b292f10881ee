"""Tests for sample sets (sampleset.py), training on one (train.py --sample-set) and the
held-out evaluation (evaluate.py)."""

import json
import os
import shutil
import sys
import tempfile
import time
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chunks  # noqa: E402
import evaluate  # noqa: E402
import export  # noqa: E402
import sampleset  # noqa: E402
import train  # noqa: E402
from test_train import random_sample, run_main, write_learnable_chunks  # noqa: E402


class TestSampleSet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = os.path.join(cls.dir, "chunks")
        os.makedirs(cls.chunks)
        rs = np.random.RandomState(5)
        now = time.time()
        for k in range(4):
            samples = [random_sample(rs) for _ in range(30 + k)]
            for i, s in enumerate(samples):
                s["q"] = float("nan") if i % 3 == 0 else float(rs.uniform(-1, 1))
            path = os.path.join(cls.chunks, "%03d.twfc.gz" % k)
            chunks.write_chunk(path, samples)
            os.utime(path, (now - 100 + k, now - 100 + k))  # oldest first by mtime
        cls.set = os.path.join(cls.dir, "set")
        cls.meta = sampleset.pack(cls.chunks, cls.set, holdout=1, workers=1, log=lambda m: None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def original(self, names):
        return chunks.Packed.concat([chunks.read_chunk_packed(os.path.join(self.chunks, n)) for n in names])

    def test_round_trip(self):
        for split, names in (("train", ["000.twfc.gz", "001.twfc.gz", "002.twfc.gz"]), ("hold", ["003.twfc.gz"])):
            want, got = self.original(names), sampleset.load(self.set, split)
            self.assertEqual(len(got), len(want))
            self.assertEqual(self.meta["splits"][split]["samples"], len(want))
            np.testing.assert_array_equal(got.bits, want.bits)
            np.testing.assert_array_equal(got.halfmove, want.halfmove)
            np.testing.assert_array_equal(got.fullmove, want.fullmove)
            np.testing.assert_array_equal(got.value, want.value)
            np.testing.assert_array_equal(np.isnan(got.q), np.isnan(want.q))
            known = ~np.isnan(want.q)
            np.testing.assert_allclose(got.q[known], want.q[known], atol=1e-3)
            np.testing.assert_array_equal(got.pol_start, want.pol_start)
            np.testing.assert_array_equal(got.pol_index, want.pol_index)
            # probabilities: quantised, renormalised per sample
            np.testing.assert_allclose(got.pol_prob, want.pol_prob, atol=0.01)
            _, pol, _ = got.dense()
            sums = pol.sum(axis=1)
            has = np.diff(got.pol_start) > 0
            np.testing.assert_allclose(sums[has], 1.0, atol=1e-5)
            self.assertTrue(np.all(sums[~has] == 0))

    def test_several_directories(self):
        # An older round's directory comes first and is trained on whole; only the last
        # directory's newest files are held out, even when the older ones are newer by mtime.
        older = os.path.join(self.dir, "older")
        os.makedirs(older)
        rs = np.random.RandomState(9)
        path = os.path.join(older, "900.twfc.gz")
        chunks.write_chunk(path, [random_sample(rs) for _ in range(7)])
        out = os.path.join(self.dir, "window")
        rc, _, err = run_main(sampleset.main, ["--chunks", older, "--chunks", self.chunks, "--out", out,
                                               "--holdout", "1", "--workers", "1"])
        self.assertEqual(rc, 0, err)
        train, hold = sampleset.load(out, "train"), sampleset.load(out, "hold")
        want = chunks.Packed.concat([chunks.read_chunk_packed(path)] + [
            chunks.read_chunk_packed(os.path.join(self.chunks, n)) for n in ("000.twfc.gz", "001.twfc.gz", "002.twfc.gz")])
        self.assertEqual(len(train), len(want))
        np.testing.assert_array_equal(train.bits, want.bits)
        self.assertEqual(len(hold), len(self.original(["003.twfc.gz"])))
        with open(os.path.join(out, "meta.json")) as f:
            self.assertEqual(json.load(f)["source"], [os.path.abspath(older), os.path.abspath(self.chunks)])

    def test_missing_split_and_bad_holdout(self):
        with self.assertRaises(ValueError):
            sampleset.load(self.dir, "train")  # no set there
        with self.assertRaises(ValueError):
            sampleset.load(self.set, "test")
        with self.assertRaises(ValueError):
            sampleset.pack(self.chunks, os.path.join(self.dir, "x"), holdout=4, workers=1, log=lambda m: None)
        rc, _, err = run_main(sampleset.main, ["--chunks", self.chunks, "--out", os.path.join(self.dir, "y"),
                                               "--holdout", "9"])
        self.assertEqual(rc, 2)
        self.assertIn("need more than --holdout 9", err)


class TestTrainOnSampleSet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = write_learnable_chunks(os.path.join(cls.dir, "chunks"), 3, 150, 12)
        cls.set = os.path.join(cls.dir, "set")
        sampleset.pack(cls.chunks, cls.set, holdout=1, workers=1, log=lambda m: None)
        torch.set_num_threads(2)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_train_then_evaluate(self):
        run = os.path.join(self.dir, "run")
        onnx_path = os.path.join(run, "net.onnx")
        argv = ["--sample-set", self.set, "--run-dir", run, "--blocks", "1", "--channels", "8",
                "--batch", "32", "--device", "cpu", "--threads", "2", "--log-every", "10"]
        ckpt = os.path.join(run, "checkpoint.pt")
        # before training: the held-out loss of the fresh network
        rc, _, err = run_main(train.main, argv + ["--init-only"])
        self.assertEqual(rc, 0, err)
        before = evaluate.evaluate(evaluate.load_network(ckpt), sampleset.load(self.set, "hold"))
        rc, out, err = run_main(train.main, argv + ["--steps", "40", "--export", onnx_path])
        self.assertEqual(rc, 0, err)
        self.assertIn("window: 300 samples of sample set", err + out)
        hold = sampleset.load(self.set, "hold")
        after = evaluate.evaluate(evaluate.load_network(ckpt), hold)
        self.assertEqual(after["samples"], 150)
        self.assertLess(after["policy"], before["policy"] - 0.5, "training on the set generalises to held-out games")
        # the ONNX export computes the same function as the checkpoint
        via_onnx = evaluate.evaluate(evaluate.load_network(onnx_path), hold)
        self.assertAlmostEqual(via_onnx["policy"], after["policy"], places=3)
        self.assertAlmostEqual(via_onnx["value_mse"], after["value_mse"], places=3)
        rc, out, err = run_main(evaluate.main, ["--sample-set", self.set, ckpt, onnx_path,
                                                os.path.join(run, "missing.pt")])
        self.assertEqual(rc, 2)
        self.assertEqual(out.count("hold split, 150 samples"), 2, out)
        self.assertIn("missing.pt", err)

    def test_window_samples_and_refusals(self):
        run = os.path.join(self.dir, "run2")
        rc, out, err = run_main(train.main, ["--sample-set", self.set, "--window-samples", "100", "--run-dir", run,
                                             "--blocks", "1", "--channels", "8", "--steps", "2", "--device", "cpu"])
        self.assertEqual(rc, 0, err)
        self.assertIn("window: 100 samples of sample set", err + out)
        with self.assertRaises(SystemExit):
            run_main(train.parse_args, ["--sample-set", self.set, "--chunks", self.chunks, "--run-dir", run])
        rc, out, err = run_main(train.main, ["--sample-set", self.dir, "--run-dir", os.path.join(self.dir, "run3"),
                                             "--steps", "2", "--device", "cpu"])
        self.assertEqual(rc, 2)
        self.assertIn("sample set:", err + out)


if __name__ == "__main__":
    unittest.main()
