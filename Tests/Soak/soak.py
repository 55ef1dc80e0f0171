#!/usr/bin/env python3
"""Soak test (`make soak`): the real window on a private Xvfb, driven through XTest at 1 kHz
for SOAK_MINUTES (default 30). Checks what cannot depend on the machine's speed: no crash (both
windows exit 0), resident memory flat after warm-up (the first quarter; the level within +5 MB),
and the journal, restored, equal to the final export. With --speed-gates (`make soak`) it also
fails when 1 % or more of the frame deadlines were missed or the input rate fell under 990 Hz;
`make test` runs a short soak without them, since a shared, noisy machine may be slow.

Usage: soak.py QUICKSILVER_BINARY [MINUTES] [--speed-gates]"""
import ctypes, ctypes.util, os, random, re, shutil, signal, subprocess, sys, tempfile, time

args = [a for a in sys.argv[1:] if not a.startswith("--")]
speed_gates = "--speed-gates" in sys.argv
binary = args[0]
minutes = float(args[1]) if len(args) > 1 else float(os.environ.get("SOAK_MINUTES", "30"))
work = tempfile.mkdtemp(prefix="qs-soak-")

# A private X server (-noreset: a server that resets when its last client leaves refuses the next).
dfd_r, dfd_w = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(dfd_w), "-nolisten", "tcp", "-noreset", "-screen", "0", "1024x768x24"],
                        pass_fds=[dfd_w], stderr=subprocess.DEVNULL)
os.close(dfd_w)
display = ":" + os.read(dfd_r, 16).decode().strip()
os.environ["DISPLAY"] = display

x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
for f in ("XTestFakeMotionEvent", "XTestFakeButtonEvent", "XTestFakeKeyEvent"):
    getattr(xtst, f).argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_ulong] if f != "XTestFakeMotionEvent" \
        else [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
dpy = x11.XOpenDisplay(None)


def key(name, press):
    code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(name.encode()))
    xtst.XTestFakeKeyEvent(dpy, code, 1 if press else 0, 0)


def tap(*names):
    for n in names: key(n, True)
    for n in reversed(names): key(n, False)
    x11.XFlush(dpy)


def launch(extra):
    out = open(os.path.join(work, "out-%d.txt" % time.time_ns()), "w+")
    p = subprocess.Popen([binary, "window", "--size", "800x600", "--export-dir", work, "--state-dir", os.path.join(work, "sessions"),
                          "--journal-compact-bytes", "4000000", "--undo-megabytes", "2", "--stats"] + extra,
                         stdout=out, stderr=subprocess.STDOUT)
    for _ in range(1200):
        if subprocess.run(["xdotool", "search", "--name", "Quicksilver"], capture_output=True).stdout.strip():
            return p, out
        time.sleep(0.05)
    sys.exit("soak: the window did not appear")


def screenshot(p, out):
    before = open(out.name).read().count(".png")
    xtst.XTestFakeMotionEvent(dpy, 0, 5, 5, 0)
    tap("Control_L", "Shift_L", "e")  # the screenshot export
    for _ in range(1200):
        paths = re.findall(r"^(/.*\.png)$", open(out.name).read(), re.M)
        if len(paths) > before: return paths[-1]
        time.sleep(0.05)
    sys.exit("soak: no screenshot")


def rss_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"): return int(line.split()[1])
    return 0


p, out = launch([])
rng = random.Random(1)
start = time.perf_counter()
end = start + minutes * 60
samples, rss = 0, []
x, y, down, shift = 400.0, 300.0, False, False
next_stroke_change = start + 0.5
next_rss = start
while time.perf_counter() < end:
    now = time.perf_counter()
    if now >= next_rss:
        rss.append((now - start, rss_kb(p.pid)))
        next_rss += 5
    if now >= next_stroke_change:
        down = not down
        if down and rng.random() < 0.3:
            shift = True; key("Shift_L", True)
        xtst.XTestFakeButtonEvent(dpy, 1, 1 if down else 0, 0)
        if not down and shift:
            shift = False; key("Shift_L", False)
        if not down and rng.random() < 0.1: tap(rng.choice(["bracketleft", "bracketright", "1", "3", "6", "x", "p"]))
        if not down and rng.random() < 0.05: tap("Control_L", "z")
        if not down and rng.random() < 0.01: tap("Delete")
        next_stroke_change = now + rng.uniform(0.2, 0.8)
    # Exactly 1,000 samples a second on average: send as many as are due, then sleep.
    due = int((now - start) * 1000)
    while samples < due:
        x = min(max(x + rng.uniform(-6, 6), 5), 795)
        y = min(max(y + rng.uniform(-6, 6), 5), 595)
        xtst.XTestFakeMotionEvent(dpy, 0, int(x), int(y), 0)
        samples += 1
    x11.XFlush(dpy)
    time.sleep(0.0008)
driven = time.perf_counter() - start
if down: xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
if shift: key("Shift_L", False)
x11.XFlush(dpy)
time.sleep(0.3)
final = screenshot(p, out)
xtst.XTestFakeMotionEvent(dpy, 0, 5, 5, 0)
tap("Control_L", "q")
first_status = p.wait(timeout=60)
report = open(out.name).read()
frames = int(re.search(r"frames drawn: (\d+)", report).group(1))
missed = int(re.search(r"deadlines missed: (\d+)", report).group(1))

q, out2 = launch(["--restore"])
restored = screenshot(q, out2)
xtst.XTestFakeMotionEvent(dpy, 0, 5, 5, 0)
tap("Control_L", "q")
second_status = q.wait(timeout=60)
xvfb.send_signal(signal.SIGTERM)

with open(os.path.join(work, "rss.csv"), "w") as f:
    f.write("seconds,rss_kb\n" + "".join("%.0f,%d\n" % (t, kb) for t, kb in rss))
# Warm-up: the first quarter of the run (the undo history, capped at 2 MiB here, fills first).
# After it, growth is the median of the last five minutes (or third, if shorter) against the
# median of the first: compactions and undo steps make single samples swing by a few MB either
# way, and a leak shows as the level moving, not as one high sample.
import statistics
warm_start, last = minutes * 60 * 0.25, rss[-1][0]
warm = [(t, kb) for t, kb in rss if t >= warm_start]
span = min(300, (last - warm_start) / 3)
early = statistics.median([kb for t, kb in warm if t < warm_start + span])
late = statistics.median([kb for t, kb in warm if t >= last - span])
growth_mb = (late - early) / 1024
same = open(final, "rb").read() == open(restored, "rb").read()
elapsed = driven
print("soak: %.1f min, %d samples (%.0f Hz), %d frames, %d deadlines missed (%.2f %%)" % (
    minutes, samples, samples / elapsed, frames, missed, 100.0 * missed / max(frames, 1)))
print("soak: resident memory after warm-up %.1f → %.1f MB (medians of the first and last %d s: %+.1f MB; every sample within %.1f–%.1f MB); "
      "restored journal %s the final export" % (early / 1024, late / 1024, span, growth_mb, min(kb for t, kb in warm) / 1024,
                                                max(kb for t, kb in warm) / 1024, "equals" if same else "DIFFERS FROM"))
print("soak: exit statuses %d and %d" % (first_status, second_status))
# What the windows said on stderr (a restore that failed says why there).
for line in (report + open(out2.name).read()).splitlines():
    if line.startswith("quicksilver:"): print("soak: the window said: " + line)
ok = growth_mb <= 5 and same and first_status == 0 and second_status == 0
fast = missed < 0.01 * frames and samples / elapsed > 990
if speed_gates:
    ok = ok and fast
elif not fast:
    print("soak: (speed figures not gated here: missed deadlines or input rate out of the soak's targets)")
print("soak: " + ("passed" if ok else "FAILED (files in %s)" % work))
if ok:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(0 if ok else 1)
