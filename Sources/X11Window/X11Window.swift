// X11Window: the X11 side of Quicksilver — one window, its pixels and its input.
//
// Start with `X11Window` (this file): it opens the display, creates the window, hands out the
// image the next frame is composed into (`frameTarget()`, MIT-SHM or XPutImage, see
// `FrameImage`) and shows it (`present(_:)`); `pendingEvents()` translates X events into
// `InputEvent`s in one switch. `X11Calls` holds the thin wrappers of the raw Xlib and System V
// shm calls; `X11Error` the errors. This is the only module that imports CX11. Every call must
// come from one thread. The frame clock that drives it lives in the Clock module.
import Clock
import Compute
import CX11
import Geometry
import Input
#if canImport(Glibc)
import Glibc
#endif

/// A top-level X11 window that presents 32-bit frames and reports input as `InputEvent`s.
///
/// Pixels reach the server through MIT-SHM (XShmPutImage) when it can attach a shared segment,
/// else through XPutImage; `usesSharedMemory` tells which. Not thread-safe: make every call,
/// including `deinit`, on the thread that created the window.
public final class X11Window: Presenter {
    /// The size of the window and of the frame target, in pixels. It follows the window: it
    /// changes inside `pendingEvents()`, which then reports `.resize`.
    public internal(set) var size: Size

    /// True while frames are presented through a MIT-SHM segment (false: XPutImage fallback).
    public var usesSharedMemory: Bool { image?.isShared ?? false }

    /// The X connection's file descriptor, to poll for input (see `FrameLoop`).
    public let connectionFileDescriptor: Int32
    /// The display's resolution as the desktop sets it (`Xft.dpi` in the X resource database,
    /// which GNOME, KDE and `xrdb` write), if it says one.
    public let resourceDPI: Double?

    /// A descriptor to poll together with the connection: it becomes readable when the window
    /// has something to report though no X event came (a clipboard transfer given up after a
    /// silence); `pendingEvents()` then reports it and quiets the descriptor.
    public var alarmFileDescriptor: Int32 { clipboard.alarm.fileDescriptor }

    /// The window's X id: how another program names it (a dialog's parent).
    public var windowID: UInt { UInt(window) }

    var display: DisplayHandle?
    let window: Window
    let gc: GC
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    var image: FrameImage?
    /// Whether to try MIT-SHM for the next image (false once it failed or is missing).
    var sharedMemoryAllowed: Bool
    /// The event type of ShmCompletion (-1 without MIT-SHM).
    private let shmCompletionType: Int32
    /// XShmPutImage requests whose ShmCompletion has not arrived yet.
    var outstandingPuts = 0
    /// What the events read while waiting for a ShmCompletion meant, for the next `pendingEvents()`.
    var queuedEvents: [InputEvent] = []
    private let atoms: Atoms

    /// X events → `InputEvent`s.
    private var translator: X11EventTranslator
    /// The crosshair cursor, made on first use.
    private var crosshair: Cursor = 0
    /// XInput 2, when the pointer comes through it.
    private let xinput2: XInput2.Setup?
    /// The CLIPBOARD selection: serving copies, asking for pastes.
    private let clipboard: X11Clipboard
    /// The display's vertical blanks (nil without the Present extension).
    private let vblank: X11VBlank?

    /// True when the server reports vertical blanks (the Present extension).
    public var reportsVBlanks: Bool { vblank != nil }

    /// Asks to hear of the next vertical blank; it comes back through `takeVBlanks()`.
    public func askForVBlank() { vblank?.ask() }

    /// The vertical blanks heard of since the last call (read with the other events).
    public func takeVBlanks() -> [VBlank] { vblank?.take() ?? [] }

    private struct Atoms {
        let wmProtocols, wmDeleteWindow, netWMName, netWMPid, utf8String: Atom
        init(_ d: DisplayHandle) {
            wmProtocols = XCalls.internAtom(d, "WM_PROTOCOLS")
            wmDeleteWindow = XCalls.internAtom(d, "WM_DELETE_WINDOW")
            netWMName = XCalls.internAtom(d, "_NET_WM_NAME")
            netWMPid = XCalls.internAtom(d, "_NET_WM_PID")
            utf8String = XCalls.internAtom(d, "UTF8_STRING")
        }
    }

    /// Opens the display, creates and maps a `size` window titled `title`, and returns once the
    /// window is mapped.
    ///
    /// - Parameter display: an X display name such as `":0"`; nil uses `$DISPLAY`.
    /// - Throws: `X11Error` when the display cannot be opened (`.noDisplay`, `.cannotOpenDisplay`),
    ///   its default visual is not 32-bit little-endian xRGB (depth 24 or 32, masks
    ///   ff0000/ff00/ff, LSBFirst: `.unsupportedVisual`), or no image or graphics context can be
    ///   made (`.cannotCreateImage`, `.cannotCreateWindow`).
    /// - Parameter sharedMemory: false skips MIT-SHM and presents with XPutImage (benchmarks).
    /// - Parameter fittingScreen: true makes a window larger than the screen the screen's size.
    /// - Parameter coreInput: true reads the pointer from core events even where XInput 2.2 is
    ///   there (no device pressure); without XInput 2.2 that happens anyway, with a line on stderr.
    /// - Parameter icons: the window's icon in its sizes (`_NET_WM_ICON`); none sets no property.
    public init(display name: String?, size: Size, title: String, sharedMemory: Bool = true,
                fittingScreen: Bool = false, coreInput: Bool = false, icons: [WindowIcon] = []) throws(X11Error) {
        precondition(size.width > 0 && size.height > 0, "window size must be positive")
        guard let d = XCalls.openDisplay(name) else {
            throw X11Error.cannotOpenDisplay(XCalls.displayName(name))
        }
        let screen = XDefaultScreen(d)
        var size = size
        if fittingScreen {
            size = Size(width: min(size.width, Int(XDisplayWidth(d, screen))), height: min(size.height, Int(XDisplayHeight(d, screen))))
        }
        guard let visual = XDefaultVisual(d, screen) else {
            XCloseDisplay(d)
            throw X11Error(.unsupportedVisual, "display has no default visual")
        }
        let depth = XDefaultDepth(d, screen)
        let v = visual.pointee
        if !(depth == 24 || depth == 32) || v.red_mask != 0xff0000 || v.green_mask != 0xff00
            || v.blue_mask != 0xff || XImageByteOrder(d) != LSBFirst {
            XCloseDisplay(d)
            throw X11Error.unsupportedVisual(
                "depth \(depth), masks \(String(v.red_mask, radix: 16))/\(String(v.green_mask, radix: 16))/"
                + "\(String(v.blue_mask, radix: 16)), \(XImageByteOrder(d) == LSBFirst ? "LSBFirst" : "MSBFirst")")
        }

        var reason = ""
        if !sharedMemory {
            shmCompletionType = -1
            sharedMemoryAllowed = false
            reason = "turned off"
        } else if XShmQueryExtension(d) != 0 {
            shmCompletionType = XShmGetEventBase(d) + ShmCompletion
            sharedMemoryAllowed = true
        } else {
            shmCompletionType = -1
            sharedMemoryAllowed = false
            reason = "the server has no MIT-SHM extension"
        }
        let firstImage: FrameImage
        switch Self.makeImage(d, visual: visual, depth: depth, size: size, tryShared: sharedMemoryAllowed) {
        case .success((let i, let why)):
            firstImage = i
            if let why { reason = why }
        case .failure(let e):
            XCloseDisplay(d)
            throw e
        }
        if !firstImage.isShared {
            sharedMemoryAllowed = false
            OSCalls.printError("quicksilver: MIT-SHM unavailable (\(reason)); presenting with XPutImage")
        }

        let window = XCreateSimpleWindow(d, XRootWindow(d, screen), 0, 0, UInt32(size.width),
                                         UInt32(size.height), 0, XBlackPixel(d, screen), XBlackPixel(d, screen))
        // No background: the server does not clear to black before each Expose (no flicker).
        XSetWindowBackgroundPixmap(d, window, 0 /* None */)
        // The pointer through XInput 2.2 (device pressure, the stylus's eraser end), else core events.
        var pointerMask = ButtonPressMask | ButtonReleaseMask | PointerMotionMask
        var xinput2: XInput2.Setup?
        if !coreInput {
            switch XInput2.setUp(d, window: window) {
            case .success(let setup):
                xinput2 = setup
                pointerMask = 0
            case .failure(let why):
                OSCalls.printError("quicksilver: XInput 2.2 unavailable (\(why)); the pointer comes from core events, pressure simulated")
            }
        }
        XSelectInput(d, window, ExposureMask | KeyPressMask | KeyReleaseMask | StructureNotifyMask | PropertyChangeMask | LeaveWindowMask
                     | pointerMask)
        let atoms = Atoms(d)
        XCalls.setClassHint(d, window, name: "quicksilver", className: "Quicksilver")
        XCalls.setInputHint(d, window)
        XCalls.setProperty(d, window, atoms.netWMPid, type: XA_CARDINAL, longs: [OSCalls.processID])
        if !icons.isEmpty {
            XCalls.setProperty(d, window, XCalls.internAtom(d, "_NET_WM_ICON"), type: XA_CARDINAL, longs: WindowIcon.cardinals(icons))
        }
        XCalls.setProtocols(d, window, [atoms.wmDeleteWindow])
        guard let gc = XCreateGC(d, window, 0, nil) else {
            firstImage.release(d)
            XDestroyWindow(d, window)
            XCloseDisplay(d)
            throw X11Error(.cannotCreateWindow, "XCreateGC failed")
        }
        XSetGraphicsExposures(d, gc, False)
        // A held key repeats its presses without releases in between (Space held to pan).
        _ = XkbSetDetectableAutoRepeat(d, True, nil)

        self.display = d
        self.window = window
        self.gc = gc
        self.visual = visual
        self.depth = depth
        self.atoms = atoms
        self.image = firstImage
        self.size = size
        self.connectionFileDescriptor = XConnectionNumber(d)
        self.xinput2 = xinput2
        self.translator = X11EventTranslator(window: window, size: size, wmProtocols: atoms.wmProtocols,
                                             wmDeleteWindow: atoms.wmDeleteWindow, key: XCalls.lookupKey,
                                             devices: xinput2.flatMap { XInput2.devices(d, $0) } ?? [])
        self.clipboard = X11Clipboard(display: d, window: window)
        resourceDPI = XResourceManagerString(d).flatMap { Self.dpi(fromResources: String(cString: $0)) }
        self.vblank = X11VBlank(display: d, window: window)
        setTitle(title)

        XMapWindow(d, window)
        while true {
            let ev = XCalls.nextEvent(d)
            if ev.type == MapNotify && ev.xmap.window == window { break }
            translate(ev, into: &queuedEvents)
        }
    }

    deinit { close() }

    /// What to do when the connection to the X server is lost (server killed, network gone).
    /// Xlib then calls its IO error handler, a C function with no context, and exits if the
    /// handler returns: so the action lives in a static, and should end the process itself.
    nonisolated(unsafe) private static var connectionLost: (() -> Void)?

    /// Sets the action for a lost X connection (flush what must not be lost, say so, exit).
    /// If it returns, the process exits with status 1.
    public static func onConnectionLost(_ action: @escaping () -> Void) {
        connectionLost = action
        XSetIOErrorHandler { _ in
            X11Window.connectionLost?()
            exit(1)
        }
    }

    /// Releases the image and its shared memory, the window and the display connection.
    /// The window must not be used afterwards (`pendingEvents()` returns nothing).
    public func close() {
        guard let d = display else { return }
        image?.release(d)
        image = nil
        if crosshair != 0 { XFreeCursor(d, crosshair) }
        XFreeGC(d, gc)
        XDestroyWindow(d, window)
        XCloseDisplay(d)
        display = nil
    }

    /// Sets the window title (WM_NAME and the UTF-8 _NET_WM_NAME).
    public func setTitle(_ title: String) {
        guard let d = display else { return }
        XCalls.storeName(d, window, title)
        XCalls.setProperty(d, window, atoms.netWMName, type: atoms.utf8String, bytes: Array(title.utf8))
        XFlush(d)
    }

    // MARK: Input

    /// Every event the X connection holds, translated (see `X11EventTranslator`), in order: the
    /// events queued while waiting in `frameTarget()`, then all Xlib has buffered or can read
    /// without blocking. After a `.resize` the image is replaced before this returns (its
    /// content is undefined until the next frame).
    public func pendingEvents() -> [InputEvent] {
        guard let d = display else { return [] }
        var out: [InputEvent] = []
        out = queuedEvents
        queuedEvents.removeAll()
        while let ev = XCalls.nextEventIfPending(d) { translate(ev, into: &out) }
        // Only the newest size of a storm of ConfigureNotify events gets an image.
        if translator.size != size { resizeImage(to: translator.size) }
        return out + clipboard.pendingResults()
    }

    /// Shows a crosshair pointer over the window, or the usual one.
    public func setCrosshair(_ on: Bool) {
        guard let d = display else { return }
        if on {
            if crosshair == 0 { crosshair = XCreateFontCursor(d, UInt32(XC_crosshair)) }
            XDefineCursor(d, window, crosshair)
        } else {
            XUndefineCursor(d, window)
        }
        XFlush(d)
    }

    // MARK: The clipboard

    /// Puts `png` on the CLIPBOARD selection as image/png, served until another client takes
    /// the selection or the window closes. False when the server gave the selection to another.
    @discardableResult
    public func offerClipboard(png: [UInt8]) -> Bool {
        let taken = clipboard.offer(png, at: translator.lastServerTime)
        if let d = display { XFlush(d) }
        return taken
    }

    /// Asks CLIPBOARD's owner for image/png; the answer comes as a `.paste` event.
    public func requestClipboardImage() { clipboard.requestImage(at: translator.lastServerTime) }

    /// Counts a ShmCompletion, lets the clipboard take its protocol's events, and hands every
    /// other event to the translator. Events read while waiting (for a completion, for the
    /// window to map) are translated at once too, into `queuedEvents`: an XInput 2 event's data
    /// lives only until Xlib reads the next event, so a raw event kept for later would lose it.
    func translate(_ ev: XEvent, into out: inout [InputEvent]) {
        if ev.type == shmCompletionType {
            outstandingPuts = max(0, outstandingPuts - 1)
        } else if let vblank, vblank.handle(ev) {
            return
        } else if let xinput2, ev.type == GenericEvent, let d = display {
            switch XInput2.read(d, ev, opcode: xinput2.opcode) {
            case .pointer(let e)?: translator.translate(e, into: &out)
            case .hierarchyChanged?:
                // A list that could not be read (devices still changing) waits for the next change.
                if let devices = XInput2.devices(d, xinput2) { translator.devicesChanged(devices, into: &out) }
            case nil: break
            }
        } else if !clipboard.handle(ev) {
            translator.translate(ev, into: &out)
        }
    }
}

extension X11Window {
    /// `Xft.dpi` from the text of an X resource database (lines `name:\tvalue`), if it is a
    /// positive number.
    public static func dpi(fromResources text: String) -> Double? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            func trimmed(_ s: Substring) -> String { String(String(s.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed()) }
            guard parts.count == 2, trimmed(parts[0]) == "Xft.dpi", let dpi = Double(trimmed(parts[1])), dpi.isFinite, dpi > 0 else { continue }
            return dpi
        }
        return nil
    }
}
