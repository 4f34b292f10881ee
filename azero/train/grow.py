"""Grow a network (more residual blocks, more channels) without changing what it computes.

  python3 azero/train/grow.py --network azero/onnx/default.onnx --blocks 6 --channels 48 \
      --out runs/grown.onnx

The grown network plays exactly as its parent (the same policy and value for every
position, up to float rounding) but has room to learn more: it can start a climb (engine
climb --init-network) where training a larger network from nothing would first have to
relearn everything the parent knows. This is Net2Net's idea (Chen, Goodfellow and Shlens
2015), done here by keeping the parent's function on the parent's channels:

  - every weight from an old channel to an old channel is the parent's; every weight
    that would carry a new channel into an old one (or into a head) is zero, so the old
    channels and both heads compute what they did;
  - every weight into a new channel is a fresh random init (PyTorch's default), so the
    new channels carry features from the first step and their outgoing weights get a
    gradient at once; new batch norms start as identities;
  - new blocks go after the parent's, with their second convolution's outputs to the old
    channels zero: such a block adds nothing to the residual stream, relu(x + 0) = x for
    the non-negative x a block receives.

The result is checked before it is written: the grown and the parent network are run on
random positions and the largest difference must stay under --tolerance.
"""

import argparse
import os
import sys

import numpy as np
import torch

from model import IN_PLANES, Inference, Net, count_parameters, model_from_checkpoint


def _copy_conv(dst, src):
    """Put src's weights into the top-left corner of dst's (dst is at least as large in
    both channel dimensions); the extra input columns of src's output rows (new input
    channels into old output channels) become zero, the extra rows keep dst's init."""
    o, i = src.weight.shape[0], src.weight.shape[1]
    dst.weight[:o, i:] = 0
    dst.weight[:o, :i] = src.weight
    if src.bias is not None:
        dst.bias[:o] = src.bias


def _copy_bn(dst, src):
    """The parent's batch norm on the old channels; identity on the new ones."""
    n = src.num_features
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(dst, name)[:n] = getattr(src, name)
    dst.weight[n:] = 1
    dst.bias[n:] = 0
    dst.running_mean[n:] = 0
    dst.running_var[n:] = 1 - dst.eps


@torch.no_grad()
def grow(parent, blocks, channels, seed=1):
    """A Net of blocks x channels (at least the parent's) computing parent's function."""
    if blocks < parent.blocks or channels < parent.channels:
        raise ValueError("cannot shrink a %s network to %dx%d" % (parent.shape, blocks, channels))
    torch.manual_seed(seed)
    net = Net(blocks, channels, parent.wdl).eval()
    c = parent.channels

    _copy_conv(net.input_conv, parent.input_conv)
    _copy_bn(net.input_bn, parent.input_bn)
    for k, block in enumerate(net.tower):
        if k < parent.blocks:
            old = parent.tower[k]
            _copy_conv(block.conv1, old.conv1)
            _copy_bn(block.bn1, old.bn1)
            _copy_conv(block.conv2, old.conv2)
            _copy_bn(block.bn2, old.bn2)
        else:
            # A new block: everything in it is new, so its outputs to the old channels
            # are zero; its batch norms start as identities.
            block.conv2.weight[:c] = 0
            for bn in (block.bn1, block.bn2):
                bn.weight.fill_(1)
                bn.bias.zero_()
                bn.running_mean.zero_()
                bn.running_var.fill_(1 - bn.eps)
    _copy_conv(net.policy_conv, parent.policy_conv)
    _copy_bn(net.policy_bn, parent.policy_bn)
    # The heads' outputs are fixed in size, so all their rows are old ones: the
    # parent's weights, zero from the new channels.
    _copy_conv(net.policy_out, parent.policy_out)
    _copy_conv(net.value_conv, parent.value_conv)
    net.value_bn.load_state_dict(parent.value_bn.state_dict())
    net.value_fc1.load_state_dict(parent.value_fc1.state_dict())
    net.value_fc2.load_state_dict(parent.value_fc2.state_dict())
    return net


@torch.no_grad()
def largest_difference(a, b, positions=256, seed=1):
    """The largest absolute difference of two networks' policy logits and values over
    random positions (sparse 0/1 planes, like real ones)."""
    rs = np.random.RandomState(seed)
    planes = torch.from_numpy((rs.random_sample((positions, IN_PLANES, 8, 8)) < 0.15).astype(np.float32))
    pa, va = Inference(a.eval())(planes)
    pb, vb = Inference(b.eval())(planes)
    return max((pa - pb).abs().max().item(), (va - vb).abs().max().item())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--network", help="the parent network, an ONNX file export.py wrote")
    src.add_argument("--checkpoint", help="the parent network, a trainer checkpoint.pt")
    ap.add_argument("--averaged", action="store_true",
                    help="with --checkpoint: its exported weight average (train.py --ema)")
    ap.add_argument("--blocks", type=int, help="residual blocks of the grown network (default: the parent's)")
    ap.add_argument("--channels", type=int, help="channels of the grown network (default: the parent's)")
    ap.add_argument("--seed", type=int, default=1, help="torch seed for the new weights")
    ap.add_argument("--tolerance", type=float, default=1e-4,
                    help="largest difference from the parent allowed on random positions")
    ap.add_argument("--out", required=True, help="ONNX output path")
    args = ap.parse_args(argv)

    try:
        if args.network:
            from onnx_import import net_from_onnx  # needs the onnx package, only here
            parent, name = net_from_onnx(args.network), args.network
        else:
            parent, _ = model_from_checkpoint(args.checkpoint, averaged=args.averaged)
            name = args.checkpoint
    except (OSError, ValueError) as e:
        ap.error(str(e))
    parent.eval()
    blocks = args.blocks if args.blocks is not None else parent.blocks
    channels = args.channels if args.channels is not None else parent.channels
    try:
        net = grow(parent, blocks, channels, args.seed)
    except ValueError as e:
        ap.error(str(e))
    diff = largest_difference(parent, net)
    if not diff <= args.tolerance:
        print("grow: the grown network differs from its parent by %g (more than %g); nothing written"
              % (diff, args.tolerance), file=sys.stderr)
        return 1

    from export import export_onnx
    export_onnx(net, args.out)
    print("wrote %s: %s grown from %s %s (%d -> %d parameters), largest difference %.2g"
          % (args.out, net.shape, parent.shape, name, count_parameters(parent), count_parameters(net), diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
