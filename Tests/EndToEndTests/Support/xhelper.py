#!/usr/bin/env python3
"""Test helper that speaks to the X server directly (ctypes over libX11), for what xdotool
cannot do: `delete WID` sends the window manager's WM_DELETE_WINDOW message (the close button);
`grab WID OUT` writes the window's pixels as read back from the server (XGetImage) to OUT as
width, height (two little-endian uint32) then BGRA rows. `drag WID X Y COUNT` presses button 1
at (X, Y) of the window and moves through COUNT distinct points as fast as XTest takes them
(a zigzag to the right), then releases. `own MODE` takes CLIPBOARD, prints "owned" once it holds
it, and answers image/png as MODE says (other targets are refused):
  empty           a zero-length image/png property, every time;
  empty-incr      an INCR transfer whose first chunk is the zero-length end;
  quit-on-request quits on the first request without answering it;
  quit-mid-incr   starts an INCR transfer, sends one chunk, and quits once it is read;
  stall-incr      starts an INCR transfer and never sends a chunk, staying alive."""
import ctypes, ctypes.util, struct, sys

x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x.XGetImage.restype = ctypes.c_void_p
x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("l", ctypes.c_long * 5)]


class XSelectionRequestEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("owner", ctypes.c_ulong), ("requestor", ctypes.c_ulong),
                ("selection", ctypes.c_ulong), ("target", ctypes.c_ulong), ("property", ctypes.c_ulong),
                ("time", ctypes.c_ulong)]


class XSelectionEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", ctypes.c_ulong), ("selection", ctypes.c_ulong),
                ("target", ctypes.c_ulong), ("property", ctypes.c_ulong), ("time", ctypes.c_ulong)]


class XPropertyEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("atom", ctypes.c_ulong),
                ("time", ctypes.c_ulong), ("state", ctypes.c_int)]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xclient", XClientMessageEvent), ("xselectionrequest", XSelectionRequestEvent),
                ("xselection", XSelectionEvent), ("xproperty", XPropertyEvent), ("pad", ctypes.c_long * 24)]


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


def own(dpy, mode):
    """Owns CLIPBOARD and answers image/png requests as `mode` says (see the module's doc)."""
    if mode not in ("empty", "empty-incr", "quit-on-request", "quit-mid-incr", "stall-incr"):
        sys.exit("xhelper: unknown owner mode " + mode)
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                      ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
    x.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    x.XGetSelectionOwner.restype = ctypes.c_ulong
    x.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    x.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                  ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    atom = lambda name: x.XInternAtom(dpy, name, 0)
    clipboard, png, incr = atom(b"CLIPBOARD"), atom(b"image/png"), atom(b"INCR")
    PropertyNotify, SelectionRequest, PropertyDelete, PropertyChangeMask = 28, 30, 1, 1 << 22
    me = x.XCreateSimpleWindow(dpy, x.XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
    x.XSetSelectionOwner(dpy, clipboard, me, 0)
    if x.XGetSelectionOwner(dpy, clipboard) != me:
        sys.exit("xhelper: could not take CLIPBOARD")
    print("owned", flush=True)

    def put(window, prop, type_, data, format_=8):
        if format_ == 32:
            buf = (ctypes.c_long * len(data))(*data)
        else:
            buf = ctypes.create_string_buffer(bytes(data), max(1, len(data)))
        x.XChangeProperty(dpy, window, prop, type_, format_, 0, buf, len(data))  # PropModeReplace

    def wait_for_delete(window, prop):
        ev = XEvent()
        while True:
            x.XNextEvent(dpy, ctypes.byref(ev))
            p = ev.xproperty
            if ev.type == PropertyNotify and p.window == window and p.atom == prop and p.state == PropertyDelete:
                return

    ev = XEvent()
    while True:
        x.XNextEvent(dpy, ctypes.byref(ev))
        if ev.type != SelectionRequest:
            continue
        req = ev.xselectionrequest
        requestor, target, time = req.requestor, req.target, req.time
        prop = req.property or target
        if target == png and mode == "quit-on-request":
            x.XSync(dpy, 0)
            sys.exit(0)
        answered = 0
        incremental = False
        if target == png:
            answered = prop
            if mode == "empty":
                put(requestor, prop, png, b"")
            else:
                incremental = True
                x.XSelectInput(dpy, requestor, PropertyChangeMask)
                put(requestor, prop, incr, [0 if mode == "empty-incr" else 100000], 32)
        reply = XEvent()
        reply.xselection.type = 31  # SelectionNotify
        reply.xselection.send_event = 1
        reply.xselection.display = dpy
        reply.xselection.requestor = requestor
        reply.xselection.selection = clipboard
        reply.xselection.target = target
        reply.xselection.property = answered
        reply.xselection.time = time
        x.XSendEvent(dpy, requestor, 0, 0, ctypes.byref(reply))
        x.XSync(dpy, 0)
        if not incremental:
            continue
        wait_for_delete(requestor, prop)  # the requestor read the INCR property: chunks may follow
        if mode == "empty-incr":
            put(requestor, prop, png, b"")
        elif mode == "quit-mid-incr":
            put(requestor, prop, png, b"\x89PNG\r\n\x1a\n" + bytes(992))
            wait_for_delete(requestor, prop)
            x.XSync(dpy, 0)
            sys.exit(0)
        elif mode == "stall-incr":
            while True:
                x.XNextEvent(dpy, ctypes.byref(ev))
        x.XSelectInput(dpy, requestor, 0)
        x.XSync(dpy, 0)


def main():
    dpy = x.XOpenDisplay(None)
    if not dpy:
        sys.exit("xhelper: cannot open display")
    if sys.argv[1] == "own":
        own(dpy, sys.argv[2])
        return
    cmd, wid = sys.argv[1], int(sys.argv[2], 0)
    if cmd == "delete":
        ev = XEvent()
        ev.xclient.type = 33  # ClientMessage
        ev.xclient.window = wid
        ev.xclient.message_type = x.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
        ev.xclient.format = 32
        ev.xclient.l[0] = x.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
        ev.xclient.l[1] = 0  # CurrentTime
        x.XSendEvent(dpy, wid, 0, 0, ctypes.byref(ev))
        x.XSync(dpy, 0)
    elif cmd == "grab":
        w, h = int(sys.argv[4]), int(sys.argv[5])
        p = x.XGetImage(dpy, wid, 0, 0, w, h, 0xFFFFFFFF, 2)  # AllPlanes, ZPixmap
        if not p:
            sys.exit("xhelper: XGetImage failed")
        img = XImage.from_address(p)
        assert img.bits_per_pixel == 32, img.bits_per_pixel
        raw = ctypes.string_at(img.data, img.bytes_per_line * img.height)
        rows = b"".join(raw[y * img.bytes_per_line:y * img.bytes_per_line + w * 4] for y in range(h))
        with open(sys.argv[3], "wb") as f:
            f.write(struct.pack("<II", w, h) + rows)
    elif cmd == "drag":
        xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
        xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        x.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                            ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong)]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XFlush.argtypes = [ctypes.c_void_p]
        root = x.XDefaultRootWindow(dpy)
        rx, ry, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
        x.XTranslateCoordinates(dpy, wid, root, int(sys.argv[3]), int(sys.argv[4]), ctypes.byref(rx), ctypes.byref(ry), ctypes.byref(child))
        xtst.XTestFakeMotionEvent(dpy, -1, rx.value, ry.value, 0)
        xtst.XTestFakeButtonEvent(dpy, 1, 1, 0)
        for i in range(1, int(sys.argv[5]) + 1):
            xtst.XTestFakeMotionEvent(dpy, -1, rx.value + i // 4, ry.value + (i % 2) * 3, 0)
            if i % 50 == 0: x.XFlush(dpy)
        xtst.XTestFakeButtonEvent(dpy, 1, 0, 0)
        x.XSync(dpy, 0)
    else:
        sys.exit("xhelper: unknown command " + cmd)


main()
