"""Trainer for the twofold policy/value network.

One invocation does --steps SGD steps on the newest self-play chunks and exits, so an
outer loop can alternate self-play, training and export:

  python3 azero/train/train.py --run-dir run --init-only --blocks 6 --channels 64 \
      --export run/net.onnx
  python3 azero/train/train.py --chunks selfplay/ --window 50 --run-dir run \
      --steps 1000 --export run/net.onnx

State lives in RUN_DIR/checkpoint.pt (model, optimizer incl. momentum, global step,
blocks, channels). It is written atomically every --checkpoint-every steps and at the
end, so killing the trainer loses at most that many steps, and the next invocation
resumes with the same optimizer state and step count. --blocks/--channels only matter
when no checkpoint exists yet. SIGINT/SIGTERM stop after the current step and save.

Optimizer: SGD, momentum 0.9, Nesterov, constant --lr (default 0.02), L2 via
weight_decay (--l2, default 1e-4) -- the AlphaZero/Leela choice; it is robust with
BatchNorm and cheap. The --lr given on each invocation overrides the one stored in
the checkpoint, so the outer loop owns the learning-rate schedule.

Loss = policy cross-entropy against the root visit distribution
       (-sum target * log_softmax(logits)) + value MSE (tanh output vs game result);
the L2 term is applied by the optimizer, so the printed "loss" is policy + value.

Data: the newest --window chunk files by (mtime, name), optionally capped to the newest
--window-samples samples, are held in memory in packed form (chunks.Packed, ~0.2-0.5 KB
per sample) and minibatches are drawn uniformly at random with replacement, expanded to
dense tensors per batch.

Exit codes: 0 ok, 2 no usable chunks / bad arguments, 130 interrupted (checkpoint saved).
"""

import argparse
import os
import signal
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from chunks import ChunkError, Packed, list_chunks, read_chunk_packed
from export import export_onnx
from model import Net, count_parameters

CHECKPOINT = "checkpoint.pt"
CHECKPOINT_FORMAT = 1


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", help="self-play chunk directory (*.twfc.gz)")
    ap.add_argument("--window", type=int, default=0, help="use only the newest N chunk files (0 = all)")
    ap.add_argument("--window-samples", type=int, default=0, help="cap on samples kept, newest first (0 = no cap)")
    ap.add_argument("--run-dir", required=True, help="directory holding checkpoint.pt")
    ap.add_argument("--steps", type=int, default=0, help="training steps to do in this invocation")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--l2", type=float, default=1e-4, help="weight decay")
    ap.add_argument("--blocks", type=int, default=6, help="only used when no checkpoint exists")
    ap.add_argument("--channels", type=int, default=64, help="only used when no checkpoint exists")
    ap.add_argument("--export", help="write ONNX here after training (atomic)")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0 = torch default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=1)
    ap.add_argument("--checkpoint-every", type=int, default=100)
    ap.add_argument("--init-only", action="store_true",
                    help="create a fresh checkpoint (and --export) without training")
    args = ap.parse_args(argv)
    for name in ("steps", "window", "window_samples", "threads"):
        if getattr(args, name) < 0:
            ap.error("--%s must be >= 0" % name.replace("_", "-"))
    for name in ("batch", "log_every", "checkpoint_every", "blocks", "channels"):
        if getattr(args, name) < 1:
            ap.error("--%s must be >= 1" % name.replace("_", "-"))
    return args


def make_optimizer(model, lr, l2):
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True, weight_decay=l2)


def save_checkpoint(path, model, opt, step):
    """torch.save to a temp file, fsync, then os.replace: never a torn checkpoint."""
    state = {
        "format": CHECKPOINT_FORMAT,
        "model": model.state_dict(),
        "optimizer": opt.state_dict(),
        "optimizer_name": "sgd-nesterov",
        "step": int(step),
        "blocks": model.blocks,
        "channels": model.channels,
    }
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_or_create(args, device):
    """(model, optimizer, step, created) from RUN_DIR/checkpoint.pt or a fresh seeded init."""
    path = os.path.join(args.run_dir, CHECKPOINT)
    if os.path.exists(path):
        ckpt = torch.load(path, map_location="cpu")
        if ckpt.get("format") != CHECKPOINT_FORMAT:
            raise SystemExit("%s: unknown checkpoint format %r" % (path, ckpt.get("format")))
        model = Net(ckpt["blocks"], ckpt["channels"])
        model.load_state_dict(ckpt["model"])
        model.to(device)
        opt = make_optimizer(model, args.lr, args.l2)
        opt.load_state_dict(ckpt["optimizer"])  # moves momentum buffers to the params' device
        for g in opt.param_groups:  # command line owns lr / l2
            g["lr"] = args.lr
            g["weight_decay"] = args.l2
        return model, opt, int(ckpt["step"]), False
    torch.manual_seed(args.seed)
    model = Net(args.blocks, args.channels).to(device)
    return model, make_optimizer(model, args.lr, args.l2), 0, True


def load_window(directory, window, max_samples):
    """Newest `window` chunks (by mtime, name), newest samples first up to max_samples."""
    if not directory:
        return None, "--chunks DIR is required (unless --init-only)"
    if not os.path.isdir(directory):
        return None, "chunk directory %r does not exist" % directory
    paths = list_chunks(directory)
    if window:
        paths = paths[-window:]
    if not paths:
        return None, "no *.twfc.gz chunks in %s" % directory
    parts, total, used = [], 0, 0
    for p in reversed(paths):  # newest first, so the sample cap drops the oldest data
        try:
            packed = read_chunk_packed(p)
        except (ChunkError, OSError) as e:
            # A long-running loop should not die on one bad file; say so loudly.
            log("warning: skipping chunk: %s" % e)
            continue
        if max_samples and total + len(packed) > max_samples:
            packed = packed.tail(max_samples - total)
        parts.append(packed)
        total += len(packed)
        used += 1
        if max_samples and total >= max_samples:
            break
    data = Packed.concat(parts[::-1])
    if len(data) == 0:
        return None, "no samples in the %d newest chunks of %s" % (len(paths), directory)
    log("window: %d samples from %d chunk files (newest %s)" % (len(data), used, os.path.basename(paths[-1])))
    return data, None


def resolve_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: CUDA is not available")
    return torch.device(name)


def losses(model, planes, policy_target, value_target):
    logits, value = model(planes)
    policy_loss = -(policy_target * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = F.mse_loss(value.squeeze(1), value_target)
    return policy_loss, value_loss


def main(argv=None):
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = resolve_device(args.device)
    os.makedirs(args.run_dir, exist_ok=True)
    ckpt_path = os.path.join(args.run_dir, CHECKPOINT)

    model, opt, step, created = load_or_create(args, device)
    log("%s %dx%d net (%d parameters) at step %d on %s"
        % ("created" if created else "resumed", model.blocks, model.channels,
           count_parameters(model), step, device))

    if args.init_only:
        if created:
            save_checkpoint(ckpt_path, model, opt, step)
            log("wrote %s" % ckpt_path)
        else:
            log("%s exists; left unchanged" % ckpt_path)
        if args.export:
            export_onnx(model, args.export)
            log("exported %s" % args.export)
        return 0

    data, err = load_window(args.chunks, args.window, args.window_samples)
    if data is None:
        log("error: " + err)
        return 2

    stop = []

    def on_signal(signum, frame):
        stop.append(signum)

    old = {}
    for s in (signal.SIGINT, signal.SIGTERM):
        try:
            old[s] = signal.signal(s, on_signal)
        except ValueError:  # not the main thread (e.g. called from a test harness)
            pass
    # A different sample stream per invocation, reproducible from (seed, step).
    rng = np.random.default_rng([args.seed, step])
    torch.manual_seed(args.seed * 1000003 + step)
    model.train()
    n = len(data)
    t_last, done_since_log = time.perf_counter(), 0
    sums = np.zeros(3)
    try:
        for _ in range(args.steps):
            idx = rng.integers(0, n, size=args.batch)
            planes, pol, val = data.dense(idx)
            planes = torch.from_numpy(planes).to(device, non_blocking=True)
            pol = torch.from_numpy(pol).to(device, non_blocking=True)
            val = torch.from_numpy(val).to(device, non_blocking=True)

            policy_loss, value_loss = losses(model, planes, pol, val)
            loss = policy_loss + value_loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            done_since_log += 1
            sums += (loss.item(), policy_loss.item(), value_loss.item())

            if step % args.log_every == 0:
                now = time.perf_counter()
                avg = sums / done_since_log
                print("step %d loss %.5f policy %.5f value %.5f lr %g samples/s %.0f"
                      % (step, avg[0], avg[1], avg[2], opt.param_groups[0]["lr"],
                         done_since_log * args.batch / max(now - t_last, 1e-9)), flush=True)
                t_last, done_since_log, sums = now, 0, np.zeros(3)
            if step % args.checkpoint_every == 0:
                save_checkpoint(ckpt_path, model, opt, step)
            if stop:
                break
    finally:
        for s, h in old.items():
            signal.signal(s, h)

    save_checkpoint(ckpt_path, model, opt, step)
    log("saved %s at step %d" % (ckpt_path, step))
    if stop:
        log("interrupted; not exporting")
        return 130
    if args.export:
        export_onnx(model, args.export)
        log("exported %s" % args.export)
    return 0


if __name__ == "__main__":
    sys.exit(main())
