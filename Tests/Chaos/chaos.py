#!/usr/bin/env python3
"""The chaos run (`make chaos`): the promise "a crash loses nothing" as a number.

The real `quicksilver window` on a private Xvfb, driven through XTest (the pointer and the keys,
as a person's input arrives), is killed with SIGKILL at CHAOS_KILLS (default 1000) random moments:
mid-stroke, just after a stroke ends, within moments of a save (Ctrl+S, Ctrl+Shift+S to a typed
.ora or .png name, Ctrl+Shift+E or Print's screenshot), of Ctrl+V (a paste from xclip),
mid-compaction (a tiny --journal-compact-bytes), while it starts and restores, and right after it
opened a big picture (its bytes' copy still being made; Ctrl+S then saves over that picture), with
several layers (Insert, Page Up/Down, Ctrl+E). After each kill the window is started again on
the same state folder, recovers the crashed session, and is checked:

  (a) every stroke whose button release was sent more than 50 ms before the kill is there: its
      `down` and `up` lines are in the journal the window recovered from (or, when a compaction
      baked it into the snapshot, its pixels are), and its pixels are in `render` of that journal
      (each stroke draws a 1 px line of its own in a cell of its own, so each is found by itself;
      every stroke of the drawing is checked again after every later kill);
  (b) the restored window's picture (Ctrl+Shift+E, the export E2E tests compare) equals, byte for byte,
      `quicksilver render` of that journal.

A drawing is a chain of windows, each continuing the last one's crashed session; a chain ends
with a clean Ctrl+Q (exit 0 checked) and a new one starts on an empty state folder. The tally
(kills, strokes checked, strokes lost, mismatches, where the kills landed) is printed at the end;
the exit status is 1 on any loss or mismatch, with the files kept under the work folder. Each lost
stroke is told apart by what the window showed at the kill (XGetImage just before it): drawn (the
window had it, its journal did not) or not yet drawn (its input still unread, e.g. behind a
frame that took long).

Usage: chaos.py QUICKSILVER_BINARY [--kills N] [--seed S] [--work DIR]
Environment: CHAOS_KILLS, CHAOS_SEED (the same seed drives the same actions; the moments the
window reaches are the machine's)."""
import argparse, collections, ctypes, ctypes.util, json, os, random, re, shutil, signal, struct, subprocess, sys, tempfile, time, zlib

parser = argparse.ArgumentParser(description="SIGKILL the window at random moments and check every stroke is restored.")
parser.add_argument("binary")
parser.add_argument("--kills", type=int, default=int(os.environ.get("CHAOS_KILLS", "1000")))
parser.add_argument("--seed", type=int, default=int(os.environ.get("CHAOS_SEED", str(int(time.time()) % 100000))))
parser.add_argument("--pictures", type=float, default=0.25, help="the share of drawings that open a big picture")
parser.add_argument("--work", default=None, help="work folder (default: a new one in /tmp; removed when all passed)")
args = parser.parse_args()
binary = os.path.abspath(args.binary)
rng = random.Random(args.seed)
work = args.work or tempfile.mkdtemp(prefix="qs-chaos-")
os.makedirs(work, exist_ok=True)
log = open(os.path.join(work, "kills.jsonl"), "w")

# What a stroke is released from, and the kill: "more than 50 ms before" is the promise.
GRACE = 0.050
# The canvas the strokes go to: a cell of CW x CH window pixels each, in the top 600 rows of a
# 1280x720 window at 100 %; pastes go below them.
WIN_W, WIN_H, CW, CH = 1280, 720, 40, 12
COLS, ROWS = WIN_W // CW, 600 // CH
PASTE_Y = 668

# ---- the X server and XTest ------------------------------------------------------------------
dfd_r, dfd_w = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(dfd_w), "-nolisten", "tcp", "-noreset", "-screen", "0", "1400x900x24"],
                        pass_fds=[dfd_w], stderr=subprocess.DEVNULL)
os.close(dfd_w)
display = ":" + os.read(dfd_r, 16).decode().strip()
os.environ["DISPLAY"] = display

x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong)]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
dpy = None
for _ in range(200):
    dpy = x11.XOpenDisplay(display.encode())
    if dpy: break
    time.sleep(0.05)
if not dpy: sys.exit("chaos: cannot open the private X display " + display)
root = x11.XDefaultRootWindow(dpy)
origin = (0, 0)  # the window's top-left corner on the screen


def move(x, y):
    xtst.XTestFakeMotionEvent(dpy, -1, origin[0] + x, origin[1] + y, 0)
    x11.XSync(dpy, 0)


def button(down):
    xtst.XTestFakeButtonEvent(dpy, 1, 1 if down else 0, 0)
    x11.XSync(dpy, 0)


x11.XKeycodeToKeysym.restype = ctypes.c_ulong
x11.XKeycodeToKeysym.argtypes = [ctypes.c_void_p, ctypes.c_ubyte, ctypes.c_int]
KEYSYM_OF = {"/": "slash", ".": "period", "-": "minus", "_": "underscore", "+": "plus", ":": "colon"}


def type_text(text):
    """Types `text` key by key through XTest, with Shift where the character needs it."""
    for ch in text:
        sym = x11.XStringToKeysym(KEYSYM_OF.get(ch, ch).encode())
        code = x11.XKeysymToKeycode(dpy, sym)
        if x11.XKeycodeToKeysym(dpy, code, 0) == sym: keys(KEYSYM_OF.get(ch, ch))
        else: keys("Shift_L", KEYSYM_OF.get(ch, ch))


def keys(*names):
    """Presses the keys in order and releases them in reverse (a chord), through XTest."""
    codes = [x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(n.encode())) for n in names]
    for c in codes: xtst.XTestFakeKeyEvent(dpy, c, 1, 0)
    for c in reversed(codes): xtst.XTestFakeKeyEvent(dpy, c, 0, 0)
    x11.XSync(dpy, 0)


def window_of(pid, timeout):
    """The visible Quicksilver window of process `pid` (xdotool, as the E2E tests find it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid), "--name", "Quicksilver"],
                           capture_output=True, text=True)
        if r.stdout.strip(): return int(r.stdout.split()[0])
        time.sleep(0.02)
    return None


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XFree.argtypes = [ctypes.c_void_p]


def shown(wid):
    """What the window shows, as the X server holds it (XGetImage, as xhelper.py's `grab`):
    a function of (x, y) telling whether that pixel is not white."""
    p = x11.XGetImage(dpy, wid, 0, 0, WIN_W, 600, 0xFFFFFFFF, 2)  # AllPlanes, ZPixmap
    if not p: return None
    img = XImage.from_address(p)
    raw = ctypes.string_at(img.data, img.bytes_per_line * img.height)
    stride = img.bytes_per_line
    x11.XFree(img.data); x11.XFree(p)
    return lambda x, y: raw[y * stride + x * 4:y * stride + x * 4 + 3] != b"\xff\xff\xff"


def window_origin(wid):
    rx, ry, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
    x11.XTranslateCoordinates(dpy, wid, root, 0, 0, ctypes.byref(rx), ctypes.byref(ry), ctypes.byref(child))
    return rx.value, ry.value


# ---- pictures --------------------------------------------------------------------------------
def write_png(path, width, height, rows):
    """An 8-bit RGB PNG of `rows` (bytes, width*3 each), filter 0."""
    raw = b"".join(b"\x00" + r for r in rows)
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def decode(path):
    """A PNG's pixels as RGB bytes (ffmpeg decodes it: `make test-deps` installs it)."""
    r = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True)
    if r.returncode != 0: raise RuntimeError("ffmpeg cannot read %s: %s" % (path, r.stderr.decode(errors="replace").strip()))
    w, h = struct.unpack(">II", open(path, "rb").read()[16:24])
    return w, h, r.stdout


paste_png = os.path.join(work, "paste.png")
write_png(paste_png, 48, 48, [b"".join(bytes((x * 5 % 256, y * 5 % 256, 128)) for x in range(48)) for y in range(48)])
# A big picture to open: white where the strokes go, noise elsewhere (as costly to hash, copy and
# encode as pictures get).
big_png = os.path.join(work, "big.png")
BIG_W, BIG_H = 3000, 2000
noise = random.Random(args.seed).randbytes(BIG_W * 3 * 64)
write_png(big_png, BIG_W, BIG_H, [(b"\xff" * (WIN_W * 3) + noise[(y % 64) * BIG_W * 3 + WIN_W * 3:((y % 64) + 1) * BIG_W * 3])
                                  if y < WIN_H else noise[(y * 7 % 64) * BIG_W * 3:((y * 7 % 64) + 1) * BIG_W * 3][::-1]
                                  for y in range(BIG_H)])
# The clipboard holds the paste picture for the whole run (xclip serves it until another owner).
clip = subprocess.Popen(["xclip", "-selection", "clipboard", "-t", "image/png", "-i", paste_png],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

# ---- the tally -------------------------------------------------------------------------------
tally = collections.Counter()
phases = collections.Counter()
problems = []


def problem(kind, text, evidence=None):
    tally[kind] += 1
    line = "chaos: %s: %s" % (kind, text)
    problems.append(line)
    print(line, flush=True)
    if evidence and len(problems) <= 10:  # the first ten problems' files are kept
        keep = os.path.join(work, "evidence-%d" % len(problems))
        os.makedirs(keep, exist_ok=True)
        for p in evidence:
            if os.path.isdir(p): shutil.copytree(p, os.path.join(keep, os.path.basename(p)), dirs_exist_ok=True)
            elif os.path.exists(p): shutil.copy(p, keep)
        print("chaos:   files kept in " + keep, flush=True)


class Stroke:
    def __init__(self, sid, cell):
        self.id, self.cell = sid, cell
        self.released = None      # when the release was sent (after XSync), monotonic seconds
        self.expected = False     # released more than GRACE before its window's kill
        cx, cy = (cell % COLS) * CW, (cell // COLS) * CH
        self.y = cy + 6
        self.xs = [cx + 3 + (CW - 7) * i // 8 for i in range(9)]

    def probes(self):
        return [(self.xs[0], self.y), (self.xs[4], self.y), (self.xs[-1], self.y)]


class Chain:
    """One drawing, continued window after window."""
    def __init__(self, n, picture):
        self.n = n
        self.picture = picture
        self.state = os.path.join(work, "chain-%d" % n)
        self.exports = os.path.join(self.state, "exports")
        os.makedirs(self.exports)
        # Small limits compact often; a picture's compactions take seconds (a 3000x2000 layer
        # of noise to encode), so a kill often lands in one.
        self.compact = rng.choice([2500, 8000, 64 << 20]) if not picture else rng.choice([3000, 8000])
        self.strokes = []
        self.layers = 1
        self.windows = 0
        self.seen = set()       # the files of its state folder after the last kill
        self.saves = 0
        # Its own copy of the big picture: Ctrl+S saves the document over the file it opened.
        self.picture_path = os.path.join(self.state, "picture.png")
        if picture: shutil.copy(big_png, self.picture_path)
        self.pending = None     # the kill whose restore is still to be checked: (kill number, strokes new in it)
        self.length = rng.randint(4, 10) if picture else rng.randint(10, 40)


def spawn(chain, first):
    out = open(os.path.join(chain.state, "out-%d.txt" % chain.windows), "w+")
    err = open(os.path.join(chain.state, "err-%d.txt" % chain.windows), "w+")
    argv = [binary, "window", "--size", "%dx%d" % (WIN_W, WIN_H), "--export-dir", chain.exports, "--hide-tools",
            "--journal-compact-bytes", str(chain.compact)]
    if first and chain.picture: argv.append(chain.picture_path)
    # Names are typed into the status strip: never the desktop's file chooser, where one answers.
    env = dict(os.environ, XDG_STATE_HOME=chain.state, QUICKSILVER_PORTAL="0")
    p = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
    windows.append(p)
    chain.windows += 1
    return p, out, err


def read(f):
    f.flush()
    with open(f.name, errors="replace") as g: return g.read()


def screenshot(p, out, timeout=60):
    """Ctrl+Shift+E (the screenshot export, as the E2E tests' `screenshot()`) and the path it
    printed (the pointer over the canvas, where keys go)."""
    before = len(re.findall(r"^/.*\.png$", read(out), re.M))
    move(5, 5)
    keys("Control_L", "Shift_L", "e")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and p.poll() is None:
        paths = re.findall(r"^(/.*\.png)$", read(out), re.M)
        if len(paths) > before: return paths[-1]
        time.sleep(0.01)
    return None


def journal_strokes(path):
    """The cells whose stroke the journal holds: {cell: has its up line}."""
    cells, live = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            if '"type": "down"' in line or '"type": "up"' in line:
                try: e = json.loads(line)
                except ValueError: continue
                if e["type"] == "down":
                    live = int(e["y"]) // CH * COLS + int(e["x"]) // CW
                    cells[live] = False
                elif live is not None:
                    cells[live] = True
                    live = None
    return cells


def check(chain, kill_no, journal, shot, render_proc, render_png):
    """(a) and (b) for the restore of the kill `kill_no`, whose window recovered from `journal`."""
    evidence = lambda: [journal, os.path.dirname(journal), shot, render_png] if journal else [chain.state]
    rc = render_proc.wait() if render_proc else None
    if rc != 0:
        problem("mismatches", "kill %d: render of %s failed (%s): %s" % (kill_no, journal, rc, render_proc and
                read(render_proc.err_file).strip()), evidence())
        return
    if shot is None:
        problem("mismatches", "kill %d: the restored window saved no screenshot" % kill_no, evidence())
        return
    same = open(shot, "rb").read() == open(render_png, "rb").read()
    w, h, px = decode(render_png)
    if not same:
        sw, sh, spx = decode(shot)
        diff = sum(1 for i in range(0, min(len(px), len(spx)), 3) if px[i:i + 3] != spx[i:i + 3]) if (sw, sh) == (w, h) else -1
        problem("mismatches", "kill %d: the restored window (%s, %dx%d) differs from render of %s (%dx%d): %s pixels" %
                (kill_no, shot, sw, sh, journal, w, h, diff if diff >= 0 else "sizes differ:"), evidence())
    in_journal = journal_strokes(journal)
    lost = []
    # The strokes drawn before the window that restored (its own come after the journal).
    for s in chain.strokes:
        if not s.expected or s.window >= chain.windows: continue
        inked = all(px[(y * w + x) * 3:(y * w + x) * 3 + 3] != b"\xff\xff\xff" for x, y in s.probes())
        line = in_journal.get(s.cell)
        tally["stroke checks"] += 1
        if s.fresh:
            tally["strokes checked"] += 1
            if line is None: tally["strokes found only in a snapshot"] += 1
        if line is False or not inked:
            lost.append((s, line, inked))
    if lost:
        fresh = sum(1 for s, _, _ in lost if s.fresh)
        tally["strokes lost"] += fresh
        tally["strokes lost later"] += len(lost) - fresh
        tally["strokes lost that the window had drawn"] += sum(1 for s, _, _ in lost if s.fresh and s.drawn)
        tally["strokes lost unread, the window mid-save"] += sum(1 for s, _, _ in lost if s.fresh and not s.drawn and s.saving)
        problem("loss", "kill %d: %d stroke%s lost (%s); the window restored %s" % (kill_no, len(lost), "" if len(lost) == 1 else "s",
                "; ".join("stroke %d of window %d, released %.0f ms before its kill, %s on screen then%s: journal %s, pixels %s" % (
                    s.id, s.window, s.margin * 1000, "drawn" if s.drawn else "NOT drawn",
                    " (a save under way)" if s.saving else "",
                    {None: "has no line of it", False: "has its down but no up", True: "has it"}[line],
                    "there" if inked else "MISSING") for s, line, inked in lost), journal), evidence())
        for s, _, _ in lost: s.expected = False  # the drawing goes on from what was restored: counted once
    for s in chain.strokes:
        if s.window < chain.windows: s.fresh = False


def leftovers(chain):
    """What the kill cut short, from the files it left in the state folder: a file beside a
    journal half written (a compaction's snapshot or history, a continued session's copies, an
    opened picture's copy, a paste), a compaction's files whole but its journal not switched to
    them yet, a journal named `.new` not yet renamed into place, and an opened picture whose
    copy was not on disk yet. Only what this kill left counts (earlier kills' stay)."""
    folder = os.path.join(chain.state, "quicksilver")
    if not os.path.isdir(folder): return []
    names = set(os.listdir(folder))
    new, chain.seen = names - chain.seen, names
    labels = set()
    for n in new:
        if n.startswith("."):
            # Files are written unnamed and named when whole: a hidden one is named only for the
            # instant before its rename, so one left behind is a finding of its own.
            tally["hidden temporaries left behind"] += 1
            kind = next((k for k in ("snapshot", "history", "opened", "paste") if "." + k in n or "-" + k in n), "other")
            labels.add("a file beside the journal half written (%s)" % kind)
        elif n.endswith(".jsonl.new"):
            labels.add("a journal written but not yet renamed into place")
    named = set()
    for n in names:
        if n.endswith(".jsonl") and not n.startswith("."):
            with open(os.path.join(folder, n), errors="replace") as f: named.update(re.findall(r'"([^"/]+)"', f.readline()))
            if '"opened"' in open(os.path.join(folder, n), errors="replace").readline():
                copy = re.search(r'"copy": "([^"]+)"', open(os.path.join(folder, n), errors="replace").readline())
                if copy and copy.group(1) not in names and n in new: labels.add("before the opened picture's copy was on disk")
    if any(("snapshot-" in n or "history-" in n) and not n.startswith(".") and n not in named for n in new):
        labels.add("mid-compaction: its snapshot and history written, its journal not yet")
    return sorted(labels)


def drive(chain, p, kill_at, first_stroke_now):
    """Draws, saves, pastes and makes layers until `kill_at`, then kills. Returns what the last
    actions were, for the tally of where the kills landed."""
    recent = {}
    state = {"down": None, "exports": 0}

    def wait(seconds):
        """Sleeps, unless the kill comes first: then False."""
        now = time.monotonic()
        if now + seconds >= kill_at[0]:
            time.sleep(max(0, kill_at[0] - now))
            return False
        time.sleep(seconds)
        return True

    def stroke():
        if len(chain.strokes) >= COLS * ROWS: return False
        s = Stroke(len(chain.strokes), len(chain.strokes))
        s.window, s.fresh = chain.windows, True
        if rng.random() < 0.2: keys(rng.choice(["1", "3", "6", "7", "8"]))
        move(s.xs[0], s.y)
        if not wait(rng.uniform(0.002, 0.02)): return False
        chain.strokes.append(s)
        s.down_sent = time.monotonic()
        button(True)
        chain.changed = True
        state["down"] = s
        for x in s.xs[1:]:
            if not wait(rng.uniform(0.003, 0.02)): return False
            move(x, s.y)
        if not wait(rng.uniform(0.0, 0.015)): return False
        button(False)
        s.released = time.monotonic()
        state["down"] = None
        recent["stroke ended"] = s.released
        # Now and then the kill comes as the stroke ends: while its lines are synced, or while
        # the compaction it set off (past --journal-compact-bytes) makes its files.
        r = rng.random()
        if r < 0.1: kill_at[0] = min(kill_at[0], s.released + (rng.uniform(0, 0.03) if r < 0.05 else rng.uniform(0.03, 0.15)))
        return wait(rng.uniform(0.0, 0.06))

    def pastes():
        folder = os.path.join(chain.state, "quicksilver")
        return {n for n in os.listdir(folder) if ".paste-" in n and not n.startswith(".")} if os.path.isdir(folder) else set()

    def key_action(label, *names, x=5, y=5, then=None):
        before = pastes() if label == "Ctrl+V" else None
        move(x, y)
        keys(*names)
        if then:
            # Ctrl+S of a document without a file, and Ctrl+Shift+S, ask for a name in the
            # status strip: the suggestion taken (Return), or a name of ours typed.
            if not wait(rng.uniform(0.01, 0.05)): return False
            then()
        if label in ("Ctrl+V", "Insert", "Ctrl+E"): chain.changed = True
        if label == "Ctrl+V":
            # The clipboard answers later: a stroke begun before the paste lands would be cut
            # by it (a paste ends a live stroke). Its picture is kept beside the journal first.
            recent[label] = time.monotonic()
            if rng.random() < 0.3: kill_at[0] = min(kill_at[0], time.monotonic() + rng.uniform(0, 0.4))
            waited = time.monotonic() + 10
            while not (pastes() - before) and time.monotonic() < waited:
                if not wait(0.005): return False
        recent[label] = time.monotonic()
        if label in ("Ctrl+Shift+E", "Ctrl+S", "Ctrl+Shift+S"): state["exports"] += 1
        if label in ("Ctrl+Shift+E", "Ctrl+S", "Ctrl+Shift+S") and rng.random() < 0.3:
            kill_at[0] = min(kill_at[0], time.monotonic() + rng.uniform(0, 0.4))
        return wait(rng.uniform(0.01, 0.1))

    if first_stroke_now and not stroke(): return recent, state
    while True:
        r = rng.random()
        if r < 0.70: ok = stroke()
        elif r < 0.74: ok = key_action("Ctrl+Shift+E", *rng.choice([("Control_L", "Shift_L", "e"), ("Print",)]))
        elif r < 0.78: ok = key_action("Ctrl+S", "Control_L", "s", then=lambda: keys("Return"))
        elif r < 0.83:
            chain.saves += 1
            name = os.path.join(chain.exports, "saved-%d.%s" % (chain.saves, rng.choice(["ora", "png"])))
            ok = key_action("Ctrl+Shift+S", "Control_L", "Shift_L", "s",
                            then=lambda: (keys("Control_L", "u"), type_text(name), keys("Return")))
        elif r < 0.90: ok = key_action("Ctrl+V", "Control_L", "v", x=rng.randint(40, WIN_W - 40), y=PASTE_Y)
        elif r < 0.94 and chain.layers < 10:
            chain.layers += 1
            ok = key_action("Insert", "Insert")
        elif r < 0.97: ok = key_action("Page Up/Down", rng.choice(["Prior", "Next"]))
        elif r < 0.98 and chain.layers > 1:
            chain.layers -= 1
            ok = key_action("Ctrl+E", "Control_L", "e")
        else: ok = wait(rng.uniform(0.05, 0.3))
        if not ok: return recent, state


def run_window(chain, kills_left):
    """One window of a chain: started (recovering the last kill's session), checked, driven,
    killed. Returns the kills made (0 or 1)."""
    first = chain.windows == 0 or not chain.started
    p, out, err = spawn(chain, first)
    spawned = time.monotonic()
    kill_no = tally["kills"] + 1
    # Now and then the kill comes while the window starts: restoring, or opening the picture.
    if not first and rng.random() < 0.08:
        time.sleep(rng.uniform(0, 0.8))
        p.send_signal(signal.SIGKILL)
        p.wait()
        tally["kills"] += 1
        leftovers(chain)
        phases["while starting or restoring"] += 1
        log.write(json.dumps({"kill": kill_no, "chain": chain.n, "window": chain.windows, "at": time.monotonic() - spawned,
                              "phases": ["while starting or restoring"]}) + "\n")
        return 1
    wid = window_of(p.pid, 60)
    if wid is None:
        problem("mismatches", "the window did not appear: " + read(err)[-500:], [chain.state])
        p.kill(); p.wait()
        return 0
    global origin
    origin = window_origin(wid)
    startup = time.monotonic() - spawned
    tally["start-up seconds"] += startup
    said = ""
    render_proc = render_png = journal = shot = None
    if chain.pending and not (first and chain.picture):
        # The window says what it restored once it is open (when the killed one changed anything).
        deadline = time.monotonic() + (30 if any(s.expected for s in chain.strokes) else 3 if chain.changed else 0.3)
        while time.monotonic() < deadline:
            said = read(err)
            if "restored the previous session from" in said or "cannot restore" in said: break
            time.sleep(0.01)
        m = re.search(r"restored the previous session from (.+?) \(\d+ strokes?\)", said)
        for line in said.splitlines():
            if line.startswith("quicksilver: warning") or "cannot restore" in line:
                problem("warnings", "kill %d: the window said: %s" % (chain.pending, line), [chain.state])
        if m:
            journal = m.group(1)
            shot = screenshot(p, out)
            render_png = os.path.join(chain.state, "render-%d.png" % chain.pending)
            rerr = open(os.path.join(chain.state, "render-%d.err" % chain.pending), "w+")
            render_proc = subprocess.Popen([binary, "render", journal, "-o", render_png], stdout=subprocess.DEVNULL, stderr=rerr)
            render_proc.err_file = rerr
        elif any(s.expected for s in chain.strokes):
            problem("loss", "kill %d: nothing restored (%d strokes expected); stderr: %s" %
                    (chain.pending, sum(s.expected for s in chain.strokes), said.strip()[-400:]), [chain.state])
            tally["strokes lost"] += sum(1 for s in chain.strokes if s.expected and s.fresh)
            tally["strokes lost later"] += sum(1 for s in chain.strokes if s.expected and not s.fresh)
            for s in chain.strokes: s.fresh = s.expected = False  # gone: not counted again
        pending = chain.pending
    else:
        pending = None
    if kills_left == 0 or chain.windows > chain.length:
        # The chain's last window: checked, then closed cleanly.
        if render_proc:
            tally["restores compared"] += 1
            check(chain, pending, journal, shot, render_proc, render_png)
        move(5, 5)
        keys("Control_L", "q")
        try: status = p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill(); status = p.wait()
        tally["clean exits"] += 1
        if status != 0: problem("mismatches", "Ctrl+Q exited %d: %s" % (status, read(err)[-400:]), [chain.state])
        return 0
    # Every window draws with the 1 px pixel pen, at 100 % from the canvas's corner.
    move(5, 5)
    keys("0"); keys("x")
    for _ in range(4): keys("bracketleft")
    start = time.monotonic()
    kill_at = [start + (rng.uniform(0.02, 1.5) if first and chain.picture else rng.uniform(0.02, 2.4))]
    saved_before = len(re.findall(r"^/.*\.(png|ora)$", read(out), re.M))
    recent, state = drive(chain, p, kill_at, first)
    live = state["down"]
    # What the window had drawn when it was killed: a stroke lost that it had drawn was lost by
    # the journal; one it had not was still waiting in its input (the window behind).
    on_screen = shown(wid)
    killed = time.monotonic()
    p.send_signal(signal.SIGKILL)
    p.wait()
    if live: button(False)  # the X server still holds the button the dead window had down
    tally["kills"] += 1
    tally["drive seconds"] += killed - start
    labels = []
    if live: labels.append("mid-stroke")
    # Saves and screenshots are written on the frame loop: one not finished at the kill held up
    # the input sent after it.
    saving = state["exports"] > len(re.findall(r"^/.*\.(png|ora)$", read(out), re.M)) - saved_before
    if saving: labels.append("mid-save: a screenshot or a saved document not written yet")
    for what, when in recent.items():
        if killed - when <= (0.3 if what == "stroke ended" else 0.5):
            labels.append("within %d ms of %s" % (300 if what == "stroke ended" else 500, what))
    new = [s for s in chain.strokes if s.window == chain.windows]
    for s in new:
        s.drawn = on_screen is not None and all(on_screen(x, y) for x, y in s.probes())
        s.saving = saving
        s.times = (round(s.down_sent - spawned, 3), s.released and round(s.released - spawned, 3))
        if s.released is not None:
            s.margin = killed - s.released
            s.expected = s.margin > GRACE
            if not s.expected: tally["strokes released within 50 ms of a kill (not checked)"] += 1
        else:
            s.margin = -1
            tally["strokes cut by a kill (not checked)"] += 1
    if new: chain.started = True
    if render_proc:
        tally["restores compared"] += 1
        check(chain, pending, journal, shot, render_proc, render_png)
    labels += leftovers(chain)
    if first and chain.picture and not chain.picture_done:
        labels.append("within %d s of opening a %dx%d picture" % (1 if killed - spawned <= 1 else 2 if killed - spawned <= 2 else 5, BIG_W, BIG_H))
    if first: chain.picture_done = True
    if not labels: labels.append("between actions")
    for l in labels: phases[l] += 1
    log.write(json.dumps({"kill": kill_no, "chain": chain.n, "window": chain.windows, "at": killed - start, "phases": labels,
                          "strokes": len(new), "expected": sum(s.expected for s in new), "startup": startup,
                          "sent": [(s.id,) + s.times + (s.drawn,) for s in new]}) + "\n")
    log.flush()
    chain.pending = kill_no
    return 1


windows = []  # every window started, killed at the end if one is left (an interrupted run)


def interrupted(signum, frame):
    raise KeyboardInterrupt


signal.signal(signal.SIGTERM, interrupted)
print("chaos: %d kills, seed %d, display %s, work folder %s" % (args.kills, args.seed, display, work), flush=True)
began = time.monotonic()
chains = 0
try:
    while tally["kills"] < args.kills:
        chains += 1
        # Every so many drawings open the big picture (args.pictures of them), evenly spread.
        chain = Chain(chains, picture=int(chains * args.pictures) > int((chains - 1) * args.pictures))
        chain.started = chain.changed = chain.picture_done = False
        while True:
            left = args.kills - tally["kills"]
            if run_window(chain, left) == 0: break
            done = tally["kills"]
            if done % 25 == 0:
                spent = time.monotonic() - began
                print("chaos: %d kills, %d strokes checked, %d lost, %d mismatches, %.0f s (%.1f s a kill, about %.0f min to go)" % (
                    done, tally["strokes checked"], tally["strokes lost"] + tally["strokes lost later"], tally["mismatches"],
                    spent, spent / done, spent / done * (args.kills - done) / 60), flush=True)
        shutil.rmtree(chain.state, ignore_errors=True)  # what a problem needed is kept beside
except KeyboardInterrupt:
    print("chaos: interrupted: the tally so far", flush=True)
    tally["interrupted"] = 1
finally:
    for w in windows:
        if w.poll() is None: w.kill(); w.wait()
    clip.kill()
    xvfb.send_signal(signal.SIGTERM)

elapsed = time.monotonic() - began
kills = tally["kills"]
print("chaos: where the kills landed (a kill may be in several):")
for what, n in phases.most_common(): print("chaos:   %5d  %s" % (n, what))
print("chaos: %d kills in %d drawings (%d windows closed cleanly), %.0f s (%.1f s a kill: start-up %.2f s, drawing %.2f s)" % (
    kills, chains, tally["clean exits"], elapsed, elapsed / max(kills, 1), tally["start-up seconds"] / max(kills, 1),
    tally["drive seconds"] / max(kills, 1)))
print("chaos: strokes checked: %d (released more than 50 ms before their kill; %d of them found only in a compaction's snapshot), "
      "%d checks in all counting each stroke again after every later kill" % (
          tally["strokes checked"], tally["strokes found only in a snapshot"], tally["stroke checks"]))
print("chaos: not checked: %d strokes released within 50 ms of their kill" % tally["strokes released within 50 ms of a kill (not checked)"])
print("chaos: restored windows compared with render of their journal: %d" % tally["restores compared"])
print("chaos: hidden temporaries left in the state folder by the kills: %d" % tally["hidden temporaries left behind"])
print("chaos: strokes lost: %d (%d more lost after a later kill); mismatches (restored window vs render, render failing): %d; "
      "warnings on restore: %d" % (tally["strokes lost"], tally["strokes lost later"], tally["mismatches"], tally["warnings"]))
if tally["strokes lost"]:
    drawn, saving = tally["strokes lost that the window had drawn"], tally["strokes lost unread, the window mid-save"]
    print("chaos:   of the strokes lost, %d were on screen when the kill came (the window had them; its journal did not), "
          "%d were not drawn yet (the window behind its input: %d of them while it wrote a save or a screenshot)" % (
              drawn, tally["strokes lost"] - drawn, saving))
failed = tally["strokes lost"] + tally["strokes lost later"] + tally["mismatches"] + tally["loss"] + tally["interrupted"] > 0
print("chaos: " + ("FAILED (files in %s)" % work if failed else "passed"))
if not failed and not args.work: shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
