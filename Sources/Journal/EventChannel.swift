import Foundation
import Paint
import ReplayFormat

/// Parsed events in chunks, from the parsing thread to the playing one. At most a few chunks
/// wait at a time, so memory stays bounded however long the file.
final class EventChannel: @unchecked Sendable {
    /// The header, the snapshot the canvas starts from, and the undo history it had.
    struct Opening {
        var header: Replay.Header
        var snapshot: DocumentImage?
        var history: HistoryImage?
    }

    /// What the parsing thread found once it was done.
    struct Ending {
        var endedCleanly = false
        var stop: Playback.Stop?
        var strokes = 0
        var kept: (events: [Replay.TimedEvent], pictures: [String: [UInt8]], beside: Set<String>)?
        var historyLost: ReplayError?
    }

    private let condition = NSCondition()
    private var chunks: [[Replay.TimedEvent]] = []
    private var parsedOpening: Opening?
    private var done = false
    private var cancelled = false
    private(set) var failure: Playback.Failure?
    private(set) var ending = Ending()

    /// Runs `body` under the lock, then wakes the other side (it changed something).
    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        return body()
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
    func cancel() { locked { cancelled = true } }

    func put(_ opening: Opening) { locked { parsedOpening = opening } }

    func put(_ chunk: [Replay.TimedEvent]) {
        condition.lock()
        while chunks.count >= 4 && !cancelled { condition.wait() }
        chunks.append(chunk)
        condition.broadcast()
        condition.unlock()
    }

    func finish(_ end: Ending) { locked { ending = end; done = true } }
    func fail(_ f: Playback.Failure) { locked { failure = f; done = true } }

    /// Waits for the header; nil when the file ended or failed first.
    func opening() -> Opening? {
        condition.lock()
        defer { condition.unlock() }
        while parsedOpening == nil && !done { condition.wait() }
        return parsedOpening
    }

    /// Waits for the next chunk; nil once parsing has ended (or failed) and all were taken.
    func next() -> [Replay.TimedEvent]? {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        while chunks.isEmpty && !done { condition.wait() }
        return chunks.isEmpty ? nil : chunks.removeFirst()
    }
}
