import Files
import Foundation
import Geometry
import ReplayFormat

/// The folder of sessions (`$XDG_STATE_HOME/quicksilver`): one journal per session,
/// `session-YYYYMMDD-HHMMSS-PID.jsonl`, with its snapshots and pasted pictures beside it, named
/// after it. A journal from before sessions (`journal.jsonl`) is one session like the others.
///
/// It names new sessions, describes the ones there (`list()`), says which one a start must
/// recover, and prunes the oldest. It never deletes a session that did not end cleanly or that
/// is in use.
public struct SessionStore: Sendable {
    public let folder: String

    /// At least this many of the newest sessions are always kept.
    public static let keptAtLeast = 20

    /// - Parameter folder: made absolute, so that the paths it lists match the ones a session
    ///   records as what it continues.
    public init(folder: String) { self.folder = Self.absolute(folder) }

    /// `path` made absolute and tidied (no `.` or `..`), as a session's "continues" records it.
    public static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// The default folder: $XDG_STATE_HOME/quicksilver, else ~/.local/state/quicksilver.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? ".") + "/.local/state"
        return state + "/quicksilver"
    }

    /// Makes the folder (and the folders above it) if it is not there.
    public func create() throws(FileError) {
        do { try Folder.make(folder) } catch {
            let where_ = error.path == folder ? "" : "\(error.path) "
            throw FileError(path: folder, message: "cannot create the sessions folder: \(where_)\(error.message)", kind: error.kind)
        }
    }

    /// True when the folder is there (a listing of a folder that is not is an error to report).
    public var exists: Bool { Folder.exists(folder) }

    /// The path for a session starting at `date` in process `pid` (nothing is made yet).
    public func newSessionPath(started date: Date, pid: Int32 = ProcessInfo.processInfo.processIdentifier) -> String {
        folder + "/session-" + Self.format(date, "yyyyMMdd-HHmmss", utc: false) + "-\(pid).jsonl"
    }

    /// `date` as a header's "started" field: UTC, YYYY-MM-DDTHH:MM:SSZ.
    public static func timestamp(_ date: Date) -> String { format(date, timestampPattern, utc: true) }

    /// Every session here, newest first. `strokes` are counted only when `countingStrokes`
    /// (it reads whole files).
    public func list(countingStrokes: Bool = false) -> [SessionInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var sessions = names.filter { $0.hasSuffix(".jsonl") && FileBytes.isRegularFile(folder + "/" + $0) }.map { describe(folder + "/" + $0, names: names, countingStrokes: countingStrokes) }
        // A crashed session was recovered by one that continued all of it: the file as it is
        // now, not an earlier copy of it taken while it was still being drawn in.
        for i in sessions.indices where sessions[i].state == .crashed {
            let crashed = sessions[i]
            if let by = sessions.first(where: { $0.continues == crashed.path && ($0.continuesBytes ?? crashed.journalBytes) == crashed.journalBytes }) {
                sessions[i].state = .recovered(by: by.path)
            }
        }
        return sessions.sorted { ($0.started ?? .distantPast, $0.path) > ($1.started ?? .distantPast, $1.path) }
    }

    /// The session a plain start restores: the newest that a crash left (it did not end
    /// cleanly, no process has it open, and no session continued all of it), even when a later
    /// one ended cleanly (a second window closed before the first one crashed).
    public func sessionToRecover() -> SessionInfo? {
        list().first { $0.state == .crashed }
    }

    /// The newest session, whatever its state (`--restore`).
    public func newest() -> SessionInfo? { list().first }

    /// Removes the oldest sessions that ended cleanly while the folder holds more than
    /// `capBytes`, never touching the newest `keptAtLeast`. Returns the sessions removed.
    public func prune(capBytes: Int, keepingAtLeast kept: Int = Self.keptAtLeast) -> [SessionInfo] {
        let sessions = list()
        var total = sessions.reduce(0) { $0 + $1.bytes }
        guard total > capBytes else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed: [SessionInfo] = []
        for s in sessions.dropFirst(kept).reversed() where total > capBytes && s.state == .endedCleanly {
            for file in files(of: s.path, names: names) { AtomicFile.remove(file) }
            total -= s.bytes
            removed.append(s)
        }
        return removed
    }

    /// The journal and every file named after it (snapshots, pasted pictures).
    private func files(of path: String, names: [String]) -> [String] {
        let base = FilePath.baseName(of: path)
        return [path] + names.filter { $0.hasPrefix(base + ".") }.map { folder + "/" + $0 }
    }

    private func describe(_ path: String, names: [String], countingStrokes: Bool) -> SessionInfo {
        let journal = try? FileManager.default.attributesOfItem(atPath: path)
        let bytes = files(of: path, names: names).dropFirst().reduce((journal?[.size] as? Int) ?? 0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
        let modified = (journal?[.modificationDate] as? Date) ?? Date()
        var info = SessionInfo(path: path, started: nil, ended: modified, strokes: nil, size: nil, state: .crashed,
                               bytes: bytes, journalBytes: (journal?[.size] as? Int) ?? 0, continues: nil)
        let head = Self.read(path, fromEnd: false)
        guard let firstLine = head.split(separator: 0x0a, maxSplits: 1, omittingEmptySubsequences: false).first else {
            info.state = .unreadable("empty file")
            return info
        }
        var parser = ReplayParser()
        do { try Array(firstLine).withUnsafeBufferPointer { b throws(ReplayError) in try parser.feed(b) } } catch {
            info.state = .unreadable("line 1: \(error.message)")
            return info
        }
        guard let header = parser.header else { return info }
        info.size = header.size
        info.continues = header.continues
        info.continuesBytes = header.continuesBytes
        // The last whole line: its "t" says when the session last did something; an "exit" that
        // it ended cleanly. A line cut off by a crash is skipped.
        let lines = Self.read(path, fromEnd: true).split(separator: 0x0a)
        var lastT = 0.0, clean = false
        for line in lines.reversed() {
            guard case .object(let members)? = try? Array(line).withUnsafeBufferPointer({ b throws(JSON.ParseError) in try JSON.parse(b) })
            else { continue }
            if case .number(let t, _)? = members.first(where: { $0.key == "t" })?.value { lastT = t }
            clean = members.contains { $0.key == "type" && $0.value == .string("exit") }
            break
        }
        if let started = header.started.flatMap(Self.date(fromTimestamp:)) {
            info.started = started
            info.ended = started.addingTimeInterval(lastT)
        } else {
            info.started = modified.addingTimeInterval(-lastT)
        }
        info.state = clean ? .endedCleanly : LineWriter.isLocked(path) ? .inUse : .crashed
        if countingStrokes { info.strokes = Self.countStrokes(path) }
        return info
    }

    /// Up to 64 KiB from the start or the end of a file.
    private static func read(_ path: String, fromEnd: Bool) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let limit: UInt64 = 64 << 10
        if fromEnd, let end = try? handle.seekToEnd() { try? handle.seek(toOffset: end > limit ? end - limit : 0) }
        return Array((try? handle.read(upToCount: Int(limit))) ?? Data())
    }

    /// Strokes in a journal: its "up" lines, as the window writes them.
    private static func countStrokes(_ path: String) -> Int {
        let needle = Array("\"type\": \"up\"".utf8)
        var count = 0
        try? LineReader.forEachLine(in: path) { line, _ in
            guard line.count >= needle.count else { return }
            for i in 0...(line.count - needle.count) where line[i] == needle[0] {
                if needle.indices.allSatisfy({ line[i + $0] == needle[$0] }) { count += 1; break }
            }
        }
        return count
    }

    /// A header's "started" field: UTC, YYYY-MM-DDTHH:MM:SSZ.
    private static let timestampPattern = "yyyy-MM-dd'T'HH:mm:ss'Z'"

    private static func formatter(_ pattern: String, utc: Bool) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        if utc { f.timeZone = TimeZone(identifier: "UTC") }
        f.dateFormat = pattern
        return f
    }

    private static func format(_ date: Date, _ pattern: String, utc: Bool) -> String { formatter(pattern, utc: utc).string(from: date) }

    static func date(fromTimestamp s: String) -> Date? { formatter(timestampPattern, utc: true).date(from: s) }
}

/// One session of a `SessionStore`, as `quicksilver sessions` lists it.
public struct SessionInfo: Sendable, Equatable {
    public enum State: Sendable, Equatable, CustomStringConvertible {
        /// Its journal ends with "exit".
        case endedCleanly
        /// A running window has it open.
        case inUse
        /// A crash (kill -9, power loss, a lost X server) ended it, and nothing has continued it yet.
        case crashed
        /// A crash ended it, and the session `by` (a journal path) continued it.
        case recovered(by: String)
        /// Its header cannot be read.
        case unreadable(String)

        public var description: String {
            switch self {
            case .endedCleanly: "ended cleanly"
            case .inUse: "in use"
            case .crashed: "crashed, not recovered yet"
            case .recovered(let by): "crashed, recovered in \(FilePath.baseName(of: by))"
            case .unreadable(let why): "unreadable (\(why))"
            }
        }
    }

    /// The journal's path.
    public var path: String
    public var started: Date?
    /// When its last event happened (or its file was last written).
    public var ended: Date
    /// Strokes drawn (counted only when asked: it reads the whole file).
    public var strokes: Int?
    /// The canvas size it starts with.
    public var size: Size?
    public var state: State
    /// The journal and its snapshots and pasted pictures, on disk.
    public var bytes: Int
    /// The journal alone.
    public var journalBytes: Int
    /// The path of the file it continues, if any, and that file's size when it was read.
    public var continues: String?
    public var continuesBytes: Int?
}
