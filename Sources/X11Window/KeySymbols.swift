import CX11
import Input

/// Keysyms (X11/keysymdef.h) as the app's typed `Key`: the one place that knows their values.
/// Pure arithmetic on the keysym, no request and no string from Xlib.
package enum KeySymbols {
    /// The key a keysym stands for (the unshifted one of a key event: `XLookupKeysym`, index 0).
    package static func key(_ keysym: KeySym) -> Key {
        let k = UInt32(truncatingIfNeeded: keysym)
        switch k {
        // Latin-1 keysyms are their code points.
        case 0x20...0x7E, 0xA0...0xFF: return scalar(k).map { .char(Character($0)) } ?? .other(k)
        // Unicode keysyms: 0x01000000 + the code point.
        case 0x0100_0100...0x0110_FFFF: return scalar(k - 0x0100_0000).map { .char(Character($0)) } ?? .other(k)
        default: break
        }
        if let named = named[k] { return named }
        if let c = keypad[k] { return .keypad(c) }
        if (0xFFBE...0xFFE0).contains(k) { return .function(Int(k - 0xFFBE) + 1) }
        return .other(k)
    }

    private static func scalar(_ v: UInt32) -> Unicode.Scalar? { Unicode.Scalar(v) }

    private static let named: [UInt32: Key] = [
        0xFF1B: .escape, 0xFF0D: .enter, 0xFF8D: .enter /* KP_Enter */, 0xFF08: .backspace,
        0xFF09: .tab, 0xFE20: .tab /* ISO_Left_Tab: Shift+Tab */, 0xFFFF: .delete, 0xFF63: .insert,
        0xFF55: .pageUp, 0xFF56: .pageDown, 0xFF50: .home, 0xFF57: .end,
        0xFF51: .left, 0xFF52: .up, 0xFF53: .right, 0xFF54: .down, 0xFF61: .print,
        0xFFE1: .shift, 0xFFE2: .shift, 0xFFE3: .control, 0xFFE4: .control,
    ]

    /// The keypad's keys by what they type with Num Lock on: its first keysym (the one
    /// `XLookupKeysym` gives) is the Num Lock off one for the digits (KP_Insert for 0).
    private static let keypad: [UInt32: Character] = [
        0xFFB0: "0", 0xFFB1: "1", 0xFFB2: "2", 0xFFB3: "3", 0xFFB4: "4",
        0xFFB5: "5", 0xFFB6: "6", 0xFFB7: "7", 0xFFB8: "8", 0xFFB9: "9",
        0xFF9E: "0", 0xFF9C: "1", 0xFF99: "2", 0xFF9B: "3", 0xFF96: "4",
        0xFF9D: "5", 0xFF98: "6", 0xFF95: "7", 0xFF97: "8", 0xFF9A: "9",
        0xFF9F: ".", 0xFFAE: ".", 0xFFAB: "+", 0xFFAD: "-", 0xFFAA: "*", 0xFFAF: "/", 0xFFBD: "=", 0xFF80: " ",
    ]
}
