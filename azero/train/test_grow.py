"""Tests for grow.py (a larger network computing its parent's function). Run from the
repository root:

    /usr/bin/python3 -m unittest discover -s azero/train -v
"""

import os
import shutil
import sys
import tempfile
import unittest

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import grow  # noqa: E402
from export import export_onnx  # noqa: E402
from model import Net  # noqa: E402
from onnx_import import net_from_onnx  # noqa: E402
from test_onnx_import import outputs, random_planes, trained_looking  # noqa: E402
from test_train import run_main  # noqa: E402


class TestGrow(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_same_function(self):
        # Deeper, wider, both, and neither; both value heads; a parent whose batch norms
        # are far from identities.
        for (b0, c0, wdl), (b1, c1) in [((2, 8, False), (4, 8)), ((2, 8, False), (2, 16)),
                                        ((2, 8, True), (3, 24)), ((1, 16, True), (1, 16))]:
            parent = trained_looking(b0, c0, wdl, seed=b1 * c1)
            net = grow.grow(parent, b1, c1, seed=3)
            self.assertEqual((net.blocks, net.channels, net.wdl), (b1, c1, wdl))
            x = random_planes(64, seed=c1)
            (p0, v0), (p1, v1) = outputs(parent, x), outputs(net, x)
            self.assertTrue(torch.allclose(p0, p1, atol=1e-5), (p0 - p1).abs().max())
            self.assertTrue(torch.allclose(v0, v1, atol=1e-6), (v0 - v1).abs().max())
            self.assertLess(grow.largest_difference(parent, net), 1e-5)

    def test_difference_is_measured(self):
        # largest_difference is what refuses a wrong grow: it sees a different network.
        parent = trained_looking(2, 8, False, seed=1)
        self.assertGreater(grow.largest_difference(parent, trained_looking(2, 8, False, seed=2)), 0.05)

    def test_new_weights_learn(self):
        # The new channels are live: their weights are not zero, and one training step's
        # gradient reaches the heads' new input columns and the new block.
        parent = trained_looking(1, 8, False, seed=4)
        net = grow.grow(parent, 2, 16, seed=5).train()
        self.assertGreater(net.tower[0].conv1.weight[8:].abs().sum().item(), 0)
        self.assertGreater(net.input_conv.weight[8:].abs().sum().item(), 0)
        x = random_planes(32, seed=6)
        policy, value = net(x)
        (F.log_softmax(policy, dim=1)[:, 0].mean() + value.mean()).backward()
        for name, grad in [("policy_out new columns", net.policy_out.weight.grad[:, 8:]),
                           ("value_conv new columns", net.value_conv.weight.grad[:, 8:]),
                           ("new block's conv2", net.tower[1].conv2.weight.grad)]:
            self.assertGreater(grad.abs().sum().item(), 0, name)

    def test_refuses_to_shrink(self):
        parent = Net(2, 16)
        for blocks, channels in [(1, 16), (2, 8)]:
            with self.assertRaisesRegex(ValueError, "cannot shrink"):
                grow.grow(parent, blocks, channels)

    def test_main_onnx_to_onnx(self):
        parent = trained_looking(2, 8, False, seed=8)
        src, out = os.path.join(self.dir, "parent.onnx"), os.path.join(self.dir, "grown.onnx")
        export_onnx(parent, src)
        rc, stdout, stderr = run_main(grow.main, ["--network", src, "--blocks", "3", "--channels", "16", "--out", out])
        self.assertEqual(rc, 0, stderr)
        self.assertIn("3x16 grown from 2x8", stdout)
        back = net_from_onnx(out)
        self.assertEqual((back.blocks, back.channels), (3, 16))
        x = random_planes(32, seed=9)
        (p0, v0), (p1, v1) = outputs(parent, x), outputs(back, x)
        self.assertTrue(torch.allclose(p0, p1, atol=1e-4), (p0 - p1).abs().max())
        self.assertTrue(torch.allclose(v0, v1, atol=1e-5), (v0 - v1).abs().max())

    def test_main_bad_input(self):
        out = os.path.join(self.dir, "grown.onnx")
        bad = os.path.join(self.dir, "bad.onnx")
        with open(bad, "wb") as f:
            f.write(b"not onnx at all")
        for argv in [["--network", os.path.join(self.dir, "missing.onnx"), "--out", out],
                     ["--network", bad, "--out", out]]:
            with self.assertRaises(SystemExit):
                run_main(grow.main, argv)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
