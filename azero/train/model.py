"""AlphaZero-style policy/value network for twofold.

The tensor layout is a contract with the Go encoder (azero package):

  input  "planes": float32 [batch, 19, 8, 8], [plane][rank][file], side-to-move frame
  output "policy": float32 [batch, 4672] logits, index = plane*64 + square
  output "value":  float32 [batch, 1], in [-1, 1], side-to-move view

The value head is a tanh scalar, or (wdl=True) three logits for win/draw/loss trained by
cross-entropy; the exported graph (Inference) then computes P(win) - P(loss), so the
engine reads the same scalar from either kind of network.

The policy head is fully convolutional (73 move-type planes over the 64 from-squares)
instead of a dense layer: a dense C*64 -> 4672 layer would dominate the parameter count
for small towers while adding little, and the natural flatten of a [73, 8, 8] tensor is
exactly the plane*64+square indexing the Go side uses.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_PLANES = 19
POLICY_PLANES = 73
POLICY_SIZE = POLICY_PLANES * 64  # 4672
VALUE_PLANES = 8
VALUE_HIDDEN = 64


class ResBlock(nn.Module):
    """conv3x3-BN-ReLU-conv3x3-BN + identity skip, ReLU. Convs have no bias (BN has one)."""

    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class Net(nn.Module):
    """ResNet tower with a convolutional policy head and a small value head.

    blocks/channels are stored on the module so checkpoints and exports can record
    the architecture without the caller having to remember it.
    """

    def __init__(self, blocks=6, channels=128, wdl=False):
        super().__init__()
        self.blocks = int(blocks)
        self.channels = int(channels)
        self.wdl = bool(wdl)
        c = self.channels

        self.input_conv = nn.Conv2d(IN_PLANES, c, 3, padding=1, bias=False)
        self.input_bn = nn.BatchNorm2d(c)
        self.tower = nn.Sequential(*[ResBlock(c) for _ in range(self.blocks)])

        self.policy_conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.policy_bn = nn.BatchNorm2d(c)
        self.policy_out = nn.Conv2d(c, POLICY_PLANES, 1, bias=True)

        self.value_conv = nn.Conv2d(c, VALUE_PLANES, 1, bias=False)
        self.value_bn = nn.BatchNorm2d(VALUE_PLANES)
        self.value_fc1 = nn.Linear(VALUE_PLANES * 64, VALUE_HIDDEN)
        self.value_fc2 = nn.Linear(VALUE_HIDDEN, 3 if self.wdl else 1)

        self._init_heads()

    @property
    def shape(self):
        """"BxC", or "BxC wdl": how logs and reports name the architecture."""
        return "%dx%d%s" % (self.blocks, self.channels, " wdl" if self.wdl else "")

    def _init_heads(self):
        # The final layers start small (but nonzero) so an untrained net gives a
        # near-uniform policy and a value near 0 -- sensible priors for the first
        # self-play games -- while outputs still depend on the input, which the
        # golden ONNX test needs to be meaningful. Default init would give
        # logits of order 1 and could saturate tanh.
        nn.init.normal_(self.policy_out.weight, mean=0.0, std=0.05)
        nn.init.zeros_(self.policy_out.bias)
        nn.init.normal_(self.value_fc2.weight, mean=0.0, std=0.2)
        nn.init.zeros_(self.value_fc2.bias)

    def forward(self, planes):
        """(policy logits [B, 4672], value head output): the tanh value [B, 1], or with
        wdl the win/draw/loss logits [B, 3] (expected_value turns either into [B, 1])."""
        x = F.relu(self.input_bn(self.input_conv(planes)))
        x = self.tower(x)

        p = F.relu(self.policy_bn(self.policy_conv(x)))
        p = self.policy_out(p)            # [B, 73, 8, 8]
        policy = torch.flatten(p, 1)      # [B, 4672], index plane*64 + rank*8 + file

        v = F.relu(self.value_bn(self.value_conv(x)))
        v = torch.flatten(v, 1)
        v = F.relu(self.value_fc1(v))
        v = self.value_fc2(v)
        if self.wdl:
            return policy, v                 # [B, 3] logits
        return policy, torch.tanh(v)         # [B, 1]


def expected_value(wdl, value_out):
    """The scalar value [B, 1] in [-1, 1] of a value head's output."""
    if not wdl:
        return value_out
    p = F.softmax(value_out, dim=1)
    return p[:, 0:1] - p[:, 2:3]


class Inference(nn.Module):
    """What the engine runs: (policy logits, scalar value) of a Net of either value head."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, planes):
        policy, v = self.net(planes)
        return policy, expected_value(self.net.wdl, v)


def count_parameters(model):
    """Number of trainable parameters (BN running stats are buffers, not counted)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def model_from_checkpoint(path, map_location="cpu", averaged=False):
    """Rebuild a Net from a trainer checkpoint (uses the blocks/channels stored in it):
    its live weights, or with averaged the weight average that train.py --ema exported
    last (ValueError when the checkpoint holds none)."""
    ckpt = torch.load(path, map_location=map_location)
    net = Net(ckpt["blocks"], ckpt["channels"], ckpt.get("wdl", False))
    if averaged:
        exported = (ckpt.get("ema") or {}).get("exported")
        if exported is None:
            raise ValueError("%s holds no exported weight average (train.py --ema ... --export writes one)" % path)
        net.load_state_dict(exported)
    else:
        net.load_state_dict(ckpt["model"])
    return net, ckpt


if __name__ == "__main__":
    for b, c in [(4, 32), (4, 64), (6, 64), (6, 96), (6, 128), (10, 128)]:
        print("%2dx%-4d %9d parameters" % (b, c, count_parameters(Net(b, c))))
