import Input
import Kernels

/// Typing a colour: `#`, then six hex digits (or eight, with alpha), then Return. Escape
/// cancels; a key that is not a hex digit is refused without leaving the entry; BackSpace takes
/// the last digit back. Pure: the app feeds it key presses and shows `prompt` in the title.
public struct ColorEntry: Sendable, Equatable {
    /// The digits typed so far; nil when no colour is being typed.
    public private(set) var digits: String?
    /// The last key refused, for the title.
    public private(set) var refused: String?

    public init() {}

    public var isTyping: Bool { digits != nil }

    /// What a key did.
    public enum Outcome: Equatable, Sendable {
        /// Not the entry's: the key does what it always does.
        case passed
        /// Taken by the entry (a digit, a refusal, the `#` that starts it).
        case typed
        /// Return with six or eight digits: this colour.
        case accepted(Color)
        case cancelled
    }

    public mutating func key(_ key: KeyPress) -> Outcome {
        guard let typed = digits else {
            guard key.text == "#" && !key.mods.contains(.control) else { return .passed }
            digits = ""
            refused = nil
            return .typed
        }
        if key.mods.contains(.control) { return .passed }   // Ctrl+Q still quits
        refused = nil
        switch key.key {
        case .escape:
            digits = nil
            return .cancelled
        case .enter:
            guard typed.count == 6 || typed.count == 8, let color = Color(hex: "#" + typed) else {
                refused = "needs 6 or 8 digits"
                return .typed
            }
            digits = nil
            return .accepted(color)
        case .backspace:
            digits = String(typed.dropLast())
            return .typed
        default:
            // Shift and the like type nothing: no refusal for them.
            guard !key.text.isEmpty else { return .typed }
            if typed.count < 8, key.text.count == 1, key.text.unicodeScalars.allSatisfy({ Self.hex.contains($0) }) {
                digits = typed + key.text.lowercased()
            } else {
                refused = key.text
            }
            return .typed
        }
    }

    /// What the title shows while typing.
    public var prompt: String? {
        guard let digits else { return nil }
        let hint = refused.map { $0.count == 1 ? "'\($0)' is not a hex digit" : $0 } ?? "Return sets it, Escape cancels"
        return "colour #\(digits)_ (\(hint))"
    }

    private static let hex = Set("0123456789abcdefABCDEF".unicodeScalars)
}
