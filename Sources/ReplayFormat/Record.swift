import Kernels

/// The values of a line's fields (or of an object's), by name: what `FieldReader` reads from a
/// line, what a `LineShape` makes its Swift value from, and what it gives the writer. A field
/// left out has no entry; one with a default has it, whether written or not.
public struct Record: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// In the order read or given.
    public private(set) var entries: [(name: String, value: Field.Value)] = []

    /// No fields.
    public init() {}

    init(capacity: Int) { entries.reserveCapacity(capacity) }

    /// The fields whose value is not nil.
    public init(dictionaryLiteral elements: (String, Field.Value?)...) {
        entries.reserveCapacity(elements.count)
        for (name, value) in elements { if let value { entries.append((name, value)) } }
    }

    /// Adds a field (the caller makes sure it is not there yet).
    mutating func append(_ name: String, _ value: Field.Value) { entries.append((name, value)) }

    /// Sets a field's value, or (nil) leaves the field out.
    public mutating func set(_ name: String, _ value: Field.Value?) {
        entries.removeAll { $0.name == name }
        if let value { entries.append((name, value)) }
    }

    /// The value of the field `name`; nil when it is left out.
    public subscript(name: String) -> Field.Value? {
        for entry in entries where entry.name == name { return entry.value }
        return nil
    }

    // The value of a field as the Swift value its kind holds; nil when it is left out (or of
    // another kind).

    public func number(_ name: String) -> Double? { if case .number(let v)? = self[name] { v } else { nil } }
    public func integer(_ name: String) -> Int? { if case .integer(let v)? = self[name] { v } else { nil } }
    public func bool(_ name: String) -> Bool? { if case .bool(let v)? = self[name] { v } else { nil } }
    public func string(_ name: String) -> String? { if case .string(let v)? = self[name] { v } else { nil } }
    public func color(_ name: String) -> Color? { if case .color(let v)? = self[name] { v } else { nil } }
    public func flags(_ name: String) -> [String]? { if case .flags(let v)? = self[name] { v } else { nil } }
    public func array(_ name: String) -> [Field.Value]? { if case .array(let v)? = self[name] { v } else { nil } }
    public func record(_ name: String) -> Record? { if case .record(let v)? = self[name] { v } else { nil } }
    public func json(_ name: String) -> String? { if case .json(let v)? = self[name] { v } else { nil } }

    /// The same fields with the same values, in any order.
    public static func == (a: Record, b: Record) -> Bool {
        a.entries.count == b.entries.count && a.entries.allSatisfy { entry in b[entry.name] == entry.value }
    }
}

extension Field.Value {
    /// The record an `object` field's value is (nil for any other value).
    public var record: Record? { if case .record(let r) = self { r } else { nil } }
}
