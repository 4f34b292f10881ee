"""Reader (and a test-only writer) for twofold self-play sample chunks, format versions 1 and 2.

A chunk file (*.twfc.gz) is one gzip stream. Decompressed, little-endian:

  b"TWFC"  uint32 version (1 or 2)  uint32 sample count
  per sample:
    17 x uint64   bitboards for input planes 0..16 (bit i -> square i, a1=0 .. h8=63)
    uint8         halfmove clock   -> plane 17 = clock/100
    uint16        fullmove number  -> plane 18 = min(fullmove/200, 1)
    int8          game result from this position's side to move (+1/0/-1)
    float32       (version 2 only) the search's root value for the side to move, in
                  [-1, 1], NaN when the root was not searched; version 1 reads as NaN
    uint16 n, then n x (uint16 policy index, float32 probability)

The Go self-play writer is the real producer; write_chunk exists for the Python tests.

Decoding is vectorised: one cheap Python pass finds each sample's byte offset (the
records are variable length), then all fixed fields and all policy entries are gathered
with numpy fancy indexing and the bitboards are expanded with np.unpackbits.

Samples are kept *packed* (Packed: ~200 bytes + 6 bytes per policy entry) so a large
training window fits in memory; dense planes/policy (4.9 KB + 18.7 KB per sample) are
only materialised per minibatch via Packed.dense(idx), or for a whole chunk via
read_chunk().
"""

import gzip
import os
import struct

import numpy as np

MAGIC = b"TWFC"
VERSION = 2
NUM_BITBOARDS = 17
NUM_PLANES = 19
POLICY_SIZE = 4672
CHUNK_SUFFIX = ".twfc.gz"

_HEADER = struct.Struct("<4sII")
# Fixed part of a sample: 17 bitboards, halfmove, fullmove, result, [q,] n.
_OFF_HALF = NUM_BITBOARDS * 8               # 136
_OFF_FULL = _OFF_HALF + 1                   # 137
_OFF_RES = _OFF_FULL + 2                    # 139
_OFF_Q = _OFF_RES + 1                       # 140 (version 2)
_FIXED = {1: _OFF_RES + 1 + 2, 2: _OFF_Q + 4 + 2}  # 142, 146
_ENTRY = 6


class ChunkError(ValueError):
    """A chunk file is malformed; the message names the file."""


class Packed:
    """Samples in compact form.

    bits      uint8  [N, 17, 8]  the raw little-endian bitboard bytes
    halfmove  uint8  [N]
    fullmove  uint16 [N]
    value     float32[N]         game result from the side to move
    q         float32[N]         the search's root value for the side to move (NaN: none)
    pol_start int64  [N+1]       CSR offsets into pol_index/pol_prob
    pol_index uint16 [E]
    pol_prob  float32[E]
    """

    __slots__ = ("bits", "halfmove", "fullmove", "value", "q", "pol_start", "pol_index", "pol_prob")

    def __init__(self, bits, halfmove, fullmove, value, q, pol_start, pol_index, pol_prob):
        self.bits = bits
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.value = value
        self.q = q
        self.pol_start = pol_start
        self.pol_index = pol_index
        self.pol_prob = pol_prob

    def __len__(self):
        return len(self.value)

    @staticmethod
    def empty():
        return Packed(np.zeros((0, NUM_BITBOARDS, 8), np.uint8), np.zeros(0, np.uint8),
                      np.zeros(0, np.uint16), np.zeros(0, np.float32), np.zeros(0, np.float32),
                      np.zeros(1, np.int64),
                      np.zeros(0, np.uint16), np.zeros(0, np.float32))

    @staticmethod
    def concat(parts):
        parts = [p for p in parts if len(p)]
        if not parts:
            return Packed.empty()
        if len(parts) == 1:
            return parts[0]
        starts = [np.zeros(1, np.int64)]
        base = 0
        for p in parts:
            starts.append(p.pol_start[1:] + base)
            base += p.pol_start[-1]
        return Packed(np.concatenate([p.bits for p in parts]),
                      np.concatenate([p.halfmove for p in parts]),
                      np.concatenate([p.fullmove for p in parts]),
                      np.concatenate([p.value for p in parts]),
                      np.concatenate([p.q for p in parts]),
                      np.concatenate(starts),
                      np.concatenate([p.pol_index for p in parts]),
                      np.concatenate([p.pol_prob for p in parts]))

    def tail(self, k):
        """The last k samples (k <= len)."""
        n = len(self)
        if k >= n:
            return self
        first = n - k
        lo = self.pol_start[first]
        return Packed(self.bits[first:], self.halfmove[first:], self.fullmove[first:],
                      self.value[first:], self.q[first:], self.pol_start[first:] - lo,
                      self.pol_index[lo:], self.pol_prob[lo:])

    def dense(self, idx=None, q_ratio=0.0, wdl=False):
        """Materialise (planes [B,19,8,8], policy [B,4672], value [B]) float32 for samples idx.

        The value target is the game result, or with q_ratio r > 0 the blend
        (1 - r) * result + r * q where the search's value q is known. With wdl it is a
        win/draw/loss distribution [B, 3] instead: the result one-hot, blended the same
        way with (max(q, 0), 1 - |q|, max(-q, 0))."""
        if idx is None:
            idx = np.arange(len(self))
        idx = np.asarray(idx, dtype=np.int64)
        b = len(idx)
        planes = np.empty((b, NUM_PLANES, 8, 8), np.float32)
        # bitorder="little": bit i of the uint64 is bit i%8 of byte i//8 -> square i,
        # and square = rank*8 + file, so reshape to [8, 8] gives [rank][file].
        bits = np.unpackbits(self.bits[idx], axis=2, bitorder="little")  # [B,17,64]
        planes[:, :NUM_BITBOARDS] = bits.reshape(b, NUM_BITBOARDS, 8, 8)
        planes[:, 17] = (self.halfmove[idx].astype(np.float32) / np.float32(100.0))[:, None, None]
        planes[:, 18] = np.minimum(self.fullmove[idx].astype(np.float32) / np.float32(200.0),
                                   np.float32(1.0))[:, None, None]

        policy = np.zeros((b, POLICY_SIZE), np.float32)
        lo = self.pol_start[idx]
        cnt = self.pol_start[idx + 1] - lo
        total = int(cnt.sum())
        if total:
            row = np.repeat(np.arange(b), cnt)
            # position of each entry within its sample, added to that sample's start
            within = np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            src = np.repeat(lo, cnt) + within
            policy[row, self.pol_index[src]] = self.pol_prob[src]
        target = self._wdl_target(idx, q_ratio)
        if wdl:
            return planes, policy, target
        # P(win) - P(loss) of the blended distribution is the blended scalar,
        # (1 - r) * result + r * q, since each part's own W - L is its value.
        return planes, policy, target[:, 0] - target[:, 2]

    def _wdl_target(self, idx, q_ratio):
        """The win/draw/loss target [B, 3]: the result one-hot, blended with the search
        value q as (max(q, 0), 1 - |q|, max(-q, 0)) where q is known."""
        z = self.value[idx]
        target = np.stack([z > 0, z == 0, z < 0], axis=1).astype(np.float32)
        if q_ratio > 0:
            q = self.q[idx]
            known = ~np.isnan(q)
            qk = q[known]
            from_q = np.stack([np.maximum(qk, 0), 1 - np.abs(qk), np.maximum(-qk, 0)], axis=1)
            target[known] = np.float32(1 - q_ratio) * target[known] + np.float32(q_ratio) * from_q
        return target


def _decompress(path):
    try:
        with gzip.open(path, "rb") as f:
            return f.read()
    except (OSError, EOFError) as e:  # gzip.BadGzipFile is an OSError
        raise ChunkError("%s: not a valid gzip stream: %s" % (path, e)) from e


def read_chunk_packed(path):
    """Decode one chunk file into a Packed."""
    data = _decompress(path)
    if len(data) < _HEADER.size:
        raise ChunkError("%s: truncated header (%d bytes)" % (path, len(data)))
    magic, version, count = _HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise ChunkError("%s: bad magic %r, want %r (not a twofold sample chunk)" % (path, magic, MAGIC))
    if version not in _FIXED:
        raise ChunkError("%s: unsupported chunk version %d (this reader knows 1 and %d)" % (path, version, VERSION))
    fixed_size = _FIXED[version]
    off_n = fixed_size - 2

    # Records are variable length, so locate them with one scalar pass (cheap: two
    # byte reads per sample), then do everything else vectorised.
    offsets = np.empty(count, np.int64)
    ns = np.empty(count, np.int64)
    off = _HEADER.size
    size = len(data)
    for i in range(count):
        if off + fixed_size > size:
            raise ChunkError("%s: truncated at sample %d of %d" % (path, i, count))
        n = data[off + off_n] | (data[off + off_n + 1] << 8)
        offsets[i] = off
        ns[i] = n
        off += fixed_size + _ENTRY * n
    if off != size:
        raise ChunkError("%s: %s after %d samples (%d bytes expected, %d present)"
                         % (path, "truncated" if off > size else "trailing bytes", count, off, size))

    buf = np.frombuffer(data, dtype=np.uint8)
    fixed = buf[offsets[:, None] + np.arange(fixed_size)]  # [N, 142 or 146]
    bits = np.ascontiguousarray(fixed[:, :_OFF_HALF]).reshape(count, NUM_BITBOARDS, 8)
    halfmove = fixed[:, _OFF_HALF].copy()
    fullmove = np.ascontiguousarray(fixed[:, _OFF_FULL:_OFF_FULL + 2]).view("<u2").reshape(count).astype(np.uint16)
    result = fixed[:, _OFF_RES].view(np.int8).astype(np.float32)
    if count and (np.abs(result) > 1).any():
        raise ChunkError("%s: result outside -1..1" % path)
    if version >= 2:
        q = np.ascontiguousarray(fixed[:, _OFF_Q:_OFF_Q + 4]).view("<f4").reshape(count).astype(np.float32)
        if count and (np.abs(q[~np.isnan(q)]) > 1).any():
            raise ChunkError("%s: search value outside -1..1" % path)
    else:
        q = np.full(count, np.nan, np.float32)

    total = int(ns.sum())
    pol_start = np.zeros(count + 1, np.int64)
    np.cumsum(ns, out=pol_start[1:])
    if total:
        within = np.arange(total) - np.repeat(pol_start[:-1], ns)
        pos = np.repeat(offsets + fixed_size, ns) + _ENTRY * within
        ent = buf[pos[:, None] + np.arange(_ENTRY)]  # [E, 6]
        pol_index = np.ascontiguousarray(ent[:, :2]).view("<u2").reshape(total).astype(np.uint16)
        pol_prob = np.ascontiguousarray(ent[:, 2:]).view("<f4").reshape(total).astype(np.float32)
        if (pol_index >= POLICY_SIZE).any():
            raise ChunkError("%s: policy index out of range (max %d)" % (path, int(pol_index.max())))
    else:
        pol_index = np.zeros(0, np.uint16)
        pol_prob = np.zeros(0, np.float32)
    return Packed(bits, halfmove, fullmove, result, q, pol_start, pol_index, pol_prob)


def read_chunk(path):
    """Decode one chunk: (planes float32 [N,19,8,8], policy float32 [N,4672], value float32 [N])."""
    return read_chunk_packed(path).dense()


def read_chunks(paths, warn, max_samples=0):
    """Read the chunk files paths (oldest first) into one Packed, oldest sample first.

    A bad or vanished file is skipped with warn("warning: skipping chunk: ...") rather than
    ending a long job. max_samples > 0 keeps only the newest that many samples (files are
    read newest first, so the cap drops the oldest data unread). Returns (Packed, names of
    the files used, oldest first)."""
    parts, used, total = [], [], 0
    for p in reversed(paths):
        try:
            packed = read_chunk_packed(p)
        except (ChunkError, OSError) as e:
            warn("warning: skipping chunk: %s" % e)
            continue
        if max_samples and total + len(packed) > max_samples:
            packed = packed.tail(max_samples - total)
        parts.append(packed)
        used.append(os.path.basename(p))
        total += len(packed)
        if max_samples and total >= max_samples:
            break
    return Packed.concat(parts[::-1]), used[::-1]


def list_chunks(directory):
    """Chunk files in directory, oldest first by (mtime, name)."""
    paths = []
    for name in os.listdir(directory):
        if name.endswith(CHUNK_SUFFIX):
            p = os.path.join(directory, name)
            try:
                st = os.stat(p)
            except FileNotFoundError:  # pruned by a concurrent writer/cleaner
                continue
            if os.path.isfile(p):
                paths.append((st.st_mtime, name, p))
    paths.sort()
    return [p for _, _, p in paths]


def write_chunk(path, samples, version=VERSION):
    """Write a chunk (test helper; the production writer is Go).

    samples: iterable of dicts with keys
      bitboards: 17 ints (uint64), halfmove: int, fullmove: int, result: -1/0/1,
      policy: list of (index, probability) pairs, and optionally q: the search
      value (NaN when absent; version 2 only).
    """
    samples = list(samples)
    out = bytearray(_HEADER.pack(MAGIC, version, len(samples)))
    for s in samples:
        bbs = s["bitboards"]
        if len(bbs) != NUM_BITBOARDS:
            raise ValueError("need %d bitboards" % NUM_BITBOARDS)
        out += struct.pack("<17Q", *[int(b) & 0xFFFFFFFFFFFFFFFF for b in bbs])
        out += struct.pack("<BHb", int(s["halfmove"]), int(s["fullmove"]), int(s["result"]))
        if version >= 2:
            out += struct.pack("<f", float(s.get("q", float("nan"))))
        out += struct.pack("<H", len(s["policy"]))
        for idx, prob in s["policy"]:
            out += struct.pack("<Hf", int(idx), float(prob))
    tmp = path + ".tmp"
    with gzip.open(tmp, "wb") as f:
        f.write(bytes(out))
    os.replace(tmp, path)
