import Foundation
import Geometry
import Journal
import Testing
import TestSupport

@Suite struct SessionStoreTests {
    private func folder() throws -> String { try ScratchFolder.make("sessions") }

    /// A journal of `strokes` strokes that started at `started`, `seconds` long.
    private func write(_ path: String, started: String?, strokes: Int, seconds: Double = 10, clean: Bool, continues: String? = nil,
                       padding: Int = 0) throws {
        var header = "{\"quicksilver\": 1, \"width\": 320, \"height\": 200"
        if let started { header += ", \"started\": \"\(started)\"" }
        if let continues { header += ", \"continues\": \"\(continues)\"" }
        var lines = [header + "}"]
        for i in 0..<strokes {
            let t = seconds * Double(i + 1) / Double(max(strokes, 1))
            lines += ["{\"t\": \(t), \"type\": \"down\", \"x\": 1, \"y\": 2, \"pressure\": 0.5}",
                      "{\"t\": \(t), \"type\": \"up\", \"x\": 3, \"y\": 4, \"pressure\": 0.5}"]
        }
        if padding > 0 { lines.append("{\"t\": \(seconds), \"type\": \"brush\", \"color\": \"#000000\"}" + String(repeating: " ", count: padding)) }
        if clean { lines.append("{\"t\": \(seconds), \"type\": \"exit\"}") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func listsNewestFirstWithWhatEachHolds() throws {
        let dir = try folder()
        let store = SessionStore(folder: dir)
        try write(dir + "/session-a.jsonl", started: "2026-01-02T10:00:00Z", strokes: 3, seconds: 90, clean: true)
        try write(dir + "/session-b.jsonl", started: "2026-01-03T10:00:00Z", strokes: 1, clean: false)
        try write(dir + "/session-c.jsonl", started: "2026-01-04T10:00:00Z", strokes: 2, clean: false, continues: dir + "/session-b.jsonl")
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/session-a.jsonl.snapshot-1-0.png"))
        let list = store.list(countingStrokes: true)
        #expect(list.map { FilePath(path: $0.path) } == ["session-c.jsonl", "session-b.jsonl", "session-a.jsonl"])
        #expect(list.map(\.strokes) == [2, 1, 3])
        #expect(list.map(\.state) == [.crashed, .recovered(by: dir + "/session-c.jsonl"), .endedCleanly])
        #expect(list[2].ended.timeIntervalSince(try #require(list[2].started)) == 90)
        #expect(list[0].size == Size(width: 320, height: 200))
        let aBytes = try FileManager.default.attributesOfItem(atPath: dir + "/session-a.jsonl")[.size] as! Int
        #expect(list[2].bytes == aBytes + 7, "a session's size counts the files named after it")
    }

    @Test func aPlainStartRecoversOnlyTheNewestWhenACrashLeftIt() throws {
        let dir = try folder()
        let store = SessionStore(folder: dir)
        #expect(store.sessionToRecover() == nil)
        try write(dir + "/session-a.jsonl", started: "2026-01-02T10:00:00Z", strokes: 1, clean: false)
        #expect(store.sessionToRecover()?.path == dir + "/session-a.jsonl")
        // Continued (and ended cleanly) by a later session: nothing to recover.
        try write(dir + "/session-b.jsonl", started: "2026-01-03T10:00:00Z", strokes: 1, clean: true, continues: dir + "/session-a.jsonl")
        #expect(store.sessionToRecover() == nil)
        #expect(store.newest()?.path == dir + "/session-b.jsonl")
    }

    @Test func aLegacyJournalIsOneSessionLikeTheOthers() throws {
        let dir = try folder()
        try write(dir + "/journal.jsonl", started: nil, strokes: 4, seconds: 30, clean: false)
        let list = SessionStore(folder: dir).list(countingStrokes: true)
        #expect(list.count == 1 && list[0].strokes == 4 && list[0].state == .crashed)
        #expect(SessionStore(folder: dir).sessionToRecover()?.path == dir + "/journal.jsonl")
    }

    @Test func pruningKeepsTheNewestAndEverySessionThatDidNotEndCleanly() throws {
        let dir = try folder()
        let store = SessionStore(folder: dir)
        // 25 sessions of ~10 KB: the oldest is crashed, the rest ended cleanly.
        for i in 0..<25 {
            try write(dir + "/session-\(100 + i).jsonl", started: "2026-01-01T10:00:\(10 + i)Z", strokes: 1, clean: i != 0, padding: 10_000)
        }
        try Data(count: 5000).write(to: URL(fileURLWithPath: dir + "/session-101.jsonl.paste-1.png"))
        #expect(store.prune(capBytes: 1 << 30).isEmpty, "under the cap nothing goes")
        let removed = store.prune(capBytes: 200_000)
        // Newest 20 kept; of the five older, the crashed one stays; the clean ones go oldest
        // first until the folder is under the cap (22 × ~10 KB is still over 200 KB).
        #expect(removed.map { FilePath(path: $0.path) } == ["session-101.jsonl", "session-102.jsonl", "session-103.jsonl", "session-104.jsonl"])
        let left = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(left.count == 21 && left.contains("session-100.jsonl") && !left.contains("session-101.jsonl.paste-1.png"))
    }

    @Test func aSessionHeldOpenIsInUseNotCrashed() throws {
        let dir = try folder()
        let path = dir + "/session-live.jsonl"
        try write(path, started: "2026-01-02T10:00:00Z", strokes: 1, clean: false)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        #expect(SessionStore(folder: dir).list().first?.state == .inUse)
        #expect(SessionStore(folder: dir).sessionToRecover() == nil, "a running window's session is not recovered")
    }
}

/// A path's last component, for comparing lists.
private struct FilePath: Equatable, ExpressibleByStringLiteral {
    let name: String
    init(path: String) { name = URL(fileURLWithPath: path).lastPathComponent }
    init(stringLiteral value: String) { name = value }
}
