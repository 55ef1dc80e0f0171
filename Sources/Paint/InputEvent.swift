import Compute
import Geometry

/// Modifier keys held during a pointer sample or key press.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
}

/// One pointer position as the input layer saw it.
public struct PointerSample: Sendable, Equatable {
    /// Canvas pixels; any finite value (far outside the canvas is fine).
    public var x: Double
    public var y: Double
    /// 0…1, or nil when the device has none (a mouse): the session then simulates it from `mods`.
    public var pressure: Double?
    /// Seconds on the session's clock (the window: since it opened; a replay: its `t`).
    public var time: Double
    public var mods: Modifiers

    public init(x: Double, y: Double, pressure: Double? = nil, time: Double, mods: Modifiers = []) {
        self.x = x; self.y = y; self.pressure = pressure; self.time = time; self.mods = mods
    }
}

/// A key press, by its X keysym name ("bracketleft", "z", "Delete", "1") and modifiers.
/// The input layer does not know what keys mean: `KeyMap` turns these into commands.
public struct KeyPress: Sendable, Equatable {
    public var name: String
    public var mods: Modifiers
    public var time: Double
    public init(name: String, mods: Modifiers = [], time: Double) {
        self.name = name; self.mods = mods; self.time = time
    }
}

/// Everything the outside world tells the app core. The X11 layer translates X events into
/// these in one switch; `quicksilver render` makes them from replay lines.
public enum InputEvent: Sendable, Equatable {
    case pointerDown(PointerSample)
    case pointerMove(PointerSample)
    case pointerUp(PointerSample)
    case key(KeyPress)
    /// A document command (brush change, undo, …), from a key binding or a replay line.
    case command(Command, time: Double)
    /// Modifier state changed with no pointer motion (so simulated pressure can follow).
    case modifiers(Modifiers, time: Double)
    /// The drawable area is now this size.
    case resize(Size, time: Double)
    /// The window must be shown again (an Expose): re-present the last image.
    case expose
    /// The user asked to close the window (WM_DELETE_WINDOW).
    case close
}
