// Journal: never lose a stroke. Start with `Journal`: the window hands it every event it acts
// on; it writes them in the replay format from a background queue (so drawing never waits on
// the disk), syncs when a stroke ends and at least every 100 ms while drawing, marks a clean
// exit, and compacts itself past a size limit into a PNG snapshot plus the events since.
// `Playback` turns a replay or journal (and its snapshot) back into a session: it serves
// `quicksilver render` and crash recovery alike.
import Compute
import Dispatch
import Events
import Files
import Foundation
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// A session journal on disk.
///
/// Threading: every method is called from the frame loop's thread; file work happens on a
/// private serial queue, in order. Nothing the frame loop calls blocks on the disk except
/// `close()` and `flushNow()`, which must.
public final class Journal: @unchecked Sendable {
    public let path: String
    /// Compact once this many bytes have been written since the last snapshot.
    public let compactAfterBytes: Int

    private let queue = DispatchQueue(label: "quicksilver.journal")
    /// Lines not yet handed to the queue (frame-loop thread only).
    private var pending: [UInt8] = []
    private var lastHandOff = -Double.infinity
    private var bytesSinceSnapshot = 0
    private var lastT = 0.0
    /// Queue-only state: the open file, the current snapshot's name, the first write error.
    private var file: LineWriter?
    private var snapshotName: String?
    private var failure: FileError?
    private var generation = 0

    /// Starts a journal at `path` for `session` as it is now: when its canvas is not blank (a
    /// restored session) the journal begins with a snapshot of it. The file is written in full
    /// and synced before the old one at `path` is replaced.
    public init(path: String, session: Session, header: Replay.Header, compactAfterBytes: Int = 64 << 20) throws(FileError) {
        self.path = path
        self.compactAfterBytes = compactAfterBytes
        let start = Self.startFile(path: path, session: session, header: header, generation: 0, withSnapshot: session.hasPaint)
        switch start {
        case .success(let (writer, name)):
            file = writer
            snapshotName = name
        case .failure(let e):
            throw e
        }
        removeStaleSnapshots()
    }

    /// Snapshots left by earlier journals at this path (their journal has been replaced).
    private func removeStaleSnapshots() {
        let dir = FilePath.folder(of: path), prefix = FilePath.baseName(of: path) + ".snapshot-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".png") && name != snapshotName {
            AtomicFile.remove(dir + "/" + name)
        }
    }

    /// Queues one event line.
    public func record(_ event: Replay.TimedEvent) {
        let line = Replay.line(for: event)
        pending.append(contentsOf: line.utf8)
        pending.append(0x0a)
        lastT = max(lastT, event.t)
    }

    /// Called every wake-up of the frame loop: hands pending lines to the writer at least every
    /// 100 ms.
    public func tick(now: Double) {
        if !pending.isEmpty, now - lastHandOff >= 0.1 { handOff(sync: false, now: now) }
    }

    /// A stroke (or command) ended: write and fsync. Compacts when the journal has grown past
    /// its limit and no stroke is live.
    public func strokeEnded(now: Double, session: Session) {
        handOff(sync: true, now: now)
        if bytesSinceSnapshot > compactAfterBytes, !session.isStroking { compact(session) }
    }

    /// Marks a clean exit and waits until everything is on disk.
    public func close() {
        pending.append(contentsOf: (Replay.exitLine(t: lastT) + "\n").utf8)
        flushNow()
    }

    /// Writes and syncs everything now, waiting for it (a signal, a lost X connection).
    public func flushNow() {
        handOff(sync: true, now: lastHandOff)
        queue.sync {}
    }

    /// The first write error, if any (reported once by the caller).
    public var writeError: FileError? { queue.sync { failure } }

    private func handOff(sync: Bool, now: Double) {
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        lastHandOff = now
        bytesSinceSnapshot += bytes.count
        queue.async { [self] in
            guard let file else { return }
            do {
                if !bytes.isEmpty { try file.write(bytes) }
                if sync { try file.sync() }
            } catch {
                if failure == nil { failure = error as? FileError }
            }
        }
    }

    /// Replaces the journal by a snapshot of the canvas and the brush: the file stays bounded.
    /// The session's undo history goes too, since the new journal could not replay it.
    private func compact(_ session: Session) {
        session.dropHistory()
        bytesSinceSnapshot = 0
        generation += 1
        let header = Replay.Header(size: session.canvasPixels().size, seed: session.seed, background: session.canvas.background)
        // Pixels are copied here, on the frame loop; encoding and writing happen on the queue.
        let copy = SessionCopy(session)
        let gen = generation
        queue.async { [self] in
            switch Self.startFile(path: path, session: copy, header: header, generation: gen, withSnapshot: true) {
            case .success(let (writer, name)):
                if let old = snapshotName, old != name { AtomicFile.remove(FilePath.folder(of: path) + "/" + old) }
                file = writer
                snapshotName = name
            case .failure(let e):
                if failure == nil { failure = e }
            }
        }
    }

    /// Writes a new journal beside `path` (header, optional snapshot, brush and visible size),
    /// syncs it and renames it over `path`. Returns the open writer and the snapshot's name.
    private static func startFile(path: String, session: some JournalSource, header: Replay.Header, generation: Int,
                                  withSnapshot: Bool) -> Result<(LineWriter, String?), FileError> {
        var header = header
        var snapshotName: String?
        do {
            if withSnapshot {
                let (size, pixels) = session.canvasPixels()
                // A fresh name each time: the journal being replaced may still refer to the old one.
                let name = FilePath.baseName(of: path) + ".snapshot-\(UInt32.random(in: .min ... .max))-\(generation).png"
                try PNGImage(width: size.width, height: size.height, pixels: pixels).write(to: FilePath.folder(of: path) + "/" + name)
                header.size = size
                snapshotName = name
            }
            header.snapshot = snapshotName
            let temp = path + ".new"
            let writer = try LineWriter(creating: temp)
            writer.append(Replay.line(for: header))
            for line in Replay.lines(for: session.brush, t: 0) { writer.append(line) }
            if session.visibleSize != header.size {
                writer.append(Replay.line(for: Replay.TimedEvent(t: 0, event: .resize(session.visibleSize))))
            }
            try writer.sync()
            try writer.rename(to: path)
            return .success((writer, snapshotName))
        } catch {
            return .failure(error)
        }
    }
}

/// What a journal needs of a session to start a file; a copy can be made for the writer queue.
protocol JournalSource {
    func canvasPixels() -> (size: Size, pixels: [UInt32])
    var brush: Brush { get }
    var visibleSize: Size { get }
}

extension Session: JournalSource {
    var visibleSize: Size { canvas.visibleSize }
}

/// A session's journal-relevant state, copied so the writer queue can use it while the
/// session goes on drawing.
private struct SessionCopy: JournalSource, @unchecked Sendable {
    let size: Size, pixels: [UInt32], brush: Brush, visibleSize: Size
    init(_ s: Session) {
        (size, pixels) = s.canvasPixels()
        brush = s.brush
        visibleSize = s.canvas.visibleSize
    }
    func canvasPixels() -> (size: Size, pixels: [UInt32]) { (size, pixels) }
}
