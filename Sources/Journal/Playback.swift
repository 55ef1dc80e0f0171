import Compute
import Events
import Files
import Foundation
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// Replays and journals back into sessions: for `quicksilver render` and crash recovery.
///
/// A file is parsed on a second thread while this one plays the events already parsed, so on
/// two cores recovery costs about the larger of parsing and drawing, not their sum.
public enum Playback {
    /// Why a file could not be played.
    public enum Failure: Error, CustomStringConvertible {
        /// A malformed line: `FILE:LINE: what` (exit status 2).
        case malformed(path: String, ReplayError)
        /// The file (or its snapshot) could not be read (exit status 1).
        case file(FileError)

        public var description: String {
            switch self {
            case .malformed(let path, let e): "\(path):\(e.line): \(e.message)"
            case .file(let e): "\(e)"
            }
        }
    }

    /// A played file.
    public struct Loaded {
        public var session: Session
        /// The file ends with `{"type": "exit"}`: its session closed cleanly.
        public var endedCleanly: Bool
        /// A journal's last line, cut off by a crash and skipped (warn about it).
        public var cutOff: ReplayError?
        /// Strokes played (pointer ups).
        public var strokes: Int
    }

    /// Reads, checks and plays the replay or journal at `path` into a new session, without
    /// composing any frame: only the final canvas matters. `forgivingCutOffLastLine` is for
    /// journals, which a crash may have cut off mid-line; everything else is strict.
    public static func load(_ path: String, forgivingCutOffLastLine: Bool = false, compute: ComputeContext,
                            historyBytes: Int = 256 << 20) throws(Failure) -> Loaded {
        let channel = EventChannel()
        let parsing = Thread { parse(path, forgiving: forgivingCutOffLastLine, into: channel) }
        parsing.start()
        defer { channel.cancel() }
        guard let header = channel.header() else { throw channel.failure ?? .malformed(path: path, ReplayError(line: 1, message: "empty file")) }
        let session = try Self.session(for: header, at: path, compute: compute, historyBytes: historyBytes)
        // The parser has a core of its own: a pass that also woke a worker there would wait for
        // the scheduler to share it (restore.300k took ~285 ms instead of ~205 in some runs).
        session.compute = ComputeContext(threads: max(1, compute.threadCount - 1))
        defer { session.compute = compute }
        var player = ReplayPlayer(session: session, presenter: OffscreenPresenter(size: Size(width: 0, height: 0)))
        var strokes = 0
        while let chunk = channel.next() {
            var events = chunk
            for (i, e) in chunk.enumerated() {
                switch e.event {
                case .pointerUp: strokes += 1
                case .command(.paste(let p)): events[i].event = .command(.paste(try picture(p, beside: path)))
                default: break
                }
            }
            player.feed(events)
        }
        if let failure = channel.failure { throw failure }
        player.finish()
        let (endedCleanly, cutOff) = channel.ending
        return Loaded(session: session, endedCleanly: endedCleanly, cutOff: cutOff, strokes: strokes)
    }

    /// A new session for `header`, its canvas loaded from the snapshot beside `path` if any.
    public static func session(for header: Replay.Header, at path: String, compute: ComputeContext,
                               historyBytes: Int = 256 << 20) throws(Failure) -> Session {
        let session = Session(size: header.size, background: header.background, seed: header.seed, compute: compute,
                              historyBytes: historyBytes)
        if let name = header.snapshot {
            let file = FilePath.folder(of: path) + "/" + name
            do {
                let image = try PNGImage.read(from: file, maxSide: Replay.Header.sizes.upperBound)
                session.load(pixels: image.pixels, size: Size(width: image.width, height: image.height))
            } catch {
                throw .file(FileError(path: file, message: "cannot read the snapshot: \(error.message)"))
            }
        }
        return session
    }

    /// A paste's picture, read from the file its line names, beside the replay at `path`.
    static func picture(_ paste: PastedImage, beside path: String) throws(Failure) -> PastedImage {
        let file = FilePath.folder(of: path) + "/" + paste.file
        do {
            let image = try PNGImage.read(from: file, maxSide: Replay.Header.sizes.upperBound)
            var p = paste
            p.size = Size(width: image.width, height: image.height)
            p.pixels = image.pixels
            return p
        } catch {
            throw .file(FileError(path: file, message: "cannot read the pasted picture: \(error.message)"))
        }
    }

    /// The parsing thread: streams lines through the parser, hands events over in chunks.
    private static func parse(_ path: String, forgiving: Bool, into channel: EventChannel) {
        var parser = ReplayParser()
        var cutOff: ReplayError?
        var line = 0
        do {
            try LineReader.forEachLine(in: path) { bytes, terminated in
                line += 1
                if line % 4096 == 0, channel.isCancelled { throw CancellationError() }
                if let e = try parser.feed(bytes, terminated: terminated, forgivingCutOff: forgiving) {
                    cutOff = e
                    return
                }
                if line == 1, let header = parser.header { channel.put(header: header) }
                if parser.events.count >= 4096 { channel.put(parser.takeEvents()) }
            }
            _ = try parser.finish()
            channel.put(parser.takeEvents())
            channel.finish(endedCleanly: parser.sawExit, cutOff: cutOff)
        } catch let e as ReplayError {
            channel.fail(.malformed(path: path, e))
        } catch let e as LineReader.LineTooLong {
            channel.fail(.malformed(path: path, ReplayError(line: e.line, message: "line longer than \(e.limit) bytes")))
        } catch let e as FileError {
            channel.fail(.file(e))
        } catch {
            channel.fail(.file(FileError(path: path, message: "\(error)")))
        }
    }
}

/// Parsed events in chunks, from the parsing thread to the playing one. At most a few chunks
/// wait at a time, so memory stays bounded however long the file.
private final class EventChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[Replay.TimedEvent]] = []
    private var parsedHeader: Replay.Header?
    private var done = false
    private var cancelled = false
    private(set) var failure: Playback.Failure?
    private(set) var ending: (endedCleanly: Bool, cutOff: ReplayError?) = (false, nil)

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

    func put(header: Replay.Header) { locked { parsedHeader = header } }

    func put(_ chunk: [Replay.TimedEvent]) {
        condition.lock()
        while chunks.count >= 4 && !cancelled { condition.wait() }
        chunks.append(chunk)
        condition.broadcast()
        condition.unlock()
    }

    func finish(endedCleanly: Bool, cutOff: ReplayError?) { locked { ending = (endedCleanly, cutOff); done = true } }
    func fail(_ f: Playback.Failure) { locked { failure = f; done = true } }

    /// Waits for the header; nil when the file ended or failed first.
    func header() -> Replay.Header? {
        condition.lock()
        defer { condition.unlock() }
        while parsedHeader == nil && !done { condition.wait() }
        return parsedHeader
    }

    /// Waits for the next chunk; nil once parsing has ended (or failed) and all were taken.
    func next() -> [Replay.TimedEvent]? {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        while chunks.isEmpty && !done { condition.wait() }
        return chunks.isEmpty ? nil : chunks.removeFirst()
    }
}
