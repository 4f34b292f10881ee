"""Rebuild a trainable Net from an ONNX file that export.py wrote.

The shipped network lives in git only as ONNX (azero/onnx/default.onnx); its trainer
checkpoint went with the run directory. To continue learning from it, a loop starts
from a Net rebuilt from the graph:

  net = net_from_onnx("azero/onnx/default.onnx")

The exporter folds every BatchNorm into the convolution before it (weight and a bias per
channel), so the graph holds no BN statistics. The rebuilt Net takes the folded weights
and an identity BN (running mean 0, variance 1 - eps, scale 1, shift = the folded bias):
in eval mode it computes exactly the ONNX function. In training mode BN normalises by
the batch's statistics instead, which such an identity BN does not match, so the first
training run calls calibrate_batchnorm with real samples first: it sets each BN's
running statistics to the batch statistics of its input and its scale and shift to undo
them, which leaves the eval-mode function unchanged and makes the training-mode one
match it (train.py's --init-onnx does both; its checkpoint records that the calibration
is still to do). Only the functions reading ONNX need the onnx package (Debian's
python3-onnx).
"""

import torch

from model import IN_PLANES, Net


def _conv_pairs(net):
    """(conv, bn or None) in the order the exported graph runs them."""
    pairs = [(net.input_conv, net.input_bn)]
    for block in net.tower:
        pairs += [(block.conv1, block.bn1), (block.conv2, block.bn2)]
    pairs += [(net.policy_conv, net.policy_bn), (net.policy_out, None), (net.value_conv, net.value_bn)]
    return pairs


def net_from_onnx(path):
    """A Net (eval mode) computing the ONNX file's function; ValueError if the graph is
    not one of export.py's."""
    import onnx
    from onnx import numpy_helper

    try:
        model = onnx.load(path)
    except OSError:
        raise
    except Exception as e:  # protobuf's DecodeError and kin: not an ONNX file at all
        raise ValueError("%s: not an ONNX file (%s)" % (path, e.__class__.__name__))
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    # The weights of the Conv and Gemm (the value head's Linear) nodes, in graph order:
    # the convolutions input conv, 2 per block, policy conv, policy out, value conv; the
    # dense layers value fc1, fc2.
    layers = {"Conv": [], "Gemm": []}
    for node in model.graph.node:
        if node.op_type not in layers:
            continue
        if len(node.input) < 2 or node.input[1] not in inits:
            raise ValueError("%s: a %s node without constant weights" % (path, node.op_type))
        w = inits[node.input[1]]
        b = inits[node.input[2]] if len(node.input) > 2 and node.input[2] in inits else None
        layers[node.op_type].append((w, b))
    convs, linears = layers["Conv"], layers["Gemm"]
    # One network: its first convolution reads the 19 input planes, two dense layers end it.
    if (len(convs) < 4 or (len(convs) - 4) % 2 or convs[0][0].ndim != 4 or convs[0][0].shape[1] != IN_PLANES
            or len(linears) != 2 or any(b is None for _, b in linears)):
        raise ValueError("%s: %d convolutions and %d dense layers; not a network export.py wrote"
                         % (path, len(convs), len(linears)))
    blocks, channels = (len(convs) - 4) // 2, convs[0][0].shape[0]
    wdl = linears[1][0].shape[0] == 3
    net = Net(blocks, channels, wdl)
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(_conv_pairs(net), convs):
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError("%s: convolution of shape %s where a %dx%d net has %s"
                                 % (path, w.shape, blocks, channels, tuple(conv.weight.shape)))
            conv.weight.copy_(torch.tensor(w))
            bias = torch.tensor(b) if b is not None else torch.zeros(w.shape[0])
            if bn is None:
                conv.bias.copy_(bias)
                continue
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
        for layer, (w, b) in zip((net.value_fc1, net.value_fc2), linears):
            for dst, src in ((layer.weight, w), (layer.bias, b)):
                if tuple(dst.shape) != src.shape:
                    raise ValueError("%s: a value head layer of shape %s where a %dx%d net has %s"
                                     % (path, src.shape, blocks, channels, tuple(dst.shape)))
                dst.copy_(torch.tensor(src))
    return net.eval()


@torch.no_grad()
def calibrate_batchnorm(net, planes):
    """Set every BN's statistics to those of its input over planes (a [N, 19, 8, 8]
    tensor of real positions) without changing the eval-mode function.

    In eval mode a BN computes (z - mean) / sqrt(var + eps) * weight + bias. With
    weight = sqrt(var + eps) and bias = old shift + mean, that is z + old shift, as before,
    whatever mean and var are (every BN here has weight sqrt(running_var + eps) on entry,
    true of net_from_onnx's identity BN), so all BNs can take their statistics from one
    forward pass."""
    bns = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    seen = {}
    hooks = [bn.register_forward_hook(lambda m, inp, out: seen.__setitem__(m, inp[0])) for bn in bns]
    was_training = net.training
    net.eval()
    try:
        net(planes)
    finally:
        for h in hooks:
            h.remove()
        net.train(was_training)
    for bn in bns:
        z = seen[bn].transpose(0, 1).reshape(bn.num_features, -1)
        mean, var = z.mean(dim=1), z.var(dim=1, unbiased=False)
        shift = bn.bias - bn.running_mean / torch.sqrt(bn.running_var + bn.eps) * bn.weight
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.copy_(torch.sqrt(var + bn.eps))
        bn.bias.copy_(shift + mean)
