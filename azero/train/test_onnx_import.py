"""Tests for onnx_import (a trainable Net rebuilt from an exported ONNX file) and
train.py --init-onnx. Run from the repository root:

    /usr/bin/python3 -m unittest discover -s azero/train -v
"""

import copy
import os
import shutil
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import train  # noqa: E402
from export import export_onnx  # noqa: E402
from model import IN_PLANES, Inference, Net  # noqa: E402
from onnx_import import calibrate_batchnorm, net_from_onnx  # noqa: E402
from test_train import run_main, write_learnable_chunks  # noqa: E402

SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "onnx", "default.onnx")


def trained_looking(blocks, channels, wdl, seed):
    """A Net whose BNs are far from identity, as after training."""
    torch.manual_seed(seed)
    net = Net(blocks, channels, wdl)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.3, 3.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)
        net.policy_out.weight.normal_(0, 0.3)
        net.value_fc2.weight.normal_(0, 0.5)
    return net.eval()


def random_planes(n, seed):
    rs = np.random.RandomState(seed)
    x = (rs.random_sample((n, IN_PLANES, 8, 8)) < 0.15).astype(np.float32)
    return torch.from_numpy(x)


def outputs(net, planes):
    with torch.no_grad():
        return Inference(net)(planes)


class TestOnnxImport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_round_trip(self):
        # Export a net, import it: the same function, shape and head, both value heads.
        for blocks, channels, wdl in [(2, 16, False), (3, 8, True)]:
            net = trained_looking(blocks, channels, wdl, seed=blocks)
            path = os.path.join(self.dir, "n%d.onnx" % blocks)
            export_onnx(net, path)
            back = net_from_onnx(path)
            self.assertEqual((back.blocks, back.channels, back.wdl), (blocks, channels, wdl))
            x = random_planes(32, seed=blocks)
            (p0, v0), (p1, v1) = outputs(net, x), outputs(back, x)
            self.assertTrue(torch.allclose(p0, p1, atol=1e-4), (p0 - p1).abs().max())
            self.assertTrue(torch.allclose(v0, v1, atol=1e-5), (v0 - v1).abs().max())
            self.assertGreater(p0.std().item(), 0.1, "outputs must depend on the weights")

    def test_calibration_keeps_eval_and_fixes_training_mode(self):
        net = trained_looking(2, 16, False, seed=7)
        path = os.path.join(self.dir, "n.onnx")
        export_onnx(net, path)
        back = net_from_onnx(path)
        x = random_planes(512, seed=8)
        p0, v0 = outputs(back, x)
        # (a training-mode forward moves the running statistics, so it runs on copies)
        p_before, _ = outputs(copy.deepcopy(back).train(), x)
        back.train()
        calibrate_batchnorm(back, x)
        self.assertTrue(back.training, "calibration leaves the mode as it found it")
        p_train, v_train = outputs(copy.deepcopy(back), x)
        back.eval()
        p1, v1 = outputs(back, x)
        self.assertTrue(torch.allclose(p0, p1, atol=1e-4), (p0 - p1).abs().max())
        self.assertTrue(torch.allclose(v0, v1, atol=1e-5))
        # On the batch it was calibrated on, training mode now computes the same.
        self.assertLess((p_train - p0).abs().max().item(), 1e-3)
        self.assertLess((v_train - v0).abs().max().item(), 1e-4)
        self.assertGreater((p_before - p0).abs().max().item(), 0.05, "uncalibrated BNs do differ")

    def test_shipped_network(self):
        net = net_from_onnx(SHIPPED)
        self.assertEqual((net.blocks, net.channels, net.wdl), (4, 48, False))  # r10g

    def test_two_networks_in_one_graph(self):
        # A graph that runs two networks is not one export.py writes: refused, not misread.
        class Two(torch.nn.Module):
            wdl = False

            def __init__(self):
                super().__init__()
                self.a, self.b = trained_looking(1, 8, False, seed=5), trained_looking(1, 8, False, seed=6)

            def forward(self, planes):
                (pa, va), (pb, vb) = self.a(planes), self.b(planes)
                return pa + pb, va + vb

        path = os.path.join(self.dir, "two.onnx")
        export_onnx(Two().eval(), path)
        with self.assertRaisesRegex(ValueError, "not a network export.py wrote"):
            net_from_onnx(path)

    def test_not_a_network(self):
        bad = os.path.join(self.dir, "bad.onnx")
        with open(bad, "wb") as f:
            f.write(b"not onnx at all")
        with self.assertRaisesRegex(ValueError, "not an ONNX file"):
            net_from_onnx(bad)

    def test_train_init_onnx(self):
        # train.py --init-onnx: the checkpoint takes the ONNX net's shape (not --blocks /
        # --channels), its export computes the same function, and the first training run
        # calibrates the BNs and clears the mark.
        net = trained_looking(2, 8, False, seed=3)
        src = os.path.join(self.dir, "src.onnx")
        export_onnx(net, src)
        run, again = os.path.join(self.dir, "run"), os.path.join(self.dir, "again.onnx")
        common = ["--run-dir", run, "--blocks", "5", "--channels", "64", "--device", "cpu", "--threads", "2"]
        rc, out, err = run_main(train.main, common + ["--init-only", "--init-onnx", src, "--export", again])
        self.assertEqual(rc, 0, err)
        self.assertIn("imported %s as a 2x8 net" % src, err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["blocks"], ckpt["channels"], ckpt["step"]), (2, 8, 0))
        self.assertTrue(ckpt.get(train.NEEDS_CALIBRATION))
        x = random_planes(16, seed=4)
        (p0, v0), (p1, v1) = outputs(net, x), outputs(net_from_onnx(again), x)
        self.assertTrue(torch.allclose(p0, p1, atol=1e-4))
        self.assertTrue(torch.allclose(v0, v1, atol=1e-5))

        data = write_learnable_chunks(os.path.join(self.dir, "chunks"), 1, 300, 5)
        rc, out, err = run_main(train.main, common + ["--chunks", data, "--steps", "3", "--batch", "32"])
        self.assertEqual(rc, 0, err)
        self.assertIn("calibrated the imported network's batch norms on 300 samples", err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual(ckpt["step"], 3)
        self.assertNotIn(train.NEEDS_CALIBRATION, ckpt)
        rc, out, err = run_main(train.main, common + ["--chunks", data, "--steps", "1", "--batch", "32"])
        self.assertEqual(rc, 0, err)
        self.assertNotIn("calibrated", err)

    def test_train_init_onnx_bad_file(self):
        run = os.path.join(self.dir, "run")
        rc, out, err = run_main(lambda a: _exit_code(train.main, a),
                                ["--run-dir", run, "--init-only", "--init-onnx", os.path.join(self.dir, "missing.onnx")])
        self.assertNotEqual(rc, 0)
        self.assertFalse(os.path.exists(os.path.join(run, "checkpoint.pt")))


def _exit_code(fn, argv):
    try:
        return fn(argv)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 1 if not isinstance(e.code, int) else e.code


if __name__ == "__main__":
    unittest.main()
