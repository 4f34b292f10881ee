"""Tests of the NNUE trainer. Run from the repository root:

    /usr/bin/python3 -m unittest discover -s nnue/train -v

testdata/golden.bin is a record file written by `engine datagen`; the *.nnue files there
are networks written by Go's package nnue (two with weights in a trained net's ranges,
two with weights that make its int16/int32 arithmetic wrap), and golden-evals.txt holds
nnue.Network.Evaluate of every record for each of them, so the numpy reference evaluator
is checked against the engine's own code.
"""

import contextlib
import io
import math
import os
import re
import shutil
import struct
import sys
import tempfile
import unittest
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import nnue_data  # noqa: E402
import nnue_format  # noqa: E402
import nnue_model  # noqa: E402
import nnue_train  # noqa: E402
from nnue_model import FT_LIMIT, KING_BUCKET_LAYOUTS, NNUE, OUT_LIMIT, QA, QB, SCALE, bucket_of  # noqa: E402

TESTDATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata")
GOLDEN_NETS = ["random-crelu", "random-screlu", "wrap-crelu", "wrap-screlu"]
START = {sq: p for sq, p in enumerate([3, 1, 2, 4, 5, 2, 1, 3] + [0] * 8)}
START.update({sq ^ 56: p | 8 for sq, p in list(START.items())})
VALUES = [100, 300, 300, 500, 900, 0]


def encode(board, stm=0, score=0, result=1, fullmove=1, reserved=0):
    """One record of a {square: colour<<3 | type} board, as data.Record.Append."""
    occ, nibs = 0, []
    for sq in sorted(board):
        occ |= 1 << sq
        nibs.append(board[sq])
    nibs += [0] * (32 - len(nibs))
    pcs = bytes(nibs[i] | nibs[i + 1] << 4 for i in range(0, 32, 2))
    return struct.pack("<Q16sBhBHH", occ, pcs, stm, score, result, fullmove, reserved)


def random_board(rs):
    """Kings and up to 30 random pieces (no pawn on the first or last rank)."""
    squares = rs.permutation(64)
    board = {int(squares[0]): 5, int(squares[1]): 13}
    for sq in squares[2:2 + rs.randint(0, 31)]:
        pt = rs.randint(0, 5)
        if pt == 0 and sq // 8 in (0, 7):
            continue
        board[int(sq)] = int(rs.randint(0, 2)) << 3 | pt
    return board


def material_records(n, seed):
    """Random boards labelled with their material balance (White's view) and a result
    agreeing with it: a target a net can learn."""
    rs = np.random.RandomState(seed)
    out = []
    for _ in range(n):
        b = random_board(rs)
        bal = sum(VALUES[p & 7] * (1 if p < 8 else -1) for p in b.values())
        out.append(encode(b, stm=int(rs.randint(0, 2)), score=max(-3000, min(3000, bal)),
                          result=2 if bal > 150 else 0 if bal < -150 else 1))
    return np.frombuffer(b"".join(out), dtype=nnue_data.RECORD)


def slow_features(board, stm, king_buckets=None):
    """The feature formula, one piece at a time (with king buckets: format version 3's)."""
    lists = []
    for persp in (stm, 1 - stm):
        view = 0 if persp == 0 else 56
        base, flip = 0, 0
        if king_buckets is not None:
            king = next(sq for sq, p in board.items() if p == (persp << 3 | 5)) ^ view
            if king % 8 >= 4:
                king, flip = king ^ 7, 7
            base = 768 * king_buckets[king // 8 * 4 + king % 8]
        lists.append(sorted(base + 384 * ((p >> 3) != persp) + 64 * (p & 7) + (sq ^ view ^ flip)
                            for sq, p in board.items()))
    return lists


class DataTest(unittest.TestCase):
    def test_features_of_start_position(self):
        recs = np.frombuffer(encode(START) + encode(START, stm=1), dtype=nnue_data.RECORD)
        stm, other, off = nnue_data.features(recs)
        self.assertEqual(off.tolist(), [0, 32])
        # The a2 pawn (square 8) is the first white pawn: feature 8 for White, 384 + 48 for Black.
        self.assertEqual(stm[8], 8)
        self.assertEqual(other[8], 384 + 48)
        # Both sides see the same start position from their own side.
        self.assertEqual(sorted(stm[:32]), sorted(stm[32:]))
        self.assertEqual(sorted(stm[:32]), sorted(other[:32]))

    def test_features_match_formula(self):
        rs = np.random.RandomState(3)
        boards = [random_board(rs) for _ in range(50)]
        sides = [int(rs.randint(0, 2)) for _ in boards]
        recs = np.frombuffer(b"".join(encode(b, stm=s) for b, s in zip(boards, sides)), dtype=nnue_data.RECORD)
        nnue_data.validate(recs)
        stm, other, off = nnue_data.features(recs)
        ends = list(off[1:]) + [len(stm)]
        for i, (b, s) in enumerate(zip(boards, sides)):
            want_stm, want_other = slow_features(b, s)
            self.assertEqual(sorted(stm[off[i]:ends[i]].tolist()), want_stm)
            self.assertEqual(sorted(other[off[i]:ends[i]].tolist()), want_other)

    def test_king_bucket_features_match_formula(self):
        rs = np.random.RandomState(4)
        boards = [random_board(rs) for _ in range(200)]
        sides = [int(rs.randint(0, 2)) for _ in boards]
        recs = np.frombuffer(b"".join(encode(b, stm=s) for b, s in zip(boards, sides)), dtype=nnue_data.RECORD)
        for name, kb in KING_BUCKET_LAYOUTS.items():
            stm, other, off = nnue_data.features(recs, king_buckets=kb)
            ends = list(off[1:]) + [len(stm)]
            for i, (b, s) in enumerate(zip(boards, sides)):
                want_stm, want_other = slow_features(b, s, kb)
                self.assertEqual(sorted(stm[off[i]:ends[i]].tolist()), want_stm, name)
                self.assertEqual(sorted(other[off[i]:ends[i]].tolist()), want_other, name)
            self.assertLess(max(stm.max(), other.max()), 768 * (max(kb) + 1))
        # A board and its mirror image have the same king-relative features.
        mirrored = nnue_data.features(recs, np.ones(len(boards), bool), KING_BUCKET_LAYOUTS["4"])
        plain = nnue_data.features(recs, None, KING_BUCKET_LAYOUTS["4"])
        ends = list(plain[2][1:]) + [len(plain[0])]
        for i in range(len(boards)):
            for a, b in zip(plain[:2], mirrored[:2]):
                self.assertEqual(sorted(a[plain[2][i]:ends[i]]), sorted(b[plain[2][i]:ends[i]]))

    def test_mirror_reflects_files(self):
        rs = np.random.RandomState(5)
        boards = [random_board(rs) for _ in range(40)]
        sides = [int(rs.randint(0, 2)) for _ in boards]
        recs = np.frombuffer(b"".join(encode(b, stm=s) for b, s in zip(boards, sides)), dtype=nnue_data.RECORD)
        mirror = np.arange(len(boards)) % 2 == 0
        stm, other, off = nnue_data.features(recs, mirror)
        ends = list(off[1:]) + [len(stm)]
        for i, (b, s) in enumerate(zip(boards, sides)):
            seen = {sq ^ 7: p for sq, p in b.items()} if mirror[i] else b
            want_stm, want_other = slow_features(seen, s)
            self.assertEqual(sorted(stm[off[i]:ends[i]].tolist()), want_stm)
            self.assertEqual(sorted(other[off[i]:ends[i]].tolist()), want_other)
        plain = nnue_data.features(recs)
        self.assertTrue(all((a == b).all() for a, b in zip(nnue_data.features(recs, np.zeros(len(boards), bool)), plain)))

    def test_targets_from_side_to_move(self):
        recs = np.frombuffer(encode(START, stm=0, score=120, result=2) + encode(START, stm=1, score=120, result=2)
                             + encode(START, stm=1, score=-5, result=1), dtype=nnue_data.RECORD)
        score, result = nnue_data.targets(recs)
        self.assertEqual(score.tolist(), [120, -120, 5])
        self.assertEqual(result.tolist(), [1, 0, 0.5])

    def test_validation_rejects_bad_records(self):
        bad = {
            "reserved": encode(START, reserved=1),
            "side": encode(START, stm=2),
            "result": encode(START, result=3),
            "piece code": encode({**START, 20: 6}),
            "no white king": encode({sq: p for sq, p in START.items() if p != 5}),
        }
        for name, rec in bad.items():
            with self.subTest(name), self.assertRaises(nnue_data.DataError):
                nnue_data.validate(np.frombuffer(rec, dtype=nnue_data.RECORD))

    def test_files_and_gather(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = material_records(10, 1), material_records(7, 2)
            pa, pb = os.path.join(d, "a.bin"), os.path.join(d, "b.bin")
            a.tofile(pa)
            b.tofile(pb)
            ds = nnue_data.Dataset([pa, pb])
            self.assertEqual(len(ds), 17)
            got = ds.gather([16, 0, 10, 9])
            self.assertEqual(got.tobytes(), b[6].tobytes() + a[0].tobytes() + b[0].tobytes() + a[9].tobytes())
            with open(pb, "ab") as f:
                f.write(b"\0" * 5)
            with self.assertRaises(nnue_data.DataError):
                nnue_data.Dataset([pa, pb])
            pg = os.path.join(d, "c.games")
            with open(pg, "wb") as f:
                f.write(nnue_data.GAMES_MAGIC + b"\0" * 24)  # 32 bytes, a whole "record"
            with self.assertRaisesRegex(nnue_data.DataError, "--unpack"):
                nnue_data.Dataset([pa, pg])

    def test_describe(self):
        recs = np.frombuffer(encode(START, result=2, score=30) + encode({4: 5, 60: 13}, stm=1, result=1, score=-10),
                             dtype=nnue_data.RECORD)
        lines = nnue_data.describe(recs)
        self.assertIn("2 positions; results (White's view) 1-0 50.0%, draw 50.0%, 0-1 0.0%", lines[0])
        self.assertIn("mean 10.0", lines[1])
        self.assertIn("pieces on the board mean 17.0", lines[2])
        self.assertIn("results fit sigmoid(score / K) best at K =", lines[3])

    def test_result_fit_finds_the_generating_scale(self):
        # Results drawn as wins with probability sigmoid(score / 250): the fit finds 250.
        rng = np.random.default_rng(3)
        n = 200_000
        recs = np.zeros(n, dtype=nnue_data.RECORD)
        recs["score"] = rng.integers(-800, 801, n)
        p = 1 / (1 + np.exp(-recs["score"] / 250.0))
        recs["result"] = np.where(rng.random(n) < p, 2, 0)
        k, loss = nnue_data.result_fit(recs)
        self.assertAlmostEqual(k, 250, delta=10)
        recs["result"] = np.where(rng.random(n) < 1 / (1 + np.exp(-recs["score"] / 600.0)), 2, 0)
        self.assertAlmostEqual(nnue_data.result_fit(recs)[0], 600, delta=30)
        self.assertTrue(math.isnan(nnue_data.result_fit(recs[:0])[0]))

    def test_reads_datagen_output(self):
        ds = nnue_data.Dataset([os.path.join(TESTDATA, "golden.bin")])
        self.assertGreater(len(ds), 100)
        recs = ds.gather(np.arange(len(ds)))
        stm, other, off = nnue_data.features(recs)
        self.assertTrue(((stm >= 0) & (stm < 768)).all() and ((other >= 0) & (other < 768)).all())


def fen_record(fen):
    """The record of a FEN's pieces and side to move."""
    board, sq = {}, 56
    for ch in fen.split()[0]:
        if ch == "/":
            sq -= 16
        elif ch.isdigit():
            sq += int(ch)
        else:
            board[sq] = (0 if ch.isupper() else 8) | "pnbrqk".index(ch.lower())
            sq += 1
    return encode(board, stm=0 if fen.split()[1] == "w" else 1)


class FormatTest(unittest.TestCase):
    def model(self, act, seed=1, hidden=32, buckets=1):
        m = NNUE(hidden, act, seed=seed, buckets=buckets)
        with torch.no_grad():  # larger than at initialisation, so that clamps are exercised
            g = torch.Generator().manual_seed(seed)
            m.ft_weight.copy_(torch.randn(768, hidden, generator=g) * 0.3)
            m.ft_bias.copy_(torch.randn(hidden, generator=g) * 0.3)
            m.out_weight.copy_(torch.randn(buckets, 2 * hidden, generator=g))
            m.out_bias.copy_(0.37 + 0.1 * torch.arange(buckets))
        m.clip()
        return m

    def test_round_trip_buckets(self):
        q = nnue_format.quantise(self.model("screlu", buckets=8))
        data = nnue_format.encode(q)
        self.assertEqual(len(data), nnue_format.file_size(32, 8))
        self.assertEqual(struct.unpack_from("<I", data, 8)[0], 2)   # version
        self.assertEqual(struct.unpack_from("<I", data, 36)[0], 8)  # buckets
        got = nnue_format.parse(data)
        self.assertEqual(got["buckets"], 8)
        for k in ("ft_weight", "ft_bias", "out_weight", "out_bias"):
            np.testing.assert_array_equal(got[k], q[k])
        self.assertEqual(got["out_bias"].tolist(), [round((0.37 + 0.1 * i) * QA * QB) for i in range(8)])
        self.assertEqual(nnue_format.encode(got), data)
        for b in (0, 1, 17):  # version 2 wants 2..16 buckets
            bad = bytearray(data)
            bad[36:40] = struct.pack("<I", b)
            bad[-4:] = struct.pack("<I", zlib.crc32(bytes(bad[:-4])))
            with self.subTest(buckets=b), self.assertRaises(nnue_format.FormatError):
                nnue_format.parse(bytes(bad))

    def test_bucket_of(self):
        # As nnue.Network.Bucket (nnue/network_test.go TestBucket).
        for buckets, want in ((1, {2: 0, 32: 0}), (8, {2: 0, 5: 0, 6: 1, 29: 6, 30: 7, 32: 7}),
                              (16, {3: 0, 4: 1, 32: 15}), (3, {12: 0, 13: 1, 24: 2, 32: 2})):
            for pieces, b in want.items():
                self.assertEqual(int(bucket_of(np.int64(pieces), buckets)), b, (buckets, pieces))
                self.assertEqual(int(bucket_of(torch.tensor(pieces), buckets)), b, (buckets, pieces))

    def test_reference_matches_golden_buckets(self):
        # nnue/testdata/golden.py wrote this version-2 net and its evaluations with code
        # independent of both the engine and this trainer; nnue's TestGolden checks Go.
        golden = os.path.join(os.path.dirname(TESTDATA), "..", "..", "nnue", "testdata", "golden-screlu-b8")
        with open(golden + ".nnue", "rb") as f:
            net = nnue_format.parse(f.read())
        self.assertEqual(net["buckets"], 8)
        with open(golden + ".txt") as f:
            lines = [line.split(";", 1) for line in f.read().split("\n") if line]
        recs = np.frombuffer(b"".join(fen_record(fen) for _, fen in lines), dtype=nnue_data.RECORD)
        got = nnue_format.evaluate(net, *nnue_data.features(recs))
        self.assertEqual(got.tolist(), [int(v) for v, _ in lines])

    def test_king_buckets_round_trip_and_exact(self):
        kb = KING_BUCKET_LAYOUTS["4"]
        m = NNUE(32, "screlu", seed=3, buckets=8, king_buckets=kb)
        with torch.no_grad():
            g = torch.Generator().manual_seed(3)
            m.ft_weight.copy_(torch.randn(4 * 768, 32, generator=g) * 0.3)
            m.ft_factor.copy_(torch.randn(768, 32, generator=g) * 0.3)
            m.ft_bias.copy_(torch.randn(32, generator=g) * 0.3)
            m.out_weight.copy_(torch.randn(8, 64, generator=g))
        m.clip()
        self.assertLessEqual(float(m.feature_weights().abs().max()), FT_LIMIT + 1e-6)
        q = nnue_format.quantise(m)
        data = nnue_format.encode(q)
        self.assertEqual(len(data), nnue_format.file_size(32, 8, kb))
        self.assertEqual(struct.unpack_from("<I", data, 8)[0], 3)
        self.assertEqual(list(data[40:72]), kb)
        got = nnue_format.parse(data)
        self.assertEqual(got["king_buckets"], kb)
        np.testing.assert_array_equal(got["ft_weight"], q["ft_weight"])
        self.assertEqual(nnue_format.encode(got), data)
        # The file's weights are each bucket's rows plus the factoriser.
        want = np.round((m.ft_weight.detach().view(4, 768, 32) + m.ft_factor.detach()).double().numpy() * QA)
        np.testing.assert_array_equal(got["ft_weight"].reshape(4, 768, 32), want)
        # The integer evaluation agrees with the float model, which trains with the factoriser apart.
        recs = material_records(300, 6)
        feats = nnue_data.features(recs, king_buckets=kb)
        ints = nnue_format.evaluate(got, *feats)
        with torch.no_grad():
            f = m(*[torch.from_numpy(a) for a in feats]).double().numpy() * SCALE
        self.assertGreater(np.abs(f).mean(), 100)
        self.assertLess(np.abs(f - ints).mean(), 0.01 * np.abs(f).mean())
        for name, edit in {"bucket unused": lambda d: d.__setitem__(71, 5),
                           "too many": lambda d: d.__setitem__(71, 16),
                           "no output buckets": lambda d: d.__setitem__(slice(36, 40), struct.pack("<I", 0))}.items():
            bad = bytearray(data)
            edit(bad)
            bad[-4:] = struct.pack("<I", zlib.crc32(bytes(bad[:-4])))
            with self.subTest(name), self.assertRaises(nnue_format.FormatError):
                nnue_format.parse(bytes(bad))

    def test_with_king_buckets_starts_as_the_network(self):
        orig = self.model("screlu", seed=4, buckets=8)
        kb = KING_BUCKET_LAYOUTS["8"]
        grown = nnue_model.with_king_buckets(orig, kb)
        a, b = nnue_format.quantise(orig), nnue_format.quantise(grown)
        np.testing.assert_array_equal(b["ft_weight"].reshape(8, 768, -1)[5], a["ft_weight"])
        rs = np.random.RandomState(8)
        boards = [random_board(rs) for _ in range(400)]
        files = [sorted({sq % 8 >= 4 for sq, p in bd.items() if p & 7 == 5}) for bd in boards]
        for side, want_board in (([False], lambda bd: bd), ([True], lambda bd: {sq ^ 7: p for sq, p in bd.items()})):
            chosen = [bd for bd, f in zip(boards, files) if f == side]  # both kings on files a-d, or both on e-h
            self.assertGreater(len(chosen), 20)
            recs = np.frombuffer(b"".join(encode(bd) for bd in chosen), dtype=nnue_data.RECORD)
            mirrored = np.frombuffer(b"".join(encode(want_board(bd)) for bd in chosen), dtype=nnue_data.RECORD)
            np.testing.assert_array_equal(nnue_format.evaluate(b, *nnue_data.features(recs, king_buckets=kb)),
                                          nnue_format.evaluate(a, *nnue_data.features(mirrored)))
        with self.assertRaises(ValueError):
            nnue_model.with_king_buckets(grown, kb)

    def test_reference_matches_golden_king_buckets(self):
        # golden.py's version-3 net, with its own evaluations (nnue's TestGolden checks Go).
        golden = os.path.join(os.path.dirname(TESTDATA), "..", "..", "nnue", "testdata", "golden-screlu-k4")
        with open(golden + ".nnue", "rb") as f:
            net = nnue_format.parse(f.read())
        self.assertEqual(max(net["king_buckets"]) + 1, 4)
        with open(golden + ".txt") as f:
            lines = [line.split(";", 1) for line in f.read().split("\n") if line]
        recs = np.frombuffer(b"".join(fen_record(fen) for _, fen in lines), dtype=nnue_data.RECORD)
        got = nnue_format.evaluate(net, *nnue_data.features(recs, king_buckets=net["king_buckets"]))
        self.assertEqual(got.tolist(), [int(v) for v, _ in lines])

    def test_round_trip(self):
        for act in ("crelu", "screlu"):
            q = nnue_format.quantise(self.model(act))
            data = nnue_format.encode(q)
            self.assertEqual(len(data), nnue_format.file_size(32))
            self.assertEqual(data[:8], b"TWFNNUE1")
            got = nnue_format.parse(data)
            self.assertEqual(got["activation"], act)
            self.assertEqual(got["hidden"], 32)
            for k in ("ft_weight", "ft_bias", "out_weight"):
                np.testing.assert_array_equal(got[k], q[k])
            self.assertEqual(got["out_bias"], round(0.37 * QA * QB))
            self.assertEqual(nnue_format.encode(got), data)

    def test_parse_rejects_bad_files(self):
        data = nnue_format.encode(nnue_format.quantise(self.model("crelu")))
        flipped = bytearray(data)
        flipped[100] ^= 1
        wrong_scale = bytearray(data)
        wrong_scale[28] = 1
        wrong_scale[-4:] = struct.pack("<I", zlib.crc32(bytes(wrong_scale[:-4])))
        for name, bad in {"checksum": bytes(flipped), "short": data[:-2], "long": data + b"\0", "empty": b"",
                          "magic": b"TWFNNUE2" + data[8:], "scale": bytes(wrong_scale)}.items():
            with self.subTest(name), self.assertRaises(nnue_format.FormatError):
                nnue_format.parse(bad)

    def test_export_refuses_unquantisable(self):
        m = self.model("crelu")
        with torch.no_grad():
            m.ft_weight[0, 0] = 200.0  # 51000 after *QA
        with self.assertRaises(nnue_format.FormatError):
            nnue_format.quantise(m)

    def test_clip_keeps_quantisation_exact(self):
        m = self.model("screlu")
        with torch.no_grad():
            m.ft_weight.mul_(100)
            m.out_weight.mul_(100)
        m.clip()
        q = nnue_format.quantise(m)
        self.assertLessEqual(np.abs(q["out_weight"]).max(), 127)
        self.assertLessEqual(np.abs(q["ft_weight"].astype(np.int64)).max(), round(FT_LIMIT * QA))
        self.assertLess(33 * FT_LIMIT * QA, 32767)
        self.assertLessEqual(OUT_LIMIT * QB, 127)

    def test_reference_matches_go(self):
        recs = np.fromfile(os.path.join(TESTDATA, "golden.bin"), dtype=nnue_data.RECORD)
        want = np.loadtxt(os.path.join(TESTDATA, "golden-evals.txt"), dtype=np.int64, comments="#")
        feats = nnue_data.features(recs)
        for i, name in enumerate(GOLDEN_NETS):
            with open(os.path.join(TESTDATA, name + ".nnue"), "rb") as f:
                net = nnue_format.parse(f.read())
            with self.subTest(name):
                np.testing.assert_array_equal(nnue_format.evaluate(net, *feats), want[:, i])

    def test_reference_by_hand(self):
        # Only the white king on a1 and the black king on h8 (stm White): the
        # features are 5*64+0 = 320 and 384+320+63 = 767 from White's view, and
        # 384+320+56 = 760 and 320+7 = 327 from Black's.
        h = 16
        fw = np.zeros((768, h), dtype=np.int16)
        fw[320, 0], fw[767, 0] = 200, 100   # White's acc[0] = 300 -> clamped to 255
        fw[760, 1], fw[327, 1] = -50, 20    # Black's acc[1] = -30 + bias 40 = 10
        fb = np.zeros(h, dtype=np.int16)
        fb[1] = 40
        ow = np.zeros(2 * h, dtype=np.int16)
        ow[0], ow[h + 1] = 64, -100
        recs = np.frombuffer(encode({0: 5, 63: 13}), dtype=nnue_data.RECORD)
        feats = nnue_data.features(recs)
        for act, s in (("crelu", 255 * 64 - 10 * 100), ("screlu", (255 * 64 * 255 - 10 * 100 * 10) // 255)):
            net = {"hidden": h, "activation": act, "ft_weight": fw, "ft_bias": fb, "out_weight": ow, "out_bias": np.int32(-777)}
            want = int((s - 777) * SCALE / (QA * QB))  # truncated toward zero
            self.assertEqual(nnue_format.evaluate(net, *feats).tolist(), [want], act)

    def test_quantised_agrees_with_float(self):
        recs = material_records(300, 5)
        feats = nnue_data.features(recs)
        t = [torch.from_numpy(a) for a in feats]
        for act, buckets in (("crelu", 1), ("screlu", 1), ("screlu", 8)):
            m = self.model(act, seed=7, hidden=64, buckets=buckets)
            net = nnue_format.quantise(m)
            q = nnue_format.evaluate(net, *feats)
            with torch.no_grad():
                exact = nnue_format.load_float(net)(*t).double().numpy() * SCALE
                f = m(*t).double().numpy() * SCALE
            self.assertGreater(np.abs(f).mean(), 100, act)  # not trivially all zero
            # With the same (quantised) weights, only the integer divisions differ.
            self.assertLessEqual(np.abs(exact - q).max(), 2, act)
            # Rounding the weights moves the output by a small fraction of its size.
            self.assertLess(np.abs(f - q).mean(), 0.01 * np.abs(f).mean(), act)


class TrainTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_main(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = nnue_train.main(list(argv))
        return code, out.getvalue()

    def test_training_lowers_loss_and_resumes(self):
        torch.manual_seed(0)
        data = os.path.join(self.dir, "d.bin")
        material_records(4000, 11).tofile(data)
        run = os.path.join(self.dir, "run")
        net = os.path.join(self.dir, "net.nnue")
        common = ["--data", data, "--run-dir", run, "--hidden", "32", "--batch", "256", "--lr", "0.01",
                  "--val-fraction", "0.1", "--threads", "1"]
        code, out = self.run_main(*common, "--epochs", "3")
        self.assertEqual(code, 0, out)
        val = [float(x) for x in re.findall(r"val loss (\S+)", out)]
        self.assertEqual(len(val), 4, out)  # epoch 0 and three epochs
        self.assertLess(val[-1], 0.6 * val[0], out)
        self.assertIn("positions/s", out)
        self.assertTrue(os.path.exists(os.path.join(run, "epoch-003.nnue")))

        code, out = self.run_main(*common, "--epochs", "4", "--export", net, "--mirror")
        self.assertEqual(code, 0, out)
        self.assertIn("resumed", out)
        self.assertIn("epoch 4 ", out)
        self.assertNotIn("epoch 1 ", out)
        self.assertEqual(self.learnt_material(net)["hidden"], 32)

    def learnt_material(self, path):
        """Parse an exported network and check that its integer evaluation has learnt the
        material balance (material_records' target)."""
        with open(path, "rb") as f:
            parsed = nnue_format.parse(f.read())
        recs = material_records(200, 99)
        q = nnue_format.evaluate(parsed, *nnue_data.features(recs, king_buckets=parsed["king_buckets"]))
        score, _ = nnue_data.targets(recs)
        self.assertGreater(np.corrcoef(q, score)[0, 1], 0.8)
        return parsed

    def small_run(self, *extra):
        """The flags of a small training run on material_records, and its export path."""
        torch.manual_seed(0)
        data = os.path.join(self.dir, "d.bin")
        material_records(4000, 11).tofile(data)
        run, net = os.path.join(self.dir, "run"), os.path.join(self.dir, "net.nnue")
        return ["--data", data, "--run-dir", run, "--hidden", "32", "--batch", "256", "--lr", "0.01",
                "--val-fraction", "0.1", "--threads", "1", *extra], net

    def test_training_with_output_buckets(self):
        common, net = self.small_run("--output-buckets", "4")
        code, out = self.run_main(*common, "--epochs", "2")
        self.assertEqual(code, 0, out)
        self.assertIn("4 output buckets", out)
        code, out = self.run_main(*common[:-2], "--epochs", "3", "--export", net)  # resumes with 4
        self.assertEqual(code, 0, out)
        self.assertIn("resumed", out)
        self.assertEqual(self.learnt_material(net)["buckets"], 4)
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            self.run_main(*common[:-1], "17")

    def test_learning_rate_schedules(self):
        args = nnue_train.parse_args(["--data", "x", "--run-dir", "r", "--lr", "0.01", "--epochs", "4"])
        self.assertAlmostEqual(nnue_train.learning_rate(args, 1, 0.5), 0.01)
        self.assertAlmostEqual(nnue_train.learning_rate(args, 3, 0.5), 0.01 * 0.9 ** 2)
        args = nnue_train.parse_args(["--data", "x", "--run-dir", "r", "--lr", "0.01", "--epochs", "4",
                                      "--lr-schedule", "cosine", "--lr-final", "0.1"])
        self.assertAlmostEqual(nnue_train.learning_rate(args, 1, 0.0), 0.01)
        self.assertAlmostEqual(nnue_train.learning_rate(args, 3, 0.0), (0.01 + 0.001) / 2)  # halfway
        self.assertAlmostEqual(nnue_train.learning_rate(args, 4, 1.0), 0.001)
        rates = [nnue_train.learning_rate(args, e, p) for e in range(1, 5) for p in (0, 0.25, 0.5, 0.75)]
        self.assertTrue(all(a > b for a, b in zip(rates, rates[1:])), rates)
        for bad in (["--lr-final", "0"], ["--lr-final", "1.5"], ["--weight-decay", "-1"]):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                nnue_train.parse_args(["--data", "x", "--run-dir", "r", *bad])

    def test_training_with_cosine_and_weight_decay(self):
        common, net = self.small_run("--lr-schedule", "cosine", "--weight-decay", "0.01")
        code, out = self.run_main(*common, "--epochs", "2")
        self.assertEqual(code, 0, out)
        rates = [float(x) for x in re.findall(r" lr (\S+) ", out)]
        self.assertEqual(len(rates), 2, out)
        self.assertLess(rates[1], rates[0])
        code, out = self.run_main(*common, "--epochs", "3", "--export", net)
        self.assertEqual(code, 0, out)
        self.assertIn("resumed", out)
        self.learnt_material(net)
        model, opt, done = nnue_train.load_or_create(nnue_train.parse_args(common), torch.device("cpu"))
        self.assertEqual(done, 3)
        self.assertIsInstance(opt, torch.optim.AdamW)
        self.assertEqual(opt.param_groups[0]["weight_decay"], 0.01)

    def test_training_with_king_buckets(self):
        common, net = self.small_run("--output-buckets", "2")
        code, out = self.run_main(*common, "--king-buckets", "4", "--epochs", "2")
        self.assertEqual(code, 0, out)
        self.assertIn("4 king buckets", out)
        code, out = self.run_main(*common, "--epochs", "3", "--export", net)  # resumes with the map
        self.assertEqual(code, 0, out)
        self.assertIn("resumed", out)
        parsed = self.learnt_material(net)
        self.assertEqual(parsed["king_buckets"], KING_BUCKET_LAYOUTS["4"])
        custom = ",".join(["0"] * 8 + ["1"] * 24)
        code, out = self.run_main(*common, "--run-dir", os.path.join(self.dir, "c"), "--king-buckets", custom,
                                  "--epochs", "1")
        self.assertEqual(code, 0, out)
        self.assertIn("2 king buckets", out)
        for bad in ("5", "0,1", ",".join(["0"] * 31 + ["2"])):
            with self.subTest(bad), self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                self.run_main(*common, "--king-buckets", bad)

    def test_init_from_network_file(self):
        torch.manual_seed(0)
        data = os.path.join(self.dir, "d.bin")
        material_records(4000, 11).tofile(data)
        first, second = os.path.join(self.dir, "first.nnue"), os.path.join(self.dir, "second.nnue")
        common = ["--data", data, "--batch", "256", "--lr", "0.01", "--val-fraction", "0.1", "--threads", "1"]
        code, out = self.run_main(*common, "--run-dir", os.path.join(self.dir, "a"), "--hidden", "32",
                                  "--output-buckets", "4", "--epochs", "2", "--export", first)
        self.assertEqual(code, 0, out)
        trained = float(re.findall(r"val loss (\S+)", out)[-1])
        # Started from the file, epoch 0 is that network (up to quantisation), whatever --hidden says.
        code, out = self.run_main(*common, "--run-dir", os.path.join(self.dir, "b"), "--hidden", "64",
                                  "--init", first, "--lr", "0.001", "--epochs", "1", "--export", second)
        self.assertEqual(code, 0, out)
        self.assertIn("initialised from", out)
        start = float(re.findall(r"epoch 0 val loss (\S+)", out)[0])
        self.assertAlmostEqual(start, trained, delta=0.05 * trained)
        parsed = self.learnt_material(second)
        self.assertEqual((parsed["hidden"], parsed["buckets"]), (32, 4))

        # A network without king buckets seeds a king-bucketed run (as its factoriser).
        code, out = self.run_main(*common, "--run-dir", os.path.join(self.dir, "k"), "--init", first,
                                  "--king-buckets", "4", "--lr", "0.001", "--epochs", "1", "--export", second)
        self.assertEqual(code, 0, out)
        self.assertIn("king buckets 4 from the network's inputs", out)
        parsed = self.learnt_material(second)
        self.assertEqual((parsed["hidden"], parsed["buckets"], parsed["king_buckets"]), (32, 4, KING_BUCKET_LAYOUTS["4"]))

        bad = os.path.join(self.dir, "bad.nnue")
        with open(bad, "wb") as f:
            f.write(b"TWFNNUE1" + b"\0" * 40)
        code, out = self.run_main(*common, "--run-dir", os.path.join(self.dir, "c"), "--init", bad)
        self.assertEqual(code, 2, out)
        self.assertIn("--init", out)

    def test_bad_data_is_an_error(self):
        bad = os.path.join(self.dir, "bad.bin")
        with open(bad, "wb") as f:
            f.write(b"\1" * 33)
        code, out = self.run_main("--data", bad, "--run-dir", os.path.join(self.dir, "r"))
        self.assertEqual(code, 2)
        self.assertIn("whole number", out)


if __name__ == "__main__":
    unittest.main()
