/// A key press (or release): which key, the modifiers held before it, when, where the pointer
/// was (window pixels: zoom keys zoom around it) and the text it types. The input layer does
/// not know what keys mean: the app's `KeyMap` does.
public struct KeyPress: Sendable, Equatable {
    public var key: Key
    public var mods: Modifiers
    public var time: Double
    public var x: Double
    public var y: Double
    /// What the key types with these modifiers ("#" for Shift+3 on a US keyboard), or "".
    public var text: String
    public init(_ key: Key, mods: Modifiers = [], time: Double, x: Double = 0, y: Double = 0, text: String = "") {
        self.key = key; self.mods = mods; self.time = time; self.x = x; self.y = y; self.text = text
    }
}
