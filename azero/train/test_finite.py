"""Tests for the trainer's refusal of non-finite training and its parent watch.

    /usr/bin/python3 -m unittest discover -s azero/train -v
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import train  # noqa: E402
from model import Net  # noqa: E402
from test_train import parse_steps, run_main, write_learnable_chunks  # noqa: E402

TRAIN_DIR = os.path.dirname(os.path.abspath(__file__))


class TestNonFinite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = write_learnable_chunks(os.path.join(cls.dir, "chunks"), 2, 100, 5)
        torch.set_num_threads(2)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def argv(self, run, *extra):
        return ["--chunks", self.chunks, "--run-dir", run, "--blocks", "1", "--channels", "8",
                "--batch", "32", "--device", "cpu", "--threads", "2"] + list(extra)

    def init(self, name):
        run = os.path.join(self.dir, name)
        rc, _, err = run_main(train.main, self.argv(run, "--init-only"))
        self.assertEqual(rc, 0, err)
        return run

    def test_huge_lr_refused_without_saving_or_exporting(self):
        # The failure this guards against: --lr 1e6 logged "loss nan" and exported a NaN net.
        run = self.init("huge-lr")
        ckpt = os.path.join(run, train.CHECKPOINT)
        before = read_bytes(ckpt)
        onnx = os.path.join(self.dir, "huge-lr.onnx")
        rc, out, err = run_main(train.main, self.argv(run, "--steps", "50", "--lr", "1e6", "--export", onnx))
        self.assertEqual(rc, train.EXIT_DIVERGED, out + err)
        self.assertIn("training diverged: non-finite", err)
        self.assertIn("Lower --lr (now 1e+06)", err)
        self.assertIn("the checkpoint stays at step 0", err)
        self.assertFalse(os.path.exists(onnx), "a diverged net must not be exported")
        self.assertEqual(read_bytes(ckpt), before, "the last good checkpoint must stay")
        # It stopped at the divergence, not after all 50 steps.
        self.assertLess(len(parse_steps(out)), 50)

    def test_nonfinite_weights_are_not_checkpointed(self):
        # A step can leave NaN weights while its own loss was finite: the periodic
        # save must not write them (the loss check alone would).
        run = self.init("nan-weights")
        ckpt = os.path.join(run, train.CHECKPOINT)
        before = read_bytes(ckpt)
        real_step = torch.optim.SGD.step

        def poisoning_step(opt, *a, **k):
            r = real_step(opt, *a, **k)
            with torch.no_grad():
                opt.param_groups[0]["params"][0].fill_(float("nan"))
            return r
        torch.optim.SGD.step = poisoning_step
        try:
            # The loss of step 1 is finite; the weights after it are not.
            rc, out, err = run_main(train.main, self.argv(run, "--steps", "1", "--checkpoint-every", "1"))
        finally:
            torch.optim.SGD.step = real_step
        self.assertEqual(rc, train.EXIT_DIVERGED, out + err)
        self.assertIn("non-finite weights at step 1", err)
        self.assertEqual(read_bytes(ckpt), before)

    def test_nonfinite_checkpoint_refused(self):
        run = self.init("nan-ckpt")
        ckpt = os.path.join(run, train.CHECKPOINT)
        state = torch.load(ckpt, map_location="cpu")
        first = next(iter(state["model"]))
        state["model"][first] = torch.full_like(state["model"][first], float("nan"))
        torch.save(state, ckpt)
        onnx = os.path.join(self.dir, "nan-ckpt.onnx")
        rc, out, err = run_main(train.main, self.argv(run, "--steps", "3", "--export", onnx))
        self.assertEqual(rc, train.EXIT_DIVERGED, out + err)
        self.assertIn("holds non-finite values (%s" % first, err)
        self.assertFalse(os.path.exists(onnx))

    def test_nonfinite_outputs_with_finite_weights(self):
        # Weights can be finite and the logits still overflow float32.
        net = Net(1, 8)
        planes = torch.zeros(2, 19, 8, 8)
        self.assertIsNone(train.nonfinite_outputs(net, planes))
        with torch.no_grad():
            for name, p in net.named_parameters():
                if name.startswith("policy") and p.dim() >= 2:
                    p.fill_(1e30)
                if name.startswith("policy") and "bias" in name:
                    p.fill_(3e38)
        self.assertEqual(train.nonfinite_tensors(net), [])
        self.assertIn("policy output", train.nonfinite_outputs(net, planes) or "")
        self.assertTrue(net.training, "the check must leave the training mode as it was")

    def test_finite_training_still_exports(self):
        run = self.init("fine")
        onnx = os.path.join(self.dir, "fine.onnx")
        rc, out, err = run_main(train.main, self.argv(run, "--steps", "3", "--export", onnx))
        self.assertEqual(rc, 0, err)
        self.assertGreater(os.path.getsize(onnx), 1000)


class TestExitWithParent(unittest.TestCase):
    def test_orphan_exits(self):
        # sh starts the watcher and waits; killing sh orphans it, and the watch must
        # end it (the parent-death signal covers Linux; this guard covers the rest).
        code = ("import sys, time; sys.path.insert(0, %r); import train; "
                "train.exit_with_parent(0.05); print('ready', flush=True); time.sleep(60)" % TRAIN_DIR)
        sh = subprocess.Popen(["/bin/sh", "-c", '"$0" -c "$1" & echo $!; wait', sys.executable, code],
                              stdout=subprocess.PIPE, text=True)
        try:
            child = int(sh.stdout.readline())
            self.assertEqual(sh.stdout.readline().strip(), "ready")
            sh.kill()
            sh.wait()
            deadline = time.time() + 10
            while time.time() < deadline and alive(child):
                time.sleep(0.05)
            self.assertFalse(alive(child), "the orphaned trainer kept running")
        finally:
            sh.kill()
            sh.wait()
            sh.stdout.close()
            try:
                os.kill(child, signal.SIGKILL)
            except (ProcessLookupError, UnboundLocalError):
                pass


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def alive(pid):
    """True while pid runs (a zombie awaiting a reaper counts as dead)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


if __name__ == "__main__":
    unittest.main()
