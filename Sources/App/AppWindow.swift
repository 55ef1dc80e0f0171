import Clock
import Compute
import Input

/// What the app needs of its window: the other half of the seam `Presenter` is. Input comes in
/// as `InputEvent`s; the title, presents and the frame target go out. The X11 window implements
/// it; tests implement it with a fake.
public protocol AppWindow: Presenter {
    /// Every input event since the last call, in order; never blocks.
    func pendingEvents() -> [InputEvent]
    /// Sets the window's title.
    func setTitle(_ title: String)
    /// Shows the last presented image again, whole (after an Expose), without recomposing it.
    func presentAll()
    /// Waits until everything presented so far is on screen (for `--stats`).
    func waitForPresentCompletion()
    /// True while a present has not completed yet (the server still reads its pixels): the ink
    /// path then waits, so that no more than one present is ever queued.
    var isPresentPending: Bool { get }
    /// True when events have been read from the server but not yet taken by `pendingEvents()`.
    var hasBufferedEvents: Bool { get }
    /// True when the display reports its vertical blanks (the frame clock can follow them).
    var reportsVBlanks: Bool { get }
    /// Asks to hear of the next vertical blank.
    func askForVBlank()
    /// The vertical blanks heard of since the last call.
    func takeVBlanks() -> [VBlank]
    /// Puts `png` on the clipboard as image/png, served until another client takes it or the
    /// window closes. False when the clipboard could not be taken.
    @discardableResult
    func offerClipboard(png: [UInt8]) -> Bool
    /// Asks the clipboard for an image; the answer arrives as a `.paste` input event.
    func requestClipboardImage()
    /// Shows a crosshair pointer over the window (the colour picker is armed), or the usual one.
    func setCrosshair(_ on: Bool)
}
