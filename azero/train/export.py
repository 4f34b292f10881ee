"""Export a twofold network to ONNX, plus a golden-output file for the Go runtime test.

  python3 azero/train/export.py --blocks 6 --channels 64 \
      --out azero/onnx/default.onnx --golden azero/onnx/testdata/golden.json
  python3 azero/train/export.py --checkpoint run/checkpoint.pt --out net.onnx

Without --checkpoint the weights are a fresh, seeded (--seed) random init: that is the
untrained default network the engine ships with. The golden JSON holds fixed inputs and
the PyTorch (eval-mode, float32) outputs for them; the Go test feeds the same inputs to
ONNX Runtime and compares, which checks the export and the Go tensor plumbing end to end.
"""

import argparse
import copy
import inspect
import json
import os
import sys
import tempfile

import numpy as np
import torch

from model import Inference, Net, count_parameters, model_from_checkpoint, IN_PLANES

OPSET = 17
GOLDEN_SEED = 12345
GOLDEN_RANDOM_INPUTS = 4


def export_onnx(model, path):
    """Write model to path as ONNX (opset 17, dynamic batch), atomically.

    The model is deep-copied to CPU in eval mode so the caller's (possibly CUDA,
    training-mode) model is untouched and BN uses running statistics in the graph.
    The file appears under its final name only when complete (temp file + os.replace),
    so a self-play process polling for new nets never loads a half-written one.
    """
    net = Inference(copy.deepcopy(model).to("cpu").float()).eval()
    dummy = torch.zeros(1, IN_PLANES, 8, 8, dtype=torch.float32)
    kwargs = dict(
        export_params=True,
        opset_version=OPSET,
        do_constant_folding=True,
        input_names=["planes"],
        output_names=["policy", "value"],
        dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"}, "value": {0: "batch"}},
    )
    # PyTorch >= 2.9 defaults to the dynamo exporter (needs onnxscript, handles
    # dynamic_axes differently); the TorchScript exporter is what we test against.
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = False
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".onnx.tmp", dir=directory)
    os.close(fd)
    try:
        with torch.no_grad():
            torch.onnx.export(net, (dummy,), tmp, **kwargs)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def golden_inputs():
    """Deterministic fixture inputs, float32 [5, 19, 8, 8].

    Four random positions (planes 0-16 binary with p=0.1, plane 17 = 0.17, plane 18 = 0.05),
    then one all-zero input.
    """
    rs = np.random.RandomState(GOLDEN_SEED)
    xs = []
    for _ in range(GOLDEN_RANDOM_INPUTS):
        x = np.zeros((IN_PLANES, 8, 8), np.float32)
        x[:17] = (rs.random_sample((17, 8, 8)) < 0.1).astype(np.float32)
        x[17] = 0.17
        x[18] = 0.05
        xs.append(x)
    xs.append(np.zeros((IN_PLANES, 8, 8), np.float32))
    return np.stack(xs)


def _f32(x):
    # Shortest decimal that round-trips the float32 (<= 9 significant digits): exact
    # for the Go side, which parses into float32, and half the size of a double repr.
    return float(np.format_float_positional(np.float32(x), unique=True, trim="0"))


def golden_outputs(model, inputs):
    net = Inference(copy.deepcopy(model).to("cpu").float()).eval()
    with torch.no_grad():
        policy, value = net(torch.from_numpy(inputs))
    return policy.numpy(), value.numpy()[:, 0]


def write_golden(model, path):
    inputs = golden_inputs()
    policy, value = golden_outputs(model, inputs)
    doc = {
        "blocks": model.blocks,
        "channels": model.channels,
        "inputs": [[_f32(v) for v in x.reshape(-1)] for x in inputs],
        "policy": [[_f32(v) for v in p] for p in policy],
        "value": [_f32(v) for v in value],
    }
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".golden-", suffix=".json.tmp", dir=directory)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1, help="torch seed for a fresh (untrained) network")
    ap.add_argument("--checkpoint", help="trainer checkpoint.pt; overrides --blocks/--channels")
    ap.add_argument("--averaged", action="store_true",
                    help="with --checkpoint: the weight average that train.py --ema exported last "
                         "(its batch norms as measured then) instead of the live weights")
    ap.add_argument("--out", required=True, help="ONNX output path")
    ap.add_argument("--golden", help="also write golden JSON (fixture inputs + PyTorch outputs)")
    args = ap.parse_args(argv)

    if args.checkpoint:
        try:
            model, ckpt = model_from_checkpoint(args.checkpoint, averaged=args.averaged)
        except ValueError as e:
            ap.error(str(e))
        src = "checkpoint %s (step %d%s)" % (args.checkpoint, ckpt.get("step", 0),
                                             ", weight average" if args.averaged else "")
    else:
        torch.manual_seed(args.seed)
        model = Net(args.blocks, args.channels)
        src = "random init, seed %d" % args.seed
    model.eval()

    export_onnx(model, args.out)
    print("wrote %s: %s, %d parameters, %d bytes, %s"
          % (args.out, model.shape, count_parameters(model),
             os.path.getsize(args.out), src))
    if args.golden:
        doc = write_golden(model, args.golden)
        print("wrote %s: %d inputs, value %s" % (args.golden, len(doc["inputs"]), doc["value"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
