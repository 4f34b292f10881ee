"""Trainer of Twofold's NNUE evaluation (768 -> H per perspective -> 2H -> 1).

    python3 nnue/train/nnue_train.py --data data/*.bin --run-dir runs/nnue1 \\
        --hidden 256 --epochs 20 --export runs/nnue1/net.nnue

Data: record files of `engine datagen` (nnue_data documents the format), memory-mapped;
the last --val-fraction of the records (the newest games of the last file) are held out
and their loss printed each epoch.

Loss: mean squared error between sigmoid(out_cp / K) and the WDL-lambda target
    lambda * sigmoid(score_cp / K) + (1 - lambda) * result
both from the side to move's view, out_cp = network output * 400 (the engine's
centipawns), K = --k (400). lambda defaults to 1 (the search score alone): the search's
margins are centipawns of the hand-crafted scale, and in Twofold's self-play the results are
more decisive than sigmoid(score / 400) says, so blending them in (lambda 0.75) inflated the
network's scores about 1.3x over the search's and cost ~250 Elo in games (docs/networks.md,
the NNUE history). A lower lambda pulls the net towards the results (the hand-crafted evaluation's
systematic errors, such as misjudged endgames) once the scale is handled.

Optimiser: Adam, --lr decayed by --lr-decay per epoch (--lr-schedule exp), or along a cosine
from --lr to --lr x --lr-final over all --epochs, set at every step (--lr-schedule cosine);
--weight-decay W > 0 makes it AdamW (decoupled weight decay). After every step the weights
are clipped to what the quantised network represents exactly (nnue_model.clip).
--k should be the scale at which the data's results fit its scores (nnue_data.py prints it,
"results fit"): then a blend of results (lambda < 1) keeps the network on the search's scale.

King buckets (--king-buckets 4, 8, or a map of 32): each perspective's inputs are mirrored
while its king stands on files e-h and split by that king's square into K sets of 768, with
a shared factoriser (nnue_model); the network is written as format version 3.

State: RUN_DIR/checkpoint.pt (model, optimiser, epochs done, architecture), written
atomically after every epoch together with RUN_DIR/epoch-NNN.nnue; a rerun with the same
RUN_DIR resumes after the last finished epoch (--hidden, --activation, --output-buckets and
--king-buckets are then taken from the checkpoint) and trains up to --epochs in all. An interrupted epoch is lost.
--init NET.nnue starts a new run from a network file instead of random weights (fine-tuning
the shipped network on newer data, usually with a lower --lr); its architecture overrides
--hidden, --activation and --output-buckets. With --king-buckets, a network without them
becomes the factoriser and every bucket starts at zero: the new network first evaluates as
NET of the position mirrored when the king stands on files e-h (the same score for a
network trained with --mirror). A resumed run ignores --init.

Exit codes: 0 ok, 2 bad arguments or data, 3 non-finite loss (nothing saved).
"""

import argparse
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import nnue_data  # noqa: E402
import nnue_format  # noqa: E402
import nnue_model  # noqa: E402
from nnue_model import ACTIVATIONS, KING_BUCKET_LAYOUTS, MAX_BUCKETS, NNUE, SCALE, king_buckets_arg  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="record files of engine datagen")
    ap.add_argument("--run-dir", required=True, help="checkpoint and per-epoch networks")
    ap.add_argument("--hidden", type=int, default=256, help="H, a multiple of 16 (new runs only)")
    ap.add_argument("--init", metavar="NET.nnue",
                    help="start a new run from this network file's weights (its H, activation and buckets; "
                         "with --king-buckets, a network without them seeds the factoriser)")
    ap.add_argument("--activation", choices=ACTIVATIONS, default="screlu", help="new runs only")
    ap.add_argument("--output-buckets", type=int, default=1,
                    help="output buckets by piece count, 1..16 (new runs only; 1 writes format version 1)")
    ap.add_argument("--king-buckets", metavar="LAYOUT",
                    help="king-bucketed, mirrored inputs (format version 3; new runs only): a layout "
                         f"({', '.join(sorted(KING_BUCKET_LAYOUTS))}: that many buckets) or 32 comma-separated "
                         "bucket numbers of the own king's square, ranks 1-8, files a-d")
    ap.add_argument("--epochs", type=int, default=20, help="epochs in all, counting resumed ones")
    ap.add_argument("--epoch-positions", type=int, default=0,
                    help="positions per epoch (0: the whole training set; else a fresh random sample)")
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-decay", type=float, default=0.9, help="learning rate factor per epoch")
    ap.add_argument("--lr-schedule", choices=["exp", "cosine"], default="exp",
                    help="exp: --lr x --lr-decay^(epoch-1); cosine: from --lr down to --lr x --lr-final, by step")
    ap.add_argument("--lr-final", type=float, default=0.01,
                    help="with --lr-schedule cosine: the last learning rate as a share of --lr")
    ap.add_argument("--weight-decay", type=float, default=0.0,
                    help="decoupled weight decay (AdamW); 0: plain Adam")
    ap.add_argument("--wdl-lambda", type=float, default=1.0, help="weight of the score in the target")
    ap.add_argument("--k", type=float, default=400.0, help="sigmoid scale in centipawns")
    ap.add_argument("--val-fraction", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: torch default)")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument("--export", help="write the final network here too")
    ap.add_argument("--log-every", type=float, default=30, help="seconds between progress lines within an epoch")
    ap.add_argument("--no-check", action="store_true", help="skip validating the data files")
    ap.add_argument("--mirror", action="store_true",
                    help="reflect a random half of each training batch left to right (files a-h swapped)")
    args = ap.parse_args(argv)
    if args.batch < 1 or args.epochs < 1 or args.lr <= 0 or not 0 <= args.wdl_lambda <= 1 or args.k <= 0:
        ap.error("--batch and --epochs must be positive, --lr and --k positive, --wdl-lambda in [0, 1]")
    if not 1 <= args.output_buckets <= MAX_BUCKETS:
        ap.error(f"--output-buckets must be from 1 to {MAX_BUCKETS}")
    if not 0 < args.lr_final <= 1 or not 0 <= args.weight_decay < 1:
        ap.error("--lr-final must be in (0, 1], --weight-decay in [0, 1)")
    if not 0 <= args.val_fraction < 1 or args.epoch_positions < 0:
        ap.error("--val-fraction must be in [0, 1), --epoch-positions not negative")
    if args.king_buckets is not None:
        try:
            args.king_buckets = king_buckets_arg(args.king_buckets)
        except ValueError as e:
            ap.error(f"--king-buckets: {e}")
    return args


def log(msg):
    print(msg, flush=True)


def batch_tensors(recs, device, mirror=None, king_buckets=None):
    stm, other, offsets = nnue_data.features(recs, mirror, king_buckets)
    score, result = nnue_data.targets(recs)
    t = lambda a: torch.from_numpy(a).to(device)  # noqa: E731
    return t(stm), t(other), t(offsets), t(score), t(result)


def loss_fn(model, batch, wdl_lambda, k):
    stm, other, offsets, score, result = batch
    out = model(stm, other, offsets)
    pred = torch.sigmoid(out * (SCALE / k))
    target = wdl_lambda * torch.sigmoid(score / k) + (1 - wdl_lambda) * result
    return torch.mean((pred - target) ** 2)


def evaluate_loss(model, ds, idx, args, device):
    if len(idx) == 0:
        return float("nan")
    total = 0.0
    with torch.no_grad():
        for s in range(0, len(idx), args.batch):
            part = idx[s:s + args.batch]
            batch = batch_tensors(ds.gather(part), device, king_buckets=model.king_buckets)
            total += float(loss_fn(model, batch, args.wdl_lambda, args.k)) * len(part)
    return total / len(idx)


def save_checkpoint(path, model, opt, epoch, args):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch,
                "hidden": model.hidden, "activation": model.activation, "buckets": model.buckets,
                "king_buckets": model.king_buckets,
                "args": {k: v for k, v in vars(args).items() if k != "data"}}, tmp)
    os.replace(tmp, path)


def optimizer(args, model):
    """Adam, or AdamW when --weight-decay is set (Adam's own weight_decay is L2, not decoupled)."""
    if args.weight_decay > 0:
        return torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    return torch.optim.Adam(model.parameters(), lr=args.lr)


def learning_rate(args, epoch, progress):
    """The learning rate at a point of epoch (1-based), progress in [0, 1) through it."""
    if args.lr_schedule == "cosine":
        t = min((epoch - 1 + progress) / args.epochs, 1.0)
        final = args.lr * args.lr_final
        return final + 0.5 * (args.lr - final) * (1 + math.cos(math.pi * t))
    return args.lr * args.lr_decay ** (epoch - 1)


def load_or_create(args, device):
    path = os.path.join(args.run_dir, "checkpoint.pt")
    if os.path.exists(path):
        ck = torch.load(path, map_location=device)
        model = NNUE(ck["hidden"], ck["activation"], buckets=ck.get("buckets", 1),
                     king_buckets=ck.get("king_buckets")).to(device)
        model.load_state_dict(ck["model"])
        opt = optimizer(args, model)
        opt.load_state_dict(ck["optimizer"])
        for g in opt.param_groups:  # the saved groups carry the old flags' decay
            g["weight_decay"] = args.weight_decay
        log(f"resumed {path}: {ck['epoch']} epochs done, hidden {ck['hidden']}, {ck['activation']}, "
            f"{model.buckets} output buckets")
        return model, opt, ck["epoch"]
    if args.init:
        try:
            with open(args.init, "rb") as f:
                model = nnue_format.load_float(nnue_format.parse(f.read())).to(device)
        except nnue_format.FormatError as e:
            raise nnue_format.FormatError(f"--init {args.init}: {e}") from e
        if args.king_buckets is not None and model.king_buckets is None:
            model = nnue_model.with_king_buckets(model, args.king_buckets).to(device)
            log(f"king buckets {max(args.king_buckets) + 1} from the network's inputs (the factoriser)")
        log(f"initialised from {args.init}: hidden {model.hidden}, {model.activation}, {model.buckets} output buckets")
    else:
        model = NNUE(args.hidden, args.activation, seed=args.seed, buckets=args.output_buckets,
                     king_buckets=args.king_buckets).to(device)
    return model, optimizer(args, model), 0


def resolve_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: no CUDA device")
    return torch.device(name)


def main(argv=None):
    args = parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    device = resolve_device(args.device)
    try:
        ds = nnue_data.Dataset(args.data, check=not args.no_check)
    except (nnue_data.DataError, OSError) as e:
        log(f"nnue_train: {e}")
        return 2
    os.makedirs(args.run_dir, exist_ok=True)
    try:
        model, opt, done = load_or_create(args, device)
    except (nnue_format.FormatError, OSError) as e:
        log(f"nnue_train: {e}")
        return 2
    n = len(ds)
    n_val = int(n * args.val_fraction)
    n_train = n - n_val
    val_idx = np.arange(n_train, n)
    log(f"data: {n} positions in {len(ds.paths)} files ({n_train} train, {n_val} validation); "
        f"hidden {model.hidden} {model.activation}, {model.buckets} output buckets, "
        f"{max(model.king_buckets) + 1 if model.king_buckets else 'no'} king buckets, batch {args.batch}, lambda {args.wdl_lambda}, K {args.k}, "
        f"device {device}, threads {torch.get_num_threads()}")
    if done == 0:
        log(f"epoch 0 val loss {evaluate_loss(model, ds, val_idx, args, device):.6f}")
    ckpt = os.path.join(args.run_dir, "checkpoint.pt")
    for epoch in range(done + 1, args.epochs + 1):
        rng = np.random.default_rng([args.seed, epoch])
        per_epoch = args.epoch_positions or n_train
        order = rng.permutation(n_train) if per_epoch >= n_train else rng.integers(0, n_train, per_epoch)
        start = time.time()
        total, seen = 0.0, 0
        last_log = start
        model.train()
        lr = learning_rate(args, epoch, 0.0)
        for s in range(0, len(order), args.batch):
            lr = learning_rate(args, epoch, s / len(order))
            for g in opt.param_groups:
                g["lr"] = lr
            part = np.sort(order[s:s + args.batch])  # sorted: sequential-ish reads of the memmaps
            mirror = rng.random(len(part)) < 0.5 if args.mirror else None
            batch = batch_tensors(ds.gather(part), device, mirror, model.king_buckets)
            loss = loss_fn(model, batch, args.wdl_lambda, args.k)
            if not math.isfinite(float(loss)):
                log(f"epoch {epoch}: non-finite loss; nothing saved (lower --lr)")
                return 3
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            model.clip()
            total += float(loss) * len(part)
            seen += len(part)
            if time.time() - last_log >= args.log_every:
                last_log = time.time()
                log(f"epoch {epoch} {seen}/{len(order)} positions, loss {total / seen:.6f}, "
                    f"positions/s {seen / (last_log - start):.0f}")
        secs = time.time() - start
        model.eval()
        val = evaluate_loss(model, ds, val_idx, args, device)
        save_checkpoint(ckpt, model, opt, epoch, args)
        net = os.path.join(args.run_dir, f"epoch-{epoch:03d}.nnue")
        nnue_format.export(model, net)
        log(f"epoch {epoch} train loss {total / max(seen, 1):.6f} val loss {val:.6f} lr {lr:.2e} "
            f"positions {seen} time {secs:.1f}s positions/s {seen / max(secs, 1e-9):.0f} -> {net}")
    if args.export:
        size = nnue_format.export(model, args.export)
        log(f"exported {args.export} ({size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
