import Events
import Geometry
import Kernels
import ReplayFormat
import Testing

private let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#
private let down = #"{"t": 0, "type": "down", "x": 1, "y": 2}"#

/// Values of a field's kind at its limits: each bound of a range, each allowed value, the
/// shortest and longest strings, the fewest and most items.
private func limits(of kind: Field.Kind) -> [Field.Value] {
    switch kind {
    case .number(let range, _):
        let low = range.lowerBound.isFinite ? range.lowerBound : -Double.greatestFiniteMagnitude
        let high = range.upperBound.isFinite ? range.upperBound : Double.greatestFiniteMagnitude
        let inside = [0, 0.1 + 0.2, 1.0 / 3, Double.leastNonzeroMagnitude, -123.456].filter(range.contains)
        return ([low, high] + inside).map { .number($0) }
    case .integer(let range):
        return ([range.lowerBound, range.upperBound] + [0, 7].filter(range.contains)).map { .integer($0) }
    case .version(let v): return [.integer(v)]
    case .bool: return [.bool(false), .bool(true)]
    case .string(let rule):
        switch rule {
        case .any: return ["", "a", "quote \" backslash \\ line\nend é😀 \u{1}\u{7f}\u{2028}"].map { .string($0) }
        case .fileName: return ["a.png", "é \"q\" \\ \u{1}.ora"].map { .string($0) }
        case .timestamp: return ["2026-11-23T14:45:01Z", "0000-00-00T00:00:00Z"].map { .string($0) }
        case .path: return ["/", "/home/a b/\"c\"\\d.jsonl"].map { .string($0) }
        case .line(let bytes):
            // The fewest bytes, the most (ending in a two-byte character), and awkward characters.
            return [String(repeating: "a", count: bytes.lowerBound), String(repeating: "b", count: bytes.upperBound - 2) + "é",
                    "tab\t\"quote\" \\ \u{1}"].map { .string($0) }
        }
    case .color(let alpha):
        let opaque = [Color.black, .white, Color(r: 0x12, g: 0xab, b: 0xff)]
        return (opaque + (alpha ? [Color(r: 1, g: 2, b: 3, a: 0), Color(r: 255, g: 255, b: 255, a: 254)] : [])).map { .color($0) }
    case .choice(let values, _): return values.map { .string($0) }
    case .flags(let words): return [.flags([]), .flags(words)] + words.map { .flags([$0]) }
    case .object(let fields):
        return records(fields, needsOneOf: false).map { .record($0) }
    case .anyObject: return [.json("{}"), .json(#"{"a": [1, 2.5, -0.125], "b": {"c": "d \"e\"", "f": [true, false, null]}}"#)]
    case .array(let element, let count, _, _):
        let items = limits(of: element)
        return Set([count.lowerBound, count.upperBound]).sorted().map { n in .array((0..<n).map { items[$0 % items.count] }) }
    }
}

/// Records of `fields` that between them hold every field at each of its limits, and each
/// field that may be left out, left out: each record is the first record with one field changed.
private func records(_ fields: [Field], needsOneOf: Bool) -> [Record] {
    func record(_ values: [String: Field.Value?]) -> Record {
        var r = Record()
        for field in fields {
            if let value = values[field.name] { if let value { r = r.adding(field.name, value) } } else if !field.isOptional {
                r = r.adding(field.name, limits(of: field.kind)[0])
            }
        }
        return r
    }
    var out: [Record] = []
    // The required fields alone (unless one of the optional ones is needed).
    if !needsOneOf || !fields.contains(where: \.isOptional) { out.append(record([:])) }
    for field in fields {
        for value in limits(of: field.kind) { out.append(record([field.name: value])) }
    }
    // Every field there.
    out.append(record(Dictionary(uniqueKeysWithValues: fields.map { ($0.name, limits(of: $0.kind).last) })))
    return out
}

private extension Record {
    func adding(_ name: String, _ value: Field.Value) -> Record {
        var r = self
        r.set(name, value)
        return r
    }
}

/// Parses `lines` after a header; the last event, or the error.
private func lastEvent(_ lines: [String]) throws(ReplayError) -> Replay.TimedEvent? {
    try ReplayParser.parse(([header] + lines).joined(separator: "\n") + "\n").events.last
}

/// The lines a line of `shape` needs before it.
private func before(_ shape: EventShape) -> [String] {
    switch shape.rules.stroke {
    case .continues, .ends: [down]
    default: []
    }
}

@Suite struct ReplayTableTests {
    /// For every shape in the table and every field at each of its limits (each bound of each
    /// range, each allowed value, each optional field there and left out, the shortest and
    /// longest names): the event it makes, written by the writer, reads back as the same
    /// event; so does the line of its fields as they are (a field with a default left out).
    @Test func everyShapeAtEveryLimitWritesAndReadsBackTheSame() throws {
        var checked = 0
        for shape in ReplayTable.events {
            // Records whose fields do not go together (a MyPaint brush's with a size) are left to
            // their shape's own tests (MyPaintEventTests).
            for record in records(shape.fields, needsOneOf: shape.rules.needsOneOf) where shape.crossProblem(record) == nil {
                for t in limits(of: ReplayTable.time.kind).compactMap({ if case .number(let t) = $0 { t } else { nil } }) {
                    let event = try #require(shape.value(from: record), "\(shape.type) \(shape.action ?? ""): \(record)")
                    let timed = Replay.TimedEvent(t: t, event: event)
                    #expect(Replay.problem(with: timed) == nil, "\(timed)")
                    let written = Replay.line(for: timed)
                    #expect(try lastEvent(before(shape) + [written]) == timed, "\(written)")
                    let asItIs = Replay.line(t: t, shape: shape, record: record)
                    #expect(try lastEvent(before(shape) + [asItIs]) == timed, "\(asItIs)")
                    checked += 1
                }
            }
        }
        #expect(checked > 500)
    }

    /// The same for the header.
    @Test func theHeaderAtEveryLimitWritesAndReadsBackTheSame() throws {
        let shape = ReplayTable.header
        for record in records(shape.fields, needsOneOf: false) {
            let h = try #require(shape.value(from: record), "\(record)")
            #expect(Replay.problem(with: h) == nil, "\(h)")
            #expect(try ReplayParser.parse(Replay.line(for: h) + "\n").header == h, "\(Replay.line(for: h))")
            #expect(try ReplayParser.parse(Replay.headerLine(record) + "\n").header == h, "\(Replay.headerLine(record))")
        }
    }

    /// Values just past each limit (and values no field allows): the writer's check refuses
    /// each, in the words and of the kind the parser refuses the line with.
    @Test func theWritersCheckRefusesWhatTheParserRefusesInItsWords() throws {
        var checked = 0
        for shape in ReplayTable.events {
            let base = try #require(records(shape.fields, needsOneOf: shape.rules.needsOneOf).last)
            for field in shape.fields {
                for bad in beyond(field.kind) {
                    let record = base.adding(field.name, bad)
                    let problem = try #require(shape.problem(with: record), "\(shape.type): \(field.name) = \(bad)")
                    let line = Replay.line(t: 1, shape: shape, record: record)
                    do {
                        _ = try lastEvent(before(shape) + [line])
                        Issue.record("the parser accepts \(line)")
                    } catch {
                        #expect(error.message == problem.message && error.kind == problem.kind, "\(line): \(error) against \(problem)")
                        #expect(error.line == before(shape).count + 2)
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 50)
    }

    /// The same for the header's fields.
    @Test func theWritersCheckRefusesWhatTheParserRefusesInTheHeader() throws {
        let shape = ReplayTable.header
        let base = try #require(records(shape.fields, needsOneOf: false).last)
        for field in shape.fields {
            for bad in beyond(field.kind) {
                let record = base.adding(field.name, bad)
                let problem = try #require(shape.problem(with: record), "\(field.name) = \(bad)")
                let line = Replay.headerLine(record)
                #expect(throws: ReplayError(line: 1, message: problem.message, kind: problem.kind)) { try ReplayParser.parse(line + "\n") }
            }
        }
    }

    /// The one limit on layers: `LayerOp.maxLayers`, which a `select` reaches up to.
    @Test func aSelectReachesEveryLayerAndNoMore() throws {
        let top = Replay.TimedEvent(t: 0, event: .command(.layer(.select(LayerOp.maxLayers - 1))))
        #expect(try lastEvent([Replay.line(for: top)]) == top)
        let beyond = Replay.TimedEvent(t: 0, event: .command(.layer(.select(LayerOp.maxLayers))))
        #expect(Replay.problem(with: beyond) == ReplayError(line: 0, message: "\"index\" must be in 0…4095, got 4096", kind: .outOfRange))
        #expect(LayerOp.maxLayers == 4096)
    }

    /// What no line holds, or reads back otherwise: refused by the writer's check.
    @Test func eventsNoLineHoldsAreRefused() {
        for event: SessionEvent in [.command(.layer(.step(.visibility))), .command(.brush()), .command(.layer(.set())),
                                    .pointerMove(StrokeSample(x: .nan, y: 0, pressure: 0.5)),
                                    .pointerMove(StrokeSample(x: 0, y: 0, pressure: 1.5)),
                                    .view(ViewTransform(scale: 0, x: 2_000_000_000, y: 0))] {
            #expect(Replay.problem(with: Replay.TimedEvent(t: 0, event: event)) != nil, "\(event)")
        }
        #expect(Replay.problem(with: Replay.TimedEvent(t: -1, event: .command(.undo)))?.message == "\"t\" must be ≥ 0, got -1.0")
        #expect(Replay.problem(with: Replay.Header(size: Size(width: 0, height: 1)))?.message == "\"width\" must be in 1…16384, got 0")
    }

    #if DEBUG
    /// A debug build stops on an event the format cannot hold rather than write it.
    @Test func aDebugWriterStopsOnAValueOutOfRange() async {
        await #expect(processExitsWith: .failure) {
            _ = Replay.line(for: Replay.TimedEvent(t: 0, event: .command(.layer(.select(LayerOp.maxLayers)))))
        }
    }
    #endif

    /// The fast path reads exactly the table's pointer lines: their types, fields, kinds,
    /// defaults and the events they make (the ranges it checks are the table's own).
    @Test func theFastPathAgreesWithTheTable() {
        #expect(ReplayParser.fastPathDisagreement == nil)
    }

    /// Every type has its shapes, every shape a distinct name and its fields distinct names.
    @Test func theTableIsWellFormed() {
        var names = Set<String>()
        for shape in ReplayTable.events {
            #expect(names.insert(shape.type + "/" + (shape.action ?? "")).inserted, "\(shape.type) \(shape.action ?? "") twice")
            #expect(Set(shape.fields.map(\.name)).count == shape.fields.count, "\(shape.type)")
            #expect(!shape.fields.contains { ["t", "type", "action"].contains($0.name) }, "\(shape.type)")
            #expect(ReplayTable.shapes(ofType: shape.type).contains { $0.action == shape.action })
        }
        #expect(ReplayTable.actionField(ofType: "layer") != nil && ReplayTable.actionField(ofType: "down") == nil)
    }
}

/// Values a field of `kind` does not take: just past each bound, a choice it does not have,
/// a string not of its form, an array of a count it does not hold.
private func beyond(_ kind: Field.Kind) -> [Field.Value] {
    switch kind {
    case .number(let range, _):
        return [range.lowerBound.nextDown, range.upperBound.nextUp].filter(\.isFinite).map { .number($0) }
    case .integer(let range):
        return [range.lowerBound == .min ? nil : range.lowerBound - 1, range.upperBound == .max ? nil : range.upperBound + 1].compactMap { $0.map { .integer($0) } }
    case .version(let v): return [.integer(v + 1)]
    case .bool: return [.string("true")]
    case .string(let rule):
        switch rule {
        case .any: return [.number(1)]
        case .fileName: return ["", "a/b.png"].map { .string($0) }
        case .timestamp: return ["2026-11-23 14:45:01Z", ""].map { .string($0) }
        case .path: return [.string("")]
        case .line(let bytes): return [String(repeating: "a", count: bytes.lowerBound - 1), String(repeating: "a", count: bytes.upperBound + 1),
                                       "two\nlines"].map { .string($0) }
        }
    case .color(let alpha): return alpha ? [.integer(1)] : [.color(Color(r: 1, g: 2, b: 3, a: 4)), .integer(1)]
    case .choice: return [.string("not one of them")]
    case .flags(let words): return [.flags(words + ["alt"])]
    case .object, .anyObject: return [.integer(1)]
    case .array(let element, let count, _, _):
        let item = limits(of: element)[0]
        return [count.lowerBound - 1, count.upperBound + 1].filter { $0 >= 0 }.map { .array(Array(repeating: item, count: $0)) }
            + beyond(element).prefix(1).map { .array(Array(repeating: $0, count: count.lowerBound)) }
    }
}
