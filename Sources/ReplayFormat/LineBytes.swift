/// A line the writer is writing, as UTF-8 bytes: a few dozen small appends a line cost a
/// String's bookkeeping each, an array's only a copy (a journal continued from a long session
/// writes all its lines at once).
struct LineBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 128) { bytes.reserveCapacity(capacity) }

    @inline(__always) mutating func add(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always) mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always) mutating func add(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    /// `s` as a JSON string: quoted, the characters a string cannot hold escaped.
    mutating func addQuoted(_ s: String) {
        add("\"")
        // Printable ASCII but the quote and the backslash (every name, colour and number the
        // format has) is as it is.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            add(s)
        } else {
            add(JSON.escaped(s))
        }
        add("\"")
    }

    /// The line as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
