/// A key press (or release), by its X keysym name ("bracketleft", "z", "Delete", "1"), the
/// modifiers held and where the pointer was (window pixels: zoom keys zoom around it). The input
/// layer does not know what keys mean: the app's `KeyMap` turns these into commands.
public struct KeyPress: Sendable, Equatable {
    public var name: String
    public var mods: Modifiers
    public var time: Double
    public var x: Double
    public var y: Double
    /// What the key types with these modifiers ("#" for Shift+3 on a US keyboard), or "".
    public var text: String
    public init(name: String, mods: Modifiers = [], time: Double, x: Double = 0, y: Double = 0, text: String = "") {
        self.name = name; self.mods = mods; self.time = time; self.x = x; self.y = y; self.text = text
    }
}
