/// What is wrong with a value, in the parser's words: the checks and messages the parser
/// (`FieldReader`) and the writer (`Replay.problem(with:)`) share, so that whatever one refuses
/// the other refuses with the same words.
extension Field {
    /// What is wrong with `record` as the fields `fields` of what `subject` names (for a
    /// missing field) and `noun` names (for an unknown one); `owner` follows each field's
    /// name in messages (" of the third light"). Nil when nothing is. The error's line is 0.
    static func problem(with record: Record, _ fields: [Field], subject: String, noun: String, owner: String = "",
                        needsOneOf: Bool = false) -> ReplayError? {
        for field in fields {
            let label = "\"\(field.name)\"" + owner
            guard let value = record[field.name] else {
                if case .required(let missing) = field.presence { return field.missing(missing, subject: subject, label: label) }
                continue
            }
            if let problem = field.kind.problem(with: value, label: label, noun: noun) { return problem }
        }
        for entry in record.entries where !fields.contains(where: { $0.name == entry.name }) {
            return unknown(entry.name, in: noun)
        }
        if needsOneOf, let problem = Self.needsOneOf(fields, of: record, subject: subject) { return problem }
        return nil
    }

    /// The message for a line without this required field.
    func missing(_ missing: Missing, subject: String, label: String) -> ReplayError {
        switch missing {
        case .needs(let hint): refusal(.missingField, "\(subject) needs \"\(name)\"\(hint)")
        case .missing: refusal(.missingField, "missing \(label)")
        // Only the header's version has a message of its own: a line without it is no header.
        case .message(let message): refusal(isVersion ? .noHeader : .missingField, message)
        }
    }

    private var isVersion: Bool { if case .version = kind { true } else { false } }

    /// The error for a field `fields` do not have.
    static func unknown(_ key: String, in noun: String) -> ReplayError {
        refusal(.unknownField, "unknown field \(JSON.quoted(key)) in \(noun)")
    }

    /// The error for a record holding none of `fields`' optional ones; nil when it holds one.
    static func needsOneOf(_ fields: [Field], of record: Record, subject: String) -> ReplayError? {
        let optional = fields.filter(\.isOptional)
        guard !optional.contains(where: { record[$0.name] != nil }) else { return nil }
        return refusal(.missingField, "\(subject) needs at least one of \(optional.map { "\"\($0.name)\"" }.joined(separator: ", "))")
    }

    /// How a message lists `values`: `one of "a", "b", "c"`, or `"a", "b" or "c"`.
    public static func listed(_ values: [String], _ style: ListStyle) -> String {
        let quoted = values.map { "\"\($0)\"" }
        switch style {
        case .oneOf: return "one of " + quoted.joined(separator: ", ")
        case .or: return quoted.count < 2 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        }
    }

    /// How a message names the `index`th (from 0) item of an array: "the third light".
    static func item(_ index: Int, _ noun: String) -> String {
        let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        return index < ordinals.count ? "the \(ordinals[index]) \(noun)" : "\(noun) \(index + 1)"
    }
}

/// An error of `kind` saying `message`, on no line yet.
func refusal(_ kind: ReplayError.Kind, _ message: String) -> ReplayError { ReplayError(line: 0, message: message, kind: kind) }

extension Field.Kind {
    /// What is wrong with `value` as a value of this kind, named `label` in messages (and its
    /// parts' unknown fields as in `noun`); nil when nothing is.
    func problem(with value: Field.Value, label: @autoclosure () -> String, noun: @autoclosure () -> String) -> ReplayError? {
        switch (self, value) {
        case (.number(let range, let shown), .number(let v)):
            guard v.isFinite else { return refusal(.outOfRange, "\(label()) must be a finite number") }
            guard range.contains(v) else { return refusal(.outOfRange, "\(label()) must be \(Self.describe(range)), got \(shown.text(v))") }
        case (.integer(let range), .integer(let i)):
            guard range.contains(i) else { return refusal(.outOfRange, "\(label()) must be in \(range.lowerBound)…\(range.upperBound), got \(i)") }
        case (.version(let version), .integer(let i)):
            guard i == version else { return refusal(.unsupportedVersion, "unsupported format version \(i) (this program reads version \(version))") }
        case (.bool, .bool): break
        case (.string(let rule), .string(let s)): return rule.problem(with: s, label: label())
        case (.color(let alpha), .color(let c)):
            guard alpha || c.a == 255 else { return refusal(.malformedValue, "\(label()) must be \(Self.colorForm(alpha: alpha)), got \(JSON.quoted(c.description))") }
        case (.choice(let values, let refused), .string(let s)):
            guard values.contains(s) else {
                switch refused {
                case .unknown(let what, let list):
                    return refusal(.unknownValue, "unknown \(what) \(JSON.quoted(s))" + (list.map { " (expected \(Field.listed(values, $0)))" } ?? ""))
                case .mustBe:
                    return refusal(.unknownValue, "\(label()) must be \(Field.listed(values, .or)), got \(JSON.quoted(s))")
                }
            }
        case (.flags(let words), .flags(let present)):
            guard present.allSatisfy(words.contains) else { return refusal(.unknownValue, "\(label()) may hold only \(Self.and(words))") }
        case (.object(let fields), .record(let record)):
            return Field.problem(with: record, fields, subject: label(), noun: "\(label()) of \(noun())", owner: " of \(label())")
        case (.anyObject, .json(let text)):
            guard JSON.canonicalObject(text) == text else { return refusal(.malformedValue, "\(label()) must be a JSON object") }
        case (.array(let element, _, let item, _), .array(let items)):
            if let problem = countProblem(items.count, label: label()) { return problem }
            for (i, value) in items.enumerated() {
                if let problem = element.problem(with: value, label: Field.item(i, item), noun: noun()) { return problem }
            }
        default:
            return refusal(.wrongType, "\(label()) must be \(expected), got \(value.kindName)")
        }
        return nil
    }

    /// The error for an array of `count` items, when that is not this array's count.
    func countProblem(_ count: Int, label: String) -> ReplayError? {
        guard case .array(_, let counts, let noun, _) = self, !counts.contains(count) else { return nil }
        let wanted = counts.count == 1 ? "exactly \(counts.lowerBound)" : "\(counts.lowerBound)…\(counts.upperBound)"
        return refusal(.outOfRange, "\(label) must hold \(wanted) \(noun)s, got \(count)")
    }

    /// What a value of this kind is, for a message about one that is not: "a number".
    var expected: String {
        switch self {
        case .number: "a number"
        case .integer, .version: "an integer"
        case .bool: "true or false"
        case .string, .choice, .color: "a string"
        case .flags(let words): "an array of " + words.map { "\"\($0)\"" }.joined(separator: "/")
        case .object, .anyObject: "an object"
        case .array(_, _, _, let described): described
        }
    }

    /// `"#rrggbb"`, or with `alpha` `"#rrggbb" or "#rrggbbaa"`.
    static func colorForm(alpha: Bool) -> String { alpha ? "\"#rrggbb\" or \"#rrggbbaa\"" : "\"#rrggbb\"" }

    /// `in 0…1`, `≥ 0`, `≤ 1`.
    static func describe(_ range: ClosedRange<Double>) -> String {
        if range.upperBound == .infinity { return "≥ \(Replay.number(range.lowerBound))" }
        if range.lowerBound == -.infinity { return "≤ \(Replay.number(range.upperBound))" }
        return "in \(Replay.number(range.lowerBound))…\(Replay.number(range.upperBound))"
    }

    /// `"a" and "b"`, `"a", "b" and "c"`.
    static func and(_ words: [String]) -> String {
        let quoted = words.map { "\"\($0)\"" }
        return quoted.count < 2 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
    }
}

extension Field.StringRule {
    /// What is wrong with `s` under this rule; nil when nothing is.
    func problem(with s: String, label: @autoclosure () -> String) -> ReplayError? {
        switch self {
        case .any: return nil
        case .fileName(let what):
            guard s.isEmpty || s.contains("/") else { return nil }
            return refusal(.malformedValue, "\(label()) must name \(what) beside the replay, got \(JSON.quoted(s))")
        case .timestamp:
            guard !Self.isTimestamp(s) else { return nil }
            return refusal(.malformedValue, "\(label()) must be a UTC time YYYY-MM-DDTHH:MM:SSZ, got \(JSON.quoted(s))")
        case .path:
            return s.isEmpty ? refusal(.malformedValue, "\(label()) must name a file") : nil
        case .line(let bytes):
            let length = bytes.contains(s.utf8.count), oneLine = !s.contains(where: \.isNewline)
            guard !length || !oneLine else { return nil }
            return refusal(length ? .malformedValue : .outOfRange, "\(label()) must be one line of \(bytes.lowerBound)…\(bytes.upperBound) bytes")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`: digits where digits go, the separators where they go.
    static func isTimestamp(_ s: String) -> Bool {
        let pattern = Array("dddd-dd-ddTdd:dd:ddZ".utf8), bytes = Array(s.utf8)
        guard bytes.count == pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { b, p in p == UInt8(ascii: "d") ? (0x30...0x39).contains(b) : b == p }
    }
}

extension Field.NumberStyle {
    /// `v` as a message shows it.
    func text(_ v: Double) -> String {
        switch self {
        case .shortest: Replay.number(v)
        case .swift: "\(v)"
        }
    }
}

extension Field.Value {
    /// What the value is written as, for a message, as `JSON.Value.kindName` says it: "a number".
    var kindName: String {
        switch self {
        case .number, .integer: "a number"
        case .bool: "a boolean"
        case .string, .color: "a string"
        case .flags, .array: "an array"
        case .record, .json: "an object"
        }
    }
}
