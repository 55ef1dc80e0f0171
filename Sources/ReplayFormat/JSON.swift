/// A small strict JSON parser for one line of a replay file.
///
/// Strict RFC 8259 grammar, nesting bounded, and errors that say what was wrong and where, so
/// `quicksilver render` can print `FILE:LINE: …`. It parses straight from bytes, which keeps a
/// 300,000-line journal well under a second.
public enum JSON {
    /// Not `indirect`: arrays and objects already live on the heap, and boxing every number
    /// would cost an allocation per field of every line.
    public enum Value: Equatable, Sendable {
        /// A number; `integer` is set when the literal was an integer that fits in Int64.
        case number(Double, integer: Int64?)
        case string(String)
        case bool(Bool)
        case null
        case array([Value])
        /// Members in file order (duplicates are rejected while parsing).
        case object([(key: String, value: Value)])

        public static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case let (.number(x, i), .number(y, j)): x == y && i == j
            case let (.string(x), .string(y)): x == y
            case let (.bool(x), .bool(y)): x == y
            case (.null, .null): true
            case let (.array(x), .array(y)): x == y
            case let (.object(x), .object(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
            default: false
            }
        }

        /// What a value is, for error messages ("a number", "a string", …).
        public var kindName: String {
            switch self {
            case .number: "a number"
            case .string: "a string"
            case .bool: "a boolean"
            case .null: "null"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// `text` with the characters JSON strings cannot hold escaped (for writing).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f || (0x80...0x9f).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A string from the input as an error message may show it: quoted, escaped (one line,
    /// whatever it holds) and cut to 40 characters.
    public static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + escaped(short) + "\""
    }

    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
    }

    /// Deepest nesting accepted; deeper input is rejected, never recursed into.
    public static let maxDepth = 16

    /// Parses exactly one JSON value filling `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) -> Value {
        var p = Parser(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < bytes.count { throw p.fail("unexpected \(p.describe(p.i)) after the value") }
        return v
    }

    public static func parse(_ text: String) throws(ParseError) -> Value {
        var copy = Array(text.utf8)
        return try copy.withUnsafeMutableBufferPointer { (b) throws(ParseError) -> Value in try parse(UnsafeBufferPointer(b)) }
    }
}

private let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ message: String) -> JSON.ParseError { JSON.ParseError(message: "\(message) (column \(i + 1))") }

    func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of line" }
        let c = bytes[at]
        return c >= 0x20 && c < 0x7f ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0d || bytes[i] == 0x0a { i += 1 }
    }

    mutating func value(depth: Int) throws(JSON.ParseError) -> JSON.Value {
        guard i < bytes.count else { throw fail("expected a value, found end of line") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("expected a value, found \(describe(i))")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSON.ParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count, (0..<n).allSatisfy({ bytes[i + $0] == word.utf8Start[$0] }) else {
            throw fail("expected a value, found \(describe(i))")
        }
        i += n
    }

    mutating func object(depth: Int) throws(JSON.ParseError) -> JSON.Value {
        if depth > JSON.maxDepth { throw fail("nested deeper than \(JSON.maxDepth) levels") }
        i += 1
        var members: [(key: String, value: JSON.Value)] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a field name in quotes, found \(describe(i))") }
            let key = try string()
            if members.contains(where: { $0.key == key }) { throw fail("field \(JSON.quoted(key)) appears twice") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after \(JSON.quoted(key)), found \(describe(i))") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            guard i < bytes.count else { throw fail("unterminated object: expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw fail("expected ',' or '}' in object, found \(describe(i))")
        }
    }

    mutating func array(depth: Int) throws(JSON.ParseError) -> JSON.Value {
        if depth > JSON.maxDepth { throw fail("nested deeper than \(JSON.maxDepth) levels") }
        i += 1
        var items: [JSON.Value] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            guard i < bytes.count else { throw fail("unterminated array: expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw fail("expected ',' or ']' in array, found \(describe(i))")
        }
    }

    mutating func string() throws(JSON.ParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            i += 1
            return try utf8(start..<(i - 1))
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: try utf8(start..<i).unicodeScalars)
        while true {
            guard i < bytes.count else { throw fail("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(scalars) }
            if c < 0x20 { throw fail("control character in string") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { throw fail("unterminated string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("lone surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(code) else { throw fail("lone surrogate in \\u escape") }
                    scalars.append(s)
                default: throw fail("bad escape '\\\(Character(Unicode.Scalar(e)))'")
                }
                continue
            }
            let runStart = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
            scalars.append(contentsOf: try utf8(runStart..<i).unicodeScalars)
        }
    }

    func utf8(_ range: Range<Int>) throws(JSON.ParseError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // Replay strings are short ASCII ("move", "#ff0000"): no validation needed for those.
        var ascii = true
        for b in slice where b >= 0x80 { ascii = false; break }
        if ascii { return String(unsafeUninitializedCapacity: slice.count) { _ = $0.initialize(from: slice); return slice.count } }
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw JSON.ParseError(message: "invalid UTF-8 in string (column \(range.lowerBound + 1))")
        }
        return s
    }

    mutating func hex4() throws(JSON.ParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("bad \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// The value of a plain decimal like "-123.456" with at most 15 digits and no exponent:
    /// digits and the power of ten are both exact doubles, so one division rounds correctly,
    /// exactly as strtod would (Clinger's fast path). Nil for anything else.
    static func shortDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0, digits = 0, fraction = 0, seenDot = false
        let negative = text[0] == UInt8(ascii: "-")
        for c in text.dropFirst(negative ? 1 : 0) {
            if c == UInt8(ascii: ".") { seenDot = true; continue }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            mantissa = mantissa &* 10 &+ Int64(c - UInt8(ascii: "0"))
            digits += 1
            if seenDot { fraction += 1 }
        }
        guard digits <= 15 else { return nil }
        let v = Double(mantissa) / powersOfTen[fraction]
        return negative ? -v : v
    }

    mutating func number() throws(JSON.ParseError) -> JSON.Value {
        let start = i
        func digit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { throw fail("bad number: expected a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw fail("bad number: leading zero") }
        } else {
            while digit(i) { i += 1 }
        }
        var integral = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard digit(i) else { throw fail("bad number: expected a digit after '.'") }
            while digit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integral = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { throw fail("bad number: expected a digit in the exponent") }
            while digit(i) { i += 1 }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
        if integral, text.count <= 18 {
            var v: Int64 = 0
            let negative = text[0] == UInt8(ascii: "-")
            for c in text.dropFirst(negative ? 1 : 0) { v = v &* 10 &+ Int64(c - UInt8(ascii: "0")) }
            if negative { v = -v }
            return .number(Double(v), integer: v)
        }
        if let d = Self.shortDecimal(text) { return .number(d, integer: nil) }
        let s = String(decoding: text, as: UTF8.self)
        guard let d = Double(s) else { throw fail("bad number") }
        return .number(d, integer: integral ? Int64(s) : nil)
    }
}
