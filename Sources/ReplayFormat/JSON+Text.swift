/// JSON values written back as text, one way only: what a field of any JSON object holds
/// (`Field.Kind.anyObject`, a MyPaint brush's settings) is kept as this text, so that the same
/// object always reads back and writes as the same bytes.
extension JSON {
    /// `value` as one line of JSON: `{"a": 1, "b": [2.5, "c"]}`, members in their order, `, `
    /// and `: ` between them as the writer writes lines, integers as integers, other numbers as
    /// the shortest text that reads back as the same Double.
    public static func text(_ value: Value) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// `text` (one JSON object) in the form `text(_:)` writes; nil when it is not one.
    public static func canonicalObject(_ text: String) -> String? {
        guard let value = try? parse(text), case .object = value else { return nil }
        return Self.text(value)
    }

    private static func write(_ value: Value, to out: inout String) {
        switch value {
        case .number(let d, let integer): out += integer.map { String($0) } ?? Replay.number(d)
        case .string(let s): out += "\"" + escaped(s) + "\""
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += ", " }
                out += "\"" + escaped(m.key) + "\": "
                write(m.value, to: &out)
            }
            out += "}"
        }
    }
}
