import CX11
#if canImport(Glibc)
import Glibc
#endif

// The raw Xlib, MIT-SHM and System V calls this module makes, as thin named wrappers: the only
// place that deals in C pointers, status codes and errno. Everything here runs on the thread
// that owns the display (see `X11Window`).

/// A display connection (`Display *`).
typealias DisplayHandle = OpaquePointer

/// Xlib calls with a few of their Swift-side conveniences.
enum XCalls {
    static func openDisplay(_ name: String?) -> DisplayHandle? {
        if let name { return name.withCString { XOpenDisplay($0) } }
        return XOpenDisplay(nil)
    }

    /// The name Xlib would use for `name` (resolves nil to $DISPLAY).
    static func displayName(_ name: String?) -> String {
        if let name { return name }
        guard let s = XDisplayName(nil) else { return "" }
        return String(cString: s)
    }

    static func internAtom(_ d: DisplayHandle, _ name: String) -> Atom {
        name.withCString { XInternAtom(d, $0, False) }
    }

    /// True when `ev` is a GenericEvent of extension `opcode`; `body` then gets its event type
    /// and data (valid only during the call), unless Xlib no longer has them.
    @discardableResult
    static func withEventData(_ d: DisplayHandle, _ ev: XEvent, extension opcode: Int32,
                              _ body: (_ evtype: Int32, _ data: UnsafeMutableRawPointer) -> Void) -> Bool {
        var cookie = ev.xcookie
        guard cookie.type == GenericEvent, cookie.extension == opcode else { return false }
        guard XGetEventData(d, &cookie) != 0, let data = cookie.data else { return true }
        defer { XFreeEventData(d, &cookie) }
        body(cookie.evtype, data)
        return true
    }

    /// Replaces a property with 8-bit data (strings).
    static func setProperty(_ d: DisplayHandle, _ w: Window, _ property: Atom, type: Atom, bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { buffer in
            XChangeProperty(d, w, property, type, 8, PropModeReplace, buffer.baseAddress,
                            Int32(buffer.count))
        }
    }

    /// Replaces a property with 32-bit data (which Xlib wants as C longs).
    static func setProperty(_ d: DisplayHandle, _ w: Window, _ property: Atom, type: Atom, longs: [Int]) {
        _ = longs.withUnsafeBytes { raw in
            XChangeProperty(d, w, property, type, 32, PropModeReplace,
                            raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(longs.count))
        }
    }

    /// Sets WM_NAME, whose type STRING is ISO 8859-1: other characters become "?".
    static func storeName(_ d: DisplayHandle, _ w: Window, _ title: String) {
        var latin1: [CChar] = title.unicodeScalars.map { $0.value < 256 && $0.value != 0 ? CChar(bitPattern: UInt8($0.value)) : 63 }
        latin1.append(0)
        XStoreName(d, w, latin1)
    }

    /// Reads and deletes a property: its type, its format (8, 16 or 32 bits a unit) and, for
    /// 8-bit data, its bytes (other formats give none). Nil when the window has no such property.
    static func takeProperty(_ d: DisplayHandle, _ w: Window, _ property: Atom) -> (type: Atom, format: Int32, bytes: [UInt8])? {
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // Length in 32-bit units: as much as a property can hold.
        let status = XGetWindowProperty(d, w, property, 0, 0x1FFF_FFFF, True, 0 /* AnyPropertyType */,
                                        &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0 else { return nil }
        let bytes = format == 8 && count > 0 ? Array(UnsafeBufferPointer(start: data, count: Int(count))) : []
        return (type, format, bytes)
    }

    static func setClassHint(_ d: DisplayHandle, _ w: Window, name: String, className: String) {
        let n = strdup(name), c = strdup(className)
        defer { free(n); free(c) }
        var hint = XClassHint(res_name: n, res_class: c)
        XSetClassHint(d, w, &hint)
    }

    static func setInputHint(_ d: DisplayHandle, _ w: Window) {
        var hints = XWMHints()
        hints.flags = InputHint
        hints.input = True
        XSetWMHints(d, w, &hints)
    }

    static func setProtocols(_ d: DisplayHandle, _ w: Window, _ atoms: [Atom]) {
        var atoms = atoms
        XSetWMProtocols(d, w, &atoms, Int32(atoms.count))
    }

    /// A key event's unshifted keysym, and the text it types with its modifiers.
    static func lookupKey(_ key: XKeyEvent) -> (keysym: KeySym, text: String) {
        var key = key
        let keysym = XLookupKeysym(&key, 0)
        var buffer = [CChar](repeating: 0, count: 16)
        let n = XLookupString(&key, &buffer, Int32(buffer.count - 1), nil, nil)
        let text = String(decoding: buffer.prefix(Int(max(0, n))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (keysym, text)
    }

    /// The next event, blocking.
    static func nextEvent(_ d: DisplayHandle) -> XEvent {
        var ev = XEvent()
        XNextEvent(d, &ev)
        return ev
    }

    /// The next event if Xlib holds one or one can be read without blocking.
    static func nextEventIfPending(_ d: DisplayHandle) -> XEvent? {
        guard XPending(d) > 0 else { return nil }
        return nextEvent(d)
    }

    /// Destroys an image whose `data` Xlib does not own (detaches it first).
    static func destroyImage(_ image: UnsafeMutablePointer<XImage>) {
        image.pointee.data = nil
        _ = qs_XDestroyImage(image)
    }

    /// The X error code of a failed request, recorded by `trapErrors`.
    nonisolated(unsafe) private static var trappedError: UInt8 = 0

    /// Runs `body` with an error handler that records (instead of exiting on) X errors, then
    /// XSyncs so that asynchronous failures are in; returns the first error code, or nil.
    static func trapErrors(_ d: DisplayHandle, _ body: () -> Void) -> UInt8? {
        XSync(d, False)
        trappedError = 0
        let previous = XSetErrorHandler { _, event in
            if XCalls.trappedError == 0, let event { XCalls.trappedError = event.pointee.error_code }
            return 0
        }
        body()
        XSync(d, False)
        XSetErrorHandler(previous)
        let code = trappedError
        trappedError = 0
        return code == 0 ? nil : code
    }

    /// Xlib's text for an X error code.
    static func errorText(_ d: DisplayHandle, _ code: UInt8) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        XGetErrorText(d, Int32(code), &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// System V shared memory, the process id and stderr.
enum OSCalls {
    /// A private segment readable and writable by this user only; nil (with errno text) on failure.
    static func shmCreate(bytes: Int) -> Result<Int32, OSFailure> {
        let id = shmget(qs_IPC_PRIVATE(), bytes, IPC_CREAT | 0o600)
        return id < 0 ? .failure(OSFailure("shmget")) : .success(id)
    }

    static func shmAttach(_ id: Int32) -> Result<UnsafeMutableRawPointer, OSFailure> {
        guard let p = shmat(id, nil, 0), qs_shmatFailed(p) == 0 else { return .failure(OSFailure("shmat")) }
        return .success(p)
    }

    static func shmDetach(_ address: UnsafeMutableRawPointer) { _ = shmdt(address) }

    /// Marks the segment for removal: it goes away with the last detach, even after kill -9.
    static func shmRemove(_ id: Int32) { _ = shmctl(id, IPC_RMID, nil) }

    static var processID: Int { Int(getpid()) }

    /// Writes one line to stderr.
    static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// A failed OS call: its name and strerror(errno).
struct OSFailure: Error, CustomStringConvertible {
    var description: String
    init(_ call: String) {
        let e = errno
        description = "\(call): " + String(cString: strerror(e))
    }
}
