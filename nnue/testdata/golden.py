"""Writes the golden networks of nnue/golden_test.go with code independent of
the engine's: formats v1, v2 (output buckets) and v3 (king buckets) as the package comment describes them, evaluated in
exact integer arithmetic (so the Go kernels are checked against the spec,
not against themselves). Run from this directory: python3 golden.py"""
import random
import struct
import zlib

H = 16
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R b KQ - 1 8",
    "1rbnqbkr/ppppp1p1/1n3p2/7p/1P1P4/1R6/P1P1PPPP/N1BNQBKR w Hhb - 1 4",
    "8/4k3/8/8/2p5/8/3K4/8 b - - 0 1",
]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def pieces(fen):
    out = []
    for r, rank in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
                continue
            out.append(("w" if ch.isupper() else "b", "pnbrqk".index(ch.lower()), (7 - r) * 8 + f))
            f += 1
    return out


def golden(act, seed, buckets=1, kings=None):
    rng = random.Random(seed)
    k = max(kings) + 1 if kings else 1
    fw = [[rng.randint(-40, 40) for _ in range(H)] for _ in range(768 * k)]
    fb = [rng.randint(-50, 200) for _ in range(H)]
    ow = [rng.randint(-127, 127) for _ in range(2 * H * buckets)]
    obs = [rng.randint(-20000, 20000) for _ in range(buckets)]
    if kings:
        body = b"TWFNNUE1" + struct.pack("<8I", 3, 768, H, 255, 64, 400, act, buckets) + bytes(kings)
    elif buckets == 1:
        body = b"TWFNNUE1" + struct.pack("<7I", 1, 768, H, 255, 64, 400, act)
    else:
        body = b"TWFNNUE1" + struct.pack("<8I", 2, 768, H, 255, 64, 400, act, buckets)
    body += struct.pack("<%dh" % (768 * k * H), *[w for row in fw for w in row])
    body += struct.pack("<%dh" % H, *fb) + struct.pack("<%dh" % (2 * H * buckets), *ow)
    body += struct.pack("<%di" % buckets, *obs)
    name = ["crelu", "screlu"][act] + ("-k%d" % k if kings else "-b%d" % buckets if buckets > 1 else "")
    with open("golden-%s.nnue" % name, "wb") as f:
        f.write(body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF))
    lines = []
    for fen in FENS:
        side = fen.split()[1]
        acc = {}
        for persp in "wb":
            a = list(fb)
            # v3: the own king's square as persp sees it; its files e-h mirror every square
            king = [sq for c, pt, sq in pieces(fen) if c == persp and pt == 5][0]
            view = 0 if persp == "w" else 56
            kf, kr = (king ^ view) % 8, (king ^ view) // 8
            flip = 7 if kings and kf >= 4 else 0
            base = 768 * kings[kr * 4 + (kf ^ flip)] if kings else 0
            for c, pt, sq in pieces(fen):
                idx = base + 384 * (c != persp) + 64 * pt + (sq ^ view ^ flip)
                a = [x + y for x, y in zip(a, fw[idx])]
            acc[persp] = a
        width = -(-32 // buckets)  # ceil(32 / buckets)
        b = min((len(pieces(fen)) - 2) // width, buckets - 1)
        ob = obs[b]
        s = 0
        for i, x in enumerate(acc[side] + acc["b" if side == "w" else "w"]):
            c = min(max(x, 0), 255)
            s += c * ow[b * 2 * H + i] * (c if act == 1 else 1)
        if act == 1:
            s = trunc_div(s, 255)
        lines.append("%d;%s" % (trunc_div((s + ob) * 400, 255 * 64), fen))
    with open("golden-%s.txt" % name, "w") as f:
        f.write("\n".join(lines) + "\n")


golden(0, 1)
golden(1, 2)
golden(1, 3, buckets=8)
# king buckets: the back rank's corners, the rest of it, rank 2, ranks 3-8 (the trainer's layout "4")
golden(1, 4, buckets=8, kings=[0, 0, 1, 1, 2, 2, 2, 2] + [3] * 24)
