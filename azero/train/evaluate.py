"""Held-out loss of networks: how well each predicts a sample set's split it was not trained on.

  python3 azero/train/evaluate.py --sample-set set [--split hold] run/checkpoint.pt net.onnx ...

For each network (a trainer checkpoint, or an ONNX file export.py wrote) it prints the policy
cross-entropy against the search's targets (with the targets' own entropy, the floor no
network can go under) and the mean squared error of the value against the game results.
It answers "which of these fits unseen games best" in seconds, where a ladder takes an
hour; the ladder stays the judge of strength (a value head that fits results better need
not search better). The loss is the trainer's, so numbers compare with its log.
"""

import argparse
import json
import lzma
import sys

import numpy as np
import torch
import torch.nn.functional as F

import sampleset
from model import expected_value, model_from_checkpoint


def load_network(path):
    """A Net in eval mode from a checkpoint (.pt) or an ONNX file export.py wrote."""
    if path.endswith(".onnx"):
        from onnx_import import net_from_onnx  # needs the onnx package, only here
        net = net_from_onnx(path)
    else:
        net, _ = model_from_checkpoint(path)
    return net.eval()


def evaluate(net, data, batch=1024, device="cpu"):
    """{samples, policy, entropy, value_mse} of net on every sample of data (a Packed)."""
    net = net.to(device)
    n = len(data)
    policy = entropy = value = 0.0
    with torch.no_grad():
        for lo in range(0, n, batch):
            planes, pol, val = (torch.from_numpy(x).to(device) for x in data.dense(np.arange(lo, min(lo + batch, n))))
            logits, v = net(planes)
            v = expected_value(net.wdl, v).squeeze(1)
            policy += float(-(pol * F.log_softmax(logits, dim=1)).sum())
            entropy += float(-(pol * torch.log(pol.clamp_min(1e-12))).sum())
            value += float(((v - val) ** 2).sum())
    return {"samples": n, "policy": policy / n, "entropy": entropy / n, "value_mse": value / n}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample-set", required=True, help="sample set folder (sampleset.py)")
    ap.add_argument("--split", default="hold", choices=sampleset.SPLITS)
    ap.add_argument("--last", type=int, default=0, help="only the split's newest N samples (0 = all)")
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--json", action="store_true", help="one JSON object per network")
    ap.add_argument("networks", nargs="+", help="checkpoint.pt or .onnx files")
    args = ap.parse_args(argv)
    try:
        data = sampleset.load(args.sample_set, args.split)
    except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
        print("evaluate: %s" % e, file=sys.stderr)
        return 2
    if args.last:
        data = data.tail(args.last)
    if len(data) == 0:
        print("evaluate: the %s split of %s is empty" % (args.split, args.sample_set), file=sys.stderr)
        return 2
    status = 0
    for path in args.networks:
        try:
            net = load_network(path)
        except Exception as e:  # a bad file is reported, the others still measured
            print("evaluate: %s: %s" % (path, e), file=sys.stderr)
            status = 2
            continue
        r = evaluate(net, data, device=args.device)
        r["network"], r["shape"] = path, net.shape
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            print("%s (%s): %s split, %d samples: policy %.4f (target entropy %.4f), value mse %.4f"
                  % (path, r["shape"], args.split, r["samples"], r["policy"], r["entropy"], r["value_mse"]),
                  flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
