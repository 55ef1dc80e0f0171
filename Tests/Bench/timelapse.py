#!/usr/bin/env python3
"""The timelapse figure (`make bench-timelapse`): a timelapse of a 300,000-sample journal at
1920x1080, 30 s at 30 fps, against ffmpeg's own time to encode the same 900 frames with the same
settings (the frames decoded back from the timelapse and piped to a second ffmpeg, whose time
alone is counted). Prints wall and CPU seconds of each and their ratios; the goal is ≤ 2×.

The journal is the shape of `quicksilver-bench`'s restore.300k: 1,500 strokes of 200 samples,
a random walk over the canvas, 12 ms apart.

Usage: timelapse.py QUICKSILVER_BINARY"""
import math, os, random, shutil, subprocess, sys, tempfile, time

binary = sys.argv[1]
ffmpeg = shutil.which("ffmpeg")
if not ffmpeg:
    sys.exit("timelapse.py: ffmpeg is not on PATH (Debian package ffmpeg)")
work = tempfile.mkdtemp(prefix="qs-bench-timelapse-")
try:
    random.seed(7)
    W, H = 1920, 1080
    lines = ['{"quicksilver": 1, "width": %d, "height": %d}' % (W, H)]
    x, y, a, t = W / 2, H / 2, 0.0, 0.0
    for stroke in range(1500):
        for i in range(200):
            a += random.uniform(-0.35, 0.35)
            x, y = x + math.cos(a) * 3, y + math.sin(a) * 3
            if not 0 <= x < W: a, x = math.pi - a, min(max(x, 0), W - 1)
            if not 0 <= y < H: a, y = -a, min(max(y, 0), H - 1)
            kind = "down" if i == 0 else "up" if i == 199 else "move"
            lines.append('{"t": %.3f, "type": "%s", "x": %d, "y": %d, "pressure": 0.500}' % (t, kind, round(x), round(y)))
            t += 0.012
    journal = os.path.join(work, "big.jsonl")
    open(journal, "w").write("\n".join(lines) + "\n")

    def timed(args, stdin=None):
        """Wall and CPU seconds (user + system, its children included) of one process."""
        start = time.monotonic()
        p = subprocess.Popen(args, stdin=stdin, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0: sys.exit("timelapse.py: %s failed (%d)" % (args[0], p.returncode))
        return time.monotonic() - start, usage.ru_utime + usage.ru_stime

    video = os.path.join(work, "big.mp4")
    tl_wall, tl_cpu = timed([binary, "timelapse", journal, "-o", video, "--seconds", "30", "--fps", "30"])
    # The same frames, decoded back and piped to ffmpeg alone: only the encoder's time counts.
    decoder = subprocess.Popen([ffmpeg, "-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "bgra", "-"], stdout=subprocess.PIPE)
    ff_wall, ff_cpu = timed([ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra",
                             "-video_size", "1920x1080", "-framerate", "30", "-i", "pipe:0", "-an", "-c:v", "libx264",
                             "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", os.path.join(work, "again.mp4")],
                            stdin=decoder.stdout)
    decoder.wait()
    print("timelapse.300k.1080p  %.1f s wall, %.1f s CPU" % (tl_wall, tl_cpu))
    print("ffmpeg alone          %.1f s wall, %.1f s CPU (the encoder only)" % (ff_wall, ff_cpu))
    print("ratio                 %.2fx wall, %.2fx CPU (goal: <= 2x)" % (tl_wall / ff_wall, tl_cpu / ff_cpu))
finally:
    shutil.rmtree(work, ignore_errors=True)
