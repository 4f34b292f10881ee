"""A sample set: every sample of a chunk directory in one compact folder, to move a run's
games to another machine (a GPU machine, say, reached through a transfer of limited size)
and train there.

  python3 azero/train/sampleset.py --chunks runs/RUN/chunks --out set --holdout 24

--chunks may be given more than once, oldest directory first (a window of several rounds'
games). The newest --holdout chunk files of the last directory become the held-out split
("hold", for evaluate.py); the rest the training split ("train", for train.py --sample-set).
Each split is a few flat arrays, one xz-compressed file each, named SPLIT.FIELD.DTYPE.SHAPE.xz:

  bits      uint8  [N, 17, 8]  the bitboards' little-endian bytes (as in a chunk)
  halfmove  uint8  [N]         fullmove uint16 [N]
  value     int8   [N]         game result for the side to move
  q         float16[N]         the search's root value (NaN: none)
  pol_len   uint8  [N]         policy entries per sample (at most 218 legal moves)
  pol_index uint16 [E]
  pol_sqrt8 uint8  [E]         round(255 * sqrt(probability))

Columns compress far better than gzip'ed records (1.05M samples of 26,600 games: 193 MB of
chunks, 43 MB of sample set). The only loss is the policy probabilities' precision: the square
root keeps small probabilities (down to 1.5e-5) apart from zero, and load() renormalises
each sample's entries to sum to 1 (the cross-entropy moves by about 1e-3 nats).
Samples keep the chunks' order (the directories in the order given, each oldest first by
mtime and name), so the training split's tail is the newest data, as a chunk window's is.
"""

import argparse
import glob
import json
import lzma
import os
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from chunks import Packed, list_chunks, read_chunks

SPLITS = ("train", "hold")
FIELDS = ("bits", "halfmove", "fullmove", "value", "q", "pol_len", "pol_index", "pol_sqrt8")


def columns(data):
    """The stored arrays of a Packed."""
    cnt = np.diff(data.pol_start)
    if len(cnt) and cnt.max() > 255:
        raise ValueError("a sample has %d policy entries (at most 255 can be stored)" % cnt.max())
    prob = np.clip(data.pol_prob, 0.0, 1.0)
    return {
        "bits": data.bits,
        "halfmove": data.halfmove,
        "fullmove": data.fullmove,
        "value": data.value.astype(np.int8),
        "q": data.q.astype(np.float16),
        "pol_len": cnt.astype(np.uint8),
        "pol_index": data.pol_index,
        "pol_sqrt8": np.round(np.sqrt(prob) * 255).astype(np.uint8),
    }


def _file_name(split, field, arr):
    shape = "x".join(str(s) for s in arr.shape[1:]) or "1"
    return "%s.%s.%s.%s.xz" % (split, field, arr.dtype.str.lstrip("<|="), shape)


def _write(job):
    path, arr = job
    tmp = path + ".tmp"
    with lzma.open(tmp, "wb", preset=6) as f:
        f.write(np.ascontiguousarray(arr).tobytes())
    os.replace(tmp, path)
    return path


def pack(chunk_dirs, out, holdout=0, workers=None, log=print):
    """Write the samples of chunk_dirs (one directory, or a list, oldest first) to the sample
    set folder out, the newest holdout files of the last directory held out; returns its
    metadata."""
    if isinstance(chunk_dirs, (str, os.PathLike)):
        chunk_dirs = [chunk_dirs]
    if not chunk_dirs:
        raise ValueError("no chunk directory")
    older = []
    for d in chunk_dirs[:-1]:
        older += list_chunks(d)
    newest = list_chunks(chunk_dirs[-1])
    if len(newest) <= holdout:
        raise ValueError("%d chunk files in %s: need more than --holdout %d" % (len(newest), chunk_dirs[-1], holdout))
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "*.xz")):
        os.remove(old)
    split_paths = {"train": older + newest[:len(newest) - holdout], "hold": newest[len(newest) - holdout:]}
    sources = [os.path.abspath(d) for d in chunk_dirs]
    meta = {"source": sources[0] if len(sources) == 1 else sources, "splits": {}}
    jobs = []
    for split in SPLITS:
        data, used = read_chunks(split_paths[split], log)
        meta["splits"][split] = {"samples": len(data), "files": len(used),
                                 "first": used[0] if used else None, "last": used[-1] if used else None}
        log("%s: %d samples from %d chunk files" % (split, len(data), len(used)))
        for field, arr in columns(data).items():
            jobs.append((os.path.join(out, _file_name(split, field, arr)), arr))
    with ProcessPoolExecutor(workers) as ex:
        for p in ex.map(_write, jobs):
            log("wrote %s (%d bytes)" % (p, os.path.getsize(p)))
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    return meta


def load(folder, split="train"):
    """The split of a sample set as a Packed (what train.py and evaluate.py sample from)."""
    if split not in SPLITS:
        raise ValueError("unknown split %r (want one of %s)" % (split, ", ".join(SPLITS)))
    arrays = {}
    for path in glob.glob(os.path.join(folder, split + ".*.xz")):
        parts = os.path.basename(path)[:-3].split(".")
        if len(parts) != 4 or parts[1] not in FIELDS:
            continue
        _, field, dtype, shape = parts
        with lzma.open(path) as f:
            arr = np.frombuffer(f.read(), dtype=np.dtype(dtype))
        if shape != "1":
            arr = arr.reshape((-1,) + tuple(int(s) for s in shape.split("x")))
        arrays[field] = arr
    missing = [f for f in FIELDS if f not in arrays]
    if missing:
        raise ValueError("%s: no %s split (missing %s)" % (folder, split, ", ".join(missing)))
    n = len(arrays["value"])
    cnt = arrays["pol_len"].astype(np.int64)
    start = np.zeros(n + 1, np.int64)
    np.cumsum(cnt, out=start[1:])
    if start[-1] != len(arrays["pol_index"]) or len(arrays["pol_sqrt8"]) != len(arrays["pol_index"]):
        raise ValueError("%s: the %s split's policy arrays disagree with pol_len" % (folder, split))
    prob = (arrays["pol_sqrt8"].astype(np.float32) / np.float32(255.0)) ** 2
    row = np.repeat(np.arange(n), cnt)
    sums = np.bincount(row, weights=prob, minlength=n)
    prob = (prob / np.maximum(sums[row], 1e-12)).astype(np.float32)
    return Packed(arrays["bits"], arrays["halfmove"], arrays["fullmove"],
                  arrays["value"].astype(np.float32), arrays["q"].astype(np.float32),
                  start, arrays["pol_index"], prob)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", required=True, action="append",
                    help="self-play chunk directory (*.twfc.gz); repeat for several, oldest first")
    ap.add_argument("--out", required=True, help="sample set folder to write")
    ap.add_argument("--holdout", type=int, default=0, help="newest chunk files kept out of training")
    ap.add_argument("--workers", type=int, default=None, help="compression processes (default: cores)")
    args = ap.parse_args(argv)
    if args.holdout < 0:
        ap.error("--holdout must be >= 0")
    try:
        meta = pack(args.chunks, args.out, args.holdout, args.workers)
    except (OSError, ValueError) as e:
        print("sampleset: %s" % e, file=sys.stderr)
        return 2
    print(json.dumps(meta["splits"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
