import Events
import Input
import Strokes

/// The fast path against the table: what the scanner reads, declared, and checked to be what
/// `ReplayTable` says a pointer line is; the ranges and the default it checks a line's numbers
/// against come from the table itself. A fast path that disagrees is not used
/// (`ReplayParser.init`), and a test and the fuzz target `replay-fast-path` fail on it
/// (`ReplayParser.fastPathDisagreement`): it cannot drift from the general parser unseen.
extension PointerLine {
    /// The types the scanner reads, and the kind each is.
    static let types: [(type: String, kind: Kind)] = [("down", .down), ("move", .move), ("up", .up)]

    /// The fields the scanner reads after `t` and `type`, in the order the writer writes them
    /// (`written()` follows it), and what it reads of each: a number, or these words (nil); that
    /// a line must have it; that the writer always writes it.
    static let fields: [(name: String, words: [String]?, required: Bool, alwaysWritten: Bool)] = [
        ("x", nil, true, true), ("y", nil, true, true), ("pressure", nil, false, true), ("mods", ["shift", "control"], false, false),
        ("xtilt", nil, false, false), ("ytilt", nil, false, false),
    ]

    /// The ranges a pointer line's numbers must be in and the pressure a line without one has,
    /// as the table gives them.
    struct Limits {
        var t = 0.0...Double.infinity
        var x = Field.anyNumber
        var y = Field.anyNumber
        var pressure = 0.0...1.0
        var defaultPressure = BrushTip.nominalPressure
        /// Both tilts' (a line without one has 0).
        var tilt = -1.0...1.0
    }

    /// The table's limits; nil when the scanner disagrees with the table.
    static let limits: Limits? = {
        guard disagreement == nil, let shape = ReplayTable.shapes(ofType: "down").first,
              case .number(let t, _) = ReplayTable.time.kind, case .number(let x, _)? = shape.field("x")?.kind,
              case .number(let y, _)? = shape.field("y")?.kind, let pressure = shape.field("pressure"),
              case .number(let pressures, _) = pressure.kind, case .number(let nominal)? = pressure.defaultValue,
              case .number(let tilt, _)? = shape.field("xtilt")?.kind, shape.field("ytilt")?.kind == shape.field("xtilt")?.kind,
              shape.field("xtilt")?.defaultValue == .number(0), shape.field("ytilt")?.defaultValue == .number(0) else { return nil }
        return Limits(t: t, x: x, y: y, pressure: pressures, defaultPressure: nominal, tilt: tilt)
    }()

    /// Why the scanner does not read pointer lines as the table describes them; nil when it does.
    static let disagreement: String? = {
        guard case .number = ReplayTable.time.kind, ReplayTable.time.name == "t", ReplayTable.type.name == "type",
              ReplayTable.type.kind == .string(.any) else { return "the table's \"t\" or \"type\" is not what the fast path reads" }
        let pointerShapes = ReplayTable.events.filter { [.begins, .continues, .ends].contains($0.rules.stroke) }
        guard pointerShapes.map(\.type).sorted() == types.map(\.type).sorted() else {
            return "the table's pointer types are \(pointerShapes.map(\.type)), the fast path's \(types.map(\.type))"
        }
        // Compared as values: a description of the fields (as this once did) cost a few
        // milliseconds of reflection at every start.
        guard let first = pointerShapes.first, pointerShapes.allSatisfy({ $0.fields == first.fields }) else {
            return "the pointer types' fields differ in the table: the fast path reads them alike"
        }
        for (type, kind) in types {
            guard let shape = ReplayTable.shapes(ofType: type).first, ReplayTable.shapes(ofType: type).count == 1, shape.action == nil else {
                return "the table has no single shape for \"\(type)\""
            }
            let role: EventShape.StrokeRole = switch kind { case .down: .begins; case .move: .continues; case .up: .ends }
            guard shape.rules == .init(stroke: role) else { return "\"\(type)\" has rules the fast path does not check: \(shape.rules)" }
            if let problem = disagreement(with: shape.fields) { return "\"\(type)\": \(problem)" }
            // The event each kind makes is the table's, for every set of modifier keys.
            for mods in [[], ["shift"], ["control"], ["shift", "control"]] as [[String]] {
                let record: Record = ["x": .number(-1.5), "y": .number(2.25), "pressure": .number(0.75), "mods": .flags(mods)]
                let keys = mods.reduce(into: Modifiers()) { keys, word in keys.formUnion(word == "shift" ? .shift : .control) }
                let sample = StrokeSample(x: -1.5, y: 2.25, pressure: 0.75, mods: keys)
                guard shape.value(from: record) == kind.event(sample) else {
                    return "\"\(type)\" with \(mods) reads as \(String(describing: shape.value(from: record))) in the table, as \(kind.event(sample)) in the fast path"
                }
            }
            let tilted: Record = ["x": .number(1), "y": .number(2), "xtilt": .number(0.5), "ytilt": .number(-0.25)]
            let sample = StrokeSample(x: 1, y: 2, pressure: BrushTip.nominalPressure, xtilt: 0.5, ytilt: -0.25)
            guard shape.value(from: tilted) == kind.event(sample) else { return "\"\(type)\" reads a tilt otherwise than the fast path" }
        }
        return nil
    }()

    /// Why `table`'s fields of a pointer line are not `fields`; nil when they are.
    private static func disagreement(with table: [Field]) -> String? {
        guard table.map(\.name) == fields.map(\.name) else { return "fields \(table.map(\.name)) in the table, \(fields.map(\.name)) in the fast path" }
        for (field, declared) in zip(table, fields) {
            switch (field.kind, declared.words) {
            case (.number, nil): break
            case (.flags(let words), let declaredWords?) where words == declaredWords: break
            default: return "\"\(field.name)\" is \(field.kind) in the table, \(declared.words.map { "the words \($0)" } ?? "a number") in the fast path"
            }
            let always: Bool
            switch field.presence {
            case .required: always = true
            case .optional: always = false
            case .defaulted(let value, let alwaysWritten):
                always = alwaysWritten
                switch (value, declared.words) {
                case (.number, nil): break   // the table's default pressure or tilt, which `limits` takes
                case (.flags(let words), _?) where words.isEmpty: break   // the scanner's when a line has none
                default: return "\"\(field.name)\" defaults to \(value) in the table, which the fast path does not give"
                }
            }
            guard !field.isOptional == declared.required, always == declared.alwaysWritten else {
                return "\"\(field.name)\" is \(field.presence) in the table, the fast path reads it as \(declared.required ? "required" : "optional")"
                    + (declared.alwaysWritten ? ", always written" : "")
            }
        }
        return nil
    }
}

extension PointerLine.Kind {
    /// The event a pointer line of this kind makes.
    @inline(__always)
    func event(_ sample: StrokeSample) -> SessionEvent {
        switch self {
        case .down: .pointerDown(sample)
        case .move: .pointerMove(sample)
        case .up: .pointerUp(sample)
        }
    }
}
