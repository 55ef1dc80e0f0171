import Events
import Geometry
import Input
import Kernels
import Strokes

/// Reads replay lines one at a time and checks each strictly: unknown types or fields, missing
/// or mistyped fields, non-finite numbers, time going backwards, sizes out of range and a move
/// without a down are all errors naming the line.
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
    /// How many lines the fast path (`PointerLine`) read; the rest went through the general parser.
    public private(set) var fastLines = 0
    /// Pointer ups read: the strokes of the replay so far.
    public private(set) var pointerUps = 0

    /// - Parameter fastPath: read pointer lines through `PointerLine` (the default); false reads
    ///   every line through the general parser, which gives the same replay and the same errors
    ///   (the tests and the fuzz target `replay-fast-path` compare the two).
    public init(fastPath: Bool = true) { self.fastPath = fastPath }

    /// Where a view may put the canvas's corner, in window pixels.
    static let offsets = -1_000_000_000...1_000_000_000

    /// Parses the next line (without its newline).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(ReplayError) {
        line += 1
        if fastPath, hasHeader, exitLine == nil, let pointer = PointerLine.parse(bytes), take(pointer) { return }
        let value: JSON.Value
        do { value = try JSON.parse(bytes) } catch { throw fail(error.message) }
        guard case .object(let members) = value else { throw fail("expected a JSON object, found \(value.kindName)") }
        if let exitLine { throw fail("nothing may follow the \"exit\" on line \(exitLine)") }
        var fields = Fields(members: members, line: line)
        if header == nil {
            header = try parseHeader(&fields)
        } else {
            events.append(try parseEvent(&fields))
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
        guard let header else { throw ReplayError(line: 1, message: "empty file: expected the header {\"quicksilver\": 1, \"width\": …, \"height\": …}") }
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
            while end < bytes.count, bytes[end] != 0x0a { end += 1 }
            if let stop = try parser.feed(UnsafeBufferPointer(rebasing: bytes[start..<end]), recovering: recovering) {
                return (try parser.finish(), stop)
            }
            start = end + 1
        }
        return (try parser.finish(), nil)
    }

    public static func parse(_ text: String) throws(ReplayError) -> Replay {
        var copy = Array(text.utf8)
        return try copy.withUnsafeMutableBufferPointer { (b) throws(ReplayError) -> Replay in try parse(UnsafeBufferPointer(b)) }
    }

    private func fail(_ message: String) -> ReplayError { ReplayError(line: line, message: message) }

    /// Appends the event of a pointer line the fast path read, when it passes every check
    /// `parseEvent` makes of it; false (nothing changed) when it does not, and the general parser
    /// then reads the line again and says what is wrong.
    @inline(__always)
    private mutating func take(_ p: PointerLine) -> Bool {
        guard p.t.isFinite, p.x.isFinite, p.y.isFinite, p.t >= 0, p.t >= lastT else { return false }
        var pressure = BrushTip.nominalPressure
        if let given = p.pressure {
            guard given.isFinite, (0...1).contains(given) else { return false }
            pressure = given
        }
        let sample = StrokeSample(x: p.x, y: p.y, pressure: pressure, mods: p.mods)
        let event: SessionEvent
        switch p.kind {
        case .down:
            guard !pointerDown else { return false }
            pointerDown = true
            event = .pointerDown(sample)
        case .move:
            guard pointerDown else { return false }
            event = .pointerMove(sample)
        case .up:
            guard pointerDown else { return false }
            pointerDown = false
            pointerUps += 1
            event = .pointerUp(sample)
        }
        lastT = p.t
        fastLines += 1
        events.append(Replay.TimedEvent(t: p.t, event: event))
        return true
    }

    private mutating func parseHeader(_ f: inout Fields) throws(ReplayError) -> Replay.Header {
        guard let version = try f.int("quicksilver") else {
            throw fail("the first line must be the header {\"quicksilver\": 1, \"width\": …, \"height\": …}")
        }
        guard version == 1 else { throw fail("unsupported format version \(version) (this program reads version 1)") }
        let width = try f.requiredInt("width", in: Replay.Header.sizes)
        let height = try f.requiredInt("height", in: Replay.Header.sizes)
        let seed = try f.int("seed") ?? 0
        let background = try f.color("background", alpha: false) ?? .white
        let snapshot = try f.string("snapshot")
        if let snapshot, snapshot.isEmpty || snapshot.contains("/") {
            throw fail("\"snapshot\" must name a PNG file beside the replay, got \(JSON.quoted(snapshot))")
        }
        let history = try f.string("history")
        if let history, history.isEmpty || history.contains("/") {
            throw fail("\"history\" must name a file beside the replay, got \(JSON.quoted(history))")
        }
        let started = try f.string("started")
        if let started, !Self.isTimestamp(started) {
            throw fail("\"started\" must be a UTC time YYYY-MM-DDTHH:MM:SSZ, got \(JSON.quoted(started))")
        }
        let continues = try f.string("continues")
        if let continues, continues.isEmpty { throw fail("\"continues\" must name a file") }
        let continuesBytes = try f.int("continuesBytes", in: 0...Int.max)
        let undo = try f.int("undoMegabytes", in: Replay.Header.undoMegabyteRange)
        try f.rejectUnknown(what: "the header")
        return Replay.Header(size: Size(width: width, height: height), seed: seed, background: background, snapshot: snapshot,
                             started: started, continues: continues, continuesBytes: continuesBytes.map { Int($0) },
                             undoMegabytes: undo.map { Int($0) } ?? Replay.Header.defaultUndoMegabytes, history: history)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`: digits where digits go, the separators where they go.
    static func isTimestamp(_ s: String) -> Bool {
        let pattern = Array("dddd-dd-ddTdd:dd:ddZ".utf8), bytes = Array(s.utf8)
        guard bytes.count == pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { b, p in p == UInt8(ascii: "d") ? (0x30...0x39).contains(b) : b == p }
    }

    private mutating func parseEvent(_ f: inout Fields) throws(ReplayError) -> Replay.TimedEvent {
        guard let type = try f.string("type") else { throw fail("missing \"type\"") }
        guard let t = try f.number("t") else { throw fail("missing \"t\"") }
        guard t >= 0 else { throw fail("\"t\" must be ≥ 0, got \(t)") }
        // A window that continued the session counts time from its own start.
        guard t >= lastT || type == "continued" else {
            throw fail("\"t\" goes backwards: \(Replay.number(t)) after \(Replay.number(lastT))")
        }
        lastT = t
        let event: SessionEvent
        switch type {
        case "down", "move", "up":
            guard let x = try f.number("x") else { throw fail("\"\(type)\" needs \"x\"") }
            guard let y = try f.number("y") else { throw fail("\"\(type)\" needs \"y\"") }
            let pressure = try f.fraction("pressure")
            let mods = try f.mods()
            let sample = StrokeSample(x: x, y: y, pressure: pressure ?? BrushTip.nominalPressure, mods: mods)
            switch type {
            case "down":
                if pointerDown { throw fail("\"down\" while the pointer is already down") }
                pointerDown = true
                event = .pointerDown(sample)
            case "move":
                if !pointerDown { throw fail("\"move\" without a \"down\"") }
                event = .pointerMove(sample)
            default:
                if !pointerDown { throw fail("\"up\" without a \"down\"") }
                pointerDown = false
                event = .pointerUp(sample)
            }
        case "brush":
            var kind: BrushKind?
            if let name = try f.string("kind") {
                guard let k = BrushKind(rawValue: name) else {
                    throw fail("unknown brush kind \(JSON.quoted(name)) (expected one of \(BrushKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")))")
                }
                kind = k
            }
            let size = try f.int("size", in: BrushTip.sizes)
            let color = try f.color("color", alpha: true)
            let stabilizer = try f.fraction("stabilizer")
            if kind == nil, size == nil, color == nil, stabilizer == nil {
                throw fail("\"brush\" needs at least one of \"kind\", \"size\", \"color\", \"stabilizer\"")
            }
            event = .command(.brush(kind: kind, size: size.map { Int($0) }, color: color, stabilizer: stabilizer))
        case "shading":
            event = .command(.shading(try parseShading(&f)))
        case "channel":
            guard let name = try f.string("channel") else { throw fail("\"channel\" needs \"channel\" (\"r\", \"g\" or \"b\")") }
            guard let c = Channel(rawValue: name) else { throw fail("\"channel\" must be \"r\", \"g\" or \"b\", got \(JSON.quoted(name))") }
            event = .command(.channel(c))
        case "undo": event = .command(.undo)
        case "redo": event = .command(.redo)
        case "clear": event = .command(.clear)
        case "invert":
            event = .command(.invert(try f.bool("on")))
        case "pulse":
            event = .command(.pulse(on: try f.bool("on"), hue: try f.fraction("hue"), centre: try f.fraction("centre"),
                                    range: try f.fraction("range")))
        case "layer":
            event = .command(.layer(try parseLayer(&f)))
        case "continued":
            // The stroke the continued session left live ends here.
            pointerDown = false
            event = .command(.continued)
        case "exit":
            try f.rejectUnknown(what: "an \"exit\" event")
            exitLine = line
            return Replay.TimedEvent(t: t, event: .command(.exit))
        case "paste":
            guard let file = try f.string("image") else { throw fail("\"paste\" needs \"image\", a PNG file beside the replay") }
            if file.isEmpty || file.contains("/") { throw fail("\"image\" must name a PNG file beside the replay, got \(JSON.quoted(file))") }
            guard let x = try f.int("x", in: ReplayParser.offsets) else { throw fail("\"paste\" needs \"x\"") }
            guard let y = try f.int("y", in: ReplayParser.offsets) else { throw fail("\"paste\" needs \"y\"") }
            event = .command(.paste(PastedImage(file: file, x: Int(x), y: Int(y))))
        case "view":
            let zooms = ViewTransform.scales.map { ViewTransform(scale: $0, x: 0, y: 0).zoom }
            guard let zoom = try f.number("zoom") else { throw fail("\"view\" needs \"zoom\"") }
            guard let scale = zooms.firstIndex(of: zoom).map({ ViewTransform.scales.lowerBound + $0 }) else {
                throw fail("\"zoom\" must be one of \(zooms.map { Replay.number($0) }.joined(separator: ", ")), got \(Replay.number(zoom))")
            }
            let x = try f.int("x", in: ReplayParser.offsets) ?? 0, y = try f.int("y", in: ReplayParser.offsets) ?? 0
            event = .view(ViewTransform(scale: scale, x: Int(x), y: Int(y)))
        case "resize":
            let w = try f.requiredInt("width", in: Replay.Header.sizes)
            let h = try f.requiredInt("height", in: Replay.Header.sizes)
            event = .resize(Size(width: w, height: h))
        default:
            throw fail("unknown event type \(JSON.quoted(type))")
        }
        try f.rejectUnknown(what: "a \(JSON.quoted(type)) event")
        return Replay.TimedEvent(t: t, event: event)
    }
}

extension ReplayParser {
    /// Layer names: one line of text, not too long.
    static let layerNameBytes = 1...1024

    fileprivate func parseLayer(_ f: inout Fields) throws(ReplayError) -> LayerOp {
        guard let action = try f.string("action") else { throw fail("\"layer\" needs \"action\"") }
        func name() throws(ReplayError) -> String? {
            guard let n = try f.string("name") else { return nil }
            guard Self.layerNameBytes.contains(n.utf8.count), !n.contains(where: \.isNewline) else {
                throw fail("\"name\" must be one line of 1…1024 bytes")
            }
            return n
        }
        switch action {
        case "new": return .new(name: try name())
        case "delete": return .delete
        case "up": return .move(1)
        case "down": return .move(-1)
        case "merge": return .mergeDown
        case "select":
            guard let i = try f.int("index", in: 0...4095) else { throw fail("\"select\" needs \"index\" (0 is the bottom layer)") }
            return .select(Int(i))
        case "set":
            var mode: BlendMode?
            if let m = try f.string("mode") {
                guard let known = BlendMode(rawValue: m) else {
                    throw fail("unknown blend mode \(JSON.quoted(m)) (expected one of \(BlendMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")))")
                }
                mode = known
            }
            let op = LayerOp.set(visible: try f.bool("visible"), opacity: try f.fraction("opacity"), mode: mode, name: try name())
            if op == .set() { throw fail("\"set\" needs at least one of \"visible\", \"opacity\", \"mode\", \"name\"") }
            return op
        default:
            throw fail("unknown layer action \(JSON.quoted(action)) (expected \"new\", \"delete\", \"select\", \"up\", \"down\", \"merge\" or \"set\")")
        }
    }
}

extension ReplayParser {
    fileprivate static let ordinals = ["first", "second", "third", "fourth"]

    /// A `shading` event: `shininess` and exactly four lights, every field required.
    fileprivate func parseShading(_ f: inout Fields) throws(ReplayError) -> Shading {
        guard let shininess = try f.number("shininess", in: Shading.shininessRange) else {
            throw fail("\"shading\" needs \"shininess\"")
        }
        guard let value = f.take("lights") else { throw fail("\"shading\" needs \"lights\", an array of four lights") }
        guard case .array(let items) = value else { throw fail("\"lights\" must be an array of four lights, got \(value.kindName)") }
        guard items.count == Shading.lightCount else {
            throw fail("\"lights\" must hold exactly \(Shading.lightCount) lights, got \(items.count)")
        }
        var lights: [Shading.Light] = []
        for (ordinal, item) in zip(Self.ordinals, items) {
            let light = "the \(ordinal) light"
            guard case .object(let members) = item else { throw fail("\(light) must be an object, got \(item.kindName)") }
            var l = Fields(members: members, line: line, owner: " of \(light)")
            func required(_ key: String, in range: ClosedRange<Double>) throws(ReplayError) -> Double {
                guard let v = try l.number(key, in: range) else { throw fail("\(light) needs \"\(key)\"") }
                return v
            }
            let hue = try required("hue", in: Shading.Light.fractions)
            let brightness = try required("brightness", in: Shading.Light.fractions)
            let x = try required("x", in: Shading.Light.coordinates)
            let y = try required("y", in: Shading.Light.coordinates)
            let z = try required("z", in: Shading.Light.coordinates)
            try l.rejectUnknown(what: "\(light) of a \"shading\" event")
            // Every field was checked against the ranges the initialiser checks.
            guard let made = Shading.Light(hue: hue, brightness: brightness, x: x, y: y, z: z) else {
                throw fail("\(light) is out of range")
            }
            lights.append(made)
        }
        guard let shading = Shading(shininess: shininess, lights: lights) else { throw fail("\"shading\" is out of range") }
        return shading
    }
}

/// The members of one line's object, taken one by one so leftovers can be reported as unknown.
private struct Fields {
    var members: [(key: String, value: JSON.Value)]
    let line: Int
    /// What the members belong to, after a field's name in messages (" of the second light").
    var owner = ""

    private func fail(_ message: String) -> ReplayError { ReplayError(line: line, message: message) }

    /// A field's name as messages give it.
    private func name(_ key: String) -> String { "\"\(key)\"" + owner }

    mutating func take(_ key: String) -> JSON.Value? {
        guard let i = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: i).value
    }

    mutating func number(_ key: String) throws(ReplayError) -> Double? {
        guard let v = take(key) else { return nil }
        guard case .number(let d, _) = v else { throw fail("\(name(key)) must be a number, got \(v.kindName)") }
        guard d.isFinite else { throw fail("\(name(key)) must be a finite number") }
        return d
    }

    /// A number in 0…1.
    mutating func fraction(_ key: String) throws(ReplayError) -> Double? {
        guard let v = try number(key) else { return nil }
        guard (0...1).contains(v) else { throw fail("\(name(key)) must be in 0…1, got \(v)") }
        return v
    }

    /// A number in `range`.
    mutating func number(_ key: String, in range: ClosedRange<Double>) throws(ReplayError) -> Double? {
        guard let v = try number(key) else { return nil }
        guard range.contains(v) else {
            throw fail("\(name(key)) must be in \(Replay.number(range.lowerBound))…\(Replay.number(range.upperBound)), got \(Replay.number(v))")
        }
        return v
    }

    mutating func int(_ key: String) throws(ReplayError) -> Int64? {
        guard let v = take(key) else { return nil }
        guard case .number(let d, let i) = v else { throw fail("\(name(key)) must be an integer, got \(v.kindName)") }
        guard let i else { throw fail("\(name(key)) must be an integer, got \(d)") }
        return i
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(ReplayError) -> Int64? {
        guard let i = try int(key) else { return nil }
        guard i >= range.lowerBound, i <= range.upperBound else {
            throw fail("\(name(key)) must be in \(range.lowerBound)…\(range.upperBound), got \(i)")
        }
        return i
    }

    mutating func requiredInt(_ key: String, in range: ClosedRange<Int>) throws(ReplayError) -> Int {
        guard let i = try int(key, in: range) else { throw fail("missing \(name(key))") }
        return Int(i)
    }

    mutating func bool(_ key: String) throws(ReplayError) -> Bool? {
        guard let v = take(key) else { return nil }
        guard case .bool(let b) = v else { throw fail("\(name(key)) must be true or false, got \(v.kindName)") }
        return b
    }

    mutating func string(_ key: String) throws(ReplayError) -> String? {
        guard let v = take(key) else { return nil }
        guard case .string(let s) = v else { throw fail("\(name(key)) must be a string, got \(v.kindName)") }
        return s
    }

    mutating func color(_ key: String, alpha: Bool) throws(ReplayError) -> Color? {
        guard let s = try string(key) else { return nil }
        let form = alpha ? "\"#rrggbb\" or \"#rrggbbaa\"" : "\"#rrggbb\""
        guard let c = Color(hex: s), alpha || s.utf8.count == 7 else { throw fail("\(name(key)) must be \(form), got \(JSON.quoted(s))") }
        return c
    }

    mutating func mods() throws(ReplayError) -> Modifiers {
        guard let v = take("mods") else { return [] }
        guard case .array(let items) = v else { throw fail("\"mods\" must be an array of \"shift\"/\"control\", got \(v.kindName)") }
        var mods: Modifiers = []
        for item in items {
            switch item {
            case .string("shift"): mods.insert(.shift)
            case .string("control"): mods.insert(.control)
            default: throw fail("\"mods\" may hold only \"shift\" and \"control\"")
            }
        }
        return mods
    }

    func rejectUnknown(what: @autoclosure () -> String) throws(ReplayError) {
        if let first = members.first { throw fail("unknown field \(JSON.quoted(first.key)) in \(what())") }
    }
}
