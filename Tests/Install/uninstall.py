#!/usr/bin/env python3
"""Checks that `make uninstall` takes away exactly what `make install` made (`make test-install` runs
this after `make stage`; each install here is `make -o stage install`, so nothing is rebuilt).

Each case installs into a PREFIX in a temporary folder, without DESTDIR (so the MIME, desktop and
icon caches are refreshed as on a real install; HOME and the XDG folders are temporary too, so
nothing outside the temporary folder is touched), then uninstalls, and compares the folder with
what it was before: every file and folder by name, every file by content.

- beside: a PREFIX holding a user's own files (share/man/man1/quicksilver.mynotes.1, bin/otherapp)
  and another app's desktop entry, MIME package and icon, with the caches that app's install made:
  installed twice (an upgrade keeps the manifest as it was), uninstalled twice (the second says
  there is nothing to uninstall). The other app is still in the refreshed caches, Quicksilver not.
- fresh: a PREFIX that does not exist yet: every folder and cache is the install's, and goes.
- icons: a PREFIX whose share/icons/hicolor has an index.theme and no cache, so the install makes
  icon-theme.cache, and the uninstall takes it away.
- staged: DESTDIR: the manifest names the final paths, every file and folder the install made,
  and no cache; the uninstall leaves DESTDIR empty.
- older: an install without a manifest (as an older version's): uninstall removes its files by name,
  says so, and leaves the user's quicksilver.mynotes.1.

Usage: uninstall.py (from the repository's root)"""
import hashlib, os, shutil, subprocess, sys, tempfile

MANIFEST = "share/quicksilver/install-manifest"
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + (": " + detail if detail else ""))


def tree(top):
    """Every file and folder under top: relative path -> "folder" or the file's sha256."""
    out = {}
    if not os.path.isdir(top):
        return out
    for d, dirs, files in os.walk(top):
        for n in dirs:
            out[os.path.relpath(os.path.join(d, n), top) + "/"] = "folder"
        for n in files:
            p = os.path.join(d, n)
            out[os.path.relpath(p, top)] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    return out


def differences(before, after):
    gone = sorted(set(before) - set(after))
    new = sorted(set(after) - set(before))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    parts = [label + " " + ", ".join(ps[:6]) + (" …" if len(ps) > 6 else "")
             for label, ps in (("gone:", gone), ("left:", new), ("changed:", changed)) if ps]
    return "; ".join(parts)


def said(r):
    """What a command said, on one line."""
    text = " | ".join(line.strip() for line in (r.stdout + r.stderr).splitlines() if line.strip())
    return text if len(text) <= 300 else text[:300] + " …"


def make(env, *args):
    return subprocess.run(["make", "--no-print-directory", "-o", "stage"] + list(args), env=env, capture_output=True, text=True)


def manifest(root):
    path = os.path.join(root, MANIFEST)
    if not os.path.isfile(path):
        return []
    return [tuple(line.split(" ", 1)) for line in open(path).read().splitlines() if line[:2] in ("f ", "c ", "d ")]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)


def quicksilver_in_caches(share):
    """What of Quicksilver the refreshed caches still list."""
    found = []
    if os.path.exists(os.path.join(share, "mime", "application", "x-quicksilver-session.xml")):
        found.append("mime/application/x-quicksilver-session.xml")
    for name in ("mime/mime.cache", "mime/magic", "mime/types", "applications/mimeinfo.cache"):
        p = os.path.join(share, name)
        if os.path.isfile(p) and b"quicksilver" in open(p, "rb").read():
            found.append(name)
    return found


tmp = tempfile.mkdtemp(prefix="quicksilver-uninstall-")
try:
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    prefixes = {case: os.path.join(tmp, case, "prefix") for case in ("beside", "icons", "older")}
    prefixes["fresh"] = os.path.join(tmp, "fresh", "new", "prefix")
    # A desktop that looks in each PREFIX (so the install has no note to add that it does not).
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, ".local/share"), XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_STATE_HOME=os.path.join(home, ".local/state"),
               XDG_DATA_DIRS=":".join(os.path.join(p, "share") for p in prefixes.values()), DESTDIR="")
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(name, None)

    def install_and_uninstall(case, top, prefix, upgrade=False, installed_check=None):
        """Installs into prefix, checks the manifest against what appeared under top (and runs
        installed_check), uninstalls and checks top is as it was. Returns the tree before, the tree
        installed, the manifest's lines and the tree after."""
        before = tree(top)
        r = make(env, "install", "PREFIX=" + prefix)
        check(case + ": make install", r.returncode == 0, said(r))
        check(case + ": make install says one line", len(r.stdout.splitlines()) == 1 and not r.stderr, said(r))
        installed = tree(top)
        lines = manifest(prefix)
        check(case + ": the manifest is there", bool(lines), os.path.join(prefix, MANIFEST))
        made = set(installed) - set(before)
        named = {os.path.relpath(p, top) + ("/" if t == "d" else "") for t, p in lines}
        named.add(os.path.relpath(os.path.join(prefix, MANIFEST), top))
        check(case + ": the manifest names exactly what the install made (files, caches, folders)", named == made,
              "made, not named: %s; named, not made: %s" % (sorted(made - named)[:6], sorted(named - made)[:6]))
        check(case + ": the manifest names only paths under PREFIX or above it",
              all((p + "/").startswith(prefix + "/") or (t == "d" and prefix.startswith(p + "/")) for t, p in lines))
        if installed_check:
            installed_check()
        if upgrade:
            r = make(env, "install", "PREFIX=" + prefix)
            check(case + ": make install again (an upgrade)", r.returncode == 0 and "replacing the install" in r.stdout,
                  said(r))
            check(case + ": after the upgrade the tree and the manifest are as after the first install",
                  tree(top) == installed and manifest(prefix) == lines, differences(installed, tree(top)))
        r = make(env, "uninstall", "PREFIX=" + prefix)
        check(case + ": make uninstall", r.returncode == 0, said(r))
        check(case + ": make uninstall says one line", len(r.stdout.splitlines()) == 1 and not r.stderr, said(r))
        after = tree(top)
        left = [p for t, p in lines if os.path.lexists(p)]
        check(case + ": no file, cache file or folder the manifest named is left", not left, ", ".join(left[:6]))
        check(case + ": the uninstall leaves the folder exactly as before the install (files, folders, contents)",
              after == before, differences(before, after))
        return before, installed, lines, after

    # beside: a user's own files and another app's, with the caches its install made.
    prefix = prefixes["beside"]
    top = os.path.dirname(prefix)
    share = os.path.join(prefix, "share")
    write(os.path.join(share, "man/man1/quicksilver.mynotes.1"), ".TH QUICKSILVER.MYNOTES 1\nMy own notes.\n")
    write(os.path.join(prefix, "bin/otherapp"), "#!/bin/sh\n")
    write(os.path.join(share, "applications/otherapp.desktop"),
          "[Desktop Entry]\nType=Application\nName=Other\nExec=otherapp %f\nMimeType=text/x-otherapp;\n")
    write(os.path.join(share, "mime/packages/otherapp.xml"),
          '<?xml version="1.0" encoding="UTF-8"?>\n<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">\n'
          '  <mime-type type="text/x-otherapp"><comment>Other</comment><glob pattern="*.otherapp"/></mime-type>\n</mime-info>\n')
    os.makedirs(os.path.join(share, "icons/hicolor/48x48/apps"))
    shutil.copy("packaging/icons/48x48.png", os.path.join(share, "icons/hicolor/48x48/apps/otherapp.png"))
    subprocess.run(["update-mime-database", os.path.join(share, "mime")], check=True, capture_output=True)
    subprocess.run(["update-desktop-database", "-q", os.path.join(share, "applications")], check=True)

    def beside_installed():
        found = quicksilver_in_caches(share)
        check("beside: the install's cache refresh lists Quicksilver", "mime/application/x-quicksilver-session.xml" in found
              and "applications/mimeinfo.cache" in found, str(found))

    before, installed, lines, after = install_and_uninstall("beside", top, prefix, upgrade=True, installed_check=beside_installed)
    check("beside: the user's quicksilver.mynotes.1 is untouched",
          after.get("prefix/share/man/man1/quicksilver.mynotes.1") == before.get("prefix/share/man/man1/quicksilver.mynotes.1"))
    mimeinfo = open(os.path.join(share, "applications/mimeinfo.cache")).read() if os.path.isfile(os.path.join(share, "applications/mimeinfo.cache")) else ""
    check("beside: the desktop cache still lists the other app", "text/x-otherapp=otherapp.desktop;" in mimeinfo, mimeinfo)
    globs = open(os.path.join(share, "mime/globs2")).read() if os.path.isfile(os.path.join(share, "mime/globs2")) else ""
    check("beside: the MIME database still has the other app's type", "text/x-otherapp:*.otherapp" in globs
          and os.path.isfile(os.path.join(share, "mime/text/x-otherapp.xml")), globs)
    left = quicksilver_in_caches(share)
    check("beside: the caches no longer list Quicksilver", not left, str(left))
    r = make(env, "uninstall", "PREFIX=" + prefix)
    check("beside: make uninstall again is harmless", r.returncode == 0 and r.stdout.startswith("nothing to uninstall") and not r.stderr
          and tree(top) == before, said(r) + " " + differences(before, tree(top)))

    # fresh: a PREFIX that is not there yet.
    top = os.path.join(tmp, "fresh")
    os.makedirs(top)
    prefix = prefixes["fresh"]
    before, installed, lines, after = install_and_uninstall("fresh", top, prefix)
    caches = {os.path.relpath(p, prefix) for t, p in lines if t == "c"}
    check("fresh: the manifest names the MIME and desktop caches the install made", {"share/mime/mime.cache", "share/applications/mimeinfo.cache"}
          <= caches, str(sorted(caches)))
    check("fresh: the manifest names PREFIX and the folder above it, which the install made",
          {("d", prefix), ("d", os.path.dirname(prefix))} <= set(lines))

    # icons: hicolor with an index.theme, so the install makes an icon cache.
    prefix = prefixes["icons"]
    top = os.path.dirname(prefix)
    write(os.path.join(prefix, "share/icons/hicolor/index.theme"),
          "[Icon Theme]\nName=Hicolor\nComment=Fallback icon theme\nDirectories=48x48/apps,scalable/apps\n\n"
          "[48x48/apps]\nSize=48\nContext=Applications\nType=Threshold\n\n"
          "[scalable/apps]\nMinSize=1\nSize=128\nMaxSize=256\nContext=Applications\nType=Scalable\n")
    before, installed, lines, after = install_and_uninstall("icons", top, prefix)
    check("icons: the install made icon-theme.cache, and the manifest names it",
          ("c", os.path.join(prefix, "share/icons/hicolor/icon-theme.cache")) in lines)

    # staged: DESTDIR, with the final paths in the manifest.
    top = os.path.join(tmp, "staged")
    os.makedirs(top)
    r = make(env, "install", "DESTDIR=" + top, "PREFIX=/usr")
    check("staged: make install DESTDIR=…", r.returncode == 0 and len(r.stdout.splitlines()) == 1 and not r.stderr, said(r))
    installed = tree(top)
    lines = manifest(os.path.join(top, "usr"))
    named = {"/" + os.path.relpath(p, "/") + ("/" if t == "d" else "") for t, p in lines} | {"/usr/" + MANIFEST}
    made = {"/" + p for p in installed}
    check("staged: the manifest names the final paths of everything installed, and no cache", named == made
          and not any(t == "c" for t, p in lines) and not any(top in p for t, p in lines),
          "made, not named: %s; named, not made: %s" % (sorted(made - named)[:6], sorted(named - made)[:6]))
    r = make(env, "uninstall", "DESTDIR=" + top, "PREFIX=/usr")
    check("staged: make uninstall DESTDIR=… leaves DESTDIR empty", r.returncode == 0 and tree(top) == {}, said(r)
          + " " + differences({}, tree(top)))

    # older: an install without a manifest.
    prefix = prefixes["older"]
    top = os.path.dirname(prefix)
    write(os.path.join(prefix, "share/man/man1/quicksilver.mynotes.1"), ".TH QUICKSILVER.MYNOTES 1\nMy own notes.\n")
    r = make(env, "install", "PREFIX=" + prefix)
    check("older: make install", r.returncode == 0, said(r))
    os.remove(os.path.join(prefix, MANIFEST))
    r = make(env, "uninstall", "PREFIX=" + prefix)
    left = [p for p in tree(top) if "quicksilver" in os.path.basename(p) and os.path.basename(p) != "quicksilver.mynotes.1"]
    check("older: make uninstall without a manifest removes the files by name, and says so in one line",
          r.returncode == 0 and "no " + MANIFEST in r.stdout and len(r.stdout.splitlines()) == 1 and not r.stderr and not left,
          said(r) + " " + str(left))
    found = quicksilver_in_caches(os.path.join(prefix, "share"))
    check("older: the caches no longer list Quicksilver", not found, str(found))
    check("older: the user's quicksilver.mynotes.1 is untouched", os.path.isfile(os.path.join(prefix, "share/man/man1/quicksilver.mynotes.1")))
    check("older: nothing was written outside the temporary folder's PREFIXes (HOME is empty)", tree(home) == {}, str(sorted(tree(home))[:6]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("uninstall: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
