#!/usr/bin/env python3
"""Files, measured as whole processes (`make bench`): `quicksilver render` of 1,000 random-walk
strokes (100,000 segments) to a 1920x1080 PNG, against cairo drawing the same strokes (round caps
and joins, the same widths) and writing its PNG, at 8 px and at 32 px: the median of RUNS runs of
each, and their ratio. (Restoring a journal is `quicksilver-bench`'s restore.300k, beside its
parse.300k and play.300k halves.)

Usage: files.py QUICKSILVER_BINARY [RUNS]. Needs gcc and libcairo2-dev (`make bench` installs
them)."""
import atexit, os, random, shutil, statistics, subprocess, sys, tempfile, time

binary = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
work = tempfile.mkdtemp(prefix="qs-files-")
atexit.register(shutil.rmtree, work, ignore_errors=True)
W, H = 1920, 1080

# The strokes: 1,000 random walks of 100 segments, steps of up to 10 px, inside the canvas.
rng = random.Random(2024)
strokes = []
for _ in range(1000):
    x, y = rng.uniform(0, W), rng.uniform(0, H)
    points = [(x, y)]
    for _ in range(100):
        angle, step = rng.uniform(0, 6.283185307), rng.uniform(0, 10)
        x = min(max(x + step * __import__("math").cos(angle), 0), W - 1)
        y = min(max(y + step * __import__("math").sin(angle), 0), H - 1)
        points.append((round(x, 2), round(y, 2)))
    strokes.append(points)


def replay(width_px):
    path = os.path.join(work, "walk-%d.jsonl" % width_px)
    with open(path, "w") as f:
        f.write('{"quicksilver": 1, "width": %d, "height": %d}\n' % (W, H))
        # Size N at pressure 0.5 paints N px wide.
        f.write('{"t": 0, "type": "brush", "size": %d, "color": "#000000"}\n' % width_px)
        t = 0.0
        for points in strokes:
            for i, (x, y) in enumerate(points):
                kind = "down" if i == 0 else "up" if i == len(points) - 1 else "move"
                f.write('{"t": %.3f, "type": "%s", "x": %s, "y": %s, "pressure": 0.5}\n' % (t, kind, x, y))
            t += 0.02
    return path


cairo_source = os.path.join(work, "walk.c")
with open(cairo_source, "w") as f:
    f.write("#include <cairo.h>\n#include <stdlib.h>\n")
    f.write("static const int counts[] = {%s};\n" % ",".join(str(len(p)) for p in strokes))
    f.write("static const double xy[] = {%s};\n" % ",".join("%s,%s" % p for s in strokes for p in s))
    f.write("""
int main(int argc, char **argv) {
    double width = atof(argv[1]);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, %d, %d);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    const double *p = xy;
    for (int i = 0; i < %d; i++) {
        cairo_move_to(cr, p[0], p[1]);
        for (int k = 1; k < counts[i]; k++) cairo_line_to(cr, p[2 * k], p[2 * k + 1]);
        cairo_stroke(cr);
        p += 2 * counts[i];
    }
    cairo_surface_write_to_png(s, argv[2]);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return 0;
}
""" % (W, H, len(strokes)))
cairo_binary = os.path.join(work, "walk-cairo")
subprocess.run(["gcc", "-O2", "-o", cairo_binary, cairo_source] +
               subprocess.run(["pkg-config", "--cflags", "--libs", "cairo"], capture_output=True, text=True).stdout.split(), check=True)


def median_seconds(command):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


for width_px in (8, 32):
    path = replay(width_px)
    ours = median_seconds([binary, "render", path, "-o", os.path.join(work, "ours-%d.png" % width_px)])
    theirs = median_seconds([cairo_binary, str(width_px), os.path.join(work, "cairo-%d.png" % width_px)])
    size = os.path.getsize(os.path.join(work, "ours-%d.png" % width_px))
    print("render.walk.%-3d            quicksilver %6.0f ms, cairo %6.0f ms: %.2fx (median of %d; PNG %d KB)" %
          (width_px, ours * 1000, theirs * 1000, ours / theirs, runs, size // 1024))
