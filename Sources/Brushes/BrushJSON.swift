/// A small strict JSON reader for .myb files: RFC 8259's grammar (no trailing commas, no
/// comments, no duplicate keys), nesting bounded, every value carrying the line it starts on so
/// that an error can say where. libmypaint's own reader (json-c) is lenient and says nothing of
/// where; a brush is checked here before libmypaint sees it.
struct BrushJSON {
    /// A value and the line (from 1) it starts on.
    struct Node: Sendable {
        var value: Value
        var line: Int
    }

    indirect enum Value: Sendable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case null
        case array([Node])
        /// Members in file order.
        case object([(key: String, node: Node)])

        /// What it is, for messages ("a number", "an object", …).
        var kindName: String {
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

    /// Where and why the text is not JSON.
    struct SyntaxError: Error {
        var line: Int
        var message: String
    }

    static let maxDepth = 32

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    /// Parses a whole document: one value, nothing after it but white space.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Node {
        var p = BrushJSON(bytes: bytes)
        p.skipSpace()
        guard p.i < bytes.count else { throw SyntaxError(line: p.line, message: "empty file, not a brush") }
        let node = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("text after the brush's closing brace") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

    private var atEnd: Bool { i >= bytes.count }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
            default: return
            }
            i += 1
        }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> Node {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) deep") }
        skipSpace()
        guard !atEnd else { throw error("the file ends in the middle of the brush (truncated?)") }
        let start = line
        switch bytes[i] {
        case UInt8(ascii: "{"): return Node(value: try object(depth: depth), line: start)
        case UInt8(ascii: "["): return Node(value: try array(depth: depth), line: start)
        case UInt8(ascii: "\""): return Node(value: .string(try string()), line: start)
        case UInt8(ascii: "t"): try literal("true"); return Node(value: .bool(true), line: start)
        case UInt8(ascii: "f"): try literal("false"); return Node(value: .bool(false), line: start)
        case UInt8(ascii: "n"): try literal("null"); return Node(value: .null, line: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(value: .number(try number()), line: start)
        default: throw error("unexpected \(describe(bytes[i])), expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7e).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func expect(_ c: Character, _ what: String) throws(SyntaxError) {
        skipSpace()
        guard !atEnd else { throw error("the file ends in the middle of the brush (truncated?)") }
        guard bytes[i] == c.asciiValue else { throw error("unexpected \(describe(bytes[i])), expected \(what)") }
        i += 1
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        for c in word.utf8 {
            guard !atEnd, bytes[i] == c else { throw error("not JSON: expected \(word)") }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> Value {
        i += 1
        var members: [(key: String, node: Node)] = []
        var keys = Set<String>()
        skipSpace()
        if !atEnd, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([]) }
        while true {
            skipSpace()
            guard !atEnd else { throw error("the file ends in the middle of the brush (truncated?)") }
            guard bytes[i] == UInt8(ascii: "\"") else {
                throw error(bytes[i] == UInt8(ascii: "}") ? "a comma before '}'" : "unexpected \(describe(bytes[i])), expected a key")
            }
            let keyLine = line
            let key = try string()
            guard keys.insert(key).inserted else { throw SyntaxError(line: keyLine, message: "\"\(key)\" appears twice") }
            try expect(":", "':'")
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard !atEnd else { throw error("the file ends in the middle of the brush (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("unexpected \(describe(bytes[i])), expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> Value {
        i += 1
        var items: [Node] = []
        skipSpace()
        if !atEnd, bytes[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
        while true {
            skipSpace()
            if !atEnd, bytes[i] == UInt8(ascii: "]") { throw error("a comma before ']'") }
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard !atEnd else { throw error("the file ends in the middle of the brush (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("unexpected \(describe(bytes[i])), expected ',' or ']'")
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard !atEnd else { throw error("the file ends inside a string (truncated?)") }
            let c = bytes[i]
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard !atEnd else { throw error("the file ends inside a string (truncated?)") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    var code: UInt32 = 0
                    for _ in 0..<4 {
                        guard !atEnd, let d = hexDigit(bytes[i]) else { throw error("a bad \\u escape in a string") }
                        code = code << 4 | d
                        i += 1
                    }
                    // Surrogates (never in a brush's names) become U+FFFD.
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
                default: throw error("a bad escape in a string")
                }
            case 0..<0x20:
                throw error(c == UInt8(ascii: "\n") ? "a line break inside a string" : "a control character inside a string")
            default:
                out.append(c)
            }
        }
    }

    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws(SyntaxError) -> Double {
        let start = i
        func digits(_ p: inout BrushJSON) -> Int {
            var n = 0
            while !p.atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1; n += 1 }
            return n
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard !atEnd else { throw error("the file ends inside a number (truncated?)") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits(&self) == 0 {
            throw error("a malformed number")
        }
        if !atEnd, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("a malformed number") }
        }
        if !atEnd, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if !atEnd, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("a malformed number") }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw error("a malformed number") }
        return v
    }
}
