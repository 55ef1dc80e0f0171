import Events

/// The shape of one kind of line: its `type` (and `action`, for a type of several shapes), the
/// fields it holds in the order they are written and read, what the parser checks of it besides
/// them, and how its fields make the Swift value it stands for and back. `ReplayTable` lists
/// them all; the parser and the writer know no line but through them. A class: the parser picks
/// one for every line it reads, and a reference is all it copies.
public final class LineShape<Value: Sendable>: Sendable {
    /// The event's `type` ("down", "layer"); "header" for the header, which has none.
    public let type: String
    /// For a type of several shapes (`layer`), this one's `action` ("select").
    public let action: String?
    /// In the order the writer writes them (and the parser checks them).
    public let fields: [Field]
    /// What the parser checks of such a line besides its fields.
    public let rules: Rules
    private let make: @Sendable (Record) -> Value?
    /// What is wrong with a line's fields taken together, when its fields are each right (a
    /// MyPaint brush's fields are not a pen's); nil when nothing is.
    private let check: (@Sendable (Record) -> ReplayError?)?
    private let split: @Sendable (Value) -> Record?
    /// `, "type": "TYPE"` and its action, as the writer writes them after `t`.
    let lead: [UInt8]
    /// How a message names what the line is, for what it needs: `"down"`, or the action `"select"`.
    public let subject: String
    /// How a message names the line: `a "down" event`.
    public let noun: String

    /// - Parameters:
    ///   - read: the value a line's fields make (nil when they do not make one, which a line
    ///     whose every field was checked never gets).
    ///   - write: the fields of a value of this shape; nil for a value of any other.
    ///   - check: what is wrong with the fields taken together (each of them being right).
    public init(_ type: String, action: String? = nil, _ fields: [Field], rules: Rules = Rules(),
                check: (@Sendable (Record) -> ReplayError?)? = nil,
                read: @escaping @Sendable (Record) -> Value?, write: @escaping @Sendable (Value) -> Record?) {
        self.type = type; self.action = action; self.fields = fields; self.rules = rules; self.check = check
        self.make = read; self.split = write
        var lead = LineBytes()
        lead.add(", \"type\": ")
        lead.addQuoted(type)
        if let action {
            lead.add(", \"action\": ")
            lead.addQuoted(action)
        }
        self.lead = lead.bytes
        subject = JSON.quoted(action ?? type)
        noun = rules.noun ?? "a \(JSON.quoted(type)) event"
    }

    /// What the parser checks of a line besides its fields (the header has none of these).
    public struct Rules: Sendable, Equatable {
        /// Its part in a stroke, which the parser checks against the lines before.
        public var stroke: StrokeRole = .none
        /// At least one of its optional fields must be there.
        public var needsOneOf = false
        /// Its `t` may be less than the line before's (a window that continued a session counts
        /// time from its own start).
        public var timeMayGoBack = false
        /// It ends the file: no line may follow.
        public var endsTheFile = false
        /// How messages name such a line, when not `a "TYPE" event`.
        public var noun: String?

        /// Rules of a line: by default, none.
        public init(stroke: StrokeRole = .none, needsOneOf: Bool = false, timeMayGoBack: Bool = false, endsTheFile: Bool = false,
                    noun: String? = nil) {
            self.stroke = stroke; self.needsOneOf = needsOneOf; self.timeMayGoBack = timeMayGoBack
            self.endsTheFile = endsTheFile; self.noun = noun
        }
    }

    /// A line's part in a stroke.
    public enum StrokeRole: Sendable, Equatable {
        case none
        /// Starts one: the pointer must be up.
        case begins
        /// Goes on with one: the pointer must be down.
        case continues
        /// Ends one: the pointer must be down.
        case ends
        /// Ends one if one is live, whatever the state (a session continued here).
        case cuts
    }

    /// The Swift value of a line of this shape, from its fields (those left out that have a
    /// default, at their default, as the parser reads them).
    public func value(from record: Record) -> Value? { make(filled(record)) }

    /// `record` with the defaults of the fields it leaves out.
    func filled(_ record: Record) -> Record {
        var r = record
        for field in fields where r[field.name] == nil {
            if let value = field.defaultValue { r.append(field.name, value) }
        }
        return r
    }

    /// What the parser would refuse in a line of this shape with the fields `record`, in its
    /// words (on line 0); nil when it reads back as a value whose line is the same.
    public func problem(with record: Record) -> ReplayError? {
        if let problem = Field.problem(with: record, fields, subject: subject, noun: noun, needsOneOf: rules.needsOneOf) { return problem }
        if let problem = crossProblem(record) { return problem }
        guard let value = value(from: record) else { return refusal(.outOfRange, "\(subject) is out of range") }
        guard let again = self.record(of: value), filled(again) == filled(record) else {
            return refusal(.other, "the line of \(noun) reads back as \(value), which is written differently")
        }
        return nil
    }

    /// What is wrong with `record`'s fields taken together (on line 0); nil when nothing is.
    public func crossProblem(_ record: Record) -> ReplayError? { check?(record) }

    /// The fields of `value`; nil when it is not of this shape.
    public func record(of value: Value) -> Record? { split(value) }

    /// The field named `name`.
    public func field(_ name: String) -> Field? { fields.first { $0.name == name } }
}

/// An event line's shape.
public typealias EventShape = LineShape<SessionEvent>

/// The header line's shape.
public typealias HeaderShape = LineShape<Replay.Header>
