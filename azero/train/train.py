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
       (-sum target * log_softmax(logits)) + value MSE (tanh output vs game result, or with
       --q-ratio r the blend (1-r)*result + r*q with the search's root value q where the
       chunk has one: less noise per sample than the result alone, at the search's bias);
       with --wdl (a new network's value head: win/draw/loss logits) the value loss is the
       cross-entropy against the one-hot result, blended the same way with the search
       value as (max(q,0), 1-|q|, max(-q,0));
the L2 term is applied by the optimizer, so the printed "loss" is policy + value.

Two opt-in techniques, off by default (today's recipe), not yet compared at equal compute:

--surprise-weight F (policy-surprise weighting, KataGo: Wu, "Accelerating Self-Play
Learning in Go", 2019): each sample's loss (policy and value) is weighted by
(1 - F) + F * kl / mean(kl) over the minibatch, kl = KL(policy target || the network's
policy), so a fraction F of the batch's weight goes to the positions whose search result
surprised the network and the rest stays uniform. The weights average 1, so the loss
scale is unchanged. The chunks do not store the self-play prior (azero/chunk), so the
prior is the current network's policy, from the same training forward pass (detached:
no gradient flows through the weights). The printed losses are the weighted ones that
are optimised; evaluate.py's held-out loss is unweighted, the number to compare.

--ema DECAY (weight averaging, as KataGo's and Lc0's averaged nets): after every step the
trainer updates an exponential moving average of the weights,
avg = d * avg + (1 - d) * weights with d = min(DECAY, n / (n + 1)) after n updates, so
the first 1 / (1 - DECAY) steps are a plain mean of the iterates (no weight on the
starting point) and later ones an EMA of horizon about 1 / (1 - DECAY) steps. The
average lives in the checkpoint ("ema": its update count and parameters), so a resumed
run continues it; the training itself goes on from the live weights. --export then
writes the averaged network, its batch-norm statistics recomputed: the running
statistics belong to the live weights, and those of averaged weights are neither the
live ones nor their average, so the averaged net runs in training mode over
BN_RECOMPUTE_SAMPLES random positions of the window (cumulative mean of the batch
statistics, as SWA's update_bn). A checkpoint with an average, resumed without --ema,
drops it.

Data: the newest --window chunk files by (mtime, name), optionally capped to the newest
--window-samples samples, are held in memory in packed form (chunks.Packed, ~0.2-0.5 KB
per sample) and minibatches are drawn uniformly at random with replacement, expanded to
dense tensors per batch. --sample-set DIR takes the samples from a sample set instead
(sampleset.py: a run's chunks packed into a few compressed columns, to carry to a GPU
machine), its training split capped the same way by --window-samples.

Multi-process data parallel (DistributedDataParallel), launched by torchrun:

  python3 -m torch.distributed.run --standalone --nproc_per_node=N azero/train/train.py \
      --chunks selfplay/ --window 50 --run-dir run --steps 1000 --export run/net.onnx

(torch 1.x on Python >= 3.11, e.g. Debian's torch 1.13: the stock launcher crashes on its
default --redirects/--tee; run `python3 azero/train/ddp_launch.py` with the same
arguments instead -- see that file.)

When WORLD_SIZE > 1 (set by torchrun with RANK / LOCAL_RANK / MASTER_ADDR / MASTER_PORT)
the trainer joins a process group -- backend "nccl" on CUDA (device cuda:LOCAL_RANK),
"gloo" on CPU -- and wraps the net in DDP. Every rank loads the same window (rank 0
picks the chunk files and broadcasts the list) and draws its own minibatches (the
sampling seed includes the rank), so one step sees world_size x --batch samples and
DDP averages the gradients; --lr is not rescaled. BatchNorm running statistics are
rank 0's (DDP broadcasts buffers each forward). Every rank builds or loads the same
checkpoint, so all start identical. Only rank 0 prints, writes checkpoints (the plain
Net's state_dict, loadable without DDP) and exports ONNX; printed losses are averaged
over the ranks. A SIGINT/SIGTERM on any rank stops all ranks after the same step
(torchrun forwards signals to the workers and kills them 30 s later). Without
WORLD_SIZE, or with WORLD_SIZE=1, no process group is created.

Non-finite values: a loss that is NaN or infinite (e.g. --lr far too high), weights or
BatchNorm statistics that are, or network outputs on a batch of the window that are, stop
the trainer with exit code 3 before it writes anything: the checkpoint stays at its last
finite save and nothing is exported, so a diverged network never reaches gating or
self-play. A checkpoint that already holds non-finite weights is refused the same way.

--exit-with-parent (the loop passes it) makes the trainer exit at once when its parent
process dies, so it cannot keep writing the checkpoint that a restarted loop trains on;
on Linux the loop also has the kernel kill it (parent-death signal).

--target-key KEY makes the step count idempotent: the first invocation with a KEY records
its target step (current step + --steps) in RUN_DIR/target.json, and every later one
with the same KEY trains only up to that step. The loop passes its iteration, so a trainer
killed mid-iteration and started again ends the iteration where one uninterrupted run
would have (step 1,000, not 1,000 plus the steps done before the kill).

Exit codes: 0 ok, 2 no usable chunks / bad arguments, 3 non-finite loss, weights or outputs
(nothing saved or exported), 130 interrupted (checkpoint saved).
"""

import argparse
import copy
import json
import lzma
import math
import os
import signal
import sys
import threading
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F

from chunks import list_chunks, read_chunks
from export import export_onnx
from model import Inference, Net, count_parameters

CHECKPOINT = "checkpoint.pt"
CHECKPOINT_FORMAT = 1
EXIT_DIVERGED = 3
FINITE_CHECK_SAMPLES = 64
# A checkpoint made from an ONNX network (--init-onnx) carries this key until its batch
# norms have been calibrated on CALIBRATION_SAMPLES positions (onnx_import.py says why).
NEEDS_CALIBRATION = "needs_bn_calibration"
CALIBRATION_SAMPLES = 2048
# Positions of the window on which an averaged network's batch norms are measured.
BN_RECOMPUTE_SAMPLES = 4096


# Rank of this process in a torchrun job (0 when not distributed); only rank 0 logs
# unless a message is marked every_rank.
_rank = 0


def log(msg, every_rank=False):
    if _rank == 0:
        print(msg, file=sys.stderr, flush=True)
    elif every_rank:
        print("[rank %d] %s" % (_rank, msg), file=sys.stderr, flush=True)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", help="self-play chunk directory (*.twfc.gz)")
    ap.add_argument("--window", type=int, default=0, help="use only the newest N chunk files (0 = all)")
    ap.add_argument("--window-samples", type=int, default=0, help="cap on samples kept, newest first (0 = no cap)")
    ap.add_argument("--sample-set", metavar="DIR",
                    help="train on a sample set's training split (sampleset.py) instead of --chunks; "
                         "--window-samples still keeps only its newest samples")
    ap.add_argument("--run-dir", help="directory holding checkpoint.pt (required)")
    ap.add_argument("--steps", type=int, default=0, help="training steps to do in this invocation")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--l2", type=float, default=1e-4, help="weight decay")
    ap.add_argument("--q-ratio", type=float, default=0.0,
                    help="value target = (1-r)*result + r*search value where known (0 = result only)")
    ap.add_argument("--ema", type=float, default=0.0, metavar="DECAY",
                    help="keep an exponential moving average of the weights with this decay (e.g. 0.999) "
                         "and export it (0 = off)")
    ap.add_argument("--surprise-weight", type=float, default=0.0, metavar="F",
                    help="give this fraction of the sample weight in proportion to each sample's policy "
                         "surprise, KL(target || network policy), the rest uniform (0 = off)")
    ap.add_argument("--blocks", type=int, default=6, help="only used when no checkpoint exists")
    ap.add_argument("--channels", type=int, default=64, help="only used when no checkpoint exists")
    ap.add_argument("--wdl", action="store_true",
                    help="a win/draw/loss value head (only used when no checkpoint exists)")
    ap.add_argument("--export", help="write ONNX here after training (atomic)")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0 = torch default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=1)
    ap.add_argument("--checkpoint-every", type=int, default=100)
    ap.add_argument("--init-onnx", metavar="FILE",
                    help="when no checkpoint exists, start from this ONNX network's weights (one export.py "
                         "wrote, such as azero/onnx/default.onnx) instead of a random init; its shape "
                         "replaces --blocks/--channels/--wdl")
    ap.add_argument("--init-only", action="store_true",
                    help="create a fresh checkpoint (and --export) without training")
    ap.add_argument("--target-key",
                    help="train up to the target step recorded for this key in RUN_DIR/target.json "
                         "(recorded as step + --steps the first time)")
    ap.add_argument("--exit-with-parent", action="store_true",
                    help="exit at once when the parent process dies (the training loop sets it)")
    ap.add_argument("--check", action="store_true",
                    help="only check that this Python has what training needs, and say which versions "
                         "(engine train and engine climb run it before they start)")
    args = ap.parse_args(argv)
    if not args.check and not args.run_dir:
        ap.error("--run-dir is required")
    for name in ("steps", "window", "window_samples", "threads"):
        if getattr(args, name) < 0:
            ap.error("--%s must be >= 0" % name.replace("_", "-"))
    for name in ("batch", "log_every", "checkpoint_every", "blocks", "channels"):
        if getattr(args, name) < 1:
            ap.error("--%s must be >= 1" % name.replace("_", "-"))
    if not 0 <= args.q_ratio <= 1:  # also refuses NaN
        ap.error("--q-ratio must be in [0, 1]")
    if not 0 <= args.ema < 1:
        ap.error("--ema must be in [0, 1)")
    if not 0 <= args.surprise_weight <= 1:
        ap.error("--surprise-weight must be in [0, 1]")
    if args.sample_set and args.chunks:
        ap.error("give --chunks or --sample-set, not both")
    return args


def exit_with_parent(interval=0.5):
    """Exit (without saving) as soon as the parent process is gone.

    Belt and braces for the loop's parent-death signal (Linux only, and racy in the
    instant after fork): an orphaned trainer would go on writing the checkpoint that a
    restarted loop's new trainer reads and writes too. The watch is a daemon thread
    polling os.getppid(), which changes when the parent dies and we are reparented."""
    ppid = os.getppid()

    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != ppid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


TARGET = "target.json"


def steps_to_do(args, step, main):
    """Steps this invocation trains: --steps, or up to the --target-key's recorded target.

    Only the main rank writes the target file; every rank computes the same answer."""
    if not args.target_key:
        return args.steps
    path = os.path.join(args.run_dir, TARGET)
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        rec = None
    if isinstance(rec, dict) and rec.get("key") == args.target_key and isinstance(rec.get("step"), int):
        target = rec["step"]
        log("target step %d for %s (recorded earlier)" % (target, args.target_key))
    else:
        target = step + args.steps
        if main:
            tmp = path + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"key": args.target_key, "step": target}, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
    return max(0, target - step)


def nonfinite_tensors(model):
    """Names of the parameters and buffers (BatchNorm statistics) holding NaN or inf."""
    bad = []
    for name, t in list(model.named_parameters()) + list(model.named_buffers()):
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            bad.append(name)
    return bad


def nonfinite_outputs(model, planes):
    """None, or what is non-finite in the eval-mode outputs for planes (what ONNX computes)."""
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            logits, value = Inference(model)(planes)
    finally:
        model.train(was_training)
    for name, t in (("policy", logits), ("value", value)):
        if not bool(torch.isfinite(t).all()):
            return "%s output on the window's first %d samples" % (name, len(planes))
    return None


def make_optimizer(model, lr, l2):
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True, weight_decay=l2)


def save_checkpoint(path, model, opt, step, ema=None, exported=None):
    """torch.save to a temp file, fsync, then os.replace: never a torn checkpoint.

    ema, a WeightAverage, is saved beside the live weights (key "ema"), with exported,
    the averaged network about to be exported, as ema["exported"] (its state_dict, for
    export.py --checkpoint --averaged; a resume does not read it)."""
    state = {
        "format": CHECKPOINT_FORMAT,
        "model": model.state_dict(),
        "optimizer": opt.state_dict(),
        "optimizer_name": "sgd-nesterov",
        "step": int(step),
        "blocks": model.blocks,
        "channels": model.channels,
        "wdl": model.wdl,
    }
    if getattr(model, NEEDS_CALIBRATION, False):
        state[NEEDS_CALIBRATION] = True
    if ema is not None:
        state["ema"] = ema.state_dict()
        if exported is not None:
            state["ema"]["exported"] = exported.state_dict()
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_or_create(args, device):
    """(model, optimizer, step, created, ema state) from RUN_DIR/checkpoint.pt or a fresh
    seeded init; the ema state is the checkpoint's weight average (None: none).

    Deterministic given the checkpoint / --seed, so every rank of a distributed job
    builds the same model and optimizer state."""
    path = os.path.join(args.run_dir, CHECKPOINT)
    if os.path.exists(path):
        ckpt = torch.load(path, map_location=device)
        if ckpt.get("format") != CHECKPOINT_FORMAT:
            raise SystemExit("%s: unknown checkpoint format %r" % (path, ckpt.get("format")))
        model = Net(ckpt["blocks"], ckpt["channels"], ckpt.get("wdl", False))
        model.load_state_dict(ckpt["model"])
        setattr(model, NEEDS_CALIBRATION, bool(ckpt.get(NEEDS_CALIBRATION)))
        model.to(device)
        opt = make_optimizer(model, args.lr, args.l2)
        opt.load_state_dict(ckpt["optimizer"])  # moves momentum buffers to the params' device
        for g in opt.param_groups:  # command line owns lr / l2
            g["lr"] = args.lr
            g["weight_decay"] = args.l2
        return model, opt, int(ckpt["step"]), False, ckpt.get("ema")
    torch.manual_seed(args.seed)
    if args.init_onnx:
        from onnx_import import net_from_onnx  # needs the onnx package, only here
        try:
            model = net_from_onnx(args.init_onnx)
        except (OSError, ValueError) as e:
            raise SystemExit("--init-onnx: %s" % e)
        setattr(model, NEEDS_CALIBRATION, True)
        model.to(device)
        return model, make_optimizer(model, args.lr, args.l2), 0, True, None
    model = Net(args.blocks, args.channels, args.wdl).to(device)
    return model, make_optimizer(model, args.lr, args.l2), 0, True, None


class WeightAverage:
    """An exponential moving average of a network's parameters (--ema).

    update() after each step: avg = d * avg + (1 - d) * weights with
    d = min(decay, n / (n + 1)) after n updates. The first update copies the weights
    (d = 0), the first 1 / (1 - decay) are the plain mean of the iterates, later ones
    an EMA; decay 0 is the live weights. Only parameters are averaged: the batch-norm
    statistics of the averaged network are measured again (recompute_batchnorm)."""

    def __init__(self, net, decay, state=None):
        self.decay = float(decay)
        self.updates = 0
        self.params = {name: p.detach().clone() for name, p in net.named_parameters()}
        if state is not None:
            saved = state["params"]
            if set(saved) != set(self.params) or any(saved[k].shape != v.shape for k, v in self.params.items()):
                raise ValueError("the checkpoint's weight average does not match its network")
            for k, v in self.params.items():
                v.copy_(saved[k])
            self.updates = int(state["updates"])

    def update(self, net):
        d = min(self.decay, self.updates / (self.updates + 1))
        with torch.no_grad():
            for name, p in net.named_parameters():
                avg = self.params[name]
                if d == 0:
                    avg.copy_(p)
                else:
                    avg.mul_(d).add_(p.detach(), alpha=1 - d)
        self.updates += 1

    def state_dict(self):
        return {"updates": self.updates, "params": self.params}

    def averaged(self, net):
        """A copy of net with the averaged parameters (its buffers still net's)."""
        avg = copy.deepcopy(net)
        with torch.no_grad():
            for name, p in avg.named_parameters():
                p.copy_(self.params[name])
        return avg

    def nonfinite(self):
        return [k for k, v in self.params.items() if not bool(torch.isfinite(v).all())]


def recompute_batchnorm(net, batches):
    """Measure every batch norm's running statistics afresh on batches (an iterable of
    [B, 19, 8, 8] tensors): reset, then the cumulative mean of the batch statistics of
    training-mode forward passes (momentum None), as torch.optim.swa_utils.update_bn.
    Leaves net in eval mode, with its BN momenta as they were."""
    bns = [m for m in net.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    momenta = [bn.momentum for bn in bns]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    net.train()
    try:
        with torch.no_grad():
            for planes in batches:
                net(planes)
    finally:
        for bn, m in zip(bns, momenta):
            bn.momentum = m
        net.eval()


def averaged_network(ema, net, data, batch, seed, step, device):
    """The network --export writes with --ema: the average's parameters, batch norms
    measured on BN_RECOMPUTE_SAMPLES positions of the window drawn from (seed, step)."""
    avg = ema.averaged(net)
    rng = np.random.default_rng([seed, step, 0xB4])
    n = max(1, math.ceil(BN_RECOMPUTE_SAMPLES / batch))

    def batches():
        for _ in range(n):
            planes, _, _ = data.dense(rng.integers(0, len(data), size=batch))
            yield torch.from_numpy(planes).to(device)

    recompute_batchnorm(avg, batches())
    return avg


def select_chunks(directory, window):
    """(paths, error): the newest `window` chunk files (by mtime, name), oldest first."""
    if not directory:
        return None, "--chunks DIR is required (unless --init-only)"
    if not os.path.isdir(directory):
        return None, "chunk directory %r does not exist" % directory
    paths = list_chunks(directory)
    if window:
        paths = paths[-window:]
    if not paths:
        return None, "no *.twfc.gz chunks in %s" % directory
    return paths, None


def load_window(directory, window, max_samples, paths=None):
    """Newest `window` chunks (by mtime, name), newest samples first up to max_samples.

    paths, when given, is select_chunks' list (so all ranks read the same files)."""
    if paths is None:
        paths, err = select_chunks(directory, window)
        if err:
            return None, err
    # A long-running loop should not die on one bad file; read_chunks says so loudly.
    data, used = read_chunks(paths, log, max_samples)
    if len(data) == 0:
        return None, "no samples in the %d newest chunks of %s" % (len(paths), directory)
    log("window: %d samples from %d chunk files (newest %s)" % (len(data), len(used), os.path.basename(paths[-1])))
    return data, None


def resolve_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: CUDA is not available")
    return torch.device(name)


class Distributed:
    """This process's place in a torchrun job; world 1 = plain single-process training."""

    def __init__(self, world=1, rank=0, local_rank=0, backend=None, device=None):
        self.world, self.rank, self.local_rank = world, rank, local_rank
        self.backend, self.device = backend, device

    @property
    def enabled(self):
        return self.world > 1

    @property
    def main(self):
        return self.rank == 0

    def barrier(self):
        if not self.enabled:
            return
        if self.backend == "nccl":
            dist.barrier(device_ids=[self.local_rank])
        else:
            dist.barrier()

    def broadcast(self, obj):
        """Rank 0's obj on every rank (picklable objects)."""
        if not self.enabled:
            return obj
        box = [obj]
        dist.broadcast_object_list(box, src=0)
        return box[0]

    def all_reduce(self, values, op=None):
        """Elementwise reduction (default sum) of a list of floats over the ranks."""
        if not self.enabled:
            return list(values)
        t = torch.tensor(values, dtype=torch.float64, device=self.device)
        dist.all_reduce(t, op=op or dist.ReduceOp.SUM)
        return t.tolist()

    def any(self, flag):
        """True on every rank when flag is true on some rank."""
        if not self.enabled:
            return bool(flag)
        return self.all_reduce([1.0 if flag else 0.0])[0] > 0

    def close(self):
        if self.enabled and dist.is_initialized():
            dist.destroy_process_group()


def setup_distributed(args):
    """(Distributed, device). Joins the torchrun process group when WORLD_SIZE > 1."""
    global _rank
    _rank = 0
    try:
        world = int(os.environ.get("WORLD_SIZE") or 1)
    except ValueError:
        raise SystemExit("bad WORLD_SIZE=%r" % os.environ.get("WORLD_SIZE"))
    device = resolve_device(args.device)
    if world <= 1:
        return Distributed(device=device), device
    if not dist.is_available():
        raise SystemExit("WORLD_SIZE=%d but this torch has no torch.distributed" % world)
    try:
        rank = int(os.environ["RANK"])
        local_rank = int(os.environ.get("LOCAL_RANK", rank))
    except (KeyError, ValueError):
        raise SystemExit("WORLD_SIZE=%s needs RANK and LOCAL_RANK (launch with torchrun)" % world)
    _rank = rank
    if device.type == "cuda":
        if local_rank >= torch.cuda.device_count():
            raise SystemExit("LOCAL_RANK %d but only %d CUDA devices" % (local_rank, torch.cuda.device_count()))
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        backend = "nccl"
    else:
        backend = "gloo"
    dist.init_process_group(backend=backend, init_method="env://", world_size=world, rank=rank)
    return Distributed(world, rank, local_rank, backend, device), device


def surprise_weights(logits, policy_target, fraction):
    """[B] sample weights of policy-surprise weighting: (1 - fraction) + fraction *
    kl / mean(kl), kl = KL(policy_target || softmax(logits)) per sample; they average 1.
    All ones when no sample is surprising (mean kl 0). No gradient flows through them."""
    with torch.no_grad():
        logp = F.log_softmax(logits.detach().float(), dim=1)
        t = policy_target.float()
        pos = t > 0
        # t * (log t - log p) where t > 0; 0 * log 0 counts 0.
        kl = torch.where(pos, t * (torch.log(torch.where(pos, t, torch.ones_like(t))) - logp),
                         torch.zeros_like(t)).sum(dim=1).clamp_min(0)
        mean = kl.mean()
        if not mean > 0:
            return torch.ones_like(kl)
        return (1 - fraction) + fraction * (kl / mean)


def losses(model, planes, policy_target, value_target, surprise=0.0):
    """Policy cross-entropy and value loss: MSE for a scalar target [B], cross-entropy for
    a win/draw/loss target [B, 3] (a WDL head's logits). With surprise > 0 both are means
    over the samples weighted by surprise_weights (surprise 0: the plain means)."""
    logits, value = model(planes)
    if surprise > 0:
        w = surprise_weights(logits, policy_target, surprise)
        policy_each = -(policy_target * F.log_softmax(logits, dim=1)).sum(dim=1)
        if value_target.dim() == 2:
            value_each = -(value_target * F.log_softmax(value, dim=1)).sum(dim=1)
        else:
            value_each = (value.squeeze(1) - value_target) ** 2
        return (w * policy_each).mean(), (w * value_each).mean()
    policy_loss = -(policy_target * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    if value_target.dim() == 2:
        value_loss = -(value_target * F.log_softmax(value, dim=1)).sum(dim=1).mean()
    else:
        value_loss = F.mse_loss(value.squeeze(1), value_target)
    return policy_loss, value_loss


def check():
    """Imports what the training scripts need beyond this file's own imports
    (torch and numpy came with them): the sample sets and the ONNX export."""
    import sampleset  # noqa: F401
    import onnx
    print("ok: torch %s, numpy %s, onnx %s" % (torch.__version__, np.__version__, onnx.__version__))
    return 0


def main(argv=None):
    args = parse_args(argv)
    if args.check:
        return check()
    if args.exit_with_parent:
        exit_with_parent()
    if args.threads:
        torch.set_num_threads(args.threads)
    ddp, device = setup_distributed(args)
    try:
        return run_training(args, ddp, device)
    finally:
        ddp.close()


def load_sample_set(folder, max_samples):
    """(data, error): a sample set's training split, its newest max_samples (0: all)."""
    import sampleset
    try:
        data = sampleset.load(folder, "train")
    except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
        return None, "sample set: %s" % e
    if max_samples:
        data = data.tail(max_samples)
    if len(data) == 0:
        return None, "no samples in the training split of %s" % folder
    log("window: %d samples of sample set %s" % (len(data), folder))
    return data, None


def window_for_all_ranks(args, ddp):
    """(data, error) with the same chunk files on every rank; the error is the same on all."""
    if args.sample_set:  # every rank reads the same files
        return load_sample_set(args.sample_set, args.window_samples)
    if not ddp.enabled:
        return load_window(args.chunks, args.window, args.window_samples)
    paths, err = ddp.broadcast(select_chunks(args.chunks, args.window) if ddp.main else None)
    if err:
        return None, err
    data, err = load_window(args.chunks, args.window, args.window_samples, paths=paths)
    if err:
        log("error: " + err, every_rank=True)
    n = len(data) if data is not None else 0
    lo, hi = ddp.all_reduce([-n, n], op=dist.ReduceOp.MAX)
    lo = -lo
    if lo == 0:
        return None, "some rank has no samples (see above)"
    if lo != hi:  # e.g. a chunk pruned between ranks' reads: harmless, but say so
        log("warning: ranks hold %d..%d samples" % (lo, hi))
    return data, None


def run_training(args, ddp, device):
    os.makedirs(args.run_dir, exist_ok=True)
    ckpt_path = os.path.join(args.run_dir, CHECKPOINT)

    net, opt, step, created, ema_state = load_or_create(args, device)
    # Nobody writes the checkpoint before every rank has read it (or decided it is absent).
    ddp.barrier()
    if ddp.enabled:
        log("distributed: world size %d, backend %s, rank 0 on %s, effective batch %d"
            % (ddp.world, ddp.backend, device, ddp.world * args.batch))
    log("%s %dx%d%s net (%d parameters) at step %d on %s"
        % (("imported %s as a" % args.init_onnx if args.init_onnx else "created") if created else "resumed", net.blocks, net.channels, " WDL" if net.wdl else "",
           count_parameters(net), step, device))
    bad = nonfinite_tensors(net)
    if bad:  # the same checkpoint on every rank, so every rank returns here
        log("error: %s holds non-finite values (%s); restore an earlier checkpoint (the training "
            "loop keeps one per iteration as nets/iter-NNNN.pt)" % (ckpt_path, ", ".join(bad[:3])))
        return EXIT_DIVERGED

    if args.init_only:
        if ddp.main:
            if created:
                save_checkpoint(ckpt_path, net, opt, step)
                log("wrote %s" % ckpt_path)
            else:
                log("%s exists; left unchanged" % ckpt_path)
            if args.export:
                export_onnx(net, args.export)
                log("exported %s" % args.export)
        ddp.barrier()
        return 0

    todo = steps_to_do(args, step, ddp.main)
    data, err = window_for_all_ranks(args, ddp)
    if data is None:
        log("error: " + err)
        return 2

    if getattr(net, NEEDS_CALIBRATION, False):
        # A network imported from ONNX has identity BNs; give them the statistics of
        # real positions before training mode starts normalising by batch statistics.
        from onnx_import import calibrate_batchnorm
        planes, _, _ = data.dense(np.arange(min(len(data), CALIBRATION_SAMPLES)))
        calibrate_batchnorm(net, torch.from_numpy(planes).to(device))
        setattr(net, NEEDS_CALIBRATION, False)
        log("calibrated the imported network's batch norms on %d samples" % min(len(data), CALIBRATION_SAMPLES))

    # oneDNN's convolutions run about 1.2x faster on channels-last tensors (a 4 x 32
    # network, batch 1,024, 2 CPU threads). Only the memory layout changes, no value; the
    # net goes back to the default layout before it is checked, saved and exported.
    layout = torch.channels_last if device.type == "cpu" and not ddp.enabled else torch.contiguous_format
    net.to(memory_format=layout)

    ema = None  # the weight average, kept by the rank that saves and exports
    if args.ema > 0 and ddp.main:
        try:
            ema = WeightAverage(net, args.ema, ema_state)
        except (KeyError, ValueError) as e:
            log("error: %s: %s; resume without --ema to drop it" % (ckpt_path, e))
            return 2
        log("weight average: decay %g, %s" % (args.ema, "%d updates so far" % ema.updates if ema_state is not None
                                                else "started at step %d" % step))
    elif ema_state is not None and args.ema == 0:
        log("no --ema: dropping the checkpoint's weight average (%s updates)" % ema_state.get("updates"))
    if args.surprise_weight > 0:
        log("policy-surprise weighting: %g of the sample weight by KL(target || network policy)" % args.surprise_weight)

    if ddp.enabled:
        from torch.nn.parallel import DistributedDataParallel
        ids = [ddp.local_rank] if device.type == "cuda" else None
        model = DistributedDataParallel(net, device_ids=ids, output_device=ids[0] if ids else None)
    else:
        model = net

    stop = []

    def on_signal(signum, frame):
        stop.append(signum)

    old = {}
    for s in (signal.SIGINT, signal.SIGTERM):
        try:
            old[s] = signal.signal(s, on_signal)
        except ValueError:  # not the main thread (e.g. called from a test harness)
            pass
    # A different sample stream per invocation (and per rank), reproducible from
    # (seed, step[, rank]).
    if ddp.enabled:
        rng = np.random.default_rng([args.seed, step, ddp.rank])
        torch.manual_seed(args.seed * 1000003 + step + 7919 * ddp.rank)
    else:
        rng = np.random.default_rng([args.seed, step])
        torch.manual_seed(args.seed * 1000003 + step)
    model.train()
    n = len(data)
    t_last, done_since_log = time.perf_counter(), 0
    sums = np.zeros(3)
    halt = False
    diverged = None  # what was found non-finite
    saved_step = None if created else step  # the checkpoint on disk
    try:
        for _ in range(todo):
            idx = rng.integers(0, n, size=args.batch)
            planes, pol, val = data.dense(idx, args.q_ratio, wdl=net.wdl)
            planes = torch.from_numpy(planes).to(device, non_blocking=True).contiguous(memory_format=layout)
            pol = torch.from_numpy(pol).to(device, non_blocking=True)
            val = torch.from_numpy(val).to(device, non_blocking=True)

            policy_loss, value_loss = losses(model, planes, pol, val, args.surprise_weight)
            loss = policy_loss + value_loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if ema is not None:
                ema.update(net)
            step += 1
            done_since_log += 1
            if ddp.enabled:
                # One small all-reduce per step: rank-averaged losses for the log, and
                # the stop flag, so that every rank leaves the loop after the same step.
                # A signal arriving after this rank's contribution counts at the next step.
                red = ddp.all_reduce([loss.item(), policy_loss.item(), value_loss.item(),
                                      1.0 if stop else 0.0])
                sums += np.array(red[:3]) / ddp.world
                halt = red[3] > 0
            else:
                red = [loss.item(), policy_loss.item(), value_loss.item()]
                sums += red
                halt = bool(stop)
            # The reduced loss is NaN on every rank when it is on any, so all stop here.
            if not math.isfinite(red[0]):
                diverged = "loss %s (policy %s, value %s) at step %d" % (
                    tuple(x / ddp.world for x in red[:3]) + (step,))
                break

            if step % args.log_every == 0:
                now = time.perf_counter()
                avg = sums / done_since_log
                if ddp.main:
                    print("step %d loss %.5f policy %.5f value %.5f lr %g samples/s %.0f"
                          % (step, avg[0], avg[1], avg[2], opt.param_groups[0]["lr"],
                             done_since_log * args.batch * ddp.world / max(now - t_last, 1e-9)),
                          flush=True)
                t_last, done_since_log, sums = now, 0, np.zeros(3)
            if step % args.checkpoint_every == 0:
                # A step can leave the weights non-finite with this step's loss still
                # finite; such weights must not overwrite the last good checkpoint.
                bad = nonfinite_tensors(net)
                if ddp.any(bad):
                    diverged = "weights at step %d (%s)" % (step, ", ".join(bad[:3]) or "on another rank")
                    break
                if ddp.main:
                    save_checkpoint(ckpt_path, net, opt, step, ema)
                    saved_step = step
            if halt:
                break
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if not ddp.enabled:
        halt = bool(stop)  # includes a signal that came after the last step

    net.to(memory_format=torch.contiguous_format)
    export_net = net
    if diverged is None:
        bad = nonfinite_tensors(net)
        if bad:
            diverged = "weights at step %d (%s)" % (step, ", ".join(bad[:3]))
        else:
            # Finite weights can still overflow to inf in the activations; check what
            # self-play would compute, on the same samples on every rank.
            planes, _, _ = data.dense(np.arange(min(n, FINITE_CHECK_SAMPLES)))
            planes = torch.from_numpy(planes).to(device)
            diverged = nonfinite_outputs(net, planes)
        if diverged is None and ema is not None:
            bad = ema.nonfinite()
            if bad:
                diverged = "averaged weights at step %d (%s)" % (step, ", ".join(bad[:3]))
            elif args.export and not halt and ema.updates:  # no update yet: the live weights
                export_net = averaged_network(ema, net, data, args.batch, args.seed, step, device)
                bad = nonfinite_tensors(export_net)
                if bad:
                    diverged = "averaged network's batch-norm statistics (%s)" % ", ".join(bad[:3])
                else:
                    out = nonfinite_outputs(export_net, planes)
                    diverged = out and "averaged network's " + out
        if ddp.any(diverged) and diverged is None:
            diverged = "values on another rank"
    if diverged is not None:
        log("error: training diverged: non-finite %s. Nothing was saved or exported; %s. "
            "Lower --lr (now %g) and train again."
            % (diverged, "the checkpoint stays at step %d" % saved_step if saved_step is not None
               else "no checkpoint was written", args.lr))
        return EXIT_DIVERGED

    if ddp.main:
        save_checkpoint(ckpt_path, net, opt, step, ema, None if export_net is net else export_net)
        log("saved %s at step %d" % (ckpt_path, step))
        if halt:
            log("interrupted; not exporting")
        elif args.export:
            export_onnx(export_net, args.export)
            log("exported %s%s" % (args.export, "" if export_net is net else
                                   " (the weight average of %d updates)" % ema.updates))
    ddp.barrier()  # the other ranks exit only once the checkpoint / export is on disk
    return 130 if halt else 0


if __name__ == "__main__":
    sys.exit(main())
