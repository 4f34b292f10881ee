"""The NNUE as a float PyTorch model, in the units of the quantised engine network.

768 inputs per perspective -> H (one feature transformer shared by both perspectives)
-> concat(side to move, other) -> CReLU clamp(x, 0, 1) or SCReLU clamp(x, 0, 1)^2 -> 1,
with B output buckets (B output neurons, the position's number of pieces choosing one:
bucket_of), B = 1 being the version-1 network.
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


def bucket_of(pieces, buckets):
    """The output bucket of positions with `pieces` pieces (kings included), as package
    nnue: min((pieces - 2) // ceil(32 / buckets), buckets - 1). Works on ints, numpy
    arrays and torch tensors."""
    width = -(-32 // buckets)
    b = (pieces - 2) // width
    return b.clamp(0, buckets - 1) if torch.is_tensor(b) else np.clip(b, 0, buckets - 1)


class NNUE(torch.nn.Module):
    def __init__(self, hidden=256, activation="screlu", seed=None, buckets=1):
        super().__init__()
        if hidden < 16 or hidden > 2048 or hidden % 16:
            raise ValueError(f"hidden size {hidden}: want a multiple of 16 in 16..2048")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r}: want one of {ACTIVATIONS}")
        if not 1 <= buckets <= MAX_BUCKETS:
            raise ValueError(f"{buckets} output buckets: want 1..{MAX_BUCKETS}")
        self.hidden = hidden
        self.activation = activation
        self.buckets = buckets
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        # About 30 features are active: scale so that an accumulator starts near 0.2-0.5.
        self.ft_weight = torch.nn.Parameter(torch.randn(INPUTS, hidden, generator=gen) * 0.05)
        self.ft_bias = torch.nn.Parameter(torch.full((hidden,), 0.1))
        bound = 1 / (2 * hidden) ** 0.5
        self.out_weight = torch.nn.Parameter((torch.rand(buckets, 2 * hidden, generator=gen) * 2 - 1) * bound)
        self.out_bias = torch.nn.Parameter(torch.zeros(buckets))

    def accumulate(self, idx, offsets):
        return F.embedding_bag(idx, self.ft_weight, offsets, mode="sum") + self.ft_bias

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
        self.ft_weight.clamp_(-FT_LIMIT, FT_LIMIT)
        self.ft_bias.clamp_(-FT_LIMIT, FT_LIMIT)
        self.out_weight.clamp_(-OUT_LIMIT, OUT_LIMIT)
