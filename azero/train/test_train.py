"""Tests for the twofold trainer. Run from the repository root:

    /usr/bin/python3 -m unittest discover -s azero/train -v
"""

import contextlib
import io
import json
import math
import os
import glob
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chunks  # noqa: E402
import ddp_launch  # noqa: E402
import export  # noqa: E402
import train  # noqa: E402
from model import POLICY_SIZE, Inference, Net, count_parameters  # noqa: E402

REPO_AZERO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRAIN_DIR = os.path.dirname(os.path.abspath(__file__))
STEP_RE = re.compile(r"^step (\d+) loss (\S+) policy (\S+) value (\S+) lr (\S+) samples/s (\S+)$")


def random_sample(rs, n_policy=None):
    bbs = [int(x) for x in rs.randint(0, 2**63, size=17, dtype=np.int64)]
    bbs = [b | (1 << 63) if rs.rand() < 0.5 else b for b in bbs]  # exercise the top bit
    n = rs.randint(0, 40) if n_policy is None else n_policy
    idx = rs.choice(POLICY_SIZE, size=n, replace=False)
    p = rs.rand(n).astype(np.float32)
    p /= max(p.sum(), 1e-9)
    return {
        "bitboards": bbs,
        "halfmove": int(rs.randint(0, 256)),
        "fullmove": int(rs.randint(1, 65536)),
        "result": int(rs.randint(-1, 2)),
        "policy": list(zip(idx.tolist(), p.tolist())),
    }


def learnable_sample(rs):
    """Sparse boards whose targets depend on the input, so a tiny net can fit them."""
    bbs = [int(x) for x in (rs.randint(0, 2**32, size=17, dtype=np.int64) & rs.randint(0, 2**32, size=17, dtype=np.int64))]
    own = bin(bbs[0]).count("1")
    result = 1 if own > 8 else -1
    # Most mass on two fixed moves, some on the lowest set square's "move".
    sq = (bbs[0] & -bbs[0]).bit_length() - 1 if bbs[0] else 0
    policy = [(1000, 0.5), (2000, 0.3), (3000 + sq, 0.2)]
    return {"bitboards": bbs, "halfmove": own, "fullmove": 10, "result": result, "policy": policy}


def write_learnable_chunks(directory, files, samples, seed):
    """Make directory and fill it with files chunk files (000.twfc.gz, ...) of samples
    learnable samples each, drawn from seed; returns directory."""
    os.makedirs(directory)
    rs = np.random.RandomState(seed)
    for k in range(files):
        chunks.write_chunk(os.path.join(directory, "%03d.twfc.gz" % k), [learnable_sample(rs) for _ in range(samples)])
    return directory


def load_json(path):
    with open(path) as f:
        return json.load(f)


def run_main(fn, argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = fn(argv)
    return rc, out.getvalue(), err.getvalue()


def parse_steps(stdout):
    rows = []
    for line in stdout.splitlines():
        m = STEP_RE.match(line)
        if m:
            rows.append((int(m.group(1)), float(m.group(2))))
    return rows


class TestModel(unittest.TestCase):
    def test_parameter_counts(self):
        counts = {(b, c): count_parameters(Net(b, c)) for b, c in [(4, 32), (4, 64), (6, 64), (6, 96), (6, 128)]}
        for (b, c), n in counts.items():
            print("\n  %dx%d: %d parameters" % (b, c, n), end="")
        self.assertTrue(1.8e6 < counts[(6, 128)] < 2.1e6, counts[(6, 128)])
        net = Net(6, 128)
        self.assertEqual((net.blocks, net.channels), (6, 128))

    def test_output_shapes(self):
        for net in (Net(2, 16).eval(), Net(6, 128).eval()):
            for b in (1, 5):
                with torch.no_grad():
                    p, v = net(torch.rand(b, 19, 8, 8))
                self.assertEqual(tuple(p.shape), (b, 4672))
                self.assertEqual(tuple(v.shape), (b, 1))
                self.assertTrue(bool((v.abs() <= 1).all()))

    def test_wdl_head(self):
        # A WDL net trains on three logits; what the engine runs is P(win) - P(loss).
        from model import Inference
        net = Net(1, 8, wdl=True).eval()
        self.assertEqual(count_parameters(net) - count_parameters(Net(1, 8)), 2 * (64 + 1))
        x = torch.rand(4, 19, 8, 8)
        with torch.no_grad():
            p, logits = net(x)
            p2, v = Inference(net)(x)
        self.assertEqual(tuple(logits.shape), (4, 3))
        self.assertEqual(tuple(v.shape), (4, 1))
        probs = torch.softmax(logits, dim=1)
        torch.testing.assert_close(v[:, 0], probs[:, 0] - probs[:, 2])
        torch.testing.assert_close(p, p2)


class TestChunks(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_round_trip(self):
        rs = np.random.RandomState(7)
        samples = [random_sample(rs) for _ in range(50)] + [random_sample(rs, n_policy=0)]
        samples[0]["halfmove"], samples[0]["fullmove"] = 150, 100  # plane 18 = 0.5, not capped
        path = os.path.join(self.dir, "a.twfc.gz")
        chunks.write_chunk(path, samples)
        planes, policy, value = chunks.read_chunk(path)
        self.assertEqual(planes.shape, (51, 19, 8, 8))
        self.assertEqual(policy.shape, (51, 4672))
        self.assertEqual(value.shape, (51,))
        self.assertEqual((planes.dtype, policy.dtype, value.dtype), (np.float32,) * 3)
        for i, s in enumerate(samples):
            for p, bb in enumerate(s["bitboards"]):
                for sq in range(64):
                    want = float((bb >> sq) & 1)
                    # [plane][rank][file], square = rank*8 + file
                    self.assertEqual(planes[i, p, sq // 8, sq % 8], want, (i, p, sq))
            np.testing.assert_array_equal(planes[i, 17], np.float32(s["halfmove"]) / np.float32(100))
            np.testing.assert_array_equal(planes[i, 18], min(np.float32(s["fullmove"]) / np.float32(200), 1))
            self.assertEqual(value[i], s["result"])
            want = np.zeros(4672, np.float32)
            for idx, prob in s["policy"]:
                want[idx] = prob
            np.testing.assert_array_equal(policy[i], want)
        self.assertAlmostEqual(float(planes[0, 18, 3, 3]), 0.5)
        self.assertAlmostEqual(float(planes[0, 17, 0, 0]), 1.5)

        # Packed.dense on a subset/permutation agrees with the full decode.
        packed = chunks.read_chunk_packed(path)
        idx = np.array([50, 3, 3, 0, 17])
        p2, pol2, v2 = packed.dense(idx)
        np.testing.assert_array_equal(p2, planes[idx])
        np.testing.assert_array_equal(pol2, policy[idx])
        np.testing.assert_array_equal(v2, value[idx])
        # tail() + concat keep the CSR policy offsets consistent.
        both = chunks.Packed.concat([packed.tail(5), packed])
        np.testing.assert_array_equal(both.dense()[1], np.concatenate([policy[-5:], policy]))

    def test_search_value_and_blend(self):
        # Version 2 carries the search's value; the value target blends it with the
        # result (--q-ratio) where known and keeps the result where it is NaN.
        rs = np.random.RandomState(3)
        samples = [random_sample(rs) for _ in range(4)]
        for s, q in zip(samples, [0.5, -1.0, float("nan"), 0.25]):
            s["q"] = q
        samples[0]["result"], samples[2]["result"] = -1, 1
        v2 = os.path.join(self.dir, "v2.twfc.gz")
        chunks.write_chunk(v2, samples)
        packed = chunks.read_chunk_packed(v2)
        np.testing.assert_array_equal(packed.q, np.array([0.5, -1.0, np.nan, 0.25], np.float32))
        result = np.array([s["result"] for s in samples], np.float32)
        np.testing.assert_array_equal(packed.dense()[2], result)
        blended = packed.dense(q_ratio=0.5)[2]
        want = result.copy()
        for i in (0, 1, 3):
            want[i] = 0.5 * result[i] + 0.5 * samples[i]["q"]
        np.testing.assert_allclose(blended, want, rtol=1e-6)
        self.assertEqual(blended[0], -0.25)
        self.assertEqual(blended[2], 1.0, "no search value: the result")
        # The same targets as win/draw/loss distributions for a WDL head.
        wdl = packed.dense(q_ratio=0.5, wdl=True)[2]
        self.assertEqual(wdl.shape, (4, 3))
        np.testing.assert_allclose(wdl.sum(axis=1), 1, rtol=1e-6)
        np.testing.assert_allclose(wdl[0], [0.25, 0.25, 0.5])  # loss, q 0.5: 0.5*(0,0,1) + 0.5*(0.5,0.5,0)
        np.testing.assert_allclose(wdl[2], [1, 0, 0])  # no search value: the one-hot result
        np.testing.assert_allclose(wdl[:, 0] - wdl[:, 2], blended, rtol=1e-6, atol=1e-7)
        onehot = packed.dense(wdl=True)[2]
        np.testing.assert_array_equal(onehot, np.stack([result > 0, result == 0, result < 0], 1).astype(np.float32))
        # A version-1 chunk (before the search value) reads the same, without q.
        v1 = os.path.join(self.dir, "v1.twfc.gz")
        chunks.write_chunk(v1, samples, version=1)
        old = chunks.read_chunk_packed(v1)
        self.assertTrue(np.isnan(old.q).all())
        np.testing.assert_array_equal(old.dense(q_ratio=0.5)[1], packed.dense()[1])
        np.testing.assert_array_equal(old.dense(q_ratio=0.5)[2], result)
        # concat and tail carry q along.
        both = chunks.Packed.concat([old, packed.tail(2)])
        np.testing.assert_array_equal(both.q[4:], packed.q[2:])
        # A search value outside [-1, 1] is refused.
        samples[1]["q"] = 1.5
        bad = os.path.join(self.dir, "badq.twfc.gz")
        chunks.write_chunk(bad, samples)
        with self.assertRaisesRegex(chunks.ChunkError, "search value"):
            chunks.read_chunk(bad)

    def test_empty_chunk(self):
        path = os.path.join(self.dir, "e.twfc.gz")
        chunks.write_chunk(path, [])
        planes, policy, value = chunks.read_chunk(path)
        self.assertEqual((len(planes), len(policy), len(value)), (0, 0, 0))

    def _raw(self, name, payload):
        import gzip
        path = os.path.join(self.dir, name)
        with gzip.open(path, "wb") as f:
            f.write(payload)
        return path

    def test_bad_magic(self):
        path = self._raw("bad.twfc.gz", b"NOPE" + b"\x01\x00\x00\x00" + b"\x00" * 4)
        with self.assertRaises(chunks.ChunkError) as cm:
            chunks.read_chunk(path)
        self.assertIn(path, str(cm.exception))
        self.assertIn("magic", str(cm.exception))

    def test_bad_version_and_truncation(self):
        path = self._raw("v3.twfc.gz", b"TWFC" + b"\x03\x00\x00\x00" + b"\x00" * 4)
        with self.assertRaisesRegex(chunks.ChunkError, "version 3") as cm:
            chunks.read_chunk(path)
        self.assertIn(path, str(cm.exception))
        path = self._raw("short.twfc.gz", b"TWFC" + b"\x01\x00\x00\x00" + b"\x02\x00\x00\x00" + b"\x00" * 150)
        with self.assertRaisesRegex(chunks.ChunkError, "truncated"):
            chunks.read_chunk(path)
        plain = os.path.join(self.dir, "plain.twfc.gz")
        with open(plain, "wb") as f:
            f.write(b"TWFC not gzip")
        with self.assertRaisesRegex(chunks.ChunkError, "gzip"):
            chunks.read_chunk(plain)

    def test_window_selection(self):
        rs = np.random.RandomState(3)
        now = time.time()
        # Names sort opposite to mtimes: selection must follow mtime first.
        for k, name in enumerate(["c", "b", "a"]):
            chunks.write_chunk(os.path.join(self.dir, name + ".twfc.gz"), [random_sample(rs) for _ in range(10 + k)])
            os.utime(os.path.join(self.dir, name + ".twfc.gz"), (now - 100 + k, now - 100 + k))
        open(os.path.join(self.dir, "ignored.tmp"), "w").close()
        names = [os.path.basename(p) for p in chunks.list_chunks(self.dir)]
        self.assertEqual(names, ["c.twfc.gz", "b.twfc.gz", "a.twfc.gz"])
        with contextlib.redirect_stderr(io.StringIO()):
            data, err = train.load_window(self.dir, 2, 0)
            self.assertEqual(len(data), 11 + 12)
            data, err = train.load_window(self.dir, 0, 15)
            self.assertEqual(len(data), 15)  # all 12 of a + newest 3 of b
            data, err = train.load_window(os.path.join(self.dir, "missing"), 0, 0)
            self.assertIsNone(data)


class TestTraining(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = write_learnable_chunks(os.path.join(cls.dir, "chunks"), 3, 200, 11)
        torch.set_num_threads(2)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def common(self, run):
        return ["--chunks", self.chunks, "--run-dir", run, "--blocks", "2", "--channels", "16",
                "--batch", "64", "--device", "cpu", "--threads", "2"]

    def test_loss_decreases_and_resume(self):
        run = os.path.join(self.dir, "run1")
        rc, out, err = run_main(train.main, self.common(run) + ["--steps", "30", "--checkpoint-every", "7"])
        self.assertEqual(rc, 0, err)
        rows = parse_steps(out)
        self.assertEqual([s for s, _ in rows], list(range(1, 31)))
        first = np.mean([l for _, l in rows[:5]])
        last = np.mean([l for _, l in rows[-5:]])
        print("\n  loss first5 %.3f last5 %.3f" % (first, last), end="")
        self.assertLess(last, first - 0.5)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["blocks"], ckpt["channels"]), (30, 2, 16))
        self.assertTrue(ckpt["optimizer"]["state"], "momentum buffers saved")

        # Resume: --blocks/--channels are ignored in favour of the checkpoint, the step
        # count continues, and the loss carries on from where it was (not from scratch).
        argv = self.common(run) + ["--steps", "5", "--log-every", "5"]
        argv[argv.index("--channels") + 1] = "32"
        rc, out, err = run_main(train.main, argv)
        self.assertEqual(rc, 0, err)
        rows2 = parse_steps(out)
        self.assertEqual([s for s, _ in rows2], [35])
        self.assertLess(rows2[0][1], first - 0.5)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["channels"]), (35, 16))

    def test_wdl_training(self):
        # --wdl makes a new network's value head win/draw/loss logits; the checkpoint
        # records it, a resume keeps it without the flag, and the export is the scalar.
        run = os.path.join(self.dir, "wdl")
        onnx = os.path.join(self.dir, "wdl.onnx")
        rc, out, err = run_main(train.main, self.common(run) + ["--wdl", "--q-ratio", "0.5", "--steps", "25"])
        self.assertEqual(rc, 0, err)
        self.assertIn("2x16 WDL net", err)
        rows = parse_steps(out)
        first = np.mean([l for _, l in rows[:5]])
        last = np.mean([l for _, l in rows[-5:]])
        self.assertLess(last, first - 0.5)
        rc, out, err = run_main(train.main, self.common(run) + ["--steps", "2", "--export", onnx])
        self.assertEqual(rc, 0, err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["wdl"]), (27, True))
        self.assertGreater(os.path.getsize(onnx), 1000)
        from model import model_from_checkpoint
        model, _ = model_from_checkpoint(os.path.join(run, "checkpoint.pt"))
        self.assertTrue(model.wdl)
        gold = os.path.join(self.dir, "wdl.json")
        export.write_golden(model, gold)
        golden = load_json(gold)
        self.assertTrue(all(-1 <= v <= 1 for v in golden["value"]))

    def test_no_chunks(self):
        empty = os.path.join(self.dir, "empty")
        os.makedirs(empty, exist_ok=True)
        run = os.path.join(self.dir, "run2")
        argv = self.common(run) + ["--steps", "3"]
        argv[argv.index("--chunks") + 1] = empty
        rc, out, err = run_main(train.main, argv)
        self.assertEqual(rc, 2)
        self.assertIn("no *.twfc.gz chunks", err)

    def test_check(self):
        # --check needs no run directory; without --check one is required.
        rc, out, err = run_main(train.main, ["--check"])
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"^ok: torch \S+, numpy \S+, onnx \S+")
        with contextlib.redirect_stderr(io.StringIO()) as e, self.assertRaises(SystemExit):
            train.parse_args(["--steps", "1"])
        self.assertIn("--run-dir is required", e.getvalue())

    def test_init_only_export(self):
        run = os.path.join(self.dir, "run3")
        onnx = os.path.join(self.dir, "init.onnx")
        rc, out, err = run_main(train.main, self.common(run) + ["--init-only", "--export", onnx])
        self.assertEqual(rc, 0, err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["blocks"], ckpt["channels"]), (0, 2, 16))
        self.assertGreater(os.path.getsize(onnx), 1000)


class TestWeightAverage(unittest.TestCase):
    """--ema: the average's arithmetic, the batch norms of the averaged net, and the
    trainer exporting the average and keeping it across a resume."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = write_learnable_chunks(os.path.join(cls.dir, "chunks"), 2, 100, 13)
        cls.threads = torch.get_num_threads()
        torch.set_num_threads(1)  # a tiny net: more threads only wait on each other

    @classmethod
    def tearDownClass(cls):
        torch.set_num_threads(cls.threads)
        shutil.rmtree(cls.dir)

    @staticmethod
    def sgd_steps(net, n, ema=None):
        torch.manual_seed(3)
        opt = train.make_optimizer(net, 0.05, 1e-4)
        for _ in range(n):
            x = torch.rand(8, 19, 8, 8)
            pol = torch.softmax(torch.randn(8, POLICY_SIZE), dim=1)
            p, v = train.losses(net, x, pol, torch.rand(8) * 2 - 1)
            opt.zero_grad()
            (p + v).backward()
            opt.step()
            if ema is not None:
                ema.update(net)

    def test_decay_zero_is_the_live_weights(self):
        net = Net(1, 8)
        ema = train.WeightAverage(net, 0.0)
        self.sgd_steps(net, 3, ema)
        self.assertEqual(ema.updates, 3)
        for name, p in net.named_parameters():
            self.assertTrue(torch.equal(ema.params[name], p), name)

    def test_mean_then_exponential(self):
        # d = min(decay, n / (n + 1)): the mean of the iterates first, then an EMA;
        # the starting weights never count.
        net = Net(1, 4)
        for decay, want in ((0.5, [1, 1.5, 2.75, 5.375]), (0.9, [1, 1.5, 7 / 3, 15 / 4])):
            ema = train.WeightAverage(net, decay)
            for value in (1, 2, 4, 8):
                with torch.no_grad():
                    for p in net.parameters():
                        p.fill_(value)
                ema.update(net)
                for t in ema.params.values():
                    torch.testing.assert_close(t, torch.full_like(t, want[ema.updates - 1]))
        # The average goes into a copy: the live net keeps its weights.
        avg = ema.averaged(net)
        self.assertTrue(all(bool((p == 8).all()) for p in net.parameters()))
        self.assertTrue(all(torch.allclose(p, torch.full_like(p, 15 / 4)) for p in avg.parameters()))

    def test_recompute_batchnorm(self):
        # The running statistics become those of the averaged net's own activations:
        # the mean over the batches of each batch's mean and (unbiased) variance.
        net = Net(1, 8)
        self.sgd_steps(net, 2)
        torch.manual_seed(4)
        xs = [torch.rand(16, 19, 8, 8) for _ in range(2)]
        train.recompute_batchnorm(net, xs)
        self.assertFalse(net.training)
        self.assertEqual(net.input_bn.momentum, 0.1)
        with torch.no_grad():
            z = [net.input_conv(x).transpose(0, 1).reshape(8, -1) for x in xs]
        torch.testing.assert_close(net.input_bn.running_mean, (z[0].mean(1) + z[1].mean(1)) / 2)
        torch.testing.assert_close(net.input_bn.running_var, (z[0].var(1) + z[1].var(1)) / 2)

    def test_export_and_resume(self):
        run = os.path.join(self.dir, "run")
        onnx = os.path.join(self.dir, "avg.onnx")
        common = ["--chunks", self.chunks, "--run-dir", run, "--blocks", "1", "--channels", "8",
                  "--batch", "32", "--device", "cpu", "--threads", "1", "--ema", "0.95"]
        rc, out, err = run_main(train.main, common + ["--steps", "4", "--checkpoint-every", "2"])
        self.assertEqual(rc, 0, err)
        self.assertIn("weight average: decay 0.95, started at step 0", err)
        first = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual(first["ema"]["updates"], 4)
        self.assertFalse(torch.equal(first["ema"]["params"]["input_conv.weight"], first["model"]["input_conv.weight"]))

        # Resume: record the live weights after each step and the network exported.
        live, exported = [], []
        real_save, real_export = train.save_checkpoint, train.export_onnx

        def save(path, model, opt, step, *rest):
            live.append({k: v.clone() for k, v in model.named_parameters()})
            real_save(path, model, opt, step, *rest)

        def fake_export(model, path):
            exported.append(model)
            real_export(model, path)

        train.save_checkpoint, train.export_onnx = save, fake_export
        try:
            rc, out, err = run_main(train.main, common + ["--steps", "3", "--checkpoint-every", "1", "--export", onnx])
        finally:
            train.save_checkpoint, train.export_onnx = real_save, real_export
        self.assertEqual(rc, 0, err)
        self.assertIn("weight average: decay 0.95, 4 updates so far", err)
        self.assertIn("(the weight average of 7 updates)", err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["ema"]["updates"]), (7, 4 + 3))
        # Still in the mean phase (6/7 < 0.95): the mean of all 7 iterates, the first 4
        # carried by the saved average, not a fresh average of the last 3.
        for name, avg in ckpt["ema"]["params"].items():
            want = (4 * first["ema"]["params"][name] + live[0][name] + live[1][name] + live[2][name]) / 7
            torch.testing.assert_close(avg, want, rtol=1e-5, atol=1e-6)
            torch.testing.assert_close(ckpt["model"][name], live[-1][name].detach())  # training goes on live
        # The exported network is the average, its batch norms measured afresh.
        self.assertEqual(len(exported), 1)
        net = exported[0]
        for name, p in net.named_parameters():
            self.assertTrue(torch.equal(p.detach(), ckpt["ema"]["params"][name]), name)
        self.assertFalse(torch.equal(net.input_bn.running_mean, ckpt["model"]["input_bn.running_mean"]))
        # ...and it is what the ONNX file computes.
        from onnx_import import net_from_onnx
        x = torch.from_numpy(export.golden_inputs())
        with torch.no_grad():
            want_p, want_v = Inference(net.eval())(x)
            got_p, got_v = Inference(net_from_onnx(onnx))(x)
        torch.testing.assert_close(got_p, want_p, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(got_v, want_v, rtol=1e-4, atol=1e-4)
        # The checkpoint keeps that network for export.py --checkpoint --averaged.
        from model import model_from_checkpoint
        again, _ = model_from_checkpoint(os.path.join(run, "checkpoint.pt"), averaged=True)
        for k, v in net.state_dict().items():
            self.assertTrue(torch.equal(again.state_dict()[k], v), k)

        # Without --ema the average is dropped and the live net exported, as before.
        rc, out, err = run_main(train.main, common[:-2] + ["--steps", "1", "--export", onnx])
        self.assertEqual(rc, 0, err)
        self.assertIn("dropping the checkpoint's weight average (7 updates)", err)
        self.assertNotIn("ema", torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu"))
        with self.assertRaisesRegex(ValueError, "no exported weight average"):
            model_from_checkpoint(os.path.join(run, "checkpoint.pt"), averaged=True)

    def test_bad_decay(self):
        for bad in ("1", "-0.1", "nan"):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                train.parse_args(["--run-dir", "x", "--ema", bad])


class TestSurpriseWeight(unittest.TestCase):
    """--surprise-weight: the weights, and the loss they make."""

    @classmethod
    def setUpClass(cls):
        cls.threads = torch.get_num_threads()
        torch.set_num_threads(1)

    @classmethod
    def tearDownClass(cls):
        torch.set_num_threads(cls.threads)

    def targets(self):
        # A uniform prior (zero logits); sample 0's target is the prior (KL 0), sample 1
        # splits over two moves (KL log(4672/2)), sample 2 is one move (KL log 4672).
        logits = torch.zeros(3, POLICY_SIZE)
        pol = torch.zeros(3, POLICY_SIZE)
        pol[0] = 1 / POLICY_SIZE
        pol[1, [10, 20]] = 0.5
        pol[2, 30] = 1
        return logits, pol

    def test_weights(self):
        logits, pol = self.targets()
        kl = torch.tensor([0, math.log(POLICY_SIZE / 2), math.log(POLICY_SIZE)])
        for f in (0.0, 0.25, 0.5, 1.0):
            w = train.surprise_weights(logits, pol, f)
            torch.testing.assert_close(w.mean(), torch.tensor(1.0))
            torch.testing.assert_close(w, (1 - f) + f * kl / kl.mean())
            if f > 0:
                self.assertLess(w[0], w[1])
                self.assertLess(w[1], w[2])
        self.assertTrue(torch.equal(train.surprise_weights(logits, pol, 0.0), torch.ones(3)))
        # No surprise anywhere (every target is the prior): uniform.
        self.assertTrue(torch.equal(train.surprise_weights(logits[:2], pol[[0, 0]], 0.5), torch.ones(2)))

    def test_losses(self):
        torch.manual_seed(2)
        net = Net(1, 8)
        x = torch.rand(6, 19, 8, 8)
        pol = torch.softmax(torch.randn(6, POLICY_SIZE) * 3, dim=1)
        val = torch.tensor([1.0, -1, 0, 1, -1, 0])
        wdl = torch.eye(3)[[0, 2, 1, 0, 2, 1]]
        for target, wdl_net in ((val, False), (wdl, True)):
            net = Net(1, 8, wdl=wdl_net)
            with torch.no_grad():
                plain = train.losses(net, x, pol, target)
                f0 = train.losses(net, x, pol, target, 0.0)
                weighted = train.losses(net, x, pol, target, 0.5)
                logits, value = net(x)
            self.assertEqual([float(t) for t in f0], [float(t) for t in plain])  # F = 0 is today's loss
            w = train.surprise_weights(logits, pol, 0.5)
            self.assertFalse(torch.allclose(w, torch.ones(6)))
            policy_each = -(pol * torch.log_softmax(logits, 1)).sum(1)
            if wdl_net:
                value_each = -(target * torch.log_softmax(value, 1)).sum(1)
            else:
                value_each = (value[:, 0] - target) ** 2
            torch.testing.assert_close(weighted[0], (w * policy_each).mean())
            torch.testing.assert_close(weighted[1], (w * value_each).mean())
        # Equal surprise everywhere: the weighted loss is the plain one.
        x1 = x[:1].repeat(4, 1, 1, 1)
        net.eval()
        with torch.no_grad():
            torch.testing.assert_close(train.losses(net, x1, pol[:1].repeat(4, 1), wdl[:4], 0.5),
                                       train.losses(net, x1, pol[:1].repeat(4, 1), wdl[:4]))

    def test_trainer_flag(self):
        # --surprise-weight 0 trains exactly as without the flag; 0.5 trains otherwise.
        d = tempfile.mkdtemp()
        try:
            chunk_dir = write_learnable_chunks(os.path.join(d, "chunks"), 1, 100, 14)
            weights = {}
            for name, extra in (("none", []), ("zero", ["--surprise-weight", "0"]), ("half", ["--surprise-weight", "0.5"])):
                run = os.path.join(d, name)
                rc, out, err = run_main(train.main, ["--chunks", chunk_dir, "--run-dir", run, "--blocks", "1", "--channels", "8",
                                                     "--batch", "32", "--device", "cpu", "--threads", "1", "--steps", "3"] + extra)
                self.assertEqual(rc, 0, err)
                weights[name] = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")["model"]
            self.assertIn("policy-surprise weighting: 0.5", err)
            for k, v in weights["none"].items():
                self.assertTrue(torch.equal(v, weights["zero"][k]), k)
            self.assertFalse(torch.equal(weights["none"]["input_conv.weight"], weights["half"]["input_conv.weight"]))
        finally:
            shutil.rmtree(d)
        for bad in ("1.5", "-0.5"):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                train.parse_args(["--run-dir", "x", "--surprise-weight", bad])


class TestDistributedSetup(unittest.TestCase):
    def test_world_size_one_is_plain(self):
        saved = {k: os.environ.get(k) for k in ("WORLD_SIZE", "RANK", "LOCAL_RANK")}
        try:
            for ws in (None, "1"):
                os.environ.pop("WORLD_SIZE", None)
                if ws:
                    os.environ.update(WORLD_SIZE=ws, RANK="0", LOCAL_RANK="0")
                args = train.parse_args(["--run-dir", "x", "--device", "cpu"])
                ddp, device = train.setup_distributed(args)
                self.assertFalse(ddp.enabled)
                self.assertTrue(ddp.main)
                self.assertEqual(device, torch.device("cpu"))
                if torch.distributed.is_available():
                    self.assertFalse(torch.distributed.is_initialized())
                ddp.barrier()
                ddp.close()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    @unittest.skipUnless(torch.distributed.is_available(), "torch.distributed is not available")
    def test_launcher_std_fix(self):
        from torch.distributed.elastic.multiprocessing.api import Std
        original = Std.__dict__["from_str"]
        try:
            ddp_launch.fix_std_from_str()
            self.assertFalse(ddp_launch.std_from_str_is_broken())
            self.assertEqual(Std.from_str("0"), Std.NONE)
            self.assertEqual(Std.from_str("3"), Std.ALL)
            self.assertEqual(Std.from_str("0:3,1:0"), {0: Std.ALL, 1: Std.NONE})
            with self.assertRaises(ValueError):
                Std.from_str("7")
        finally:
            Std.from_str = original  # the stock-launcher test needs to know the truth


@unittest.skipUnless(torch.distributed.is_available(), "torch.distributed is not available")
class TestDistributedTraining(unittest.TestCase):
    """Two CPU processes (gloo) under torchrun, on a tiny net."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        cls.chunks = write_learnable_chunks(os.path.join(cls.dir, "chunks"), 2, 100, 12)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def torchrun(self, launcher, train_args, log_dir):
        """(rc, stdout lines with any torchrun "[default0]:" prefix removed, all stderr)."""
        cmd = [sys.executable] + launcher + ["--standalone", "--nproc_per_node=2", "--log_dir", log_dir]
        if launcher[0] == "-m" and ddp_launch.std_from_str_is_broken():
            # torch < 2.0 on Python >= 3.11: the default "--redirects 0 --tee 0" crash the
            # stock launcher (see ddp_launch.py); non-zero single-bit values work, with
            # worker stderr going to the --log_dir files only.
            cmd += ["--redirects", "2", "--tee", "1"]
        cmd += [os.path.join(TRAIN_DIR, "train.py")] + train_args
        env = {k: v for k, v in os.environ.items()
               if k not in ("WORLD_SIZE", "RANK", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
        env["OMP_NUM_THREADS"] = "1"
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=self.dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=180)
        print("\n  %s: %.1f s" % (os.path.basename(launcher[-1]), time.perf_counter() - t0), end="")
        err = proc.stderr
        for path in sorted(glob.glob(os.path.join(log_dir, "**", "stderr.log"), recursive=True)):
            with open(path) as f:
                err += f.read()
        out = [re.sub(r"^\[\w+?\d+\]:", "", line) for line in proc.stdout.splitlines()]
        return proc.returncode, "\n".join(out), err

    def test_ddp_train_resume_export(self):
        run = os.path.join(self.dir, "run")
        onnx = os.path.join(self.dir, "ddp.onnx")
        common = ["--chunks", self.chunks, "--run-dir", run, "--batch", "16", "--device", "cpu", "--threads", "1"]

        # Stock torchrun.
        rc, out, err = self.torchrun(["-m", "torch.distributed.run"],
                                     common + ["--blocks", "1", "--channels", "8", "--steps", "5",
                                               "--checkpoint-every", "3", "--export", onnx],
                                     os.path.join(self.dir, "logs1"))
        self.assertEqual(rc, 0, out + err)
        # Only rank 0 prints: each step exactly once.
        self.assertEqual([s for s, _ in parse_steps(out)], [1, 2, 3, 4, 5], out)
        self.assertTrue(all(np.isfinite(l) for _, l in parse_steps(out)))
        self.assertEqual(err.count("world size 2"), 1, err)
        self.assertIn("backend gloo", err)
        self.assertIn("effective batch 32", err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual((ckpt["step"], ckpt["blocks"], ckpt["channels"]), (5, 1, 8))
        self.assertFalse([k for k in ckpt["model"] if k.startswith("module.")])
        net = Net(1, 8)
        net.load_state_dict(ckpt["model"])  # strict: a plain, non-DDP Net
        net.eval()
        with torch.no_grad():
            p, v = net(torch.rand(2, 19, 8, 8))
        self.assertEqual(tuple(p.shape), (2, 4672))
        self.assertTrue(ckpt["optimizer"]["state"], "momentum buffers saved")
        self.assertGreater(os.path.getsize(onnx), 1000)
        self.assertEqual([f for f in os.listdir(self.dir) if f.endswith(".tmp")], [])

        # Resume through the launcher wrapper: every rank loads the checkpoint.
        rc, out, err = self.torchrun([os.path.join(TRAIN_DIR, "ddp_launch.py")],
                                     common + ["--steps", "2"], os.path.join(self.dir, "logs2"))
        self.assertEqual(rc, 0, out + err)
        self.assertEqual([s for s, _ in parse_steps(out)], [6, 7], out)
        self.assertIn("resumed 1x8 net", err)
        self.assertEqual(err.count("world size 2"), 1, err)
        ckpt = torch.load(os.path.join(run, "checkpoint.pt"), map_location="cpu")
        self.assertEqual(ckpt["step"], 7)


class TestExport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check_golden(self, model, golden):
        inputs = np.array(golden["inputs"], np.float32).reshape(-1, 19, 8, 8)
        np.testing.assert_array_equal(inputs, export.golden_inputs())
        model.eval()
        with torch.no_grad():
            p, v = Inference(model)(torch.from_numpy(inputs))
        np.testing.assert_allclose(p.numpy(), np.array(golden["policy"], np.float32), rtol=0, atol=1e-6)
        np.testing.assert_allclose(v.numpy()[:, 0], np.array(golden["value"], np.float32), rtol=0, atol=1e-6)
        # Not degenerate: outputs depend on the input.
        pol = np.array(golden["policy"])
        self.assertGreater(np.abs(pol[0] - pol[1]).max(), 1e-3)
        self.assertGreater(abs(golden["value"][0] - golden["value"][1]), 1e-4)

    def test_export_and_golden(self):
        onnx = os.path.join(self.dir, "net.onnx")
        gold = os.path.join(self.dir, "golden.json")
        rc, out, err = run_main(export.main, ["--blocks", "2", "--channels", "16", "--seed", "5",
                                             "--out", onnx, "--golden", gold])
        self.assertEqual(rc, 0, err)
        with open(onnx, "rb") as f:
            blob = f.read()
        for name in (b"planes", b"policy", b"value", b"batch"):
            self.assertIn(name, blob)
        self.assertEqual([f for f in os.listdir(self.dir) if f.endswith(".tmp")], [])
        golden = load_json(gold)
        self.assertEqual((golden["blocks"], golden["channels"]), (2, 16))
        self.assertEqual(len(golden["inputs"]), 5)
        self.assertEqual(len(golden["inputs"][0]), 19 * 64)
        self.assertEqual(len(golden["policy"][0]), 4672)
        torch.manual_seed(5)
        self.check_golden(Net(2, 16), golden)

    def test_export_from_checkpoint(self):
        run = os.path.join(self.dir, "run")
        with contextlib.redirect_stderr(io.StringIO()):
            train.main(["--run-dir", run, "--init-only", "--blocks", "1", "--channels", "8", "--seed", "9"])
        gold = os.path.join(self.dir, "g.json")
        rc, out, err = run_main(export.main, ["--checkpoint", os.path.join(run, "checkpoint.pt"),
                                             "--out", os.path.join(self.dir, "c.onnx"), "--golden", gold])
        self.assertEqual(rc, 0, err)
        golden = load_json(gold)
        self.assertEqual((golden["blocks"], golden["channels"]), (1, 8))
        from model import model_from_checkpoint
        model, _ = model_from_checkpoint(os.path.join(run, "checkpoint.pt"))
        self.check_golden(model, golden)

    def test_committed_golden_inputs(self):
        path = os.path.join(REPO_AZERO, "onnx", "testdata", "golden.json")
        if not os.path.exists(path):
            self.skipTest("no committed golden.json")
        golden = load_json(path)
        inputs = np.array(golden["inputs"], np.float32).reshape(-1, 19, 8, 8)
        np.testing.assert_array_equal(inputs, export.golden_inputs())
        self.assertEqual(np.array(golden["policy"]).shape, (len(inputs), 4672))
        self.assertEqual(len(golden["value"]), len(inputs))


if __name__ == "__main__":
    unittest.main()
