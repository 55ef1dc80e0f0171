import Events
import ReplayFormat

/// The replay parser's fast path for pointer lines against the table (`ReplayTable`: the same
/// types, fields, kinds and defaults; its ranges are the table's own) and against its general
/// parser: for every input,
/// reading with the fast path (`ReplayParser(fastPath: true)`, what `render` and restoring do)
/// and without it gives the same result, strictly and recovering: the same header and events,
/// every number the same Double bit for bit (so -0 and +0 differ), the same clean ending and
/// the same stop, or the same error on the same line with the same words and of the same kind.
///
/// Each input is checked three times: as a whole file, after a header line, and after a header
/// and a `down` line (so that `move` and `up` lines are read with the pointer down), which lets
/// mutations spend their bytes on the pointer lines themselves.
public enum FastPathTarget: FuzzTarget {
    public static let name = "replay-fast-path"

    static let header = Array("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n".utf8)
    static let down = Array("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2}\n".utf8)

    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        // The fast path reads what the table says a pointer line is (or is not used at all).
        if let disagreement = ReplayParser.fastPathDisagreement { return FuzzFinding("the fast path disagrees with the table: \(disagreement)") }
        if let finding = compare(bytes) { return finding }
        for prefix in [header, header + down] {
            let file = prefix + Array(bytes)
            if let finding = file.withUnsafeBufferPointer({ compare($0) }) {
                return FuzzFinding("after \(prefix == header ? "a header" : "a header and a down"): \(finding)")
            }
        }
        return nil
    }

    /// Both ways of reading `file`, strict and recovering, agree.
    private static func compare(_ file: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        for recovering in [false, true] {
            let fast = Result { () throws(ReplayError) in try ReplayParser.parse(file, recovering: recovering, fastPath: true) }
            let general = Result { () throws(ReplayError) in try ReplayParser.parse(file, recovering: recovering, fastPath: false) }
            let how = recovering ? "recovering" : "strict"
            switch (fast, general) {
            case (.success(let a), .success(let b)):
                if a.stoppedAt != b.stoppedAt {
                    return FuzzFinding("\(how): the fast path stops at \(describe(a.stoppedAt)), the general parser at \(describe(b.stoppedAt))")
                }
                if let difference = difference(a.replay, b.replay) { return FuzzFinding("\(how): \(difference)") }
            case (.failure(let a), .failure(let b)):
                if a != b { return FuzzFinding("\(how): the fast path fails with \(describe(a)), the general parser with \(describe(b))") }
            case (.success, .failure(let b)):
                return FuzzFinding("\(how): the fast path accepts what the general parser rejects with \(describe(b))")
            case (.failure(let a), .success):
                return FuzzFinding("\(how): the fast path rejects with \(describe(a)) what the general parser accepts")
            }
        }
        return nil
    }

    /// How two replays differ, comparing numbers bit for bit; nil when they do not.
    public static func difference(_ a: Replay, _ b: Replay) -> String? {
        if a.header != b.header { return "the headers differ" }
        if a.endedCleanly != b.endedCleanly { return "one ended cleanly, the other not" }
        if a.events.count != b.events.count { return "\(a.events.count) events against \(b.events.count)" }
        for (i, (x, y)) in zip(a.events, b.events).enumerated() where !identical(x, y) {
            return "event \(i + 1) differs: \(x) against \(y)"
        }
        return nil
    }

    private static func identical(_ a: Replay.TimedEvent, _ b: Replay.TimedEvent) -> Bool {
        guard a.t.bitPattern == b.t.bitPattern else { return false }
        func same(_ s: StrokeSample, _ u: StrokeSample) -> Bool {
            s.x.bitPattern == u.x.bitPattern && s.y.bitPattern == u.y.bitPattern && s.pressure.bitPattern == u.pressure.bitPattern
                && s.mods == u.mods
        }
        switch (a.event, b.event) {
        case let (.pointerDown(s), .pointerDown(u)), let (.pointerMove(s), .pointerMove(u)), let (.pointerUp(s), .pointerUp(u)):
            return same(s, u)
        default:
            return a.event == b.event
        }
    }

    private static func describe(_ error: ReplayError?) -> String {
        error.map { "line \($0.line): \($0.message) (\($0.kind))" } ?? "nowhere"
    }
}
