// ReplayFormat: the JSON Lines format of recorded sessions and journals (docs/replay-format.md).
//
// Start with `Replay`: a header and timed `SessionEvent`s, and how each is written as a line.
// `ReplayParser` reads lines back, strictly: every error names its line (`FILE:LINE: what`).
// `JSON` is its small strict parser, straight from bytes.
import Events
import Geometry
import Input
import Kernels
import Strokes

/// A recorded session: the JSON Lines format the window records and journals and
/// `quicksilver render` plays. See docs/replay-format.md.
public struct Replay: Sendable {
    public var header: Header
    public var events: [TimedEvent]

    public struct Header: Sendable, Equatable {
        public static let sizes = 1...16384
        public var size: Size
        /// Every random choice of the session comes from this.
        public var seed: Int64
        public var background: Color
        /// A PNG the canvas starts from (a compacted journal), relative to the replay's folder.
        public var snapshot: String?
        /// When the session started, UTC, `YYYY-MM-DDTHH:MM:SSZ` (session journals write it).
        public var started: String?
        /// The file this session continues (the journal or replay it was restored from), made
        /// absolute. Its events open this file, up to the `continued` line, so this file replays
        /// on its own; the name says where they came from.
        public var continues: String?
        /// The size in bytes of `continues` when it was read: a crashed session is recovered by
        /// this one only if it has not grown since (see `SessionStore`).
        public var continuesBytes: Int?
        /// Memory for undo steps, in MiB (the window's `--undo-megabytes`): steps beyond it were
        /// dropped, oldest first, so an undo that found none did nothing. Part of what a replay
        /// means: every player keeps exactly this much.
        public var undoMegabytes: Int
        public static let defaultUndoMegabytes = 256
        public static let undoMegabyteRange = 0...(1 << 20)
        /// The undo history the document had at its snapshot (a compacted journal), a file
        /// beside the replay: undo and redo reach into it as they did in the window.
        public var history: String?
        public init(size: Size, seed: Int64 = 0, background: Color = .white, snapshot: String? = nil,
                    started: String? = nil, continues: String? = nil, continuesBytes: Int? = nil,
                    undoMegabytes: Int = defaultUndoMegabytes, history: String? = nil) {
            self.size = size; self.seed = seed; self.background = background; self.snapshot = snapshot
            self.started = started; self.continues = continues; self.continuesBytes = continuesBytes
            self.undoMegabytes = undoMegabytes; self.history = history
        }

        /// The undo memory in bytes.
        public var undoBytes: Int { undoMegabytes << 20 }
    }

    /// A session event and when it happened (seconds since the session started).
    public struct TimedEvent: Sendable, Equatable {
        public var t: Double
        public var event: SessionEvent
        public init(t: Double, event: SessionEvent) { self.t = t; self.event = event }
    }

    /// True when the last line is `{"type": "exit"}`: the session that wrote it closed cleanly.
    public var endedCleanly = false

    public init(header: Header, events: [TimedEvent] = [], endedCleanly: Bool = false) {
        self.header = header; self.events = events; self.endedCleanly = endedCleanly
    }
}

/// A replay line that is not valid: `line` is 1-based.
public struct ReplayError: Error, Equatable, Sendable {
    public var line: Int
    public var message: String
    public init(line: Int, message: String) { self.line = line; self.message = message }
}

// MARK: - Writing

extension Replay {
    /// The header line (no newline).
    public static func line(for header: Header) -> String {
        var s = "{\"quicksilver\": 1, \"width\": \(header.size.width), \"height\": \(header.size.height)"
        if header.seed != 0 { s += ", \"seed\": \(header.seed)" }
        if header.background != .white { s += ", \"background\": \"\(header.background)\"" }
        if let snapshot = header.snapshot { s += ", \"snapshot\": \"\(JSON.escaped(snapshot))\"" }
        if let history = header.history { s += ", \"history\": \"\(JSON.escaped(history))\"" }
        if let started = header.started { s += ", \"started\": \"\(JSON.escaped(started))\"" }
        if let continues = header.continues { s += ", \"continues\": \"\(JSON.escaped(continues))\"" }
        if let bytes = header.continuesBytes { s += ", \"continuesBytes\": \(bytes)" }
        if header.undoMegabytes != Header.defaultUndoMegabytes { s += ", \"undoMegabytes\": \(header.undoMegabytes)" }
        return s + "}"
    }

    /// The lines a replay or journal of a session begins with: the header, then, at t = 0, the
    /// brush (if given) and the canvas's shown size where it is not the stored one (a session
    /// continued from another, or a compacted journal).
    public static func openingLines(_ header: Header, brush: Brush?, visibleSize: Size) -> [String] {
        var lines = [line(for: header)]
        if let brush { lines += Self.lines(for: brush, t: 0) }
        if visibleSize != header.size { lines.append(line(for: TimedEvent(t: 0, event: .resize(visibleSize)))) }
        return lines
    }

    /// The last line of a session that closed cleanly.
    public static func exitLine(t: Double) -> String { "{\"t\": \(number(t)), \"type\": \"exit\"}" }

    /// Lines that set all of `brush`, the size each kind remembers included (a compacted journal
    /// starts with them): the other kinds first, then the current one with its colour, then its
    /// shading where it is not the default.
    public static func lines(for brush: Brush, t: Double) -> [String] {
        let others = BrushKind.allCases.filter { $0 != brush.tip.kind }.map { Command.brush(kind: $0, size: brush.size(for: $0)) }
        let current = Command.brush(kind: brush.tip.kind, size: brush.tip.size, color: brush.color,
                                    stabilizer: brush.stabilizer == 0 ? nil : brush.stabilizer)
        let shading = brush.shading == .mercurialPaint ? [] : [Command.shading(brush.shading)]
        return (others + [current] + shading).map { line(for: TimedEvent(t: t, event: .command($0))) }
    }

    /// One event line (no newline).
    public static func line(for e: TimedEvent) -> String {
        let t = "{\"t\": \(number(e.t)), \"type\": "
        func pointer(_ type: String, _ s: StrokeSample) -> String {
            var out = t + "\"\(type)\", \"x\": \(number(s.x)), \"y\": \(number(s.y))"
            out += ", \"pressure\": \(number(s.pressure))"
            if !s.mods.isEmpty {
                let names = (s.mods.contains(.shift) ? ["\"shift\""] : []) + (s.mods.contains(.control) ? ["\"control\""] : [])
                out += ", \"mods\": [\(names.joined(separator: ", "))]"
            }
            return out + "}"
        }
        switch e.event {
        case .pointerDown(let s): return pointer("down", s)
        case .pointerMove(let s): return pointer("move", s)
        case .pointerUp(let s): return pointer("up", s)
        case .resize(let size): return t + "\"resize\", \"width\": \(size.width), \"height\": \(size.height)}"
        case .view(let v): return t + "\"view\", \"zoom\": \(number(v.zoom)), \"x\": \(v.x), \"y\": \(v.y)}"
        case .command(let c):
            switch c {
            case .brush(let kind, let size, let color, let stabilizer):
                var fields: [String] = []
                if let kind { fields.append("\"kind\": \"\(kind.rawValue)\"") }
                if let size { fields.append("\"size\": \(size)") }
                if let color { fields.append("\"color\": \"\(color)\"") }
                if let stabilizer { fields.append("\"stabilizer\": \(number(stabilizer))") }
                return t + "\"brush\"" + fields.map { ", " + $0 }.joined() + "}"
            case .shading(let s):
                let lights = s.lights.map { l in
                    "{\"hue\": \(number(l.hue)), \"brightness\": \(number(l.brightness)), "
                        + "\"x\": \(number(l.x)), \"y\": \(number(l.y)), \"z\": \(number(l.z))}"
                }
                return t + "\"shading\", \"shininess\": \(number(s.shininess)), \"lights\": [\(lights.joined(separator: ", "))]}"
            case .channel(let ch): return t + "\"channel\", \"channel\": \"\(ch.rawValue)\"}"
            case .undo: return t + "\"undo\"}"
            case .redo: return t + "\"redo\"}"
            case .clear: return t + "\"clear\"}"
            case .exit: return t + "\"exit\"}"
            case .continued: return t + "\"continued\"}"
            case .layer(let op):
                let l = t + "\"layer\", \"action\": "
                switch op {
                case .new(let name): return l + "\"new\"" + (name.map { ", \"name\": \"\(JSON.escaped($0))\"" } ?? "") + "}"
                case .delete: return l + "\"delete\"}"
                case .select(let i): return l + "\"select\", \"index\": \(i)}"
                case .move(let step): return l + (step > 0 ? "\"up\"}" : "\"down\"}")
                case .mergeDown: return l + "\"merge\"}"
                // The session records a step as what it did; a step reaching here is written as
                // an action the parser refuses, never as something else.
                case .step: return l + "\"step\"}"
                case .set(let visible, let opacity, let mode, let name):
                    var fields: [String] = []
                    if let visible { fields.append("\"visible\": \(visible)") }
                    if let opacity { fields.append("\"opacity\": \(number(opacity))") }
                    if let mode { fields.append("\"mode\": \"\(mode.rawValue)\"") }
                    if let name { fields.append("\"name\": \"\(JSON.escaped(name))\"") }
                    return l + "\"set\"" + fields.map { ", " + $0 }.joined() + "}"
                }
            case .paste(let p): return t + "\"paste\", \"image\": \"\(JSON.escaped(p.file))\", \"x\": \(p.x), \"y\": \(p.y)}"
            case .invert(let on): return t + "\"invert\"" + (on.map { ", \"on\": \($0)" } ?? "") + "}"
            case .pulse(let on, let hue, let centre, let range):
                var fields: [String] = []
                if let on { fields.append("\"on\": \(on)") }
                if let hue { fields.append("\"hue\": \(number(hue))") }
                if let centre { fields.append("\"centre\": \(number(centre))") }
                if let range { fields.append("\"range\": \(number(range))") }
                return t + "\"pulse\"" + fields.map { ", " + $0 }.joined() + "}"
            }
        }
    }

    /// The whole file's text.
    public var text: String {
        ([Self.line(for: header)] + events.map(Self.line(for:))).map { $0 + "\n" }.joined()
    }

    /// Shortest text that reads back as the same Double.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
