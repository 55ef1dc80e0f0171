/// A replay line that is not valid: which line (1-based), why in words (one line, for
/// `FILE:LINE: message`), and what kind of problem it is, for callers that act on the cause.
public struct ReplayError: Error, Equatable, Sendable {
    /// What is wrong with the line.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// Not JSON: bad grammar, invalid UTF-8, nesting too deep, a field named twice.
        case malformedJSON
        /// JSON, but not an object.
        case notAnObject
        /// The file is empty, or its first line is not a header.
        case noHeader
        /// A header of a format version this program does not read.
        case unsupportedVersion
        /// A `type` the table has no event for.
        case unknownEventType
        /// A field the line's shape does not have.
        case unknownField
        /// A required field left out (or none of fields of which one is needed).
        case missingField
        /// A value of the wrong kind: a string for a number, a fraction for an integer, …
        case wrongType
        /// A number outside its range (or not finite), a string of the wrong length, an array
        /// of the wrong count.
        case outOfRange
        /// A value that is not one of those its field allows (a brush kind, a blend mode, a zoom).
        case unknownValue
        /// A string not of its field's form (a colour, a file name, a time).
        case malformedValue
        /// `t` less than the line before's.
        case timeGoesBackwards
        /// A `move` or `up` without a `down`, or a `down` while the pointer is down.
        case strokeOrder
        /// A line after the `exit`.
        case afterExit
        /// A line longer than the reader takes.
        case lineTooLong
        /// A picture a line names (snapshot, paste) that cannot be read.
        case unreadablePicture
        /// Anything else (an error made without a kind).
        case other
    }

    /// The line, from 1 (0: a problem the writer found, on no line yet).
    public var line: Int
    /// What is wrong, in one line of words.
    public var message: String
    /// What kind of problem it is.
    public var kind: Kind

    /// An error of `kind` (`.other` when not given) on `line`, saying `message`.
    public init(line: Int, message: String, kind: Kind = .other) {
        self.line = line; self.message = message; self.kind = kind
    }
}
