/// One entry of a chooser's filter list: a name the user reads and the patterns it lets
/// through, glob patterns (`*.ora`) or MIME types (`image/png`). Sent as the portal's
/// `(sa(us))`: 0 for a glob, 1 for a MIME type.
public struct FileFilter: Sendable, Equatable {
    public enum Pattern: Sendable, Equatable {
        case glob(String)
        case mime(String)
    }

    public var name: String
    public var patterns: [Pattern]

    public init(_ name: String, _ patterns: [Pattern]) { self.name = name; self.patterns = patterns }

    /// The filter as the portal takes it, `(sa(us))`.
    public var value: DBusValue {
        .structure([.string(name), .array(element: "(us)", patterns.map { pattern in
            switch pattern {
            case .glob(let g): .structure([.uint32(0), .string(g)])
            case .mime(let m): .structure([.uint32(1), .string(m)])
            }
        })])
    }
}
