/// A D-Bus value with its type: what `BusConnection` writes into a message and reads out of
/// one. Arrays carry their element's signature, so that an empty one is still typed.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a…`: values of the one type `element` names.
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    /// `{kv}`: only as an array's element.
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    /// The value's D-Bus type signature (`s`, `a{sv}`, `(sa(us))`…).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// `ay` holding `bytes`.
    public static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(element: "y", bytes.map { .byte($0) }) }

    /// `as` holding `strings`.
    public static func strings(_ strings: [String]) -> DBusValue { .array(element: "s", strings.map { .string($0) }) }

    /// `a{sv}`, the options and results dictionaries of the portal's calls, in the order given.
    public static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The value under `key` in an `a{sv}` (unwrapped from its variant); nil if absent or not one.
    public subscript(key: String) -> DBusValue? {
        guard case .array("{sv}", let entries) = self else { return nil }
        for case .dictEntry(.string(key), .variant(let value)) in entries { return value }
        return nil
    }

    /// The strings of an `as`; nil for anything else.
    public var stringArray: [String]? {
        guard case .array("s", let items) = self else { return nil }
        return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
    }
}
