#!/usr/bin/env python3
"""Checks an installed Quicksilver (`make test-install` installs into a temporary DESTDIR and runs
this on it): the desktop entry, the MIME type, the AppStream metainfo, the icons, a man page per
command, no benchmarks (they are `make bench`'s own program), the bash, zsh and fish completions,
and the installed binary's window on a private Xvfb carrying its icon (_NET_WM_ICON, equal to the
installed PNGs) and its WM_CLASS.

Usage: check.py PREFIX_DIR (the folder holding bin/ and share/)"""
import json, os, re, shutil, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tools"))
from krita_blend import read_png  # noqa: E402  (PNG by hand, no PyPI package)

root = os.path.abspath(sys.argv[1])
share = os.path.join(root, "share")
binary = os.path.join(root, "bin", "quicksilver")
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""))


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


# The binary and its version: one constant, the same the metainfo's newest release names.
version = run([binary, "--version"]).stdout.strip()
check("bin/quicksilver --version prints a version", re.fullmatch(r"\d+\.\d+\.\d+", version) is not None, repr(version))

r = run(["ldd", binary])
check("bin/quicksilver needs no Swift toolchain to run", r.returncode == 0 and "libswift" not in r.stdout and "/opt/swift" not in r.stdout
      and "not found" not in r.stdout, r.stdout)

# The desktop entry.
desktop = os.path.join(share, "applications", "quicksilver.desktop")
r = run(["desktop-file-validate", desktop])
check("desktop-file-validate accepts quicksilver.desktop", r.returncode == 0 and not r.stdout.strip(), r.stdout + r.stderr)
entry = dict(line.split("=", 1) for line in open(desktop).read().splitlines() if "=" in line)
check("Exec opens a file in the window", entry.get("Exec") == "quicksilver window %f", entry.get("Exec", ""))
mimes = set(filter(None, entry.get("MimeType", "").split(";")))
check("MimeType: PNG, OpenRaster and sessions", mimes == {"image/png", "image/openraster", "application/x-quicksilver-session"}, str(mimes))
check("Categories", entry.get("Categories") == "Graphics;2DGraphics;RasterGraphics;", entry.get("Categories", ""))
check("Icon names the installed icon", entry.get("Icon") == "quicksilver"
      and os.path.isfile(os.path.join(share, "icons/hicolor/scalable/apps/quicksilver.svg")))

# The session's MIME type: a database built (in a scratch folder: the installed tree must stay
# as installed) from the installed package, and a journal told apart from another .jsonl by its header.
with tempfile.TemporaryDirectory() as tmp:
    mime = os.path.join(tmp, "mime")
    shutil.copytree(os.path.join(share, "mime", "packages"), os.path.join(mime, "packages"))
    r = run(["update-mime-database", "-V", mime])
    check("update-mime-database takes the MIME package without complaint", r.returncode == 0 and "warning" not in (r.stdout + r.stderr).lower(),
          r.stdout + r.stderr)
    check("the database has application/x-quicksilver-session", os.path.isfile(os.path.join(mime, "application", "x-quicksilver-session.xml")))
    magic = open(os.path.join(mime, "magic"), "rb").read() if os.path.isfile(os.path.join(mime, "magic")) else b""
    check("its magic is the journal header", b"application/x-quicksilver-session" in magic and b'{"quicksilver":' in magic)
    session, other = os.path.join(tmp, "a.jsonl"), os.path.join(tmp, "b.jsonl")
    open(session, "w").write('{"quicksilver": 1, "width": 8, "height": 8}\n')
    open(other, "w").write('{"name": "not a drawing"}\n')
    env = dict(os.environ, XDG_DATA_DIRS=tmp, XDG_DATA_HOME=os.path.join(tmp, "none"))
    types = [run(["gio", "info", "-a", "standard::content-type", f], env=env).stdout for f in (session, other)]
    check("gio tells a session from another .jsonl", "content-type: application/x-quicksilver-session" in types[0]
          and "application/x-quicksilver-session" not in types[1] and "content-type: " in types[1], " / ".join(types))

# AppStream: --no-net because this machine reaches no web site the validator might check.
metainfo = [f for f in os.listdir(os.path.join(share, "metainfo")) if f.endswith(".metainfo.xml")]
check("one metainfo file", len(metainfo) == 1, str(metainfo))
if metainfo:
    path = os.path.join(share, "metainfo", metainfo[0])
    r = run(["appstreamcli", "validate", "--no-net", "--pedantic", path])
    check("appstreamcli validate accepts the metainfo (pedantic, no net)", r.returncode == 0 and "Validation was successful." in r.stdout,
          r.stdout + r.stderr)
    component = ET.parse(path).getroot()
    check("the metainfo's id names the file", metainfo[0] == component.findtext("id") + ".metainfo.xml")
    check("the metainfo launches the desktop entry", component.findtext("launchable") == "quicksilver.desktop")
    check("the metainfo's newest release is --version", component.find("releases/release").get("version") == version)

# Icons: the SVG parses, each PNG is the size its folder says.
svg = ET.parse(os.path.join(share, "icons/hicolor/scalable/apps/quicksilver.svg")).getroot()
check("the SVG icon is an SVG", svg.tag == "{http://www.w3.org/2000/svg}svg")
sizes = sorted(int(d.split("x")[0]) for d in os.listdir(os.path.join(share, "icons/hicolor")) if re.fullmatch(r"\d+x\d+", d))
check("PNG sizes 16 to 256", sizes[0] == 16 and sizes[-1] == 256 and {16, 32, 48, 64, 128, 256} <= set(sizes), str(sizes))
for s in sizes:
    w, h, _ = read_png(os.path.join(share, "icons/hicolor/%dx%d/apps/quicksilver.png" % (s, s)))
    check("icon %dx%d is %dx%d" % (s, s, s, s), (w, h) == (s, s), "%dx%d" % (w, h))

# Man pages: one per command, from the command line's own description; each renders without a
# warning and names every option of its command.
info = json.loads(run([binary, "--experimental-dump-help"]).stdout)


def commands(c, path):
    yield path, c
    for sub in c.get("subcommands", []):
        if sub["commandName"] != "help":
            yield from commands(sub, path + [sub["commandName"]])


man1 = os.path.join(share, "man", "man1")
for path, command in commands(info["command"], ["quicksilver"]):
    page = os.path.join(man1, ".".join(path) + ".1")
    if not os.path.isfile(page):
        check("man page for " + " ".join(path), False, page + " missing")
        continue
    r = run(["man", "--warnings=all", "-l", page], env=dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MANPAGER="cat", PAGER="cat"))
    text = re.sub(".\b", "", r.stdout)
    check("man -l renders %s without warnings" % os.path.basename(page), r.returncode == 0 and not r.stderr.strip() and len(text) > 200,
          r.stderr.strip()[:300])
    names = ["--" + n["name"] for a in command.get("arguments", []) for n in a.get("names", [])
             if n["kind"] == "long" and a.get("shouldDisplay", True)]
    missing = [n for n in names if n not in text.replace("\u2010", "-")]
    check("man page for %s names its options" % " ".join(path), not missing, str(missing))

# The benchmarks are a program of the build, not of the product (quicksilver-bench, `make bench`):
# no subcommand, no file and no installed text names them.
r = run([binary, "--help"])
subcommands = [sub["commandName"] for sub in info["command"].get("subcommands", [])]
check("quicksilver has no bench subcommand", "bench" not in subcommands and "bench" not in r.stdout.lower(), str(subcommands))
installed = [os.path.join(d, f) for d, _, files in os.walk(root) for f in files]
named = [os.path.relpath(p, root) for p in installed if "bench" in os.path.basename(p).lower()]
check("no benchmark file installed", not named, str(named))
mentions = [os.path.relpath(p, root) for p in installed if p.startswith(share + os.sep) and not p.endswith(".png")
            and "bench" in open(p, encoding="utf-8", errors="replace").read().lower()]
check("no man page, completion or other installed text mentions bench", not mentions, str(mentions))

# Completions: each parses in its shell, and completes the subcommands.
completions = {"bash": os.path.join(share, "bash-completion/completions/quicksilver"),
               "zsh": os.path.join(share, "zsh/site-functions/_quicksilver"),
               "fish": os.path.join(share, "fish/vendor_completions.d/quicksilver.fish")}
for shell, path in completions.items():
    r = run([shell, "-n", path])
    check("%s -n accepts the %s completion" % (shell, shell), r.returncode == 0, r.stderr)
script = 'source "%s"; COMP_WORDS=(quicksilver re); COMP_CWORD=1; COMP_LINE="quicksilver re"; COMP_POINT=14; ' \
         '_quicksilver; printf "%%s\\n" "${COMPREPLY[@]}"' % completions["bash"]
r = run(["bash", "-c", script])
check("bash completes `quicksilver re` to render", "render" in r.stdout.split(), r.stdout + r.stderr)
r = run(["fish", "--no-config", "-c", 'source "%s"; complete -C "quicksilver ren"' % completions["fish"]])
check("fish completes `quicksilver ren` to render", any(l.split("\t")[0] == "render" for l in r.stdout.splitlines()), r.stdout + r.stderr)
r = run(["zsh", "-f", "-c", 'autoload -U compinit; fpath=(%s $fpath); compinit -u -D; whence -w _quicksilver' % os.path.dirname(completions["zsh"])])
check("zsh finds _quicksilver on its fpath", "_quicksilver: function" in r.stdout, r.stdout + r.stderr)

# The window: the installed binary on a private Xvfb carries the icon, and its WM_CLASS.
if shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("xprop"):
    dfd_r, dfd_w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(dfd_w), "-nolisten", "tcp", "-noreset", "-screen", "0", "640x480x24"],
                            pass_fds=[dfd_w], stderr=subprocess.DEVNULL)
    os.close(dfd_w)
    env = dict(os.environ, DISPLAY=":" + os.read(dfd_r, 16).decode().strip())
    window = subprocess.Popen([binary, "window", "--no-journal", "--size", "320x240"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        wid = ""
        for _ in range(400):
            wid = run(["xdotool", "search", "--class", "^Quicksilver$"], env=env).stdout.split()
            if wid: break
            time.sleep(0.05)
        check("the installed binary opens its window", bool(wid))
        if wid:
            wid = wid[0]
            wm_class = run(["xprop", "-id", wid, "WM_CLASS"], env=env).stdout
            check("WM_CLASS is quicksilver, Quicksilver", '"quicksilver", "Quicksilver"' in wm_class, wm_class)
            out = run(["xprop", "-id", wid, "-notype", "32c", "_NET_WM_ICON"], env=env).stdout
            values = [int(v) for v in re.findall(r"\d+", out.split("=", 1)[1])] if "=" in out else []
            icons, i = {}, 0
            while i + 2 <= len(values):
                w, h = values[i], values[i + 1]
                icons[(w, h)] = values[i + 2:i + 2 + w * h]
                i += 2 + w * h
            check("_NET_WM_ICON holds 16, 32, 48 and 64", sorted(icons) == [(16, 16), (32, 32), (48, 48), (64, 64)], str(sorted(icons)))
            for (w, h), argb in sorted(icons.items()):
                _, _, rgba = read_png(os.path.join(share, "icons/hicolor/%dx%d/apps/quicksilver.png" % (w, h)))
                want = [(rgba[j + 3] << 24) | (rgba[j] << 16) | (rgba[j + 1] << 8) | rgba[j + 2] for j in range(0, len(rgba), 4)]
                check("_NET_WM_ICON %dx%d is the installed %dx%d PNG" % (w, h, w, h), argb == want,
                      "%d of %d pixels differ" % (sum(a != b for a, b in zip(argb, want)), len(want)))
    finally:
        window.terminate()
        window.wait(10)
        xvfb.terminate()
        xvfb.wait(10)
else:
    check("Xvfb, xdotool and xprop are there for the window check", False)

print("install: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
