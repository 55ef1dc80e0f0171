/// A key press, by its X keysym name ("bracketleft", "z", "Delete", "1") and modifiers.
/// The input layer does not know what keys mean: the app's `KeyMap` turns these into commands.
public struct KeyPress: Sendable, Equatable {
    public var name: String
    public var mods: Modifiers
    public var time: Double
    public init(name: String, mods: Modifiers = [], time: Double) {
        self.name = name; self.mods = mods; self.time = time
    }
}
