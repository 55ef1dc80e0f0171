/// How the writer writes fields: `"name": value`, `, ` between, in the table's order, each
/// value as it is (`problem(with:)` is what checks them).
extension Field {
    /// Appends the fields of `record` that are written (a value that is its field's default is
    /// left out, unless always written) to `out`, each after `, ` (but the first, unless
    /// `leading`).
    static func write(_ fields: [Field], of record: Record, to out: inout LineBytes, leading: Bool) {
        var first = !leading
        for field in fields {
            guard let value = record[field.name] else { continue }
            if case .defaulted(let d, let always) = field.presence, !always, value == d { continue }
            if !first { out.add(", ") }
            out.add(field.key)
            field.kind.write(value, to: &out)
            first = false
        }
    }
}

extension Field.Kind {
    /// Appends `value` as JSON.
    func write(_ value: Field.Value, to out: inout LineBytes) {
        switch value {
        case .number(let v): out.add(Replay.number(v))
        case .integer(let i): out.add(String(i))
        case .bool(let b): out.add(b ? "true" : "false")
        case .string(let s): out.addQuoted(s)
        case .color(let c): out.addQuoted(c.description)
        case .flags(let present):
            out.add("[")
            for (i, word) in present.enumerated() {
                if i > 0 { out.add(", ") }
                out.addQuoted(word)
            }
            out.add("]")
        case .json(let text): out.add(text)
        case .record(let record):
            out.add("{")
            if case .object(let fields) = self { Field.write(fields, of: record, to: &out, leading: false) }
            out.add("}")
        case .array(let items):
            let element = if case .array(let element, _, _, _) = self { element } else { self }
            out.add("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.add(", ") }
                element.write(item, to: &out)
            }
            out.add("]")
        }
    }
}
