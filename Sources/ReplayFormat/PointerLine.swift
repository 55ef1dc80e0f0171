import Input

/// The fast path of `ReplayParser`: one `down`, `move` or `up` line, the shape the window writes
/// ~80 times a second, read straight from its bytes with no JSON tree, no strings and no
/// allocation: keys and the type compared as bytes, numbers parsed in place.
///
/// It accepts only lines it can read completely and correctly: an object of the fields `t`,
/// `type`, `x`, `y` and optionally `pressure`, `mods`, `xtilt` and `ytilt`, in any order, each at most once, with
/// strict JSON grammar. That is what `ReplayTable` says a pointer line is: the fields are
/// declared in `PointerLine+Table.swift` and checked against the table, and the ranges and the
/// default pressure the parser checks a line it read against (`ReplayParser.take`) are the
/// table's own. Anything else (an escape in a string, an unknown or repeated field, a
/// value of the wrong kind, bad grammar, trailing bytes) gives nil, and the caller hands the line
/// to the general parser, which accepts it or says what is wrong with it: the fast path never
/// decides an error, so every message stays the general parser's.
///
/// Numbers are the same Doubles, bit for bit, as the general parser's (`JSON`): an integer of up
/// to 18 characters is converted from its exact Int64 (so `-0` is +0.0, as there); a decimal of
/// at most 15 digits and no exponent is its digits divided by an exact power of ten (Clinger's
/// fast path, correctly rounded); anything longer goes through the same correctly rounded
/// conversion from text.
struct PointerLine {
    enum Kind { case down, move, up }

    var kind: Kind
    var t: Double
    var x: Double
    var y: Double
    /// Nil when the line has none.
    var pressure: Double?
    var mods: Modifiers
    /// 0 when the line has none.
    var xtilt = 0.0, ytilt = 0.0

    /// The line in `bytes` (without its newline), or nil when the fast path does not take it.
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> PointerLine? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var s = Scanner(at: base, end: base + bytes.count)
        if let line = s.written() { return line }
        s.p = base
        return s.line()
    }
}

/// Which fields a line held, one bit each.
private struct Seen: OptionSet {
    let rawValue: UInt8
    static let t = Seen(rawValue: 1), type = Seen(rawValue: 2), x = Seen(rawValue: 4), y = Seen(rawValue: 8)
    static let pressure = Seen(rawValue: 16), mods = Seen(rawValue: 32), xtilt = Seen(rawValue: 64), ytilt = Seen(rawValue: 128)
    static let required: Seen = [.t, .type, .x, .y]
}

private let quote = UInt8(ascii: "\""), zero = UInt8(ascii: "0")

/// The words the fast path compares, as little-endian UInt64s of their bytes (at most 8).
private enum Word {
    static let t: (UInt64, Int) = (0x2274, 2)                  // t"
    static let type: (UInt64, Int) = (0x22_6570_7974, 5)      // type"
    static let x: (UInt64, Int) = (0x2278, 2)                  // x"
    static let y: (UInt64, Int) = (0x2279, 2)                  // y"
    static let ressure: (UInt64, Int) = (0x2265_7275_7373_6572, 8)   // ressure" (after the p)
    static let mods: (UInt64, Int) = (0x22_7364_6f6d, 5)      // mods"
    static let xtilt: (UInt64, Int) = (0x2274_6c69_7478, 6)   // xtilt"
    static let ytilt: (UInt64, Int) = (0x2274_6c69_7479, 6)   // ytilt"
    static let move: (UInt64, Int) = (0x2265_766f_6d22, 6)    // "move"
    static let down: (UInt64, Int) = (0x226e_776f_6422, 6)    // "down"
    static let up: (UInt64, Int) = (0x2270_7522, 4)           // "up"
    static let shift: (UInt64, Int) = (0x22_7466_6968_7322, 7) // "shift"
    static let control: (UInt64, Int) = (0x226c_6f72_746e_6f63, 8)   // control" (after the quote)

    // The line as `Replay.line(for:)` writes it, piece by piece.
    static let openT: (UInt64, Int) = (0x20_3a22_7422_7b, 6)           // {"t":␠
    static let commaType: (UInt64, Int) = (0x2265_7079_7422_202c, 8)   // , "type"
    static let colon: (UInt64, Int) = (0x203a, 2)                      // :␠
    static let commaX: (UInt64, Int) = (0x20_3a22_7822_202c, 7)        // , "x":␠
    static let commaY: (UInt64, Int) = (0x20_3a22_7922_202c, 7)        // , "y":␠
    static let commaPress: (UInt64, Int) = (0x7373_6572_7022_202c, 8)  // , "press
    static let ureColon: (UInt64, Int) = (0x20_3a22_6572_75, 6)        // ure":␠
    static let commaMods: (UInt64, Int) = (0x2273_646f_6d22_202c, 8)   // , "mods"
}

private struct Scanner {
    var p: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    init(at p: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) { self.p = p; self.end = end }

    /// The byte at `p`, or 0 at the end (0 is never valid where a byte is looked at).
    @inline(__always) var byte: UInt8 { p < end ? p.pointee : 0 }

    /// Skips JSON whitespace (space, tab, CR, LF).
    @inline(__always) mutating func space() {
        while p < end, p.pointee <= 0x20, p.pointee == 0x20 || p.pointee == 0x09 || p.pointee == 0x0d || p.pointee == 0x0a { p += 1 }
    }

    @inline(__always) mutating func eat(_ c: UInt8) -> Bool {
        guard p < end, p.pointee == c else { return false }
        p += 1
        return true
    }

    /// True when the next bytes are `word` (its bytes as a little-endian UInt64, and how many),
    /// and steps over them.
    @inline(__always) mutating func eat(_ word: (UInt64, Int)) -> Bool {
        let (bits, n) = word
        let left = end - p
        guard left >= n else { return false }
        var got: UInt64
        if left >= 8 {
            got = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
            if n < 8 { got &= (1 << UInt64(n * 8)) &- 1 }
        } else {
            got = 0
            for k in 0..<n { got |= UInt64(p[k]) << UInt64(k * 8) }
        }
        guard got == bits else { return false }
        p += n
        return true
    }

    /// The line exactly as the window writes it (`{"t": T, "type": "move", "x": X, "y": Y,
    /// "pressure": P}`, perhaps with `"mods"` last): the separators compared a word at a time.
    /// Nil at the first byte that differs; `line()` then reads it whatever its layout.
    mutating func written() -> PointerLine? {
        guard eat(Word.openT), let t = number(), eat(Word.commaType), eat(Word.colon), let kind = kind(),
              eat(Word.commaX), let x = number(), eat(Word.commaY), let y = number(),
              eat(Word.commaPress), eat(Word.ureColon), let pressure = number() else { return nil }
        var mods: Modifiers = []
        if eat(Word.commaMods) {
            guard eat(Word.colon), let m = self.mods() else { return nil }
            mods = m
        }
        guard eat(UInt8(ascii: "}")), p == end else { return nil }
        return PointerLine(kind: kind, t: t, x: x, y: y, pressure: pressure, mods: mods)
    }

    /// A line of these fields in any order and any JSON whitespace.
    mutating func line() -> PointerLine? {
        space()
        guard eat(UInt8(ascii: "{")) else { return nil }
        var seen: Seen = []
        var line = PointerLine(kind: .move, t: 0, x: 0, y: 0, pressure: nil, mods: [])
        repeat {
            space()
            guard eat(quote) else { return nil }
            // The key, its closing quote and the colon after it. A key with an escape is not one
            // of these (the general parser reads it).
            let field: Seen
            switch byte {
            case UInt8(ascii: "t"):
                if eat(Word.t) { field = .t } else if eat(Word.type) { field = .type } else { return nil }
            case UInt8(ascii: "x"): if eat(Word.x) { field = .x } else if eat(Word.xtilt) { field = .xtilt } else { return nil }
            case UInt8(ascii: "y"): if eat(Word.y) { field = .y } else if eat(Word.ytilt) { field = .ytilt } else { return nil }
            case UInt8(ascii: "p"): p += 1; guard eat(Word.ressure) else { return nil }; field = .pressure
            case UInt8(ascii: "m"): guard eat(Word.mods) else { return nil }; field = .mods
            default: return nil
            }
            guard !seen.contains(field) else { return nil }
            seen.insert(field)
            space()
            guard eat(UInt8(ascii: ":")) else { return nil }
            space()
            switch field {
            case .t: guard let v = number() else { return nil }; line.t = v
            case .x: guard let v = number() else { return nil }; line.x = v
            case .y: guard let v = number() else { return nil }; line.y = v
            case .pressure: guard let v = number() else { return nil }; line.pressure = v
            case .xtilt: guard let v = number() else { return nil }; line.xtilt = v
            case .ytilt: guard let v = number() else { return nil }; line.ytilt = v
            case .type: guard let k = kind() else { return nil }; line.kind = k
            default: guard let m = mods() else { return nil }; line.mods = m
            }
            space()
        } while eat(UInt8(ascii: ","))
        guard eat(UInt8(ascii: "}")) else { return nil }
        space()
        guard p == end, seen.isSuperset(of: .required) else { return nil }
        return line
    }

    /// `"down"`, `"move"` or `"up"`.
    @inline(__always) mutating func kind() -> PointerLine.Kind? {
        if eat(Word.move) { return .move }
        if eat(Word.down) { return .down }
        if eat(Word.up) { return .up }
        return nil
    }

    /// An array of `"shift"` and `"control"` (repeats allowed, as the general parser allows them).
    mutating func mods() -> Modifiers? {
        guard eat(UInt8(ascii: "[")) else { return nil }
        var mods: Modifiers = []
        space()
        if eat(UInt8(ascii: "]")) { return mods }
        repeat {
            space()
            if eat(Word.shift) {
                mods.insert(.shift)
            } else if eat(quote), eat(Word.control) {
                mods.insert(.control)
            } else {
                return nil
            }
            space()
        } while eat(UInt8(ascii: ","))
        return eat(UInt8(ascii: "]")) ? mods : nil
    }

    @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- zero < 10 }

    /// A number in strict JSON grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), as the
    /// general parser converts it; nil for anything else.
    @inline(__always) mutating func number() -> Double? {
        let start = p
        let negative = eat(UInt8(ascii: "-"))
        var mantissa: UInt64 = 0
        let first = byte
        guard isDigit(first) else { return nil }
        if first == zero {
            p += 1
            if isDigit(byte) { return nil }   // a leading zero
        } else {
            mantissa = appendDigits(mantissa)
        }
        var digits = p - start - (negative ? 1 : 0)
        var fraction = 0, integral = true, exponent = false
        if eat(UInt8(ascii: ".")) {
            integral = false
            guard isDigit(byte) else { return nil }
            let fractionStart = p
            mantissa = appendDigits(mantissa)
            fraction = p - fractionStart
            digits += fraction
        }
        if byte | 0x20 == UInt8(ascii: "e") {
            integral = false
            exponent = true
            p += 1
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { p += 1 }
            guard isDigit(byte) else { return nil }
            while p < end, isDigit(p.pointee) { p += 1 }
        }
        if integral, p - start <= 18 {
            // At most 18 digits: exact in Int64; negated there, so "-0" is +0.0 as in `JSON`.
            let v = Int64(bitPattern: mantissa)
            return Double(negative ? -v : v)
        }
        if !exponent, digits <= 15 {
            let v = Double(mantissa) / Self.exactPowerOfTen(fraction)
            return negative ? -v : v
        }
        return Double(String(decoding: UnsafeBufferPointer(start: start, count: p - start), as: UTF8.self))
    }

    /// Steps over a run of digits, appending them to `mantissa` (which wraps past 19 digits: it
    /// is used only when there are at most 18).
    @inline(__always) mutating func appendDigits(_ mantissa: UInt64) -> UInt64 {
        var m = mantissa
        while p < end {
            let d = p.pointee &- zero
            guard d < 10 else { break }
            m = m &* 10 &+ UInt64(d)
            p += 1
        }
        return m
    }

    /// 10^n for n in 0...15, each exact.
    @inline(__always) static func exactPowerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }
}
