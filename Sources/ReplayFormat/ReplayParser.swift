import Events
import Input
import Strokes

/// Reads replay lines one at a time and checks each strictly against `ReplayTable`: unknown
/// types or fields, missing or mistyped fields, values out of range, time going backwards and a
/// move without a down are all errors naming the line and their kind.
public struct ReplayParser {
    public private(set) var header: Replay.Header? { didSet { hasHeader = header != nil } }
    /// `header != nil`, without copying the header on every line.
    private var hasHeader = false
    public private(set) var events: [Replay.TimedEvent] = []
    private var lastT = 0.0
    private var pointerDown = false
    private var line = 0
    private var exitLine: Int?
    private let fastPath: Bool
    /// What the fast path checks of a pointer line, from the table.
    private let limits: PointerLine.Limits
    /// How many lines the fast path (`PointerLine`) read; the rest went through the general parser.
    public private(set) var fastLines = 0
    /// Pointer ups read: the strokes of the replay so far.
    public private(set) var pointerUps = 0

    /// - Parameter fastPath: read pointer lines through `PointerLine` (the default); false reads
    ///   every line through the general parser, which gives the same replay and the same errors
    ///   (the tests and the fuzz target `replay-fast-path` compare the two).
    public init(fastPath: Bool = true) {
        // A fast path that does not read what the table says is not taken (a test and the
        // fuzz target say why: `fastPathDisagreement`).
        self.fastPath = fastPath && PointerLine.limits != nil
        limits = PointerLine.limits ?? PointerLine.Limits()
    }

    /// Why the fast path does not read pointer lines as `ReplayTable` describes them (then it is
    /// not used); nil when it does.
    public static var fastPathDisagreement: String? { PointerLine.disagreement }

    /// Parses the next line (without its newline).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(ReplayError) {
        line += 1
        if fastPath, hasHeader, exitLine == nil, let pointer = PointerLine.parse(bytes), take(pointer) { return }
        let value: JSON.Value
        do { value = try JSON.parse(bytes) } catch { throw fail(.malformedJSON, error.message) }
        guard case .object(let members) = value else { throw fail(.notAnObject, "expected a JSON object, found \(value.kindName)") }
        if let exitLine { throw fail(.afterExit, "nothing may follow the \"exit\" on line \(exitLine)") }
        var fields = FieldReader(members, line: line)
        if header == nil {
            header = try readHeader(&fields)
        } else {
            events.append(try readEvent(&fields))
            if case .pointerUp = events[events.count - 1].event { pointerUps += 1 }
        }
    }

    /// Parses the next line; `recovering` is for a journal that a crash or a damaged disk left:
    /// a line after the header that cannot be read is returned instead of thrown (the caller
    /// stops there and says which line), and what came before stands. A failed line adds no
    /// event and sets no header.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, recovering: Bool) throws(ReplayError) -> ReplayError? {
        do { try feed(bytes) } catch {
            guard recovering, header != nil else { throw error }
            return error
        }
        return nil
    }

    /// The event the last line gave, for the caller to complete (a paste's picture, read from
    /// the file it names). Nil when there is none.
    public var lastEvent: Replay.TimedEvent? {
        get { events.last }
        set { if let newValue, !events.isEmpty { events[events.count - 1] = newValue } }
    }

    /// Hands over the events parsed so far (for playing while parsing goes on).
    public mutating func takeEvents() -> [Replay.TimedEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// True once an "exit" line was read.
    public var sawExit: Bool { exitLine != nil }

    /// The whole replay, once every line has been fed.
    public func finish() throws(ReplayError) -> Replay {
        guard let header else {
            throw ReplayError(line: 1, message: "empty file: expected the header {\"quicksilver\": 1, \"width\": …, \"height\": …}", kind: .noHeader)
        }
        return Replay(header: header, events: events, endedCleanly: exitLine != nil)
    }

    /// Parses a whole file's bytes: lines end in "\n"; a final newline is optional.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ReplayError) -> Replay {
        try parse(bytes, recovering: false).replay
    }

    /// Parses a file; with `recovering` (a journal a crash may have cut off mid-line, or a disk
    /// damaged), the first line after the header that cannot be read ends it and is returned
    /// as `stoppedAt`; without, every line is as strict as ever. `fastPath` is `init(fastPath:)`'s.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, recovering: Bool, fastPath: Bool = true) throws(ReplayError)
        -> (replay: Replay, stoppedAt: ReplayError?) {
        var parser = ReplayParser(fastPath: fastPath)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0a { end &+= 1 }
            if let stop = try parser.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]), recovering: recovering) {
                return (try parser.finish(), stop)
            }
            start = end &+ 1
        }
        return (try parser.finish(), nil)
    }

    public static func parse(_ text: String) throws(ReplayError) -> Replay {
        var copy = Array(text.utf8)
        return try copy.withUnsafeMutableBufferPointer { (b) throws(ReplayError) -> Replay in try parse(UnsafeBufferPointer(b)) }
    }

    private func fail(_ kind: ReplayError.Kind, _ message: String) -> ReplayError { ReplayError(line: line, message: message, kind: kind) }

    /// Appends the event of a pointer line the fast path read, when it passes every check the
    /// general parser makes of it (the table's, and the stroke's order); false (nothing changed)
    /// when it does not, and the general parser then reads the line again and says what is wrong.
    @inline(__always)
    private mutating func take(_ p: PointerLine) -> Bool {
        guard p.t.isFinite, p.x.isFinite, p.y.isFinite, limits.t.contains(p.t), p.t >= lastT, limits.x.contains(p.x),
              limits.y.contains(p.y) else { return false }
        var pressure = limits.defaultPressure
        if let given = p.pressure {
            guard given.isFinite, limits.pressure.contains(given) else { return false }
            pressure = given
        }
        guard limits.tilt.contains(p.xtilt), limits.tilt.contains(p.ytilt) else { return false }
        switch p.kind {
        case .down:
            guard !pointerDown else { return false }
            pointerDown = true
        case .move:
            guard pointerDown else { return false }
        case .up:
            guard pointerDown else { return false }
            pointerDown = false
            pointerUps &+= 1
        }
        lastT = p.t
        fastLines &+= 1
        events.append(Replay.TimedEvent(t: p.t, event: p.kind.event(StrokeSample(x: p.x, y: p.y, pressure: pressure, mods: p.mods,
                                                                                 xtilt: p.xtilt, ytilt: p.ytilt, t: p.t))))
        return true
    }

    /// Line 1: `ReplayTable.header`.
    private func readHeader(_ f: inout FieldReader) throws(ReplayError) -> Replay.Header {
        let shape = ReplayTable.header
        let record = try f.read(shape.fields, subject: shape.subject, noun: shape.noun)
        try f.rejectUnknown(in: shape.noun)
        guard let header = shape.value(from: record) else { throw fail(.outOfRange, "the header is out of range") }
        return header
    }

    /// Any other line: its `type` and `t`, then its shape's fields and rules.
    private mutating func readEvent(_ f: inout FieldReader) throws(ReplayError) -> Replay.TimedEvent {
        // Both required: a line without either was refused.
        guard case .string(let type)? = try f.read(ReplayTable.type, subject: "", noun: "") else { throw fail(.missingField, "missing \"type\"") }
        guard case .number(let t)? = try f.read(ReplayTable.time, subject: "", noun: "") else { throw fail(.missingField, "missing \"t\"") }
        let shapes = ReplayTable.shapes(ofType: type)
        guard t >= lastT || shapes.first?.rules.timeMayGoBack == true else {
            throw fail(.timeGoesBackwards, "\"t\" goes backwards: \(Replay.number(t)) after \(Replay.number(lastT))")
        }
        lastT = t
        guard var shape = shapes.first else { throw fail(.unknownEventType, "unknown event type \(JSON.quoted(type))") }
        if shape.action != nil, let actionField = ReplayTable.actionField(ofType: type) {
            // Required, and one of the shapes' actions: one of them is chosen.
            guard case .string(let action)? = try f.read(actionField, subject: JSON.quoted(type), noun: shape.noun),
                  let chosen = shapes.first(where: { $0.action == action }) else { throw fail(.missingField, "\(JSON.quoted(type)) needs \"action\"") }
            shape = chosen
        }
        let record = try f.read(shape.fields, subject: shape.subject, noun: shape.noun)
        if shape.rules.needsOneOf, let problem = Field.needsOneOf(shape.fields, of: record, subject: shape.subject) { throw f.at(problem) }
        if let problem = shape.crossProblem(record) { throw f.at(problem) }
        // A sample's own time is its line's.
        guard let event = shape.value(from: record)?.withSampleTime(t) else { throw fail(.outOfRange, "\(shape.subject) is out of range") }
        try checkStroke(shape)
        try f.rejectUnknown(in: shape.noun)
        if shape.rules.endsTheFile { exitLine = line }
        return Replay.TimedEvent(t: t, event: event)
    }

    /// Checks a line's part in the stroke against the lines before, and keeps its effect.
    private mutating func checkStroke(_ shape: EventShape) throws(ReplayError) {
        switch shape.rules.stroke {
        case .none: break
        case .begins:
            if pointerDown { throw fail(.strokeOrder, "\(shape.subject) while the pointer is already down") }
            pointerDown = true
        case .continues:
            if !pointerDown { throw fail(.strokeOrder, "\(shape.subject) without a \"down\"") }
        case .ends:
            if !pointerDown { throw fail(.strokeOrder, "\(shape.subject) without a \"down\"") }
            pointerDown = false
        case .cuts:
            pointerDown = false
        }
    }
}
