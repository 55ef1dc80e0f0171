import Geometry

/// Everything the window tells the app. The X11 layer translates X events into these in one
/// switch; tests make them by hand.
public enum InputEvent: Sendable, Equatable {
    /// Button 1 pressed.
    case pointerDown(PointerSample)
    /// The pointer moved while button 1 or the middle button was held.
    case pointerMove(PointerSample)
    /// Button 1 released.
    case pointerUp(PointerSample)
    /// The pointer moved with no button held (what the brush outline and the panels follow).
    case hover(PointerSample)
    /// The pointer left the window.
    case leave
    /// Another button pressed or released (the wheel: pressed once per click).
    case button(PointerButton, isDown: Bool, PointerSample)
    case key(KeyPress)
    case keyRelease(KeyPress)
    /// Modifier state changed with no pointer motion (so simulated pressure can follow).
    case modifiers(Modifiers, time: Double)
    /// The drawable area is now this size.
    case resize(Size, time: Double)
    /// The window must be shown again (an Expose): re-present the last image.
    case expose
    /// The user asked to close the window (WM_DELETE_WINDOW).
    case close
    /// The answer to a request for the clipboard's image.
    case paste(ClipboardImage)
}
