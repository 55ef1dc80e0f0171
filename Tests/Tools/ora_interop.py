#!/usr/bin/env python3
"""OpenRaster interop between Quicksilver and MyPaint 2.0, Krita 5.1 and GIMP 2.10 (not run by
`make test`: it drives the three programs, which takes minutes; `make interop` installs them and
runs this).

Quicksilver → program: two replays with several layers (blend modes, opacity, a hidden layer,
layers cropped to their strokes so that they carry offsets, an erased hole) are rendered by
`quicksilver render` to X.ora and X.png; and, for MyPaint and Krita, a third whose layers have
strokes too far apart for one picture (`pieced`: each saved as an isolated group of pieces, one
multiply, one screen, one hidden), which they must read as those groups, each piece at its
offset, and show as Quicksilver shows the layers. Each program opens X.ora headless and exports
what it shows flattened to PNG, compared with X.png; what it read of each layer and group (name,
offset, opacity, visibility, mode, isolation) is compared with the stack.xml Quicksilver wrote.
X.ora must carry mergedimage.png (the same pixels as X.png) and Thumbnails/thumbnail.png.

Program → Quicksilver: each program saves a layered .ora it built itself (several layers, one at
an offset, opacity, a hidden one, blend modes) and its own flattened PNG; Quicksilver opens the
.ora (a replay whose header's `snapshot` names it, played by `quicksilver render`, the same path
`window FILE.ora` takes) and its flattened picture is compared with the program's.

How each program is driven:
- Krita 5.1: `kritarunner`, under xvfb-run, runs a Python script against Krita's scripting API:
  it opens each file, reports its layers (name, bounds, opacity, visibility, blending mode) and
  exports it flattened to PNG and through Krita's own OpenRaster writer, and it builds Krita's
  document (createDocument, a paint layer per picture, setPixelData at the offset).
- MyPaint 2.0: no batch mode, so its own Python library (/usr/lib/mypaint/lib: lib.document, the
  code the GUI saves and loads with) is run by the system Python. Files with no `mypaint:eotf`
  are opened with eotf 1.0, as the GUI does by default ("1.x compatibility unless the file has
  pigment layers"); the ones it saves carry the eotf it used. Quicksilver's file is opened again
  as MyPaint set to open every file in its 2.x mode (linear light) would, and MyPaint builds its
  document twice, in 1.x mode and in 2.x mode (eotf 2.2, its default for new documents).
- GIMP 2.10: Debian's GIMP 2.10 has no OpenRaster plug-in (upstream's is Python 2 GIMP-Python,
  which Debian 12 dropped; the PDB has no file-openraster-*: this script checks and says so).
  Its loader and saver are therefore done in Script-Fu exactly as upstream's plug-in does them
  (`gimp-file-load-layer` per layer, its svg:→GIMP mode table, offsets, opacity, visibility;
  saving: `file-png-save` per layer, mergedimage from merge-visible-layers), GIMP doing every
  pixel, and the zip put together here (the README marks these results "plug-in emulated").

Groups, both ways with Krita: a grouped file as Krita lays one out (`krita_groups.py`: isolated
and pass-through groups, one nested in another, a hidden one, blend modes and opacities), saved
again by Krita's own OpenRaster writer; Quicksilver opens Krita's file (as a replay's snapshot,
the path `window FILE.ora` takes), shows it as Krita does, draws a stroke on it and saves it;
Krita opens Quicksilver's save and must show what Quicksilver showed, and every layer and group
of Krita's file must still be in its stack.xml, nested as they were, isolation and all.

Differences are in levels (0…255) per channel of the pictures over white, the largest and the
mean; the expected largest is 3 or less. Exits 1, listing the problems, when a program or
Quicksilver reads a layer otherwise than it was written, when Quicksilver's file lacks what it
must carry, or when pixels differ by more than that where no note explains it (GIMP's
compositing, MyPaint's plus and MyPaint's linear-light 2.x documents are reported, not gated).

Needs: quicksilver built, xvfb-run, krita, gimp, mypaint (Debian), the system Python 3
(/usr/bin/python3) for MyPaint's library. No PyPI packages.

    python3 Tests/Tools/ora_interop.py [--quicksilver .build/debug/quicksilver] [--dir DIR]
                                       [--only krita,mypaint,gimp,groups] [--readme-picture docs/layers.png]
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from krita_blend import png_bytes, read_png  # noqa: E402  (PNG by hand, no PyPI package)
import krita_groups  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM_PYTHON = "/usr/bin/python3"
TOLERANCE = 3


# --- Replays: the documents Quicksilver makes ---------------------------------------------------

class Replay:
    """A replay being written: strokes on layers, the clock moving on."""

    def __init__(self, width, height, background):
        self.lines = [{"quicksilver": 1, "width": width, "height": height, "seed": 1, "background": background}]
        self.t = 0.0

    def event(self, type_, **fields):
        self.t += 1 / 120
        self.lines.append(dict({"t": round(self.t, 4), "type": type_}, **fields))

    def brush(self, **fields):
        self.event("brush", **fields)

    def layer(self, action, **fields):
        self.event("layer", action=action, **fields)

    def stroke(self, points, pressure=0.5):
        for i, (x, y) in enumerate(points):
            kind = "down" if i == 0 else "up" if i == len(points) - 1 else "move"
            p = pressure(i / max(1, len(points) - 1)) if callable(pressure) else pressure
            self.event(kind, x=round(x, 2), y=round(y, 2), pressure=round(p, 3))

    def text(self):
        return "".join(json.dumps(line) + "\n" for line in self.lines + [{"t": round(self.t + 0.1, 4), "type": "exit"}])


def curve(x0, y0, x1, y1, bend=0.0, steps=40, wave=0.0, waves=1.0):
    """Points from (x0, y0) to (x1, y1), bowed sideways by `bend` and rippled by `wave`."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1
    nx, ny = -dy / length, dx / length
    out = []
    for i in range(steps + 1):
        s = i / steps
        off = bend * 4 * s * (1 - s) + wave * math.sin(s * math.pi * 2 * waves)
        out.append((x0 + dx * s + nx * off, y0 + dy * s + ny * off))
    return out


def spiral(cx, cy, r0, r1, turns, steps=120):
    return [(cx + (r0 + (r1 - r0) * i / steps) * math.cos(turns * 2 * math.pi * i / steps),
             cy + (r0 + (r1 - r0) * i / steps) * math.sin(turns * 2 * math.pi * i / steps)) for i in range(steps + 1)]


def scene_replay():
    """A small painting on seven layers: the README's picture and the main interop document."""
    r = Replay(640, 400, "#f3ede2")
    r.layer("set", name="Wash")
    r.brush(kind="pen", size=70, color="#e9b872")
    for i in range(5):
        r.stroke(curve(-40, 40 + 80 * i, 680, 20 + 80 * i, bend=30 - 12 * i, wave=10, waves=1.5))
    r.brush(color="#5fa8a0", size=60)
    r.stroke(curve(-20, 420, 660, 250, bend=-60, steps=60), pressure=lambda s: 0.3 + 0.7 * s)
    # An erased hole in the wash: the background shows through it.
    r.brush(kind="eraser", size=26)
    r.stroke(spiral(520, 120, 6, 46, 2.2))
    r.layer("new", name="Shadow")
    r.layer("set", mode="svg:multiply", opacity=0.75)
    r.brush(kind="pen", size=40, color="#3f51b5")
    for i in range(4):
        r.stroke(curve(60 + 120 * i, 380, 200 + 120 * i, 60, bend=40, wave=8), pressure=lambda s: 0.2 + 0.8 * math.sin(math.pi * s))
    r.layer("new", name="Light")
    r.layer("set", mode="svg:screen")
    r.brush(color="#ffd54f", size=55)
    r.stroke(spiral(180, 170, 10, 120, 1.6, steps=160), pressure=lambda s: 1 - 0.7 * s)
    r.layer("new", name="Sketch (hidden)")
    r.brush(color="#d50000", size=4)
    r.stroke(curve(30, 30, 610, 370, wave=60, waves=4, steps=120))
    r.layer("set", visible=False)
    r.layer("new", name="Tint")
    r.layer("set", mode="svg:color", opacity=0.6)
    r.brush(color="#c2185b", size=90)
    r.stroke(curve(380, 420, 640, 160, bend=-50))
    r.layer("new", name="Glaze")
    r.layer("set", mode="svg:overlay", opacity=0.85)
    r.brush(color="#00bcd4", size=35)
    r.stroke(curve(20, 250, 400, 330, bend=-70, wave=12, waves=2))
    r.layer("new", name="Ink: «lines» & <marks>")
    r.brush(color="#212121", size=3)
    for i in range(6):
        r.stroke(curve(430 + 12 * i, 260 + 6 * i, 600 - 4 * i, 370 - 8 * i, bend=25 + 5 * i, steps=30),
                 pressure=lambda s: 0.2 + 0.8 * math.sin(math.pi * s))
    r.layer("new", name="Dots")
    r.layer("set", mode="svg:difference", opacity=0.9)
    r.brush(color="#f5f5f5", size=12)
    for i in range(7):
        x, y = 70 + 40 * i, 80 + 14 * (i % 3)
        r.stroke([(x, y), (x + 1, y + 1), (x + 2, y)])
    r.layer("select", index=3)
    return r


def pieced_replay():
    """Layers whose strokes lie far apart (over 16384 px, one of them far outside the frame), so
    that Quicksilver saves each in pieces: an isolated group with the layer's name, opacity,
    visibility and mode (marked quicksilver:pieces) holding a plain layer for each 8192-px
    square's paint, at its offset (negative too); strokes across the squares' seam at x = 8192
    inside the frame. Over a layer painted across under them, so that the modes show: one
    multiply at 0.6, one screen at 0.8, one multiply hidden."""
    r = Replay(9000, 64, "#f3ede2")
    r.layer("set", name="Under")
    r.brush(kind="pen", size=20, color="#2e9e8f")
    for x0 in (12, 8100, 8800):
        r.stroke(curve(x0, 30, x0 + 150, 34, steps=12, wave=6))
    r.brush(color="#5a7fd0", size=12)
    r.stroke(curve(40, 48, 8940, 50, steps=120, wave=6, waves=12))
    r.layer("new", name="Far: multiply")
    r.brush(kind="pen", size=16, color="#c0392b")
    r.stroke(curve(12, 6, 64, 58, bend=20), pressure=lambda s: 0.2 + 0.8 * math.sin(math.pi * s))
    r.stroke(curve(8860, 4, 8910, 60, bend=-18))
    r.stroke(curve(-9030, 10, -8970, 56, bend=15))
    r.brush(color="#e6a020c0", size=12)
    r.stroke(curve(8120, 14, 8260, 54, bend=10, wave=5))
    r.layer("set", mode="svg:multiply", opacity=0.6)
    r.layer("new", name="Far: screen")
    r.brush(color="#ffd54f", size=14)
    r.stroke(curve(100, 60, 260, 2, bend=-12))
    r.stroke(curve(8150, 58, 8240, 2, bend=14))
    r.stroke(curve(-12000, 10, -11900, 50))
    r.layer("set", mode="svg:screen", opacity=0.8)
    r.layer("new", name="Far: hidden")
    r.brush(color="#d50000", size=18)
    r.stroke(curve(300, 10, 8600, 40, steps=60, wave=10, waves=6))
    r.stroke(curve(-10000, 10, -9900, 50))
    r.layer("set", mode="svg:multiply", opacity=0.6, visible=False)
    return r


MODES = ["svg:src-over", "svg:multiply", "svg:screen", "svg:overlay", "svg:darken", "svg:lighten",
         "svg:color-dodge", "svg:color-burn", "svg:hard-light", "svg:soft-light", "svg:difference",
         "svg:color", "svg:luminosity", "svg:hue", "svg:saturation", "svg:plus"]


def modes_replay():
    """Every blend mode: a ground of coloured bands, then one layer per mode, a column of two
    colours, every other one at opacity 0.7."""
    r = Replay(16 * 36 + 8, 240, "#ffffff")
    r.layer("set", name="Bands")
    for i, colour in enumerate(["#1b1f3b", "#e53935", "#43a047", "#fdd835", "#8e24aa", "#90a4ae", "#fafafa"]):
        r.brush(kind="pen", size=18, color=colour)
        r.stroke(curve(-20, 18 + 34 * i, 16 * 36 + 30, 18 + 34 * i, steps=8))
    for i, mode in enumerate(MODES):
        r.layer("new", name=mode[4:])
        x = 22 + 36 * i
        r.brush(kind="pen", size=14, color=["#ff7043", "#26c6da", "#7e57c2", "#9ccc65"][i % 4])
        r.stroke(curve(x, 8, x, 118, steps=6))
        r.brush(color=["#5c6bc0", "#ffee58", "#ec407a", "#8d6e63"][i % 4] + "c0")
        r.stroke(curve(x, 122, x, 232, steps=6))
        r.layer("set", mode=mode, **({"opacity": 0.7} if i % 2 else {}))
    return r


def program_env(**extra):
    """The environment for the programs: without a Python version manager's folders on PATH,
    whose Python the programs' embedded Python (Krita's) would otherwise take for its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYENV") and k != "PYTHONHOME"}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if "/.pyenv/" not in p + "/")
    env.update(extra)
    return env


def run(cmd, check=True, **kw):
    kw.setdefault("timeout", 900)
    kw.setdefault("env", program_env())
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if check and done.returncode != 0:
        sys.exit("%s failed (exit %d):\n%s" % (" ".join(cmd), done.returncode, (done.stdout + done.stderr)[-3000:]))
    return done


def quicksilver_render(qs, replay_path, out):
    run([qs, "render", replay_path, "-o", out])


def quicksilver_open(qs, ora, out_png):
    """Quicksilver's flattened picture of an .ora file: a replay that starts from it as its snapshot."""
    with zipfile.ZipFile(ora) as z:
        image = ET.fromstring(z.read("stack.xml"))
    folder = os.path.dirname(os.path.abspath(ora))
    replay = os.path.join(folder, os.path.basename(ora) + ".open.jsonl")
    header = {"quicksilver": 1, "width": int(image.get("w")), "height": int(image.get("h")),
              "background": "#ffffff", "snapshot": os.path.basename(ora)}
    with open(replay, "w") as f:
        f.write(json.dumps(header) + "\n")
    quicksilver_render(qs, replay, out_png)


# --- Pictures and stacks ------------------------------------------------------------------------

def over_white(px):
    out = bytearray(len(px))
    for i in range(0, len(px), 4):
        a = px[i + 3]
        for k in range(3):
            out[i + k] = (px[i + k] * a + 255 * (255 - a) + 127) // 255
        out[i + 3] = 255
    return out


def compare(path_a, path_b):
    """Largest and mean channel difference of two pictures over white, and how many pixels
    differ by more than TOLERANCE."""
    wa, ha, a = read_png(path_a)
    wb, hb, b = read_png(path_b)
    if (wa, ha) != (wb, hb):
        return {"size": "%dx%d vs %dx%d" % (wa, ha, wb, hb), "max": 999, "mean": 999.0, "over": wa * ha}
    a, b = over_white(a), over_white(b)
    worst, total, over = 0, 0, 0
    for i in range(0, len(a), 4):
        d = max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2]))
        worst = max(worst, d)
        total += abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) + abs(a[i + 2] - b[i + 2])
        over += d > TOLERANCE
    return {"max": worst, "mean": total / (len(a) // 4 * 3), "over": over, "pixels": len(a) // 4}


def diff_picture(path_a, path_b, out, gain=8):
    """A picture of where two pictures differ (difference × gain, over white), to look at."""
    w, h, a = read_png(path_a)
    _, _, b = read_png(path_b)
    a, b = over_white(a), over_white(b)
    px = bytearray()
    for i in range(0, len(a), 4):
        px += bytes(255 - min(255, gain * abs(a[i + k] - b[i + k])) for k in range(3)) + b"\xff"
    open(out, "wb").write(png_bytes(w, h, px))


def stack_layers(ora, groups=False):
    """stack.xml's layers, top first: name, x, y, opacity, visibility, composite-op (nested stacks
    walked, their offsets added). With `groups`, each stack too, before what it holds, its
    `group` "isolated" or "pass-through" (a layer's `group` is None)."""
    with zipfile.ZipFile(ora) as z:
        image = ET.fromstring(z.read("stack.xml"))
    out = []

    def walk(stack, dx, dy):
        for e in stack:
            if e.tag == "layer":
                out.append({"name": e.get("name", ""), "x": int(float(e.get("x", "0"))) + dx, "y": int(float(e.get("y", "0"))) + dy,
                            "opacity": round(float(e.get("opacity", "1")), 3), "visible": e.get("visibility", "visible") != "hidden",
                            "mode": e.get("composite-op", "svg:src-over"), "src": e.get("src"), "group": None})
            elif e.tag == "stack":
                if groups:
                    out.append({"name": e.get("name", ""), "x": int(float(e.get("x", "0"))) + dx, "y": int(float(e.get("y", "0"))) + dy,
                                "opacity": round(float(e.get("opacity", "1")), 3), "visible": e.get("visibility", "visible") != "hidden",
                                "mode": e.get("composite-op", "svg:src-over"), "src": None,
                                "group": "isolated" if e.get("isolation") == "isolate" else "pass-through"})
                walk(e, dx + int(float(e.get("x", "0"))), dy + int(float(e.get("y", "0"))))
    walk(image.find("stack"), 0, 0)
    return out


def check_quicksilver_file(ora, png):
    """What the issue asks of a saved file: mimetype first and stored, mergedimage.png the same
    pixels as the flattened render, a thumbnail no larger than 256x256."""
    problems = []
    with zipfile.ZipFile(ora) as z:
        infos = z.infolist()
        if infos[0].filename != "mimetype" or infos[0].compress_type != zipfile.ZIP_STORED:
            problems.append("mimetype is not the first entry, stored")
        names = z.namelist()
        for entry in ("stack.xml", "mergedimage.png", "Thumbnails/thumbnail.png"):
            if entry not in names:
                problems.append("no " + entry)
        folder = os.path.dirname(ora)
        merged = os.path.join(folder, "qs-merged.png")
        open(merged, "wb").write(z.read("mergedimage.png"))
        thumb = os.path.join(folder, "qs-thumb.png")
        open(thumb, "wb").write(z.read("Thumbnails/thumbnail.png"))
    c = compare(merged, png)
    if c["max"] != 0:
        problems.append("mergedimage.png differs from the flattened render by %s" % c["max"])
    tw, th, _ = read_png(thumb)
    if max(tw, th) > 256:
        problems.append("thumbnail %dx%d" % (tw, th))
    return problems, (tw, th)


def stack_tree(ora):
    """stack.xml's tree below the root stack, top first: a layer as its name, a group as
    (name, isolated, children); Quicksilver's own background layer left out."""
    with zipfile.ZipFile(ora) as z:
        image = ET.fromstring(z.read("stack.xml"))

    def walk(stack):
        out = []
        for e in stack:
            if e.tag == "layer" and not any(k.endswith("}background") for k in e.attrib):
                out.append(e.get("name", ""))
            elif e.tag == "stack":
                out.append((e.get("name", ""), e.get("isolation") == "isolate", walk(e)))
        return out
    return walk(image.find("stack"))


def groups_round_trip(qs, folder, row, failures):
    """Krita's grouped file → Quicksilver (shown, drawn on, saved) → Krita."""
    def path(name):
        return os.path.join(folder, name)
    # Debian's version ("1:5.1.5+dfsg-2…"): Krita's own --version needs a display.
    packaged = run(["dpkg-query", "-W", "-f", "${Version}", "krita"], check=False).stdout
    version = [re.sub(r"^\d+:", "", packaged).split("+")[0] or "5"]
    krita_groups.write_groups_ora(path("groups-laid-out.ora"))
    krita_groups.krita_flatten(path("groups-laid-out.ora"), path("kr-groups.ora"))    # Krita's own writer
    krita_groups.krita_flatten(path("kr-groups.ora"), path("kr-groups.png"))
    with zipfile.ZipFile(path("kr-groups.ora")) as z:
        image = ET.fromstring(z.read("stack.xml"))
    header = {"quicksilver": 1, "width": int(image.get("w")), "height": int(image.get("h")), "background": "#ffffff",
              "snapshot": "kr-groups.ora"}
    opened = [json.dumps(header)]
    drawn = opened + [json.dumps(e) for e in [
        {"t": 0, "type": "brush", "kind": "pen", "size": 6, "color": "#202080"},
        {"t": 0.1, "type": "down", "x": 8, "y": 70}, {"t": 0.2, "type": "move", "x": 60, "y": 20},
        {"t": 0.3, "type": "up", "x": 120, "y": 60}]]
    for name, lines in (("qs-groups-opened", opened), ("qs-groups", drawn)):
        open(path(name + ".jsonl"), "w").write("\n".join(lines) + "\n")
        quicksilver_render(qs, path(name + ".jsonl"), path(name + ".png"))
    quicksilver_render(qs, path("qs-groups.jsonl"), path("qs-groups.ora"))
    krita_groups.krita_flatten(path("qs-groups.ora"), path("kr-of-qs-groups.png"))
    c = compare(path("qs-groups-opened.png"), path("kr-groups.png"))
    diff_picture(path("qs-groups-opened.png"), path("kr-groups.png"), path("diff-groups-opened.png"))
    row("Krita", version[0], "Krita → Quicksilver", "groups", c, "Krita's grouped file as Quicksilver shows it")
    kept = stack_tree(path("qs-groups.ora")) == stack_tree(path("kr-groups.ora"))
    if not kept:
        failures.append("groups: Quicksilver's save lost or changed layers or groups: %s, Krita's file had %s"
                        % (stack_tree(path("qs-groups.ora")), stack_tree(path("kr-groups.ora"))))
    c = compare(path("kr-of-qs-groups.png"), path("qs-groups.png"))
    diff_picture(path("kr-of-qs-groups.png"), path("qs-groups.png"), path("diff-groups-saved.png"))
    row("Krita", version[0], "Krita → Quicksilver → Krita", "groups", c,
        "drawn on and saved by Quicksilver, in Krita, against what Quicksilver showed; "
        + ("every layer and group kept, nested as they were" if kept else "LAYERS OR GROUPS LOST"))


# --- The document each program builds itself ------------------------------------------------------

BUILT_SIZE = (400, 300)


def picture(kind, w, h, rgb, rgb2=None):
    """Straight RGBA bytes: a soft-edged disc, a ring, a band with a vertical gradient, or an
    opaque diagonal gradient (`paper`)."""
    px = bytearray()
    for y in range(h):
        for x in range(w):
            if kind == "paper":
                s = (x + y) / (w + h - 2)
                px += bytes(round(a + (b - a) * s) for a, b in zip(rgb, rgb2)) + b"\xff"
                continue
            dx, dy = (x + 0.5) / w * 2 - 1, (y + 0.5) / h * 2 - 1
            d = math.hypot(dx, dy)
            if kind == "disc":
                a = min(1.0, max(0.0, (1 - d) * 6))
            elif kind == "ring":
                a = min(1.0, max(0.0, (0.22 - abs(d - 0.7)) * 12))
            else:  # band
                a = min(1.0, max(0.0, (1 - abs(dy)) * 3)) * (0.55 + 0.45 * (x / max(1, w - 1)))
            c = rgb if rgb2 is None else tuple(round(p + (q - p) * (y / max(1, h - 1))) for p, q in zip(rgb, rgb2))
            px += bytes(c) + bytes([round(a * 255)])
    return px


# Bottom first: name, picture, size, offset, opacity, visible, composite-op.
BUILT_LAYERS = [
    ("Paper", ("paper", (250, 240, 220), (150, 190, 210)), (400, 300), (0, 0), 1.0, True, "svg:src-over"),
    ("Sun", ("disc", (255, 190, 60)), (180, 180), (40, 30), 1.0, True, "svg:screen"),
    ("Shade", ("band", (60, 70, 160), (150, 40, 90)), (300, 120), (80, 150), 0.75, True, "svg:multiply"),
    ("Hidden note", ("disc", (220, 0, 0)), (90, 90), (200, 20), 1.0, False, "svg:src-over"),
    ("Glaze", ("ring", (0, 170, 150)), (220, 220), (150, 60), 0.8, True, "svg:overlay"),
    ("Tone", ("band", (200, 30, 160)), (200, 90), (10, 10), 0.6, True, "svg:color"),
    ("Mark", ("disc", (240, 240, 240)), (70, 70), (301, 197), 1.0, True, "svg:difference"),
]


def write_built_pictures(folder):
    """The built document's layers as PNG files, and the spec the programs' drivers read."""
    spec = []
    for i, (name, pic, (w, h), (x, y), opacity, visible, op) in enumerate(BUILT_LAYERS):
        path = os.path.join(folder, "built-%d.png" % i)
        open(path, "wb").write(png_bytes(w, h, picture(pic[0], w, h, *pic[1:])))
        spec.append({"name": name, "png": path, "w": w, "h": h, "x": x, "y": y, "opacity": opacity,
                     "visible": visible, "mode": op})
    return spec


# --- MyPaint 2.0: its own library, headless ---------------------------------------------------------

MYPAINT_DRIVER = r'''
import json, os, sys
sys.path.insert(0, "/usr/lib/mypaint")
import lib.eotf
import lib.document, lib.mypaintlib, lib.modes, lib.meta
from lib.layer.data import PaintingLayer
from lib.layer.group import LayerStack

def layers(doc):
    out = []
    for path, layer in doc.layer_stack.walk():
        bbox = layer.get_bbox()
        through = layer.mode == lib.modes.PASS_THROUGH_MODE
        out.append({"name": layer.name, "opacity": round(layer.opacity, 3), "visible": layer.visible,
                    "mode": "svg:src-over" if through else lib.mypaintlib.combine_mode_get_info(layer.mode)["name"],
                    "bbox": [bbox.x, bbox.y, bbox.w, bbox.h],
                    "group": ("pass-through" if through else "isolated") if isinstance(layer, LayerStack) else None})
    return out

job = json.load(open(sys.argv[1]))
report = {"version": lib.meta.MYPAINT_VERSION if hasattr(lib.meta, "MYPAINT_VERSION") else "", "open": {}}
for ora, png, out_ora in job["open"]:
    # As the GUI's handler: the file's eotf when it has one (1.0: 1.x mode); otherwise, by its
    # default preference, 1.x mode (eotf 1.0), or 2.x mode (2.2) when the job prefers it.
    import zipfile, xml.etree.ElementTree as ET
    image = ET.fromstring(zipfile.ZipFile(ora).read("stack.xml"))
    eotf = image.get("{http://mypaint.org/ns/openraster}eotf")
    lib.eotf.set_eotf(float(eotf) if eotf else job.get("default_eotf", 1.0))
    doc = lib.document.Document(painting_only=True)
    doc.load(ora)
    doc.set_frame_enabled(True, user_initiated=False)
    report["open"][ora] = {"layers": layers(doc), "eotf": lib.eotf.eotf(), "frame": list(doc.get_user_bbox())}
    doc.save_png(png, alpha=False)
    doc.save_ora(out_ora)
    doc.cleanup()
for build in job.get("builds", []):
    lib.eotf.set_eotf(build["eotf"])
    doc = lib.document.Document(painting_only=True)
    stack = doc.layer_stack
    first = [layer for _, layer in stack.walk()]
    for i, l in enumerate(build["layers"]):
        layer = PaintingLayer(name=l["name"])
        layer._surface.load_from_png(l["png"], l["x"], l["y"])
        layer.opacity = l["opacity"]
        layer.visible = l["visible"]
        layer.mode = lib.modes.ORA_MODES_BY_OPNAME[l["mode"]]
        stack.deepinsert([0], layer)
    for layer in first:
        stack.deepremove(layer)
    doc.update_frame(x=0, y=0, width=build["w"], height=build["h"], user_initiated=False)
    doc.set_frame_enabled(True, user_initiated=False)
    report[build["ora"]] = {"layers": layers(doc)}
    doc.save_ora(build["ora"])
    doc.save_png(build["png"], alpha=False)
    doc.cleanup()
json.dump(report, open(job["report"], "w"), indent=1)
'''


def mypaint_run(folder, opens, builds=(), default_eotf=1.0):
    driver = os.path.join(folder, "mypaint_driver.py")
    open(driver, "w").write(MYPAINT_DRIVER)
    job = os.path.join(folder, "mypaint-job.json")
    report = os.path.join(folder, "mypaint-report.json")
    json.dump({"open": opens, "builds": list(builds), "report": report, "default_eotf": default_eotf}, open(job, "w"))
    run([SYSTEM_PYTHON, driver, job], cwd=folder)
    return json.load(open(report))


# --- Krita 5.1: kritarunner and its Python API --------------------------------------------------------

KRITA_DRIVER = r'''
import json, os
from krita import Krita, InfoObject

def walk(node, out):
    # Bottom first, a group after what it holds: reversed, top first with each group before
    # what it holds, as stack.xml lists them.
    for c in node.childNodes():
        walk(c, out)
        b = c.bounds()
        group = None
        if c.type() == "grouplayer":
            group = "pass-through" if c.passThroughMode() else "isolated"
        out.append({"name": c.name(), "type": c.type(), "opacity": round(c.opacity() / 255, 3), "visible": c.visible(),
                    "mode": c.blendingMode(), "bbox": [b.x(), b.y(), b.width(), b.height()], "group": group})
    return out

def export(doc, path):
    info = InfoObject()
    if path.endswith(".png"):
        info.setProperty("alpha", True)
        info.setProperty("compression", 6)
        info.setProperty("forceSRGB", False)
        info.setProperty("saveSRGBProfile", False)
    ok = doc.exportImage(path, info)
    doc.waitForDone()
    return ok

def main(*args):
    job = json.load(open(os.environ["QS_INTEROP_JOB"]))
    app = Krita.instance()
    report = {"version": app.version(), "open": {}}
    for ora, png, out_ora in job["open"]:
        doc = app.openDocument(ora)
        doc.setBatchmode(True)
        doc.waitForDone()
        doc.refreshProjection()
        doc.waitForDone()
        report["open"][ora] = {"layers": walk(doc.rootNode(), []), "size": [doc.width(), doc.height()],
                               "png": export(doc, png), "ora": export(doc, out_ora)}
        doc.close()
    build = job.get("build")
    if build:
        doc = app.createDocument(build["w"], build["h"], "built", "RGBA", "U8", "", 72.0)
        doc.setBatchmode(True)
        root = doc.rootNode()
        for old in root.childNodes():
            old.remove()
        above = None
        for l in build["layers"]:
            node = doc.createNode(l["name"], "paintlayer")
            root.addChildNode(node, above)
            raw = open(l["rgba"], "rb").read()
            bgra = bytearray(raw)
            bgra[0::4], bgra[2::4] = raw[2::4], raw[0::4]
            node.setPixelData(bytes(bgra), l["x"], l["y"], l["w"], l["h"])
            node.setOpacity(round(l["opacity"] * 255))
            node.setBlendingMode(l["krita_mode"])
            node.setVisible(l["visible"])
            above = node
        doc.refreshProjection()
        doc.waitForDone()
        report["build"] = {"layers": walk(root, []), "ora": export(doc, build["ora"]), "png": export(doc, build["png"])}
        doc.close()
    json.dump(report, open(job["report"], "w"), indent=1)
'''

KRITA_MODES = {"svg:src-over": "normal", "svg:multiply": "multiply", "svg:screen": "screen", "svg:overlay": "overlay",
               "svg:color": "color", "svg:difference": "diff", "svg:darken": "darken", "svg:lighten": "lighten",
               "svg:hue": "hue", "svg:saturation": "saturation", "svg:luminosity": "luminize",
               "svg:soft-light": "soft_light_svg", "svg:hard-light": "hard_light", "svg:color-dodge": "dodge",
               "svg:color-burn": "burn", "svg:plus": "add"}


def krita_run(folder, opens, build):
    module = os.path.join(folder, "krita_driver.py")
    open(module, "w").write(KRITA_DRIVER)
    job = os.path.join(folder, "krita-job.json")
    report = os.path.join(folder, "krita-report.json")
    if build:
        for l in build["layers"]:
            w, h, px = read_png(l["png"])
            l["rgba"] = l["png"] + ".rgba"
            open(l["rgba"], "wb").write(px)
            l["krita_mode"] = KRITA_MODES[l["mode"]]
    json.dump({"open": opens, "build": build, "report": report}, open(job, "w"))
    env = program_env(QS_INTEROP_JOB=job, PYTHONPATH=folder)
    run(["xvfb-run", "-a", "kritarunner", "-s", "krita_driver", "-f", "main"], cwd=folder, env=env)
    return json.load(open(report))


# --- GIMP 2.10: Script-Fu doing what upstream's OpenRaster plug-in does ------------------------------

# Upstream's plug-in's table (plug-ins/pygimp/plug-ins/file-openraster.py in GIMP 2.10).
GIMP_MODES = {"svg:src-over": "LAYER-MODE-NORMAL", "svg:multiply": "LAYER-MODE-MULTIPLY-LEGACY",
              "svg:screen": "LAYER-MODE-SCREEN-LEGACY", "svg:overlay": "LAYER-MODE-OVERLAY",
              "svg:darken": "LAYER-MODE-DARKEN-ONLY-LEGACY", "svg:lighten": "LAYER-MODE-LIGHTEN-ONLY-LEGACY",
              "svg:color-dodge": "LAYER-MODE-DODGE-LEGACY", "svg:color-burn": "LAYER-MODE-BURN-LEGACY",
              "svg:hard-light": "LAYER-MODE-HARDLIGHT-LEGACY", "svg:soft-light": "LAYER-MODE-SOFTLIGHT-LEGACY",
              "svg:difference": "LAYER-MODE-DIFFERENCE-LEGACY", "svg:color": "LAYER-MODE-HSL-COLOR-LEGACY",
              "svg:luminosity": "LAYER-MODE-HSV-VALUE-LEGACY", "svg:hue": "LAYER-MODE-HSV-HUE-LEGACY",
              "svg:saturation": "LAYER-MODE-HSV-SATURATION-LEGACY", "svg:plus": "LAYER-MODE-ADDITION-LEGACY"}


def scheme_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gimp_has_openraster():
    out = run(["gimp", "-i", "-b", '(let ((r (gimp-procedural-db-query "file-openraster" "" "" "" "" "" ""))) '
               '(gimp-message (string-append "QS-ORA-PROCS " (number->string (car r)))) (gimp-quit 0))'], check=False)
    m = re.search(r"QS-ORA-PROCS (\d+)", out.stdout + out.stderr)
    return m is not None and int(m.group(1)) > 0


# Not the plug-in's: every mode in GIMP's legacy (perceptual, 2.8) form, to tell what comes
# from GIMP 2.10 composing Normal and Overlay in linear light from what comes from its formulas.
GIMP_LEGACY = dict(GIMP_MODES, **{"svg:src-over": "LAYER-MODE-NORMAL-LEGACY", "svg:overlay": "LAYER-MODE-OVERLAY-LEGACY"})


def gimp_script_load(w, h, layers_top_first, table=GIMP_MODES):
    """Script-Fu that builds an image the way upstream's load_ora does: each layer loaded with
    gimp-file-load-layer, named, its mode from the table, offsets, opacity × 100, visibility,
    inserted below the ones before it."""
    lines = ["(define img (car (gimp-image-new %d %d RGB)))" % (w, h)]
    for pos, l in enumerate(layers_top_first):
        lines.append("(let ((l (car (gimp-file-load-layer RUN-NONINTERACTIVE img %s))))" % scheme_string(l["png"]))
        lines.append("  (gimp-item-set-name l %s)" % scheme_string(l["name"]))
        lines.append("  (gimp-layer-set-mode l %s)" % table.get(l["mode"], "LAYER-MODE-NORMAL"))
        lines.append("  (gimp-layer-set-offsets l %d %d)" % (l["x"], l["y"]))
        lines.append("  (gimp-layer-set-opacity l %r)" % (l["opacity"] * 100))
        lines.append("  (gimp-item-set-visible l %s)" % ("TRUE" if l["visible"] else "FALSE"))
        lines.append("  (gimp-image-insert-layer img l 0 %d))" % pos)
    return lines


GIMP_REPORT = r'''
(define (qs-report img path)
  (call-with-output-file path
    (lambda (port)
      (for-each
        (lambda (l)
          (write (list (car (gimp-item-get-name l)) (gimp-drawable-offsets l) (car (gimp-drawable-width l))
                       (car (gimp-drawable-height l)) (car (gimp-layer-get-opacity l)) (car (gimp-item-get-visible l))
                       (car (gimp-layer-get-mode l))) port)
          (newline port))
        (vector->list (cadr (gimp-image-get-layers img)))))))
(define (qs-save-png img l path) (file-png-save RUN-NONINTERACTIVE img l path path 0 9 0 0 0 0 0))
(define (qs-flatten img path)
  (let* ((dup (car (gimp-image-duplicate img)))
         (m (car (gimp-image-merge-visible-layers dup CLIP-TO-IMAGE))))
    (gimp-layer-resize-to-image-size m)
    (qs-save-png dup m path)
    m))
'''


def gimp_mode_numbers(folder):
    """The numbers GIMP gives the mode constants of the table, to read its report back."""
    path = os.path.join(folder, "gimp-modes.txt")
    names = sorted(set(GIMP_MODES.values()) | set(GIMP_LEGACY.values()))
    script = "(call-with-output-file %s (lambda (port) (write (list %s) port)))\n(gimp-quit 0)\n" % (
        scheme_string(path), " ".join(names))
    run(["gimp", "-i", "-b", "-"], input=script)
    numbers = re.findall(r"-?\d+", open(path).read())
    by_number = {int(n): name for n, name in zip(numbers, names)}
    return {n: next(op for op, c in list(GIMP_MODES.items()) + list(GIMP_LEGACY.items()) if c == name)
            for n, name in by_number.items()}


def gimp_read_report(path, modes):
    out = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\("((?:[^"\\]|\\.)*)" \((-?\d+) (-?\d+)\) (\d+) (\d+) ([\d.]+) (\d+) (\d+)\)', line.strip())
        if not m:
            continue
        name = re.sub(r"\\(.)", r"\1", m.group(1))
        out.append({"name": name, "x": int(m.group(2)), "y": int(m.group(3)), "w": int(m.group(4)), "h": int(m.group(5)),
                    "opacity": round(float(m.group(6)) / 100, 3), "visible": m.group(7) == "1",
                    "mode": modes.get(int(m.group(8)), "GIMP mode %s" % m.group(8))})
    return out


def gimp_open(folder, ora, out_png, modes, table=GIMP_MODES):
    """GIMP's picture of an .ora file, loaded as upstream's plug-in loads it; and its layers."""
    name = os.path.splitext(os.path.basename(out_png))[0]
    parts = os.path.join(folder, name + "-parts")
    os.makedirs(parts, exist_ok=True)
    with zipfile.ZipFile(ora) as z:
        image = ET.fromstring(z.read("stack.xml"))
        layers = stack_layers(ora)
        for i, l in enumerate(layers):
            l["png"] = os.path.join(parts, "%03d.png" % i)
            open(l["png"], "wb").write(z.read(l["src"]))
    report = os.path.join(folder, name + "-layers.txt")
    script = [GIMP_REPORT] + gimp_script_load(int(image.get("w")), int(image.get("h")), layers, table)
    script += ["(qs-report img %s)" % scheme_string(report), "(qs-flatten img %s)" % scheme_string(out_png), "(gimp-quit 0)"]
    run(["gimp", "-i", "-b", "-"], input="\n".join(script) + "\n")
    return gimp_read_report(report, modes)


def gimp_build(folder, spec, out_ora, out_png, modes):
    """GIMP builds the document from the pictures and saves it as upstream's save_ora does: each
    layer through file-png-save, its offsets, opacity / 100, visibility and mode from the table;
    mergedimage.png from merge-visible-layers; the thumbnail scaled by GIMP."""
    parts = os.path.join(folder, "built-parts")
    os.makedirs(parts, exist_ok=True)
    w, h = BUILT_SIZE
    top_first = list(reversed(spec))
    script = [GIMP_REPORT] + gimp_script_load(w, h, top_first)
    report = os.path.join(folder, "built-layers.txt")
    script.append("(qs-report img %s)" % scheme_string(report))
    script.append("(let ((i 0)) (for-each (lambda (l) (qs-save-png img l (string-append %s (number->string i) \".png\")) (set! i (+ i 1))) "
                  "(vector->list (cadr (gimp-image-get-layers img)))))" % scheme_string(parts + "/"))
    script.append("(let* ((dup (car (gimp-image-duplicate img))) (m (car (gimp-image-merge-visible-layers dup CLIP-TO-IMAGE))))"
                  " (gimp-layer-resize-to-image-size m) (qs-save-png dup m %s)"
                  " (gimp-layer-scale m 256 192 FALSE) (qs-save-png dup m %s))"
                  % (scheme_string(out_png), scheme_string(os.path.join(parts, "thumbnail.png"))))
    script.append("(gimp-quit 0)")
    run(["gimp", "-i", "-b", "-"], input="\n".join(script) + "\n")
    layers = gimp_read_report(report, modes)
    stack = ET.Element("image", w=str(w), h=str(h))
    root = ET.SubElement(stack, "stack")
    with zipfile.ZipFile(out_ora, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("mimetype", "image/openraster")
        for i, l in enumerate(layers):
            path = "data/%03d.png" % i
            z.write(os.path.join(parts, "%d.png" % i), path)
            ET.SubElement(root, "layer", src=path, name=l["name"], x=str(l["x"]), y=str(l["y"]), opacity=str(l["opacity"]),
                          visibility="visible" if l["visible"] else "hidden",
                          **{"composite-op": l["mode"] if l["mode"] in GIMP_MODES else "svg:src-over"})
        z.write(out_png, "mergedimage.png")
        z.write(os.path.join(parts, "thumbnail.png"), "Thumbnails/thumbnail.png")
        z.writestr("stack.xml", ET.tostring(stack, encoding="UTF-8"))
    return layers


# --- Checks and the report ------------------------------------------------------------------------

KRITA_OPS = {v: k for k, v in KRITA_MODES.items()}


def per_mode(path_a, path_b):
    """For the modes document: the largest difference in each mode's column."""
    w, h, a = read_png(path_a)
    _, _, b = read_png(path_b)
    a, b = over_white(a), over_white(b)
    out = {}
    for i, mode in enumerate(MODES):
        worst = 0
        for y in range(h):
            for x in range(22 + 36 * i - 16, 22 + 36 * i + 16):
                j = (y * w + x) * 4
                worst = max(worst, abs(a[j] - b[j]), abs(a[j + 1] - b[j + 1]), abs(a[j + 2] - b[j + 2]))
        out[mode[4:]] = worst
    return out


def attribute_problems(expected, read, offsets):
    """Where what a program read (top first: name, opacity, visible, mode, and x, y when
    `offsets` is "exact", a bbox holding the layer when it is "within") differs from the file."""
    problems = []
    if len(expected) != len(read):
        return ["%d layers read, %d in the file" % (len(read), len(expected))]
    for e, r in zip(expected, read):
        what = "layer %r" % e["name"]
        if r["name"] != e["name"]:
            problems.append("%s read as named %r" % (what, r["name"]))
        # Krita keeps opacity in 8 bits, truncating: 0.85 is 216/255 = 0.847 there.
        if abs(r["opacity"] - e["opacity"]) > 1 / 255 + 1e-6:
            problems.append("%s opacity %s read as %s" % (what, e["opacity"], r["opacity"]))
        if r["visible"] != e["visible"]:
            problems.append("%s visibility read as %s" % (what, r["visible"]))
        if r["mode"] != e["mode"]:
            problems.append("%s mode %s read as %s" % (what, e["mode"], r["mode"]))
        if e.get("group") != r.get("group"):
            problems.append("%s (%s) read as %s" % (what, e.get("group") or "a layer", r.get("group") or "a layer"))
        if e.get("group"):
            continue  # a group's bounds are the program's own (Krita's within the canvas, MyPaint's in tiles)
        if offsets == "exact" and (r["x"], r["y"]) != (e["x"], e["y"]):
            problems.append("%s at (%d, %d) read at (%d, %d)" % (what, e["x"], e["y"], r["x"], r["y"]))
        if offsets == "within" and not (r["x"] <= e["x"] and r["y"] <= e["y"] and r["x"] + r["w"] >= e["x"] + e["w"]
                                        and r["y"] + r["h"] >= e["y"] + e["h"]):
            problems.append("%s at (%d, %d) %dx%d not inside what was read, (%d, %d) %dx%d"
                            % (what, e["x"], e["y"], e["w"], e["h"], r["x"], r["y"], r["w"], r["h"]))
    return problems


def with_sizes(ora, groups=False):
    """stack_layers with each layer's PNG size."""
    layers = stack_layers(ora, groups)
    with zipfile.ZipFile(ora) as z:
        for l in layers:
            if l["group"]:
                continue
            data = z.read(l["src"])
            l["w"], l["h"] = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return layers


def layer_pixels(ora, layer, folder):
    """A layer's pixels premultiplied, by canvas position: {(x, y): (r, g, b, a)} where alpha > 0."""
    path = os.path.join(folder, "layer-tmp.png")
    with zipfile.ZipFile(ora) as z:
        open(path, "wb").write(z.read(layer["src"]))
    w, h, px = read_png(path)
    out = {}
    for i in range(0, len(px), 4):
        a = px[i + 3]
        if a:
            out[(layer["x"] + (i // 4) % w, layer["y"] + (i // 4) // w)] = tuple(
                (px[i + k] * a + 127) // 255 for k in range(3)) + (a,)
    return out


def same_pixels(program_ora, program_stack, qs_ora, qs_stack, folder):
    """The largest difference, premultiplied, between each layer's pixels in the program's file
    and in Quicksilver's save of it, where they land on the canvas."""
    worst = 0
    for p, q in zip(program_stack, qs_stack):
        a, b = layer_pixels(program_ora, p, folder), layer_pixels(qs_ora, q, folder)
        for at in set(a) | set(b):
            worst = max(worst, max(abs(x - y) for x, y in zip(a.get(at, (0, 0, 0, 0)), b.get(at, (0, 0, 0, 0)))))
    return worst


def from_bbox(layers, mode_of=lambda m: m):
    return [{"name": l["name"], "opacity": l["opacity"], "visible": l["visible"], "mode": mode_of(l["mode"]),
             "x": l["bbox"][0], "y": l["bbox"][1], "w": l["bbox"][2], "h": l["bbox"][3], "group": l.get("group")} for l in layers]


def quicksilver_reads(qs, ora, folder, tag):
    """Quicksilver opens `ora`: its flattened picture, and the file it saves from it (what it read)."""
    png = os.path.join(folder, "qs-of-%s.png" % tag)
    saved = os.path.join(folder, "qs-of-%s.ora" % tag)
    quicksilver_open(qs, ora, png)
    quicksilver_open(qs, ora, saved)
    read = [l for l in with_sizes(saved) if l["name"] != "Background" or l["src"] != "data/layer0.png"]
    return png, saved, read


def same_layers(program_stack, quicksilver_stack):
    """Names, opacity, visibility and modes of a program's file against Quicksilver's reading of
    it, and each layer Quicksilver saved (cropped to its pixels) inside where the program put it."""
    return attribute_problems(quicksilver_stack, program_stack, "within")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quicksilver", default=os.path.join(ROOT, ".build/debug/quicksilver"))
    ap.add_argument("--dir", default="/tmp/quicksilver-interop")
    ap.add_argument("--only", default="mypaint,krita,gimp,groups")
    ap.add_argument("--readme-picture", help="copy the layered scene Quicksilver rendered here (a PNG)")
    args = ap.parse_args()
    qs = os.path.abspath(args.quicksilver)
    folder = os.path.abspath(args.dir)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    programs = args.only.split(",")
    rows, failures, modes_table = [], [], {}

    def row(program, version, direction, doc, c, notes="", gated=True):
        """One comparison. `gated`: its pixels must agree within TOLERANCE, or within
        TOLERANCE + 1 on at most 1 pixel in 20,000 (8-bit roundings adding up over a stack of
        translucent layers, at an overlay's anti-aliased edge); False for a difference the
        notes explain."""
        rows.append((program, version, direction, doc, c, notes))
        if gated and not (c["max"] <= TOLERANCE or (c["max"] <= TOLERANCE + 1 and c["over"] * 20000 <= c.get("pixels", 0))):
            failures.append("%s, %s, %s: pixels differ by up to %s (%s beyond %d)" % (program, direction, doc, c["max"], c["over"], TOLERANCE))
        print("%-8s %-22s %-7s max %3s mean %.3f >%d: %s %s" % (program, direction, doc, c["max"], c["mean"], TOLERANCE,
                                                                 c["over"], notes), flush=True)

    # Quicksilver's documents.
    docs = {"scene": scene_replay(), "modes": modes_replay(), "pieced": pieced_replay()}
    # The emulated GIMP plug-in below loads stack.xml's layers without its groups: not the pieced one.
    gimp_docs = ["scene", "modes"]
    for name, replay in docs.items():
        path = os.path.join(folder, name + ".jsonl")
        open(path, "w").write(replay.text())
        quicksilver_render(qs, path, os.path.join(folder, name + ".png"))
        quicksilver_render(qs, path, os.path.join(folder, name + ".ora"))
        problems, thumb = check_quicksilver_file(os.path.join(folder, name + ".ora"), os.path.join(folder, name + ".png"))
        print("quicksilver %s.ora: mergedimage.png = the flattened render, thumbnail %dx%d%s"
              % (name, thumb[0], thumb[1], "" if not problems else "; PROBLEMS: " + "; ".join(problems)))
        failures += ["quicksilver %s.ora: %s" % (name, p) for p in problems]
    if args.readme_picture:
        shutil.copy(os.path.join(folder, "scene.png"), args.readme_picture)
    ours = {name: with_sizes(os.path.join(folder, name + ".ora"), groups=True) for name in docs}
    spec = write_built_pictures(folder)
    build = {"layers": spec, "w": BUILT_SIZE[0], "h": BUILT_SIZE[1]}

    def ora(name):
        return os.path.join(folder, name + ".ora")

    def png(name):
        return os.path.join(folder, name + ".png")

    # MyPaint's svg:plus is the spec's Porter-Duff plus; Quicksilver's is Krita's Addition.
    expected_off = {"MyPaint": ["svg:plus"]}

    def forward(program, version, tag, read_layers, offsets, gate=True, names=tuple(docs)):
        """Quicksilver's documents in the program: pixels and attributes."""
        for name in names:
            c = compare(png("%s-%s" % (tag, name)), png(name))
            diff_picture(png("%s-%s" % (tag, name)), png(name), png("diff-%s-%s" % (tag, name)))
            notes = ""
            if name == "modes":
                modes_table[program] = per_mode(png("%s-%s" % (tag, name)), png(name))
                # Modes a program composes otherwise by design (see the README) are left out of the gate.
                off = [m for m, d in modes_table[program].items() if d > TOLERANCE and ("svg:" + m) not in expected_off.get(program, ())]
                if gate:
                    failures.extend("%s: mode %s differs by %d" % (program, m, modes_table[program][m]) for m in off)
                notes = "; by mode in the next table"
            problems = attribute_problems(ours[name], read_layers[name], offsets)
            failures.extend("%s reading %s.ora: %s" % (program, name, p) for p in problems)
            if name == "pieced" and not problems:
                notes = "; each layer in pieces read as its isolated group (opacity, visibility, mode), every piece at its offset"
            row(program, version, "Quicksilver → " + program, name, c,
                ("layers as written" if not problems else "; ".join(problems)) + notes, gated=gate and name != "modes")

    def backward(program, version, tag, program_ora, program_png, reopen, doc="built", note="", gate=True):
        """The program's own document in Quicksilver, then Quicksilver's save of it back in the
        program, which must show what Quicksilver showed. A `note` explains a difference in pixels."""
        explained = bool(note)
        qs_png, qs_saved, read = quicksilver_reads(qs, program_ora, folder, tag)
        c = compare(qs_png, program_png)
        diff_picture(qs_png, program_png, png("diff-qs-of-" + tag))
        program_stack = with_sizes(program_ora)
        problems = same_layers(program_stack, read)
        if not problems:
            # Each layer's own pixels, premultiplied (how Quicksilver holds them): the same within
            # a level, at the same place, whatever the composing.
            worst = same_pixels(program_ora, program_stack, qs_saved, read, folder)
            if worst > 1:
                problems.append("layer pixels differ by %d (premultiplied) from the program's" % worst)
            else:
                note = ("; each layer's pixels as in the file (premultiplied, within %d)" % worst) + note
        failures.extend("quicksilver reading %s's file: %s" % (program, p) for p in problems)
        row(program, version, program + " → Quicksilver", doc, c,
            ("layers as written" if not problems else "; ".join(problems)) + note, gated=gate and not explained)
        again = reopen(qs_saved)
        c = compare(again, qs_png)
        row(program, version, program + " → Quicksilver → " + program, doc, c,
            "Quicksilver's save, reopened, against what Quicksilver showed", gated=gate)

    if "mypaint" in programs:
        opens = [[ora(n), png("mp-" + n), ora("mp-" + n)] for n in docs]
        builds = [dict(build, ora=ora("mp-built"), png=png("mp-built"), eotf=1.0),
                  dict(build, ora=ora("mp2-built"), png=png("mp2-built"), eotf=2.2)]
        report = mypaint_run(folder, opens, builds)
        version = run([SYSTEM_PYTHON, "-c", "import sys; sys.path.insert(0, '/usr/lib/mypaint'); import lib.meta; "
                       "print(lib.meta.MYPAINT_VERSION)"], check=False).stdout.strip() or "2.0"
        read = {n: [dict(l, x=l["bbox"][0], y=l["bbox"][1], w=l["bbox"][2], h=l["bbox"][3])
                    for l in report["open"][ora(n)]["layers"]] for n in docs}
        forward("MyPaint", version, "mp", read, "within")
        # MyPaint set to open every file in its 2.x mode: Quicksilver's files say eotf 1.0.
        mypaint_run(folder, [[ora("scene"), png("mp2x-scene"), ora("mp2x-scene")]], default_eotf=2.2)
        row("MyPaint", version, "Quicksilver → MyPaint, 2.x preference", "scene", compare(png("mp2x-scene"), png("scene")),
            "MyPaint set to open files in its 2.x mode (linear light)")

        def mypaint_reopen(path):
            mypaint_run(folder, [[path, png("mp-again"), ora("mp-again")]], default_eotf=2.2)
            return png("mp-again")
        backward("MyPaint", version, "mp-built", ora("mp-built"), png("mp-built"), mypaint_reopen, "built, 1.x mode")
        backward("MyPaint", version, "mp2-built", ora("mp2-built"), png("mp2-built"), mypaint_reopen, "built, 2.x mode",
                 "; MyPaint composes a 2.x document (eotf 2.2) in linear light, Quicksilver the stored values")

    if "krita" in programs:
        opens = [[ora(n), png("kr-" + n), ora("kr-" + n)] for n in docs]
        report = krita_run(folder, opens, dict(build, ora=ora("kr-built"), png=png("kr-built")))
        version = report["version"]
        read = {n: list(reversed(from_bbox(report["open"][ora(n)]["layers"], lambda m: KRITA_OPS.get(m, m)))) for n in docs}
        forward("Krita", version, "kr", read, "exact")

        def krita_reopen(path):
            krita_run(folder, [[path, png("kr-again"), ora("kr-again")]], None)
            return png("kr-again")
        backward("Krita", version, "kr-built", ora("kr-built"), png("kr-built"), krita_reopen)

    if "groups" in programs:
        groups_round_trip(qs, folder, row, failures)

    if "gimp" in programs:
        version = run(["gimp", "--version"]).stdout.strip().split()[-1]
        if gimp_has_openraster():
            print("GIMP has file-openraster procedures: this script still emulates them (update it to use them)")
        else:
            print("GIMP %s: no file-openraster-* in its procedure database (Debian's GIMP 2.10 has no Python 2 "
                  "plug-ins); its OpenRaster plug-in is emulated in Script-Fu" % version)
        modes = gimp_mode_numbers(folder)
        read = {n: gimp_open(folder, ora(n), png("gp-" + n), modes) for n in gimp_docs}
        # GIMP composes otherwise (linear light, its own HSV and legacy formulas): reported, not gated.
        forward("GIMP", version, "gp", read, "exact", gate=False, names=gimp_docs)
        for n in gimp_docs:
            gimp_open(folder, ora(n), png("gpl-" + n), modes, GIMP_LEGACY)
            c = compare(png("gpl-" + n), png(n))
            if n == "modes":
                modes_table["GIMP, legacy modes"] = per_mode(png("gpl-" + n), png(n))
            row("GIMP", version, "Quicksilver → GIMP, legacy", n, c,
                "Normal and Overlay as GIMP 2.8 composed them (not the plug-in's choice)", gated=False)
        gimp_build(folder, spec, ora("gp-built"), png("gp-built"), modes)

        def gimp_reopen(path):
            gimp_open(folder, path, png("gp-again"), modes)
            return png("gp-again")
        backward("GIMP", version, "gp-built", ora("gp-built"), png("gp-built"), gimp_reopen, gate=False)

    print()
    print("| program | version | direction | document | max | mean | pixels > %d | notes |" % TOLERANCE)
    print("|---|---|---|---|---|---|---|---|")
    for program, version, direction, doc, c, notes in rows:
        print("| %s | %s | %s | %s | %s | %.2f | %d of %d | %s |" % (program, version, direction, doc, c["max"], c["mean"],
                                                                c["over"], c.get("pixels", 0), notes))
    if modes_table:
        print()
        print("Largest difference in each mode's column of the modes document, against Quicksilver:")
        print("| program | " + " | ".join(m[4:] for m in MODES) + " |")
        print("|---|" + "---|" * len(MODES))
        for program, by_mode in modes_table.items():
            print("| %s | " % program + " | ".join(str(by_mode[m[4:]]) for m in MODES) + " |")
    print()
    print("pictures (flattened, and diff-*.png: differences × 8) in " + folder)
    if failures:
        print("\n".join(["", "PROBLEMS:"] + failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
