import CX11
import Clock

/// The display's vertical blanks through the Present extension: asked for one at a time with
/// PresentNotifyMSC, each heard of as a PresentCompleteNotify with its time (UST, microseconds
/// on CLOCK_MONOTONIC, the frame clock's timebase) and count (MSC).
final class X11VBlank {
    private let display: DisplayHandle
    private let window: Window
    private let opcode: Int32
    private var serial: UInt32 = 0
    /// A notification has been asked for and not heard of yet.
    private var asked = false
    private var heard: [VBlank] = []

    /// Nil when the server has no Present extension.
    init?(display: DisplayHandle, window: Window) {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XPresentQueryExtension(display, &opcode, &event, &error) != 0 else { return nil }
        var major: Int32 = 1, minor: Int32 = 0
        guard XPresentQueryVersion(display, &major, &minor) != 0 else { return nil }
        self.display = display
        self.window = window
        self.opcode = opcode
        _ = XPresentSelectInput(display, window, UInt32(PresentCompleteNotifyMask))
    }

    /// Asks to hear of the next vertical blank (once: a second ask waits for the first).
    func ask() {
        guard !asked else { return }
        asked = true
        serial &+= 1
        // Target 0 with divisor 1: the next blank.
        XPresentNotifyMSC(display, window, serial, 0, 1, 0)
        XFlush(display)
    }

    /// The blanks heard of since the last call.
    func take() -> [VBlank] {
        defer { heard.removeAll() }
        return heard
    }

    /// Takes `ev` if it is a Present notification for this window.
    func handle(_ ev: XEvent) -> Bool {
        XCalls.withEventData(display, ev, extension: opcode) { evtype, data in
            guard evtype == PresentCompleteNotify else { return }
            let e = data.assumingMemoryBound(to: XPresentCompleteNotifyEvent.self).pointee
            guard e.window == window, e.kind == PresentCompleteKindNotifyMSC else { return }
            asked = false
            heard.append(VBlank(nanoseconds: Int64(truncatingIfNeeded: e.ust) * 1000, count: e.msc))
        }
    }
}
