import Kernels

/// The members of one JSON object of a line, read field by field as the table describes them:
/// each value converted from JSON and checked (`Field+Checking.swift`), a default filled in
/// for one left out, and what is left over reported as unknown.
struct FieldReader {
    private var members: [(key: String, value: JSON.Value)]
    let line: Int

    init(_ members: [(key: String, value: JSON.Value)], line: Int) { self.members = members; self.line = line }

    /// Takes the member `key` out (nil when there is none).
    mutating func take(_ key: String) -> JSON.Value? {
        guard let i = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: i).value
    }

    /// Reads `fields` in order into a record. `subject` names what needs a missing field,
    /// `noun` what an unknown field in a part is in, and `owner` follows each field's name in
    /// messages (" of the third light").
    /// (The words of messages are made only for a message.)
    mutating func read(_ fields: [Field], subject: @autoclosure () -> String, noun: @autoclosure () -> String,
                       owner: @autoclosure () -> String = "") throws(ReplayError) -> Record {
        var record = Record(capacity: fields.count)
        for field in fields {
            if let value = try read(field, subject: subject(), noun: noun(), owner: owner()) { record.append(field.name, value) }
        }
        return record
    }

    /// Reads one field: its value, its default when it is left out and has one, else nil.
    mutating func read(_ field: Field, subject: @autoclosure () -> String, noun: @autoclosure () -> String,
                       owner: @autoclosure () -> String = "") throws(ReplayError) -> Field.Value? {
        guard let json = take(field.name) else {
            switch field.presence {
            case .required(let missing): throw at(field.missing(missing, subject: subject(), label: "\"\(field.name)\"" + owner()))
            case .optional: return nil
            case .defaulted(let value, _): return value
            }
        }
        return try value(json, field.kind, label: "\"\(field.name)\"" + owner(), noun: noun())
    }

    /// Reports the first member no field took.
    func rejectUnknown(in noun: @autoclosure () -> String) throws(ReplayError) {
        if let first = members.first { throw at(Field.unknown(first.key, in: noun())) }
    }

    /// `error` on this line.
    func at(_ error: ReplayError) -> ReplayError {
        var e = error
        e.line = line
        return e
    }

    /// `json` as a value of `kind`, checked.
    private func value(_ json: JSON.Value, _ kind: Field.Kind, label: @autoclosure () -> String,
                       noun: @autoclosure () -> String) throws(ReplayError) -> Field.Value {
        func wrongType(_ got: String) -> ReplayError { at(refusal(.wrongType, "\(label()) must be \(kind.expected), got \(got)")) }
        let value: Field.Value
        switch kind {
        case .number:
            guard case .number(let d, _) = json else { throw wrongType(json.kindName) }
            value = .number(d)
        case .integer, .version:
            guard case .number(let d, let i) = json else { throw wrongType(json.kindName) }
            guard let i, let n = Int(exactly: i) else { throw wrongType("\(d)") }
            value = .integer(n)
        case .bool:
            guard case .bool(let b) = json else { throw wrongType(json.kindName) }
            value = .bool(b)
        case .string, .choice:
            guard case .string(let s) = json else { throw wrongType(json.kindName) }
            value = .string(s)
        case .color(let alpha):
            guard case .string(let s) = json else { throw wrongType(json.kindName) }
            guard let c = Color(hex: s), alpha || s.utf8.count == 7 else {
                throw at(refusal(.malformedValue, "\(label()) must be \(Field.Kind.colorForm(alpha: alpha)), got \(JSON.quoted(s))"))
            }
            value = .color(c)
        case .flags(let words):
            guard case .array(let items) = json else { throw wrongType(json.kindName) }
            var present: [String] = []
            for item in items {
                guard case .string(let s) = item, words.contains(s) else {
                    throw at(refusal(.unknownValue, "\(label()) may hold only \(Field.Kind.and(words))"))
                }
                present.append(s)
            }
            value = .flags(words.filter(present.contains))
        case .object(let fields):
            guard case .object(let members) = json else { throw wrongType(json.kindName) }
            var part = FieldReader(members, line: line)
            let record = try part.read(fields, subject: label(), noun: "\(label()) of \(noun())", owner: " of \(label())")
            try part.rejectUnknown(in: "\(label()) of \(noun())")
            return .record(record)   // every part checked as it was read
        case .anyObject:
            guard case .object = json else { throw wrongType(json.kindName) }
            return .json(JSON.text(json))
        case .array(let element, _, let itemNoun, _):
            guard case .array(let items) = json else { throw wrongType(json.kindName) }
            if let problem = kind.countProblem(items.count, label: label()) { throw at(problem) }
            var values: [Field.Value] = []
            values.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { values.append(try self.value(item, element, label: Field.item(i, itemNoun), noun: noun())) }
            return .array(values)   // every item checked as it was read
        }
        if let problem = kind.problem(with: value, label: label(), noun: noun()) { throw at(problem) }
        return value
    }
}
