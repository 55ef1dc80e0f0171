import Events
import Geometry
import Input
import Kernels
import Strokes
import UI

/// What the router decided an input event means, for `PaintApp` to carry out in order.
public enum RouterAction: Equatable, Sendable {
    /// Queue this for the session; `at`: the input's window time (the predictor follows samples).
    case session(SessionEvent, at: Double)
    /// A gesture of button 1 on a widget, at a window point.
    case widget(WidgetID, Gesture, x: Double, y: Double)
    /// Open the widget at a window point, or close it.
    case toggleWidget(WidgetID, x: Double, y: Double)
    case closeWidget(WidgetID)
    /// Close the open pop-up (Escape), if one is open.
    case closePopUp
    /// Hide every widget, or show them again.
    case toggleTools
    /// The brush outline at a window point, at this pressure (where the canvas is under it).
    case outline(x: Double, y: Double, pressure: Double)
    /// A stroke starts in this colour (the palette's recent colours).
    case strokeStarted(Color)
    /// What the status shows changed (a prompt).
    case statusChanged
    /// The status says this (why a press did nothing).
    case say(String)
    /// The crosshair pointer shown (the colour picker is armed) or the usual one.
    case crosshair(Bool)
    case app(AppRequest)
    case windowResized(Size)
    /// Show the last image again.
    case expose
    /// A `window --play`: jump to its end.
    case jumpToEnd

    /// No outline.
    case hideOutline

    /// A command or view change queued for the session (what the outline depends on).
    var changesTheBrushOrView: Bool {
        if case .session(.command, _) = self { return true }
        if case .session(.view, _) = self { return true }
        return false
    }

    public enum Gesture: Equatable, Sendable {
        case press, drag, release
        /// Wheel clicks (> 0: up) over a widget that scrolls.
        case wheel(Int)
        /// A page key, to a widget with pages that is open.
        case page(PageTurn)
    }
}

/// What the app is asked to do besides playing events.
public enum AppRequest: Equatable, Sendable {
    case screenshot, copy, quit
    /// Save the document to this file (absolute): OpenRaster, or a flattened PNG.
    case save(to: String)
    /// Open this file (absolute) in place of the document.
    case open(String)
    /// Ask the desktop's file chooser for a name to save under (`.save`, `.saveAs`) or a file to
    /// open; its answer comes back as one of the above.
    case choose(NameEntry.Purpose)
    /// Paste the clipboard's image centred at this canvas point (the request goes out now).
    case paste(x: Double, y: Double)
    /// The clipboard's answer to a paste.
    case pasted(ClipboardImage)
}
