#!/usr/bin/env python3
"""Event → pixels on screen, measured as a user would see it (`make bench`): a private Xvfb, the
real window, and a second X client that moves the pointer with XTest and reads the screen with
XGetImage until the new stroke pixel shows. Also the window's CPU time while drawing at 1 kHz.

For each mode (the immediate ink path with the on-canvas tools shown, then hidden, and
--no-low-latency: the frame path) it drags button 1
across the window in steps of 3 px, one step at a time at a hand's pace (an irregular 4–10 ms
apart), timing each step from the XTest request to the first XGetImage that shows ink where the
pen now is. Prints one line per mode: p50, p99, how many steps never showed (none should), and
the CPU the window used per second while fed 1,000 samples a second.

With TURN (degrees, a multiple of 15) the view is first turned that far about the window's centre
(Ctrl+] presses, as a user turns it) and the strokes run through the middle of the window, on the
canvas; the modes are then named ink.latency.turned-TURN….

With BRUSH (an installed MyPaint brush, e.g. classic/coarse_bulk_1) the window paints with it
(`--brush`); its dabs land where libmypaint puts them, as wide as the brush, so a step is timed
until any pixel within 40 px of the pen changes, and a step that lays no dab (dabs are spaced by
the brush's radius) is not timed: those are counted apart, not as missing. The modes are then
named ink.latency.BRUSH….

Usage: latency.py QUICKSILVER_BINARY [STEPS [TURN [BRUSH]]]"""
import atexit, ctypes, ctypes.util, os, random, shutil, statistics, subprocess, sys, tempfile, time

binary = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 400
turn = int(sys.argv[3]) if len(sys.argv) > 3 else 0
brush = sys.argv[4] if len(sys.argv) > 4 else None

x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XGetPixel.restype = ctypes.c_ulong
x11.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
x11.XDestroyImage = None  # a macro; images are freed through their own function table below
x11.XFree.argtypes = [ctypes.c_void_p]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                ("data", ctypes.c_void_p)]


def start_server():
    r, w = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-noreset", "-screen", "0", "1024x768x24"],
                              pass_fds=[w], stderr=subprocess.DEVNULL)
    os.close(w)
    display = ":" + os.read(r, 16).decode().strip()
    return server, display


def pixel(dpy, root, x, y):
    p = x11.XGetImage(dpy, root, x, y, 1, 1, 0xFFFFFFFF, 2)  # ZPixmap
    value = x11.XGetPixel(p, 0, 0) & 0xFFFFFF
    img = XImage.from_address(p)
    x11.XFree(img.data)
    x11.XFree(p)
    return value


def region(dpy, root, x, y, r):
    """The screen's bytes within r px of (x, y), clipped to the screen's top left."""
    x0, y0 = max(0, x - r), max(0, y - r)
    p = x11.XGetImage(dpy, root, x0, y0, 2 * r, 2 * r, 0xFFFFFFFF, 2)  # ZPixmap, 4 bytes a pixel
    img = XImage.from_address(p)
    data = ctypes.string_at(img.data, 4 * img.width * img.height)
    x11.XFree(img.data)
    x11.XFree(p)
    return data


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(extra):
    server, display = start_server()
    work = tempfile.mkdtemp(prefix="qs-latency-")
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    env = dict(os.environ, DISPLAY=display, XDG_STATE_HOME=work)
    # No predicted tail: it would ink pixels ahead of the samples; the real samples are timed.
    brushes = ["--brush", brush] if brush else []
    window = subprocess.Popen([binary, "window", "--size", "800x600", "--no-journal", "--predict-ms", "0"] + brushes + extra, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dpy = x11.XOpenDisplay(display.encode())
    root = x11.XDefaultRootWindow(dpy)
    # The window sits at 0,0 with no window manager; wait until it shows its white canvas.
    deadline = time.monotonic() + 30
    while pixel(dpy, root, 400, 300) != 0xFFFFFF:
        if time.monotonic() > deadline: sys.exit("latency: the window did not appear")
        time.sleep(0.05)
    y = 100
    if turn:
        # Ctrl+] turns 15° about the centre; the pointer over the window so the keys reach it.
        control, bracket = x11.XKeysymToKeycode(dpy, 0xFFE3), x11.XKeysymToKeycode(dpy, 0x5D)
        xtst.XTestFakeMotionEvent(dpy, -1, 400, 300, 0)
        for _ in range(turn // 15):
            for code, down in [(control, 1), (bracket, 1), (bracket, 0), (control, 0)]:
                xtst.XTestFakeKeyEvent(dpy, code, down, 0)
        x11.XSync(dpy, 0)
        # Turned, the window's corner shows the desk.
        while pixel(dpy, root, 5, 5) == 0xFFFFFF:
            if time.monotonic() > deadline: sys.exit("latency: the view did not turn")
            time.sleep(0.05)
        time.sleep(0.2)
        # Rows through the middle, which the turned canvas still covers end to end.
        y = 250
    rng = random.Random(7)
    latencies, missing, undabbed = [], 0, 0
    for stroke in range((steps + 199) // 200):
        x = 100
        xtst.XTestFakeMotionEvent(dpy, -1, x, y, 0)
        xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
        x11.XSync(dpy, 0)
        time.sleep(0.05)
        for _ in range(min(200, steps - stroke * 200)):
            x += 3
            # A brush's step: the screen around it as it is before it.
            before = region(dpy, root, x, y, 40) if brush else None
            t0 = time.perf_counter()
            xtst.XTestFakeMotionEvent(dpy, -1, x, y, 0)
            x11.XFlush(dpy)
            # 2 px ahead of the pen's centre: the 8 px pen's last dab (3 px back) stops short of
            # it, so ink there means this sample reached the screen.
            if brush:
                if wait_for_change(dpy, root, x, y, before, t0):
                    latencies.append(time.perf_counter() - t0)
                else:
                    undabbed += 1
            else:
                while pixel(dpy, root, x + 2, y) == 0xFFFFFF:
                    if time.perf_counter() - t0 > 0.2:
                        missing += 1
                        break
                else:
                    latencies.append(time.perf_counter() - t0)
            time.sleep(rng.uniform(0.004, 0.010))
        xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
        x11.XSync(dpy, 0)
        y += 40
    # CPU while fed 1,000 samples a second for five seconds, a zigzag stroke.
    xtst.XTestFakeMotionEvent(dpy, -1, 100, 500, 0)
    xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
    x11.XSync(dpy, 0)
    before, start, sent = cpu_seconds(window.pid), time.perf_counter(), 0
    while time.perf_counter() - start < 5:
        due = int((time.perf_counter() - start) * 1000)
        while sent < due:
            sent += 1
            xtst.XTestFakeMotionEvent(dpy, -1, 100 + sent % 600, 500 + (sent // 600) % 2 * 40 + (sent % 7), 0)
        x11.XFlush(dpy)
        time.sleep(0.0008)
    x11.XSync(dpy, 0)
    time.sleep(0.2)
    cpu = (cpu_seconds(window.pid) - before) / (time.perf_counter() - start)
    xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
    x11.XSync(dpy, 0)
    window.terminate()
    window.wait(timeout=30)
    server.terminate()
    server.wait(timeout=30)
    latencies.sort()
    def ms(p): return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else float("nan")
    return ms(0.5), ms(0.99), missing, len(latencies), cpu, undabbed


def wait_for_change(dpy, root, x, y, before, t0):
    """Whether the screen within 40 px of (x, y) changes from `before` within 50 ms of t0 (a
    brush's step that lays no dab changes nothing)."""
    while region(dpy, root, x, y, 40) == before:
        if time.perf_counter() - t0 > 0.05:
            return False
    return True


never_shown = 0
# The window as it starts (the on-canvas tools shown: the brush outline follows the pointer
# between strokes), the same with them hidden (Tab), and the frame path.
for name, extra in [("ink.latency", []), ("ink.latency.tools-hidden", ["--hide-tools"]),
                    ("ink.latency.frames", ["--no-low-latency"])]:
    p50, p99, missing, n, cpu, undabbed = measure(extra)
    never_shown += missing
    name = name.replace("ink.latency", "ink.latency.turned-%d" % turn) if turn else name
    name = name.replace("ink.latency", "ink.latency." + brush) if brush else name
    apart = "  (%d steps laid no dab)" % undabbed if brush else ""
    print("%-26s p50 %6.2f ms  p99 %6.2f ms  missing %d of %d  CPU at 1 kHz %.0f %% of a core%s" % (name, p50, p99, missing, n + missing, 100 * cpu, apart))
# A step whose ink never showed is a lost sample, not a slow one: make bench says so.
if never_shown:
    sys.exit("latency: %d steps never showed their ink" % never_shown)
