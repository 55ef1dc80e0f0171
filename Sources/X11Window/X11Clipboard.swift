import Clock
import CX11
import Input

/// The CLIPBOARD selection as ICCCM has it, for one window: owning it to serve a PNG, and
/// asking its owner for one to paste.
///
/// Serving: TARGETS (what can be had: image/png, TIMESTAMP), TIMESTAMP, and image/png, sent
/// whole when it fits in one request and in INCR chunks otherwise (the requestor deletes the
/// property, the next chunk follows; a zero-length chunk ends it), until another client takes
/// the selection. Pasting: image/png is asked for, received whole or in INCR chunks, and
/// reported as a `.paste` input event. Every request on another client's window is checked for
/// errors (that window may be gone), so a vanished requestor never takes the app down.
///
/// Nothing is left waiting for unrelated input to wake the window: the owner's window is watched
/// during a paste, so its destruction (the owner quit) arrives as an X event and ends the paste
/// at once; a transfer that stays silent is given up when `alarm` goes off.
final class X11Clipboard {
    private let display: DisplayHandle
    private let window: Window
    private let clipboard, targets, timestamp, png, incr, pasteProperty: Atom
    /// The most bytes one property change carries (below the server's maximum request size).
    let chunkBytes: Int
    /// What this window serves while it owns CLIPBOARD, and since when (ICCCM compares times).
    private var offered: (bytes: [UInt8], since: Time)?
    /// INCR transfers under way, by requestor window and property.
    private var outgoing: [TransferKey: Outgoing] = [:]
    /// The paste under way, if any.
    private var incoming: Incoming?
    /// Pastes that ended and are not reported yet.
    private var finished: [InputEvent] = []
    /// Goes off when a transfer's silence reaches `stallNS`, or at once when a paste ended
    /// outside an event drain, so that the idle frame loop wakes to report it (poll it with the
    /// connection). It is set only while there is something to wait for.
    let alarm = Alarm()
    /// Where `alarm` is set for (nil: disarmed).
    private var alarmDeadline: Int64?

    /// A transfer, either way, is given up when the other side stays silent this long; measured
    /// on the monotonic clock, so a change of the wall clock neither ends a live transfer nor
    /// keeps a dead one.
    private static let stallNS: Int64 = 10_000_000_000

    private struct TransferKey: Hashable { let requestor: Window, property: Atom }
    private struct Outgoing { var bytes: [UInt8]; var offset: Int; var lastProgress = Alarm.nowNS }
    private struct Incoming {
        /// CLIPBOARD's owner when the paste was asked for, whose window is watched for its end.
        let owner: Window
        var bytes: [UInt8] = []
        var incremental = false
        var lastProgress = Alarm.nowNS
    }

    private static let ownerQuit = "the clipboard's owner quit before sending its picture"

    init(display: DisplayHandle, window: Window) {
        self.display = display
        self.window = window
        clipboard = XCalls.internAtom(display, "CLIPBOARD")
        targets = XCalls.internAtom(display, "TARGETS")
        timestamp = XCalls.internAtom(display, "TIMESTAMP")
        png = XCalls.internAtom(display, "image/png")
        incr = XCalls.internAtom(display, "INCR")
        pasteProperty = XCalls.internAtom(display, "QUICKSILVER_PASTE")
        // Four bytes per unit, less room for the request's own header.
        chunkBytes = max(4096, Int(XMaxRequestSize(display)) * 4 - 1024)
    }

    /// Takes CLIPBOARD at server time `time` and serves `bytes` as image/png. False when the
    /// server did not give it (another client took it with a later time).
    @discardableResult
    func offer(_ bytes: [UInt8], at time: Time) -> Bool {
        XSetSelectionOwner(display, clipboard, window, time)
        guard XGetSelectionOwner(display, clipboard) == window else { return false }
        offered = (bytes, time)
        return true
    }

    /// Asks CLIPBOARD's owner for image/png at server time `time`; the answer comes back as a
    /// `.paste` event from `pendingResults()`.
    func requestImage(at time: Time) {
        defer { setAlarm() }
        if let offered {
            // Our own: no round trip through the server.
            finished.append(.paste(.image(offered.bytes)))
            return
        }
        if incoming != nil { endPaste(.nothing("a newer paste replaced it")) }
        let owner = XGetSelectionOwner(display, clipboard)
        guard owner != 0 /* None */ else {
            finished.append(.paste(.nothing("the clipboard is empty")))
            return
        }
        // Watched before it is asked, so that no way of quitting goes unheard; a window already
        // gone is that answer at once.
        incoming = Incoming(owner: owner)
        guard selectEvents(of: owner) else {
            endPaste(.nothing(Self.ownerQuit), ownerGone: true)
            return
        }
        XDeleteProperty(display, window, pasteProperty)
        XConvertSelection(display, clipboard, png, pasteProperty, window, time)
        XFlush(display)
    }

    /// Pastes that ended since the last call, including one given up because its owner stayed
    /// silent too long. Called after every drain of the connection, and so whenever `alarm`
    /// wakes the loop.
    func pendingResults() -> [InputEvent] {
        // The alarm is set whenever a transfer is under way or a result waits.
        guard alarmDeadline != nil else { return [] }
        _ = alarm.take()
        let now = Alarm.nowNS
        if let i = incoming, now - i.lastProgress >= Self.stallNS {
            endPaste(.nothing("the clipboard's owner stopped answering"))
        }
        for (key, t) in outgoing where now - t.lastProgress >= Self.stallNS { endTransfer(key) }
        let results = finished
        finished.removeAll()
        setAlarm()
        return results
    }

    /// Sets `alarm` for the earliest moment there will be something to do: now while results
    /// wait to be reported, else when the longest-silent transfer stalls; off with neither.
    /// Progress only moves stalls later, so an alarm set earlier merely wakes the loop once to
    /// be set again.
    private func setAlarm() {
        let silentSince = ([incoming?.lastProgress].compactMap { $0 } + outgoing.values.map(\.lastProgress)).min()
        let deadline = finished.isEmpty ? silentSince.map { $0 + Self.stallNS } : Alarm.nowNS
        guard deadline != alarmDeadline else { return }
        alarm.set(at: deadline)
        alarmDeadline = deadline
    }

    /// Selects on another client's window what this clipboard still needs of it: its property
    /// changes while an INCR transfer to it is under way, its destruction while it owns the paste
    /// under way (both can hold at once: a clipboard manager asks the owner that replaced it).
    /// False when the window is gone.
    @discardableResult
    private func selectEvents(of other: Window) -> Bool {
        // Our own window's mask is the window's business (and this clipboard never asks itself).
        guard other != window else { return true }
        var mask = NoEventMask
        if outgoing.keys.contains(where: { $0.requestor == other }) { mask |= PropertyChangeMask }
        if incoming?.owner == other { mask |= StructureNotifyMask }
        return XCalls.trapErrors(display) { XSelectInput(display, other, mask) } == nil
    }

    /// Handles `ev` if it belongs to the selection protocol; false for any other event.
    func handle(_ ev: XEvent) -> Bool {
        switch ev.type {
        case SelectionRequest where ev.xselectionrequest.owner == window:
            answer(ev.xselectionrequest)
        case SelectionClear where ev.xselectionclear.selection == clipboard:
            offered = nil
        case SelectionNotify where ev.xselection.requestor == window && ev.xselection.selection == clipboard:
            received(ev.xselection)
        case DestroyNotify where incoming != nil && ev.xdestroywindow.window == incoming?.owner:
            endPaste(.nothing(Self.ownerQuit), ownerGone: true)
        case PropertyNotify where ev.xproperty.window == window && ev.xproperty.atom == pasteProperty:
            if ev.xproperty.state == PropertyNewValue, incoming?.incremental == true { receivedChunk() }
        case PropertyNotify where ev.xproperty.state == PropertyDelete:
            let key = TransferKey(requestor: ev.xproperty.window, property: ev.xproperty.atom)
            guard outgoing[key] != nil else { return false }
            sendChunk(key)
        default:
            return false
        }
        return true
    }

    // MARK: Serving

    private func answer(_ request: XSelectionRequestEvent) {
        // An obsolete client names no property: the target is the property (ICCCM 2.2).
        let property = request.property != 0 ? request.property : request.target
        var answered: Atom = 0  // None: refused
        if request.selection == clipboard, let offered, request.time == 0 /* CurrentTime */ || request.time >= offered.since {
            let to = request.requestor
            switch request.target {
            case targets:
                let ok = XCalls.trapErrors(display) {
                    XCalls.setProperty(display, to, property, type: XA_ATOM, longs: [targets, timestamp, png].map { Int($0) })
                } == nil
                if ok { answered = property }
            case timestamp:
                if XCalls.trapErrors(display, { XCalls.setProperty(display, to, property, type: XA_INTEGER, longs: [Int(offered.since)]) }) == nil {
                    answered = property
                }
            case png where offered.bytes.count <= chunkBytes:
                if XCalls.trapErrors(display, { XCalls.setProperty(display, to, property, type: png, bytes: offered.bytes) }) == nil {
                    answered = property
                }
            case png:
                // Too big for one request: INCR. The requestor deletes the INCR property to
                // start, and each chunk once read; we hear of each deletion.
                let key = TransferKey(requestor: to, property: property)
                outgoing[key] = Outgoing(bytes: offered.bytes, offset: 0)
                let ok = selectEvents(of: to) && XCalls.trapErrors(display) {
                    XCalls.setProperty(display, to, property, type: incr, longs: [offered.bytes.count])
                } == nil
                if ok {
                    answered = property
                    setAlarm()
                } else {
                    endTransfer(key)
                }
            default:
                break
            }
        }
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.send_event = True
        reply.xselection.display = display
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = request.selection
        reply.xselection.target = request.target
        reply.xselection.property = answered
        reply.xselection.time = request.time
        _ = XCalls.trapErrors(display) { _ = XSendEvent(display, request.requestor, False, 0, &reply) }
    }

    private func sendChunk(_ key: TransferKey) {
        guard var t = outgoing[key] else { return }
        let n = min(chunkBytes, t.bytes.count - t.offset)
        let chunk = Array(t.bytes[t.offset..<(t.offset + n)])
        let ok = XCalls.trapErrors(display) {
            XCalls.setProperty(display, key.requestor, key.property, type: png, bytes: chunk)
        } == nil
        t.offset += n
        t.lastProgress = Alarm.nowNS
        outgoing[key] = t
        // The zero-length chunk ends the transfer; a requestor that vanished ends it too.
        if !ok || n == 0 { endTransfer(key) }
    }

    /// Forgets an outgoing transfer; the requestor's window stops telling us of its property
    /// changes unless another transfer to it is still under way.
    private func endTransfer(_ key: TransferKey) {
        outgoing[key] = nil
        selectEvents(of: key.requestor)
    }

    // MARK: Pasting

    private func received(_ notify: XSelectionEvent) {
        guard incoming != nil else { return }
        guard notify.property != 0 else {
            endPaste(.nothing("the clipboard holds no image"))
            return
        }
        guard let (type, format, bytes) = XCalls.takeProperty(display, window, pasteProperty) else {
            endPaste(.nothing("the clipboard's image could not be read"))
            return
        }
        if type == incr {
            // Deleting the INCR property (done by reading it) asks for the first chunk.
            incoming?.incremental = true
            incoming?.lastProgress = Alarm.nowNS
        } else if type == png && format == 8 {
            endPaste(Self.picture(bytes))
        } else if type == png {
            endPaste(.nothing("the clipboard's image could not be read"))
        } else {
            endPaste(.nothing("the clipboard holds no image"))
        }
    }

    private func receivedChunk() {
        guard let (_, _, bytes) = XCalls.takeProperty(display, window, pasteProperty) else { return }
        if bytes.isEmpty {
            endPaste(Self.picture(incoming?.bytes ?? []))
        } else {
            incoming?.bytes.append(contentsOf: bytes)
            incoming?.lastProgress = Alarm.nowNS
        }
    }

    /// What a transfer that ended brought: no bytes at all is an owner offering an empty image,
    /// said as such rather than as a picture that cannot be decoded.
    private static func picture(_ bytes: [UInt8]) -> ClipboardImage {
        bytes.isEmpty ? .nothing("the clipboard's image is empty") : .image(bytes)
    }

    /// Ends the paste under way with `answer`, to be reported, and stops watching its owner's
    /// window (unless it is gone, or still needed for a transfer to it).
    private func endPaste(_ answer: ClipboardImage, ownerGone: Bool = false) {
        guard let owner = incoming?.owner else { return }
        incoming = nil
        if !ownerGone { selectEvents(of: owner) }
        finished.append(.paste(answer))
    }
}
