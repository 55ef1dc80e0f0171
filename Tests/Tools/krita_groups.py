#!/usr/bin/env python3
"""Groups as Krita composes them: writes a small OpenRaster file with nested stacks laid out as
Krita 5.1 writes them (an isolated group in svg:multiply at 80 %, a pass-through group at 60 %
whose svg:difference Krita does not use, an isolated group nested in it, a hidden group, layers
in several modes and opacities at offsets, an opaque background), and has Krita flatten it
headless (`xvfb-run -a krita FILE.ora --export --export-filename OUT.png`). Not run by
`make test`: with --update-goldens it writes Tests/Fixtures/krita/groups.ora and
groups-krita.png, which `GroupTests.matchesKrita` holds Quicksilver's compose to (3 levels).
`ora_interop.py` uses `write_groups_ora` for its round trip through Quicksilver's window.

Needs: krita (Debian: apt-get install krita xvfb xauth), xvfb-run. No Python packages.

    python3 Tests/Tools/krita_groups.py [--dir DIR] [--update-goldens]
"""
import argparse
import os
import shutil
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from krita_blend import png_bytes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WIDTH, HEIGHT = 128, 96
BACKGROUND = (255, 255, 255)
ALPHAS = [255, 200, 128, 60]


def pattern(k, w, h):
    """Layer k's straight RGBA pixels, w x h: colours along x and y, alpha in 16-pixel checks."""
    px = bytearray()
    for y in range(h):
        for x in range(w):
            a = ALPHAS[(x // 16 + y // 16 + k) % 4]
            px += bytes(((x * 7 + k * 50) % 256, (y * 5 + k * 90) % 256, ((x + y) * 3 + k * 30) % 256, a))
    return px


# (name, k, x, y, w, h, opacity, op) for layers; ("stack", name, attrs, children) for groups.
def layout():
    def layer(name, k, x, y, w, h, opacity=1.0, op="svg:src-over"):
        return ("layer", name, k, x, y, w, h, opacity, op)
    return [  # top first, as stack.xml lists them
        layer("top", 1, 70, 10, 50, 40, 0.9),
        ("stack", "hidden group", {"visibility": "hidden", "isolation": "isolate"}, [layer("under cover", 2, 0, 0, 128, 96)]),
        ("stack", "pass", {"opacity": "0.6", "composite-op": "svg:difference", "isolation": "auto"}, [
            ("stack", "inner", {"opacity": "0.7", "composite-op": "svg:screen", "isolation": "isolate"}, [
                layer("c1", 3, 10, 50, 60, 40, 1.0, "svg:hard-light"),
                layer("c2", 4, 0, 40, 50, 50),
            ]),
            layer("b1", 5, 40, 0, 70, 60, 0.8, "svg:overlay"),
            layer("b2", 6, 20, 20, 60, 50),
        ]),
        ("stack", "iso", {"opacity": "0.8", "composite-op": "svg:multiply", "isolation": "isolate"}, [
            layer("a1", 7, 0, 0, 90, 70, 0.6, "svg:screen"),
            layer("a2", 8, 30, 30, 98, 66),
        ]),
        layer("base", 9, 0, 0, 128, 96),
    ]


def write_groups_ora(path):
    """The grouped file, as Krita lays one out (root stack isolated, groups with `isolation`)."""
    pictures, lines = {}, []

    def emit(items, indent):
        for item in items:
            if item[0] == "layer":
                _, name, k, x, y, w, h, opacity, op = item
                src = "data/%s.png" % name.replace(" ", "_")
                pictures[src] = png_bytes(w, h, pattern(k, w, h), up=True)
                lines.append('%s<layer name="%s" src="%s" x="%d" y="%d" opacity="%s" visibility="visible" composite-op="%s"/>'
                             % (indent, name, src, x, y, opacity, op))
            else:
                _, name, attrs, children = item
                a = {"opacity": "1", "visibility": "visible", "composite-op": "svg:src-over"}
                a.update(attrs)
                lines.append('%s<stack name="%s" %s>' % (indent, name, " ".join('%s="%s"' % kv for kv in a.items())))
                emit(children, indent + " ")
                lines.append("%s</stack>" % indent)
    emit(layout(), "  ")
    bg = bytes(BACKGROUND + (255,)) * (WIDTH * HEIGHT)
    pictures["data/background.png"] = png_bytes(WIDTH, HEIGHT, bg)
    lines.append('  <layer name="Background" src="data/background.png" x="0" y="0" opacity="1" visibility="visible" '
                 'composite-op="svg:src-over" quicksilver:background="#%02x%02x%02x"/>' % BACKGROUND)
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<image version="0.0.1" w="%d" h="%d" xres="72" yres="72" '
           'xmlns:quicksilver="urn:x-quicksilver:openraster">\n <stack name="root" isolation="isolate">\n%s\n </stack>\n</image>\n'
           % (WIDTH, HEIGHT, "\n".join(lines)))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "image/openraster", compress_type=zipfile.ZIP_STORED)
        z.writestr("stack.xml", xml, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in sorted(pictures.items()):
            z.writestr(name, data, compress_type=zipfile.ZIP_STORED)


def krita_flatten(ora, out):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run(["xvfb-run", "-a", "krita", ora, "--export", "--export-filename", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, env=env)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="/tmp/krita-groups")
    ap.add_argument("--update-goldens", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    ora, png = os.path.join(args.dir, "groups.ora"), os.path.join(args.dir, "groups-krita.png")
    write_groups_ora(ora)
    krita_flatten(ora, png)
    print("wrote", ora, png)
    if args.update_goldens:
        folder = os.path.join(ROOT, "Tests", "Fixtures", "krita")
        shutil.copy(ora, os.path.join(folder, "groups.ora"))
        shutil.copy(png, os.path.join(folder, "groups-krita.png"))
        print("updated", folder)


if __name__ == "__main__":
    main()
