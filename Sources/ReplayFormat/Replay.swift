// ReplayFormat: the JSON Lines format of recorded sessions and journals (docs/journal.md).
//
// Start with `ReplayTable`: the whole format as one table, the header's shape and every event's
// (`LineShape`: its fields, `Field`: name, kind, range or allowed values, whether it may be left
// out), and how each maps to its Swift value. Then `Replay`: a header and timed `SessionEvent`s,
// written as lines from the table (`line(for:)`, `Field+Writing.swift`, and `problem(with:)`,
// which refuses what the parser would). `ReplayParser` reads lines back through the same table
// (`FieldReader`, `Field+Checking.swift`), strictly: every error names its line (`FILE:LINE:
// what`) and its kind (`ReplayError`). `PointerLine` is its fast path for pointer lines, checked
// against the table (`ReplayParser.fastPathDisagreement`). `JSON` is its small strict parser,
// straight from bytes.
import Events
import Geometry
import Kernels
import Strokes

/// A recorded session: the JSON Lines format the window records and journals and
/// `quicksilver render` plays. See docs/journal.md, and `ReplayTable`.
public struct Replay: Sendable {
    public var header: Header
    public var events: [TimedEvent]

    public struct Header: Sendable, Equatable {
        public static let sizes = DocumentLimits.frameSides

        /// A canvas size written `WxH` (as the command line takes it), each side within `sizes`.
        public static func size(parsing text: String) -> Size? {
            let parts = text.split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), sizes.contains(w), sizes.contains(h) else { return nil }
            return Size(width: w, height: h)
        }

        public var size: Size
        /// Every random choice of the session comes from this.
        public var seed: Int64
        /// `"spray": "stroke"`: the mercurial brush draws its spray's random numbers relative to
        /// the stroke (`Session.sprayFromStroke`), as sessions since the endless canvas do; absent
        /// (or `"canvas"`), from canvas positions, as sessions before it did.
        public var sprayFromStroke: Bool
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
        /// The picture (a PNG, or an OpenRaster document) the session opened and starts from,
        /// absolute: the journal names it at once, so strokes drawn right after opening are on
        /// disk as fast as any, and a copy of its bytes (`openedCopy`, beside the replay) follows.
        /// Played from the copy when it is there, else from this file while it is unchanged.
        public var opened: OpenedPicture?
        public init(size: Size, seed: Int64 = 0, sprayFromStroke: Bool = false, background: Color = .white, snapshot: String? = nil,
                    started: String? = nil, continues: String? = nil, continuesBytes: Int? = nil,
                    undoMegabytes: Int = defaultUndoMegabytes, history: String? = nil, opened: OpenedPicture? = nil) {
            self.size = size; self.seed = seed; self.sprayFromStroke = sprayFromStroke; self.background = background; self.snapshot = snapshot
            self.started = started; self.continues = continues; self.continuesBytes = continuesBytes
            self.undoMegabytes = undoMegabytes; self.history = history; self.opened = opened
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

// MARK: - Writing

extension Replay {
    /// The header line (no newline), as `ReplayTable.header` has it.
    ///
    /// A header the parser would refuse (a size out of range, a translucent background) is a
    /// mistake of the caller's: a debug build stops on it; a release build writes it as it is,
    /// so that the parser names it, rather than something else.
    public static func line(for header: Header) -> String {
        assert(problem(with: header) == nil, "Replay.line(for:): \(problem(with: header)?.message ?? "")")
        return headerLine(ReplayTable.header.record(of: header) ?? Record())
    }

    /// The header line with the fields `record`, as it is: unchecked.
    public static func headerLine(_ record: Record) -> String {
        var s = LineBytes()
        s.add("{")
        Field.write(ReplayTable.header.fields, of: record, to: &s, leading: false)
        s.add("}")
        return s.text
    }

    /// The lines a replay or journal of a session begins with: the header, then, at t = 0, the
    /// brush (if given) and the frame where it is not the header's size at 0,0 (a session
    /// continued from another, a compacted journal, a frame moved): its size, or where it lies.
    public static func openingLines(_ header: Header, brush: Brush?, frame: Rect) -> [String] {
        var lines = [line(for: header)]
        if let brush { lines += Self.lines(for: brush, t: 0) }
        if frame.minX != 0 || frame.minY != 0 {
            lines.append(line(for: TimedEvent(t: 0, event: .reframe(frame))))
        } else if frame.size != header.size {
            lines.append(line(for: TimedEvent(t: 0, event: .resize(frame.size))))
        }
        return lines
    }

    /// The last line of a session that closed cleanly.
    public static func exitLine(t: Double) -> String { line(for: TimedEvent(t: t, event: .command(.exit))) }

    /// Lines that set all of `brush`, the size each kind remembers included (a compacted journal
    /// starts with them): the other kinds first, then the current one with its colour, then its
    /// shading where it is not the default, then the MyPaint brush in use, if any, with its
    /// settings.
    public static func lines(for brush: Brush, t: Double) -> [String] {
        let others = BrushKind.allCases.filter { $0 != brush.tip.kind }.map { Command.brush(kind: $0, size: brush.size(for: $0)) }
        let current = Command.brush(kind: brush.tip.kind, size: brush.tip.size, color: brush.color,
                                    stabilizer: brush.stabilizer == 0 ? nil : brush.stabilizer)
        let shading = brush.shading == .mercurialPaint ? [] : [Command.shading(brush.shading)]
        var mypaint: [Command] = []
        if var choice = brush.mypaint {
            choice.color = brush.color
            mypaint = [.mypaint(choice)]
        }
        return (others + [current] + shading + mypaint).map { line(for: TimedEvent(t: t, event: .command($0))) }
    }

    /// One event line (no newline): `{"t": T, "type": TYPE`, its action if its shape has one,
    /// then its fields in `ReplayTable`'s order.
    ///
    /// The writer writes only what the parser reads back as the same: an event it would refuse
    /// (a value out of its field's range, a brush change that changes nothing, a `LayerOp.step`)
    /// is a mistake of the caller's, and `problem(with:)` says what it is. A debug build stops
    /// on it; a release build writes it as it is, so that the parser stops at that line and
    /// names it (a journal is restored up to there), rather than a clamped or dropped event
    /// that would restore, silently, a different picture.
    public static func line(for e: TimedEvent) -> String {
        assert(problem(with: e) == nil, "Replay.line(for:): \(problem(with: e)?.message ?? "")")
        guard let (shape, record) = ReplayTable.shape(for: e.event) else {
            // Only a `LayerOp.step` has no line (the session records what it did): written as an
            // action no parser reads, never as something else.
            return "{\"t\": \(number(e.t)), \"type\": \"layer\", \"action\": \"step\"}"
        }
        return line(t: e.t, shape: shape, record: record)
    }

    /// The line of an event of `shape` at `t` with the fields `record`, as it is: unchecked.
    public static func line(t: Double, shape: EventShape, record: Record) -> String {
        var s = LineBytes()
        s.add("{\"t\": ")
        s.add(number(t))
        s.add(shape.lead)
        Field.write(shape.fields, of: record, to: &s, leading: true)
        s.add("}")
        return s.text
    }

    /// What the parser would refuse in `e`'s line, in its words (on line 0), whatever the
    /// lines before it; nil when it reads back as the same event.
    public static func problem(with e: TimedEvent) -> ReplayError? {
        if let problem = ReplayTable.time.kind.problem(with: .number(e.t), label: "\"t\"", noun: "") { return problem }
        guard let (shape, record) = ReplayTable.shape(for: e.event) else {
            return refusal(.unknownEventType, "no replay line holds \(e.event)")
        }
        return shape.problem(with: record)
    }

    /// What the parser would refuse in `header`'s line; nil when it reads back the same.
    public static func problem(with header: Header) -> ReplayError? {
        guard let record = ReplayTable.header.record(of: header) else { return refusal(.noHeader, "no header line holds \(header)") }
        return ReplayTable.header.problem(with: record)
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
