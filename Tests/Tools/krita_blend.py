#!/usr/bin/env python3
"""Compares LayerBlend's blend modes with Krita's on the same pixels, and makes the goldens
`make test` checks the kernel against (Tests/Fixtures/krita, KritaGoldenTests). Not run by `make test`.

For each mode and layer opacity it writes a two-layer OpenRaster file whose layers are a grid of
colours and alphas (source colour x along, backdrop colour y down), has Krita flatten it headless
(`xvfb-run -a krita FILE.ora --export --export-filename OUT.png`), and compares Krita's pixels
with the kernel's (`swift test --filter KritaGoldenTests`, which writes the kernel's pixels into
the same folder when QS_KRITA_DIR names it) and with the W3C formulas in Double. Differences are
in premultiplied levels per channel (Krita's straight output is premultiplied first), which is
what the layer stack keeps.

--update-goldens also writes Tests/Fixtures/krita, 8-bit straight RGBA: the two layers
(source.png, backdrop.png) and Krita's flattened pictures, one file per opacity with the 16 modes
side by side in MODES' order (opacity-255.png, opacity-153.png, each 1792x112). Regenerate them
after a change to the grid or to Krita, and check the table against docs/interop.md's, whose
maxima the test holds the kernel to.

Needs: krita (Debian: apt-get install krita xvfb xauth), xvfb-run, swift. No Python packages.

    python3 Tests/Tools/krita_blend.py [--dir DIR] [--reuse] [--modes multiply,hue] [--update-goldens]
"""
import argparse
import math
import os
import struct
import subprocess
import sys
import zipfile
import zlib

COLOURS = [
    (0, 0, 0), (255, 255, 255), (128, 128, 128), (64, 64, 64), (191, 191, 191),
    (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255),
    (255, 128, 0), (100, 150, 200), (30, 60, 90), (240, 200, 20), (200, 30, 120),
]
ALPHAS = [0, 1, 32, 100, 128, 200, 255]
CELLS = [(r, g, b, a) for a in ALPHAS for (r, g, b) in COLOURS]
N = len(CELLS)
MODES = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn",
         "hard-light", "soft-light", "difference", "color", "luminosity", "hue", "saturation", "plus"]
OPACITIES = [255, 153]
LOW_ALPHA = 32  # below this alpha, 8-bit premultiplied storage itself loses the straight colour


def op_name(mode):
    return "svg:src-over" if mode == "normal" else "svg:" + mode


# --- PNG, by hand (8-bit RGBA out; 8/16-bit grey, RGB, RGBA in) -----------------------------

def png_bytes(w, h, rgba, up=False):
    """An 8-bit RGBA PNG. `up`: every row filtered "up" (the goldens: on these grids a third
    smaller than unfiltered, and smaller than choosing a filter per row; they are committed)."""
    stride = w * 4
    raw, prev = bytearray(), bytes(stride)
    for y in range(h):
        line = bytes(rgba[y * stride:(y + 1) * stride])
        raw += b"\2" + bytes((c - p) & 255 for c, p in zip(line, prev)) if up else b"\0" + line
        prev = line

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    i, idat = 8, b""
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    assert interlace == 0 and ctype in (0, 2, 4, 6) and depth in (8, 16), (depth, ctype, interlace)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    bpp = channels * depth // 8
    stride = w * bpp
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    out = bytearray()
    step = depth // 8
    for line in rows:
        for x in range(w):
            v = [line[(x * channels + k) * step] if step == 1
                 else round(((line[(x * channels + k) * 2] << 8) | line[(x * channels + k) * 2 + 1]) / 257)
                 for k in range(channels)]
            if channels == 1: v = [v[0]] * 3 + [255]
            elif channels == 2: v = [v[0]] * 3 + [v[1]]
            elif channels == 3: v = v + [255]
            out += bytes(v)
    return w, h, out


# --- The grid and Krita --------------------------------------------------------------------------

def layers():
    src, dst = bytearray(), bytearray()
    for y in range(N):
        for x in range(N):
            src += bytes(CELLS[x])
            dst += bytes(CELLS[y])
    return src, dst


def write_ora(path, mode, opacity, src, dst):
    # Krita turns opacity into 0…255 by truncating opacity·255: aim at the middle of the level.
    o = "1.0" if opacity == 255 else "%.6f" % ((opacity + 0.5) / 255)
    stack = ('<?xml version="1.0" encoding="UTF-8"?>\n'
             '<image version="0.0.3" w="%d" h="%d"><stack>\n'
             '<layer name="source" src="data/source.png" composite-op="%s" opacity="%s" x="0" y="0" visibility="visible"/>\n'
             '<layer name="backdrop" src="data/backdrop.png" composite-op="svg:src-over" opacity="1.0" x="0" y="0" visibility="visible"/>\n'
             '</stack></image>\n') % (N, N, op_name(mode), o)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "image/openraster", compress_type=zipfile.ZIP_STORED)
        z.writestr("stack.xml", stack, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("data/source.png", png_bytes(N, N, src))
        z.writestr("data/backdrop.png", png_bytes(N, N, dst))
        # Deliberately not the flattened image: Krita must compose the layers itself.
        z.writestr("mergedimage.png", png_bytes(N, N, dst))


def krita_flatten(ora, out):
    subprocess.run(["xvfb-run", "-a", "krita", ora, "--export", "--export-filename", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)


# --- The W3C formulas in Double, straight colours 0…1 -------------------------------------------

def lum(c): return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def clip_color(c):
    l, n, x = lum(c), min(c), max(c)
    if n < 0: c = [l + (v - l) * l / (l - n) for v in c]
    if x > 1: c = [l + (v - l) * (1 - l) / (x - l) for v in c]
    return c


def set_lum(c, l):
    d = l - lum(c)
    return clip_color([v + d for v in c])


def sat(c): return max(c) - min(c)


def set_sat(c, s):
    order = sorted(range(3), key=lambda k: c[k])
    lo, mid, hi = order
    out = [0.0, 0.0, 0.0]
    if c[hi] > c[lo]:
        out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
        out[hi] = s
    return out


def separable(f):
    return lambda cb, cs: [f(b, s) for b, s in zip(cb, cs)]


def hard_light(b, s): return b * 2 * s if s <= 0.5 else b + (2 * s - 1) - b * (2 * s - 1)


def soft_light(b, s):
    if s <= 0.5: return b - (1 - 2 * s) * b * (1 - b)
    d = ((16 * b - 12) * b + 4) * b if b <= 0.25 else math.sqrt(b)
    return b + (2 * s - 1) * (d - b)


W3C = {
    "normal": separable(lambda b, s: s),
    "multiply": separable(lambda b, s: b * s),
    "screen": separable(lambda b, s: b + s - b * s),
    "overlay": separable(lambda b, s: hard_light(s, b)),
    "darken": separable(min),
    "lighten": separable(max),
    "color-dodge": separable(lambda b, s: 0 if b == 0 else 1 if s == 1 else min(1, b / (1 - s))),
    "color-burn": separable(lambda b, s: 1 if b == 1 else 0 if s == 0 else 1 - min(1, (1 - b) / s)),
    "hard-light": separable(hard_light),
    "soft-light": separable(soft_light),
    "difference": separable(lambda b, s: abs(b - s)),
    "hue": lambda cb, cs: set_lum(set_sat(cs, sat(cb)), lum(cb)),
    "saturation": lambda cb, cs: set_lum(set_sat(cb, sat(cs)), lum(cb)),
    "color": lambda cb, cs: set_lum(cs, lum(cb)),
    "luminosity": lambda cb, cs: set_lum(cb, lum(cs)),
}


def premultiply(p):
    r, g, b, a = p
    return tuple(round(v * a / 255) for v in (r, g, b)) + (a,)


def w3c(mode, s, d, opacity):
    """The spec's result, premultiplied 0…255, from straight colours s, d (0…255 floats, alpha last)
    and the layer's opacity: the spec's Porter-Duff plus, its luminosity weights."""
    sa, da = s[3] * opacity / 255 / 255, d[3] / 255
    cs, cb = [v / 255 for v in s[:3]], [v / 255 for v in d[:3]]
    if mode == "plus":
        return [min(255.0, 255 * (sa * x + da * y)) for x, y in zip(cs, cb)] + [min(255.0, 255 * (sa + da))]
    mixed = W3C[mode](cb, cs)
    return ([255 * (sa * (1 - da) * x + da * (1 - sa) * y + sa * da * m) for x, y, m in zip(cs, cb, mixed)]
            + [255 * (sa + da * (1 - sa))])


def straight(p):
    """A premultiplied 8-bit pixel's straight colour, as the kernel sees it."""
    return [min(255.0, v * 255 / p[3]) if p[3] else 0.0 for v in p[:3]] + [float(p[3])]


def scaled(p, opacity):
    """The kernel's first step: each byte of a premultiplied pixel times opacity/255, rounded."""
    return tuple(round(v * opacity / 255) for v in p)


# --- Comparison ----------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="/tmp/quicksilver-krita")
    ap.add_argument("--reuse", action="store_true", help="keep Krita outputs already in --dir")
    ap.add_argument("--modes", help="comma-separated display names (default: all)")
    ap.add_argument("--update-goldens", action="store_true",
                    help="write the layers and Krita's pictures into Tests/Fixtures/krita (KritaGoldenTests' goldens)")
    args = ap.parse_args()
    modes = args.modes.split(",") if args.modes else MODES
    if args.update_goldens and modes != MODES:
        ap.error("--update-goldens needs every mode: leave out --modes")
    os.makedirs(args.dir, exist_ok=True)
    src, dst = layers()
    open(os.path.join(args.dir, "source.rgba"), "wb").write(src)
    open(os.path.join(args.dir, "backdrop.rgba"), "wb").write(dst)
    open(os.path.join(args.dir, "size"), "w").write("%d\n" % N)

    for mode in modes:
        for opacity in OPACITIES:
            stem = os.path.join(args.dir, "%s-%d" % (mode, opacity))
            if args.reuse and os.path.exists(stem + ".krita.rgba"):
                continue
            write_ora(stem + ".ora", mode, opacity, src, dst)
            krita_flatten(stem + ".ora", stem + ".krita.png")
            w, h, px = read_png(stem + ".krita.png")
            assert (w, h) == (N, N), (w, h)
            open(stem + ".krita.rgba", "wb").write(px)
            print("krita: %s at opacity %d" % (mode, opacity), file=sys.stderr)

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if args.update_goldens:
        # One picture per opacity, the modes side by side in MODES' order (BlendMode's): deflate
        # finds what the modes share, half the bytes of a file each.
        goldens = os.path.join(root, "Tests", "Fixtures", "krita")
        os.makedirs(goldens, exist_ok=True)
        open(os.path.join(goldens, "source.png"), "wb").write(png_bytes(N, N, src, up=True))
        open(os.path.join(goldens, "backdrop.png"), "wb").write(png_bytes(N, N, dst, up=True))
        for opacity in OPACITIES:
            pictures = [open(os.path.join(args.dir, "%s-%d.krita.rgba" % (mode, opacity)), "rb").read() for mode in MODES]
            atlas = b"".join(p[y * N * 4:(y + 1) * N * 4] for y in range(N) for p in pictures)
            open(os.path.join(goldens, "opacity-%d.png" % opacity), "wb").write(png_bytes(N * len(MODES), N, atlas, up=True))
        print("goldens: %s" % goldens, file=sys.stderr)

    # The test blends the committed goldens' layers (the same grid as here) and also writes the
    # kernel's pixels into --dir; it fails where a golden is further from the kernel than
    # docs/interop.md says, which the table below then shows.
    env = dict(os.environ, QS_KRITA_DIR=os.path.abspath(args.dir))
    test = subprocess.run(["swift", "test", "--filter", "KritaGoldenTests"], cwd=root, env=env,
                          stdout=subprocess.DEVNULL)
    if test.returncode != 0:
        print("KritaGoldenTests failed (swift test --filter KritaGoldenTests says where)", file=sys.stderr)

    print("Premultiplied levels per channel, the largest difference. 'all': every pixel; the rest: pixels whose")
    print("two layers both have alpha >= %d (below that 8-bit premultiplied storage loses most of a colour)." % LOW_ALPHA)
    print("kernel-Krita: the kernel on the layers premultiplied, against Krita's flattened file, premultiplied;")
    print("kernel-W3C: against the spec's formulas in Double on the same premultiplied inputs (opacity rounded as the kernel does);")
    print("Krita-W3C: Krita against the spec on the straight inputs Krita read; storage: the spec on premultiplied")
    print("inputs against the spec on straight ones, what premultiplied 8-bit layers alone cost.")
    print("| mode | opacity | kernel-Krita, all | kernel-Krita | pixels > 3 | kernel-W3C | Krita-W3C | storage | worst kernel-Krita pixel (straight inputs; premultiplied results) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for mode in modes:
        for opacity in OPACITIES:
            stem = os.path.join(args.dir, "%s-%d" % (mode, opacity))
            kp = open(stem + ".krita.rgba", "rb").read()
            qp = open(stem + ".kernel.rgba", "rb").read()
            worst, worst_at, worst_high, over3 = 0, None, 0, 0
            kernel_w3c = krita_w3c = storage = 0.0
            for i in range(N * N):
                x, y = i % N, i // N
                s, d = premultiply(CELLS[x]), premultiply(CELLS[y])
                k = premultiply(tuple(kp[4 * i:4 * i + 4]))
                q = tuple(qp[4 * i:4 * i + 4])
                diff = max(abs(a - b) for a, b in zip(k, q))
                if diff > worst: worst, worst_at = diff, (CELLS[x], CELLS[y], q, k)
                if CELLS[x][3] < LOW_ALPHA or CELLS[y][3] < LOW_ALPHA:
                    continue
                worst_high = max(worst_high, diff)
                over3 += diff > 3
                exact = w3c(mode, [float(v) for v in CELLS[x]], [float(v) for v in CELLS[y]], opacity)
                stored = w3c(mode, straight(s), straight(d), opacity)
                as_kernel = w3c(mode, straight(scaled(s, opacity)), straight(d), 255)
                kernel_w3c = max(kernel_w3c, max(abs(a - b) for a, b in zip(q, as_kernel)))
                krita_w3c = max(krita_w3c, max(abs(a - b) for a, b in zip(k, exact)))
                storage = max(storage, max(abs(a - b) for a, b in zip(stored, exact)))
            at = "" if worst_at is None else "src %s on %s: kernel %s, Krita %s" % worst_at
            print("| %s | %d | %d | %d | %d | %.1f | %.1f | %.1f | %s |" % (mode, opacity, worst, worst_high, over3,
                                                                          kernel_w3c, krita_w3c, storage, at))


if __name__ == "__main__":
    main()
