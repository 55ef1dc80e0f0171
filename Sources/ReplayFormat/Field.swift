import Kernels

/// One field of a replay line, as `ReplayTable` describes it: its name, what its value is (its
/// range, or the values it may take) and whether a line may leave it out. The parser reads a
/// field, checks it and words what is wrong with it, and the writer writes and checks it, from
/// this alone (`FieldReader`, `Field+Checking.swift`, `Field+Writing.swift`).
public struct Field: Sendable, Equatable {
    /// The JSON key.
    public let name: String
    /// What it holds.
    public let kind: Kind
    /// Whether a line may leave it out.
    public let presence: Presence
    /// `"name": `, as the writer writes it before the value.
    let key: [UInt8]

    /// A field `name` holding a `kind`, `presence` saying whether a line may leave it out.
    public init(_ name: String, _ kind: Kind, _ presence: Presence) {
        self.name = name; self.kind = kind; self.presence = presence
        key = Array("\"\(JSON.escaped(name))\": ".utf8)
    }

    /// What a field holds, and the values it may hold.
    public indirect enum Kind: Sendable, Equatable {
        /// A finite number in `range` (`Field.anyNumber`: any finite one). `shown` is how a
        /// message shows a number out of range.
        case number(ClosedRange<Double>, shown: NumberStyle = .shortest)
        /// An integer (a JSON number without a fraction or an exponent) in `range`.
        case integer(ClosedRange<Int>)
        /// The format's version, an integer: exactly this one is read.
        case version(Int)
        case bool
        case string(StringRule)
        /// `"#rrggbb"`, or with `alpha` also `"#rrggbbaa"`.
        case color(alpha: Bool)
        /// One of these strings; `refused` words a string that is not one of them.
        case choice([String], refused: Refusal)
        /// An array of some of these strings (a repeat reads as one), written in this order.
        case flags([String])
        /// An object of these fields.
        case object([Field])
        /// Any JSON object, kept as its text (`JSON.text`): a MyPaint brush's settings.
        case anyObject
        /// An array of `count` values, each an `element`. A message names one as "the third
        /// `noun`" and the whole as `described` ("an array of four lights").
        case array(of: Kind, count: ClosedRange<Int>, noun: String, described: String)
    }

    /// Any finite number.
    public static let anyNumber = -Double.infinity...Double.infinity

    /// Whether a line may leave a field out, and what it then means.
    public enum Presence: Sendable, Equatable {
        /// Every line has it; `missing` words a line without it.
        case required(Missing)
        /// A line may leave it out: its value is then nil (in the Swift value too), and a nil is
        /// not written.
        case optional
        /// A line may leave it out: its value is then `value`. The writer leaves it out when it
        /// is `value`, unless `alwaysWritten`.
        case defaulted(Value, alwaysWritten: Bool = false)
    }

    /// What a line without a required field is told.
    public enum Missing: Sendable, Equatable {
        /// What the line is needs it, then `hint`: `"down" needs "x"`, `"paste" needs "image",
        /// a PNG file beside the replay`, `the third light needs "hue"`.
        case needs(hint: String = "")
        /// `missing "width"`.
        case missing
        /// This whole message.
        case message(String)
    }

    /// How a string that is not one of a choice's is refused.
    public enum Refusal: Sendable, Equatable {
        /// `unknown brush kind "crayon" (expected one of "pen", …)`: the noun, then the choices
        /// listed in `list`'s style (nil: not listed).
        case unknown(String, list: ListStyle?)
        /// `"channel" must be "r", "g" or "b", got "a"`.
        case mustBe
    }

    /// How a message lists choices.
    public enum ListStyle: Sendable, Equatable {
        /// `one of "a", "b", "c"`.
        case oneOf
        /// `"a", "b" or "c"`.
        case or
    }

    /// How a message shows a number out of range.
    public enum NumberStyle: Sendable, Equatable {
        /// As the writer writes it: `2`, `0.5`.
        case shortest
        /// As Swift prints a Double: `2.0`, `0.5` (how the fields read as fractions always showed it).
        case swift
    }

    /// What a string must be.
    public enum StringRule: Sendable, Equatable {
        case any
        /// A plain file name beside the replay: not empty, no `/`; messages call it `what`
        /// ("a PNG file").
        case fileName(String)
        /// A UTC time, `YYYY-MM-DDTHH:MM:SSZ`.
        case timestamp
        /// A path: not empty.
        case path
        /// One line of text (no line break of any kind) of this many UTF-8 bytes.
        case line(bytes: ClosedRange<Int>)
    }

    /// A field's value: what the parser reads and the writer writes, between the line's JSON
    /// and the Swift value (`LineShape`'s `read` and `write`).
    public enum Value: Sendable, Equatable {
        /// `number`.
        case number(Double)
        /// `integer` and `version`.
        case integer(Int)
        case bool(Bool)
        /// `string` and `choice`.
        case string(String)
        case color(Color)
        /// The strings present, in the field's order.
        case flags([String])
        case record(Record)
        case array([Value])
        /// `anyObject`: the object's text, as `JSON.text` writes it.
        case json(String)
    }

    /// True when a line may leave it out.
    public var isOptional: Bool {
        if case .required = presence { false } else { true }
    }

    /// The value a line that leaves it out has (nil: none, or it is required).
    public var defaultValue: Value? {
        if case .defaulted(let value, _) = presence { value } else { nil }
    }
}
