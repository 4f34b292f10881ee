"""The engine's network file, format versions 1 to 3 (package nnue reads them), and a
quantised reference evaluator in numpy that does the engine's integer arithmetic.

All numbers little-endian:

    8 bytes  magic "TWFNNUE1"
    uint32   version (1; 2 with output buckets; 3 with king buckets), inputs = 768, hidden H
             (multiple of 16, 16..2048), QA = 255, QB = 64, scale = 400, activation
             (0 CReLU, 1 SCReLU), and in versions 2 and 3 the number of output buckets B
             (2..16 in version 2, 1..16 in version 3)
    32 bytes version 3 only: the king bucket of each square of the own king, rank 1 first,
             files a-d (K buckets: 0..K-1 each used, K <= 16)
    int16    feature weights [K*768][H] (a row per feature, bucket after bucket; K = 1
             before version 3) = round(w * QA)
    int16    feature biases [H] = round(b * QA)
    int16    output weights [B][2H] (of each, first H: side to move's accumulator) = round(w * QB)
    int32    output biases [B] = round(b * QA * QB)
    uint32   CRC-32 (IEEE, zlib.crc32) of every byte before it

A model with one bucket is written as version 1, one with king buckets as version 3 (its
features: nnue_data.features with the map). A position with n pieces uses bucket
nnue_model.bucket_of(n, B). Output in centipawns, side to move's view, c(x) = clamp(x, 0, QA),
w and bias those of the position's bucket:
    CReLU:  sum = sum(c(us)*w[:H]) + sum(c(them)*w[H:]);  eval = (sum + bias)*scale/(QA*QB)
    SCReLU: sum = sum(int16(c(us)*w[:H])*c(us)) + ...;     eval = (sum/QA + bias)*scale/(QA*QB)
with int16 accumulators and an int32 sum (both wrapping), the last line in int64, and
every division truncating toward zero (as Go's /).
"""

import os
import struct
import tempfile
import zlib

import numpy as np
import torch

from nnue_model import ACTIVATIONS, INPUTS, MAX_BUCKETS, NNUE, QA, QB, SCALE, bucket_of, check_king_buckets

MAGIC = b"TWFNNUE1"
VERSIONS = (1, 2, 3)
HEADER = struct.Struct("<8s7I")  # version 1; version 2 adds one uint32 (the buckets), 3 also the king map


class FormatError(ValueError):
    """Bytes that are not a network of versions 1 to 3."""


def version_of(buckets, king_buckets=None):
    return 3 if king_buckets is not None else (2 if buckets > 1 else 1)


def header_size(buckets, king_buckets=None):
    return HEADER.size + {1: 0, 2: 4, 3: 36}[version_of(buckets, king_buckets)]


def file_size(hidden, buckets=1, king_buckets=None):
    k = max(king_buckets) + 1 if king_buckets is not None else 1
    return (header_size(buckets, king_buckets) + 2 * (k * INPUTS * hidden + hidden + buckets * 2 * hidden)
            + 4 * buckets + 4)


def quantise(model):
    """The model's integer parameters, as the file stores them."""
    with torch.no_grad():
        fw = model.feature_weights().detach().cpu().double().numpy() * QA
        fb = model.ft_bias.detach().cpu().double().numpy() * QA
        ow = model.out_weight.detach().cpu().double().numpy() * QB
        ob = model.out_bias.detach().cpu().double().numpy() * QA * QB
    for name, arr, lo, hi in (("feature weights", fw, -32768, 32767), ("feature biases", fb, -32768, 32767),
                              ("output weights", ow, -32768, 32767)):
        if not np.isfinite(arr).all() or arr.min() < lo - 0.5 or arr.max() > hi + 0.5:
            raise FormatError(f"{name} do not fit int16 after quantisation (train with clipping)")
    if not np.isfinite(ob).all() or np.abs(ob).max() > 2**31 - 1:
        raise FormatError("output bias does not fit int32 after quantisation")
    return {
        "hidden": model.hidden,
        "activation": model.activation,
        "buckets": model.buckets,
        "king_buckets": model.king_buckets,
        "ft_weight": np.round(fw).astype(np.int16),
        "ft_bias": np.round(fb).astype(np.int16),
        "out_weight": np.round(ow).astype(np.int16).reshape(model.buckets, 2 * model.hidden),
        "out_bias": np.round(ob).astype(np.int32).reshape(model.buckets),
    }


def encode(net):
    """The file's bytes for quantised parameters (as quantise returns them)."""
    h, b, kb = net["hidden"], net.get("buckets", 1), net.get("king_buckets")
    version = version_of(b, kb)
    body = HEADER.pack(MAGIC, version, INPUTS, h, QA, QB, SCALE, ACTIVATIONS.index(net["activation"]))
    if version >= 2:
        body += struct.pack("<I", b)
    if version == 3:
        body += bytes(kb)
    k = max(kb) + 1 if kb is not None else 1
    body += np.ascontiguousarray(net["ft_weight"], dtype="<i2").reshape(k * INPUTS, h).tobytes()
    body += np.ascontiguousarray(net["ft_bias"], dtype="<i2").reshape(h).tobytes()
    body += np.ascontiguousarray(net["out_weight"], dtype="<i2").reshape(b * 2 * h).tobytes()
    body += np.ascontiguousarray(net["out_bias"], dtype="<i4").reshape(b).tobytes()
    return body + struct.pack("<I", zlib.crc32(body))


def export(model, path):
    """Write the model as a network file, atomically (temp file + rename)."""
    data = encode(quantise(model))
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".nnue-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return len(data)


def parse(data):
    """Parse and check a network file's bytes; raise FormatError if invalid."""
    if len(data) < HEADER.size + 8:
        raise FormatError(f"{len(data)} bytes: too short for a network")
    magic, version, inputs, h, qa, qb, scale, act = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise FormatError(f"magic {magic!r}, want {MAGIC!r}")
    if version not in VERSIONS or (inputs, qa, qb, scale) != (INPUTS, QA, QB, SCALE):
        raise FormatError(f"version {version}, inputs {inputs}, QA {qa}, QB {qb}, scale {scale}: "
                          f"want one of {VERSIONS}, {INPUTS}, {QA}, {QB}, {SCALE}")
    if act >= len(ACTIVATIONS):
        raise FormatError(f"activation {act}")
    if h < 16 or h > 2048 or h % 16:
        raise FormatError(f"hidden size {h}")
    b, kb = 1, None
    if version >= 2:
        if len(data) < HEADER.size + 36:
            raise FormatError(f"{len(data)} bytes: too short for a version {version} network")
        (b,) = struct.unpack_from("<I", data, HEADER.size)
        if not (2 if version == 2 else 1) <= b <= MAX_BUCKETS:
            raise FormatError(f"version {version} with {b} output buckets (want {2 if version == 2 else 1}..{MAX_BUCKETS})")
    if version == 3:
        kb = list(data[HEADER.size + 4:HEADER.size + 36])
        try:
            check_king_buckets(kb)
        except ValueError as e:
            raise FormatError(str(e)) from e
    if len(data) != file_size(h, b, kb):
        raise FormatError(f"{len(data)} bytes, want {file_size(h, b, kb)} for hidden size {h}, {b} buckets"
                          + (f", {max(kb) + 1} king buckets" if kb else ""))
    (crc,) = struct.unpack_from("<I", data, len(data) - 4)
    if zlib.crc32(data[:-4]) != crc:
        raise FormatError("checksum mismatch")
    off = header_size(b, kb)
    rows = INPUTS * (max(kb) + 1 if kb else 1)
    fw = np.frombuffer(data, dtype="<i2", count=rows * h, offset=off).reshape(rows, h)
    off += 2 * rows * h
    fb = np.frombuffer(data, dtype="<i2", count=h, offset=off)
    off += 2 * h
    ow = np.frombuffer(data, dtype="<i2", count=b * 2 * h, offset=off).reshape(b, 2 * h)
    off += b * 4 * h
    ob = np.frombuffer(data, dtype="<i4", count=b, offset=off)
    return {"hidden": h, "activation": ACTIVATIONS[act], "buckets": b, "king_buckets": kb,
            "ft_weight": fw.astype(np.int16),
            "ft_bias": fb.astype(np.int16), "out_weight": ow.astype(np.int16), "out_bias": ob.astype(np.int32)}


def load_float(net):
    """A float model holding the quantised parameters (for comparisons)."""
    b = net.get("buckets", 1)
    m = NNUE(net["hidden"], net["activation"], buckets=b, king_buckets=net.get("king_buckets"))
    with torch.no_grad():
        m.ft_weight.copy_(torch.from_numpy(net["ft_weight"].astype(np.float32) / QA))
        m.ft_bias.copy_(torch.from_numpy(net["ft_bias"].astype(np.float32) / QA))
        m.out_weight.copy_(torch.from_numpy(net["out_weight"].astype(np.float32).reshape(b, -1) / QB))
        m.out_bias.copy_(torch.from_numpy(np.atleast_1d(net["out_bias"]).astype(np.float64) / (QA * QB)))
    return m


def _wrap(x, bits):
    half = 1 << (bits - 1)
    return (x + half) % (2 * half) - half


def _div(a, b):
    """Integer division rounding toward zero, as Go's /."""
    return np.sign(a) * (np.abs(a) // b)


def evaluate(net, stm_idx, other_idx, offsets):
    """Centipawns (side to move's view) of a batch, in the engine's integer arithmetic.

    The features are those of nnue_data.features (with the net's king_buckets, if any):
    flat lists with per-record offsets.
    """
    fw = net["ft_weight"].astype(np.int64)
    fb = net["ft_bias"].astype(np.int64)
    h, b = net["hidden"], net.get("buckets", 1)
    ow = net["out_weight"].astype(np.int64).reshape(b, 2 * h)
    ob = np.atleast_1d(net["out_bias"]).astype(np.int64)

    def acc(idx):
        return _wrap(fb + np.add.reduceat(fw[idx], offsets, axis=0), 16)

    pieces = np.diff(np.append(offsets, len(stm_idx)))
    bucket = bucket_of(pieces, b)
    w_rec = ow[bucket]  # [records][2H]
    total = np.zeros(len(offsets), dtype=np.int64)
    for a, w in ((acc(stm_idx), w_rec[:, :h]), (acc(other_idx), w_rec[:, h:])):
        c = np.clip(a, 0, QA)
        if net["activation"] == "screlu":
            total += (_wrap(c * w, 16) * c).sum(axis=1)
        else:
            total += (c * w).sum(axis=1)
    total = _wrap(total, 32)
    if net["activation"] == "screlu":
        total = _div(total, QA)
    return _div((total + ob[bucket]) * SCALE, QA * QB)


def main(argv=None):
    import argparse
    import sys

    ap = argparse.ArgumentParser(description="Export a trainer checkpoint as a network file, or check a network file.")
    ap.add_argument("checkpoint", nargs="?", help="RUN_DIR/checkpoint.pt of nnue_train.py")
    ap.add_argument("out", nargs="?", help="network file to write")
    ap.add_argument("--check", metavar="NET", help="parse NET and print its header")
    args = ap.parse_args(argv)
    if args.check:
        with open(args.check, "rb") as f:
            data = f.read()
        try:
            net = parse(data)
        except FormatError as e:
            print(f"{args.check}: {e}", file=sys.stderr)
            return 1
        b, kb = net["buckets"], net["king_buckets"]
        inputs = f"768 x{max(kb) + 1} king buckets (mirrored)" if kb else "768"
        print(f"{args.check}: version {version_of(b, kb)}, {inputs} -> {net['hidden']} x2 -> 1, {net['activation']}, "
              f"{b} output bucket{'s' if b > 1 else ''}, {len(data)} bytes, crc32 {zlib.crc32(data[:-4]):08x}")
        return 0
    if not args.checkpoint or not args.out:
        ap.error("want CHECKPOINT OUT, or --check NET")
    ck = torch.load(args.checkpoint, map_location="cpu")
    model = NNUE(ck["hidden"], ck["activation"], buckets=ck.get("buckets", 1), king_buckets=ck.get("king_buckets"))
    model.load_state_dict(ck["model"])
    size = export(model, args.out)
    print(f"exported {args.out} ({size} bytes) from {args.checkpoint} ({ck['epoch']} epochs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
