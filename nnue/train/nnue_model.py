"""The NNUE as a float PyTorch model, in the units of the quantised engine network.

768 inputs per perspective -> H (one feature transformer shared by both perspectives)
-> concat(side to move, other) -> CReLU clamp(x, 0, 1) or SCReLU clamp(x, 0, 1)^2 -> 1,
with B output buckets (B output neurons, the position's number of pieces choosing one:
bucket_of), B = 1 being the version-1 network. With king buckets (format version 3) each
perspective's features are mirrored left to right while its own king stands on files e-h,
and the square of that king (seen from the perspective, mirrored onto files a-d) picks one of
K sets of feature weights: 768*K inputs. A factoriser (768 rows shared by every bucket) is
trained beside them, so a bucket its king rarely visits still learns from every position;
export adds it into each bucket's rows.
An accumulator value of 1.0 is QA in the engine and the output times SCALE (400) is
centipawns from the side to move's view, so export is a plain rounding (nnue_format).

clip() keeps the weights where the quantised network is exact: a feature weight or bias
within +-FT_LIMIT, so that an accumulator (bias plus at most 32 features) stays inside
int16 after *QA (33 * 1.98 * 255 = 16662 < 32767), and an output weight within
+-127/QB, which keeps SCReLU's int16 product clamp(acc)*w exact (255 * 127 < 32768).
"""

import numpy as np
import torch
import torch.nn.functional as F

INPUTS = 768
QA = 255
QB = 64
SCALE = 400
ACTIVATIONS = ("crelu", "screlu")
MAX_BUCKETS = 16
FT_LIMIT = 1.98
OUT_LIMIT = 127 / QB
MAX_KING_BUCKETS = 16

# Named king bucket layouts: the bucket of each square of the own king, rank 1 first, files
# a-d (the board mirrored onto them), as package nnue's KingBuckets.
KING_BUCKET_LAYOUTS = {
    # mirroring alone: one set of weights
    "1": [0] * 32,
    # the castled corners, the rest of the back rank, the second rank, the others
    "4": [0, 0, 1, 1,
          2, 2, 2, 2] + [3] * 24,
    # the back rank square by square, the second rank in halves, the third, the others
    "8": [0, 1, 2, 3,
          4, 4, 5, 5,
          6, 6, 6, 6] + [7] * 20,
}


def king_buckets_arg(text):
    """A layout name of KING_BUCKET_LAYOUTS or 32 comma-separated bucket numbers (ranks 1-8,
    files a-d), checked: buckets 0..K-1 each used, K at most MAX_KING_BUCKETS."""
    if text in KING_BUCKET_LAYOUTS:
        kb = list(KING_BUCKET_LAYOUTS[text])
    else:
        try:
            kb = [int(x) for x in text.split(",")]
        except ValueError:
            kb = []
        if len(kb) != 32:
            raise ValueError(f"king buckets {text!r}: want one of {sorted(KING_BUCKET_LAYOUTS)} "
                             "or 32 comma-separated numbers")
    check_king_buckets(kb)
    return kb


def check_king_buckets(kb):
    k = max(kb) + 1
    if len(kb) != 32 or min(kb) < 0 or k > MAX_KING_BUCKETS or set(kb) != set(range(k)):
        raise ValueError(f"king buckets {kb}: want 32 numbers using each of 0..K-1, K <= {MAX_KING_BUCKETS}")


def bucket_of(pieces, buckets):
    """The output bucket of positions with `pieces` pieces (kings included), as package
    nnue: min((pieces - 2) // ceil(32 / buckets), buckets - 1). Works on ints, numpy
    arrays and torch tensors."""
    width = -(-32 // buckets)
    b = (pieces - 2) // width
    return b.clamp(0, buckets - 1) if torch.is_tensor(b) else np.clip(b, 0, buckets - 1)


class NNUE(torch.nn.Module):
    def __init__(self, hidden=256, activation="screlu", seed=None, buckets=1, king_buckets=None):
        super().__init__()
        if hidden < 16 or hidden > 2048 or hidden % 16:
            raise ValueError(f"hidden size {hidden}: want a multiple of 16 in 16..2048")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r}: want one of {ACTIVATIONS}")
        if not 1 <= buckets <= MAX_BUCKETS:
            raise ValueError(f"{buckets} output buckets: want 1..{MAX_BUCKETS}")
        if king_buckets is not None:
            king_buckets = [int(b) for b in king_buckets]
            check_king_buckets(king_buckets)
        self.hidden = hidden
        self.activation = activation
        self.buckets = buckets
        self.king_buckets = king_buckets  # None: version 1 or 2 inputs
        k = max(king_buckets) + 1 if king_buckets else 1
        self.inputs = INPUTS * k
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        # About 30 features are active: scale so that an accumulator starts near 0.2-0.5.
        self.ft_weight = torch.nn.Parameter(torch.randn(self.inputs, hidden, generator=gen) * 0.05)
        self.ft_factor = torch.nn.Parameter(torch.zeros(INPUTS, hidden)) if k > 1 else None
        self.ft_bias = torch.nn.Parameter(torch.full((hidden,), 0.1))
        bound = 1 / (2 * hidden) ** 0.5
        self.out_weight = torch.nn.Parameter((torch.rand(buckets, 2 * hidden, generator=gen) * 2 - 1) * bound)
        self.out_bias = torch.nn.Parameter(torch.zeros(buckets))

    def accumulate(self, idx, offsets):
        acc = F.embedding_bag(idx, self.ft_weight, offsets, mode="sum") + self.ft_bias
        if self.ft_factor is not None:
            acc = acc + F.embedding_bag(idx % INPUTS, self.ft_factor, offsets, mode="sum")
        return acc

    def feature_weights(self):
        """The feature weights the engine uses: each bucket's rows plus the factoriser."""
        if self.ft_factor is None:
            return self.ft_weight
        k = self.inputs // INPUTS
        return (self.ft_weight.view(k, INPUTS, -1) + self.ft_factor).view(self.inputs, -1)

    def forward(self, stm_idx, other_idx, offsets):
        """Output in units of SCALE centipawns (side to move's view), one per position."""
        x = torch.cat([self.accumulate(stm_idx, offsets), self.accumulate(other_idx, offsets)], dim=1)
        x = torch.clamp(x, 0, 1)
        if self.activation == "screlu":
            x = x * x
        if self.buckets == 1:
            return x @ self.out_weight[0] + self.out_bias[0]
        # A record's features are its pieces: their count picks the bucket.
        pieces = torch.diff(offsets, append=offsets.new_tensor([len(stm_idx)]))
        b = bucket_of(pieces, self.buckets)
        return (x * self.out_weight[b]).sum(dim=1) + self.out_bias[b]

    @torch.no_grad()
    def clip(self):
        if self.ft_factor is not None:  # keep the sums, which the engine uses, within the limit
            self.ft_factor.clamp_(-FT_LIMIT, FT_LIMIT)
            w = self.ft_weight.view(-1, INPUTS, self.hidden)
            w.copy_(torch.maximum(torch.minimum(w, FT_LIMIT - self.ft_factor), -FT_LIMIT - self.ft_factor))
        self.ft_weight.clamp_(-FT_LIMIT, FT_LIMIT)
        self.ft_bias.clamp_(-FT_LIMIT, FT_LIMIT)
        self.out_weight.clamp_(-OUT_LIMIT, OUT_LIMIT)


@torch.no_grad()
def with_king_buckets(model, king_buckets):
    """A king-bucketed copy of a model without king buckets: its feature weights become the
    factoriser (with one bucket, the bucket's rows) and the buckets' own rows start at zero,
    so the copy evaluates a position as the model evaluates it mirrored whenever a
    perspective's king stands on files e-h."""
    if model.king_buckets is not None:
        raise ValueError("the model has king buckets already")
    out = NNUE(model.hidden, model.activation, buckets=model.buckets, king_buckets=king_buckets)
    if out.ft_factor is not None:
        out.ft_factor.copy_(model.ft_weight)
        out.ft_weight.zero_()
    else:
        out.ft_weight.copy_(model.ft_weight)
    for name in ("ft_bias", "out_weight", "out_bias"):
        getattr(out, name).copy_(getattr(model, name))
    return out
