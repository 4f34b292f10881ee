"""Training data of the NNUE: the 32-byte records `engine datagen` writes.

Record layout (little-endian; package nnue/data documents it too):

    uint64 occupancy        bit i set when square i (a1=0 .. h8=63) holds a piece
    16 x uint8 pieces       4 bits per piece in occupancy order (lowest square first),
                            low nibble first; nibble = colour<<3 | type
                            (colour 0 White, 1 Black; type 0..5 = P, N, B, R, Q, K)
    uint8 side to move      0 White, 1 Black
    int16 score             search score in centipawns, White's view
    uint8 result            0 Black won, 1 draw, 2 White won
    uint16 fullmove number
    uint16 reserved = 0

Files are memory-mapped (numpy.memmap), so a data set may exceed memory; a batch is
gathered from the files with one fancy index per file. Features are computed for a whole
batch with array operations (no per-position Python loop), as flat index lists with
offsets for torch's embedding_bag.
"""

import math
import os

import numpy as np

RECORD = np.dtype([
    ("occupancy", "<u8"),
    ("pieces", "u1", (16,)),
    ("stm", "u1"),
    ("score", "<i2"),
    ("result", "u1"),
    ("fullmove", "<u2"),
    ("reserved", "<u2"),
])
assert RECORD.itemsize == 32

INPUTS = 768


class DataError(ValueError):
    """A file that is not a valid record file."""


def validate(recs, name="records"):
    """Raise DataError unless every record is well formed (the checks Go's data.Decode
    makes that matter to training: field ranges, piece codes, one king per side)."""
    bad = recs["reserved"] != 0
    bad |= recs["stm"] > 1
    bad |= recs["result"] > 2
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"{name}: record {i}: side, result or reserved field out of range")
    mask, nib = _squares_and_nibbles(recs)
    counts = mask.sum(axis=1)
    if (counts > 32).any():
        i = int(np.flatnonzero(counts > 32)[0])
        raise DataError(f"{name}: record {i}: {counts[i]} pieces")
    rows, _ = np.nonzero(mask)
    rank = np.cumsum(mask, axis=1)[mask] - 1
    pc = nib[rows, rank]
    if ((pc & 7) > 5).any():
        i = int(rows[np.flatnonzero((pc & 7) > 5)[0]])
        raise DataError(f"{name}: record {i}: invalid piece code")
    kings = np.zeros((len(recs), 2), dtype=np.int64)
    np.add.at(kings, (rows[(pc & 7) == 5], pc[(pc & 7) == 5] >> 3), 1)
    if (kings != 1).any():
        i = int(np.flatnonzero((kings != 1).any(axis=1))[0])
        raise DataError(f"{name}: record {i}: {kings[i, 0]} white and {kings[i, 1]} black kings")


# The first bytes of a file in the games format (engine datagen --format games), which the
# trainer does not read: `engine datagen --unpack` expands such files into records.
GAMES_MAGIC = b"\xffTFGAME\xff"


def open_records(path, check=True, chunk=1 << 20):
    """Memory-map a record file, validating it in chunks unless check is False."""
    with open(path, "rb") as f:
        if f.read(len(GAMES_MAGIC)) == GAMES_MAGIC:
            raise DataError(f"{path}: a games file, not records: expand it with "
                            f"engine datagen --unpack --out FILE.bin {path}")
    size = os.path.getsize(path)
    if size % RECORD.itemsize:
        raise DataError(f"{path}: {size} bytes is not a whole number of {RECORD.itemsize}-byte records")
    if size == 0:
        return np.zeros(0, dtype=RECORD)
    recs = np.memmap(path, dtype=RECORD, mode="r")
    if check:
        for start in range(0, len(recs), chunk):
            validate(recs[start:start + chunk], f"{path} (from record {start})")
    return recs


class Dataset:
    """Records of many files, addressed by a global index 0..len-1."""

    def __init__(self, paths, check=True):
        if not paths:
            raise DataError("no data files")
        self.paths = list(paths)
        self.files = [open_records(p, check) for p in self.paths]
        self.ends = np.cumsum([len(f) for f in self.files])
        if len(self) == 0:
            raise DataError("the data files hold no records")

    def __len__(self):
        return int(self.ends[-1]) if len(self.ends) else 0

    def gather(self, idx):
        """The records at global indices idx (any order), as an in-memory array."""
        idx = np.asarray(idx, dtype=np.int64)
        out = np.empty(len(idx), dtype=RECORD)
        which = np.searchsorted(self.ends, idx, side="right")
        starts = np.concatenate([[0], self.ends[:-1]])
        for f in np.unique(which):
            sel = which == f
            out[sel] = self.files[f][idx[sel] - starts[f]]
        return out


def _squares_and_nibbles(recs):
    """mask[b, sq]: square sq of record b is occupied; nib[b, k]: the k-th piece's code."""
    occ = np.ascontiguousarray(recs["occupancy"]).astype("<u8")
    mask = np.unpackbits(occ.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little").astype(bool)
    pcs = np.ascontiguousarray(recs["pieces"])
    nib = np.empty((len(recs), 32), dtype=np.uint8)
    nib[:, 0::2] = pcs & 15
    nib[:, 1::2] = pcs >> 4
    return mask, nib


def features(recs, mirror=None, king_buckets=None):
    """Feature indices of a batch for both perspectives.

    Returns (stm_idx, other_idx, offsets): flat int64 arrays of equal length, the
    features of record b being [offsets[b], offsets[b+1]) of each, from the side to
    move's and from the other side's perspective. The feature of a piece of colour pc,
    type pt on square sq seen from perspective persp is
    384*(pc != persp) + 64*pt + (sq if persp is White else sq^56).
    mirror (optional, a bool per record) reflects those records' boards left to right
    (files a-h swapped, sq^7): the same position for the evaluation, whose inputs hold
    no castling rights, so a cheap second sample (the trainer's --mirror).
    king_buckets (optional, 32 bucket numbers: nnue_model.KING_BUCKET_LAYOUTS) gives the
    features of format version 3: from a perspective whose own king stands on files e-h
    (seen from that perspective) every square is mirrored (^7), and the feature is offset by
    768 times the bucket of that king's (mirrored) square, index rank*4 + file.
    """
    mask, nib = _squares_and_nibbles(recs)
    rows, sq = np.nonzero(mask)  # row-major: by record, then by square upward
    rank = np.cumsum(mask, axis=1)[mask] - 1
    pc = nib[rows, rank].astype(np.int64)
    colour, pt = pc >> 3, pc & 7
    sq = sq.astype(np.int64)
    if mirror is not None:
        sq = np.where(np.asarray(mirror, dtype=bool)[rows], sq ^ 7, sq)
    white = 384 * (colour != 0) + 64 * pt + sq
    black = 384 * (colour != 1) + 64 * pt + (sq ^ 56)
    if king_buckets is not None:
        kb = np.asarray(king_buckets, dtype=np.int64)
        kings = np.zeros((len(recs), 2), dtype=np.int64)
        is_king = pt == 5
        kings[rows[is_king], colour[is_king]] = sq[is_king]
        for c, persp_view in ((0, 0), (1, 56)):
            k = kings[rows, c] ^ persp_view  # the own king as the perspective sees it
            flip = np.where((k & 7) >= 4, 7, 0)
            k ^= flip
            offset = INPUTS * kb[(k >> 3) * 4 + (k & 7)]
            if c == 0:
                white = offset + (white ^ flip)
            else:
                black = offset + (black ^ flip)
    black_to_move = recs["stm"][rows] == 1
    stm_idx = np.where(black_to_move, black, white)
    other_idx = np.where(black_to_move, white, black)
    counts = mask.sum(axis=1)
    offsets = np.zeros(len(recs), dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    return stm_idx, other_idx, offsets


def targets(recs):
    """(score_stm, result_stm): the search score in centipawns and the game result
    (0, 0.5, 1) from the side to move's view, as float32 arrays."""
    sign = np.where(recs["stm"] == 1, -1.0, 1.0).astype(np.float32)
    score = recs["score"].astype(np.float32) * sign
    white_result = recs["result"].astype(np.float32) / 2
    result = np.where(recs["stm"] == 1, 1 - white_result, white_result).astype(np.float32)
    return score, result


def result_loss(recs, k):
    """mean((sigmoid(score / k) - result)^2) over records, both from White's view."""
    score = recs["score"].astype(np.float64)
    return float(np.mean((1 / (1 + np.exp(-score / k)) - recs["result"] / 2) ** 2))


def result_fit(recs, k_range=(50.0, 2000.0)):
    """(K, loss): the sigmoid scale K (centipawns) at which the game results fit the search
    scores best, min over K of mean((sigmoid(score / K) - result)^2), and that loss; (nan, nan)
    without records. The trainer's --k should be about this K when it blends results into its
    targets (--wdl-lambda < 1), or the blend pulls the network off the search's scale."""
    if len(recs) == 0:
        return float("nan"), float("nan")
    def loss(log_k):
        return result_loss(recs, math.exp(log_k))

    # Golden-section search on log K: the loss is unimodal in K for any sensible data.
    lo, hi = math.log(k_range[0]), math.log(k_range[1])
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    while hi - lo > 1e-3:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    k = math.exp((lo + hi) / 2)
    return k, loss(math.log(k))


def describe(recs):
    """Summary lines of a record array: counts, results, score and game-phase spread."""
    n = len(recs)
    if n == 0:
        return ["0 positions"]
    res = np.bincount(recs["result"], minlength=3)
    score = recs["score"].astype(np.int64)
    pieces = np.unpackbits(np.ascontiguousarray(recs["occupancy"]).astype("<u8").view(np.uint8)).reshape(n, 64).sum(1)
    q = np.percentile(score, [1, 10, 50, 90, 99]).astype(int).tolist()
    return [
        f"{n} positions; results (White's view) 1-0 {res[2] / n:.1%}, draw {res[1] / n:.1%}, 0-1 {res[0] / n:.1%}",
        f"score (White's view) mean {score.mean():.1f}, |score| mean {np.abs(score).mean():.1f}, "
        f"percentiles 1/10/50/90/99: {q}",
        f"side to move Black {(recs['stm'] == 1).mean():.1%}; pieces on the board mean {pieces.mean():.1f}, "
        f"<= 10 pieces {(pieces <= 10).mean():.1%}; fullmove median {int(np.median(recs['fullmove']))}",
        "results fit sigmoid(score / K) best at K = {:.0f} (loss {:.5f}; at K = 400: {:.5f})".format(
            *result_fit(recs), result_loss(recs, 400.0)),
    ]


if __name__ == "__main__":
    import sys

    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print("usage: nnue_data.py FILE... (checks the record files and prints a summary)", file=sys.stderr)
        sys.exit(2)
    try:
        ds = Dataset(sys.argv[1:])
    except (DataError, OSError) as e:
        print(f"nnue_data: {e}", file=sys.stderr)
        sys.exit(1)
    for line in describe(ds.gather(np.arange(len(ds)))):
        print(line)
