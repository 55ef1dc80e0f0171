// Journal: never lose a stroke. Start with `Journal`: the window hands it every event it acts
// on; it writes them in the replay format from a background queue (so drawing never waits on
// the disk), syncs when a stroke ends and at least every 100 ms while drawing, marks a clean
// exit, and compacts itself past a size limit into a PNG snapshot plus the events since.
// `SessionStore` is the folder of sessions, one journal each: it names new ones, lists them,
// says which one a start must recover, and prunes the oldest. `Playback` turns a replay or
// journal (and its snapshot) back into a session: it serves `quicksilver render` and crash
// recovery alike.
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
/// The file is made when the session first changes something (a stroke, a clear, an undo): a
/// session that changes nothing leaves nothing behind. While the journal is open the file is
/// locked, so another process can tell a live session from one a crash left.
///
/// Threading: every method is called from the frame loop's thread; file work happens on a
/// private serial queue, in order. Nothing the frame loop calls blocks on the disk except
/// `close()` and `flushNow()`, which must.
public final class Journal: @unchecked Sendable {
    public let path: String
    /// Compact once this many bytes have been written since the last snapshot.
    public let compactAfterBytes: Int
    /// True once the file has been started (the session changed something).
    public private(set) var isStarted = false

    private let queue = DispatchQueue(label: "quicksilver.journal")
    /// What the file starts with, captured when the journal was made; written on the first change.
    private var opening: Opening?
    /// The first header, whose identity (when the session started, what it continues) every
    /// compacted file keeps.
    private let firstHeader: Replay.Header
    /// Lines not yet handed to the queue (frame-loop thread only).
    private var pending: [UInt8] = []
    private var lastHandOff = -Double.infinity
    private var bytesSinceSnapshot = 0
    private var lastT = 0.0
    private var generation = 0
    /// Pasted pictures this file names (beside it): a compaction bakes them into its snapshot.
    private var pastedFiles: [String] = []
    /// Queue-only state: the open file, the current snapshot's name, the first write error.
    private var file: LineWriter?
    private var snapshotName: String?
    private var failure: FileError?

    /// The start of a journal file: its header, the canvas it starts from (every stored pixel,
    /// when the session did not start blank; encoded as the file is written, off the frame
    /// loop), the brush and the visible size.
    private struct Opening: @unchecked Sendable {
        var header: Replay.Header
        var canvas: (size: Size, pixels: [UInt32])?
        var brush: Brush
        var visibleSize: Size
    }

    /// A journal at `path` for `session` as it is now. When its canvas is not blank (a restored
    /// session, an opened picture) the journal begins with a snapshot of it.
    ///
    /// - Parameter lazily: true waits for the first event that changes something before making
    ///   the file (the window); false makes it now.
    public init(path: String, session: Session, header: Replay.Header, compactAfterBytes: Int = 64 << 20,
                lazily: Bool = false) throws(FileError) {
        self.path = path
        self.compactAfterBytes = compactAfterBytes
        var header = header
        header.size = session.canvas.texture.size
        firstHeader = header
        let opening = Opening(header: header, canvas: session.hasPaint ? session.canvasPixels() : nil, brush: session.brush,
                              visibleSize: session.canvas.visibleSize)
        if lazily {
            self.opening = opening
        } else {
            let result = Self.startFile(path: path, opening, generation: 0)
            switch result {
            case .success(let (writer, name)): (file, snapshotName) = (writer, name)
            case .failure(let e): throw e
            }
            isStarted = true
        }
    }

    /// Queues one event line; the first event that changes something starts the file.
    public func record(_ event: Replay.TimedEvent) {
        pending.append(contentsOf: Replay.line(for: event).utf8)
        pending.append(0x0a)
        lastT = max(lastT, event.t)
        if case .command(.paste(let p)) = event.event { pastedFiles.append(p.file) }
        if !isStarted, event.event.changesThePicture, let opening {
            isStarted = true
            self.opening = nil
            queue.async { [self] in
                switch Self.startFile(path: path, opening, generation: 0) {
                case .success(let (writer, name)): (file, snapshotName) = (writer, name)
                case .failure(let e): if failure == nil { failure = e }
                }
            }
        }
    }

    /// Called every wake-up of the frame loop: hands pending lines to the writer at least every
    /// 100 ms.
    public func tick(now: Double) {
        if isStarted, !pending.isEmpty, now - lastHandOff >= 0.1 { handOff(sync: false, now: now) }
    }

    /// A stroke (or command) ended: write and fsync. Compacts when the journal has grown past
    /// its limit and no stroke is live.
    public func strokeEnded(now: Double, session: Session) {
        guard isStarted else { return }
        handOff(sync: true, now: now)
        if bytesSinceSnapshot > compactAfterBytes, !session.isStroking { compact(session) }
    }

    /// Marks a clean exit and waits until everything is on disk (nothing, if never started).
    public func close() {
        guard isStarted else { return }
        pending.append(contentsOf: (Replay.exitLine(t: lastT) + "\n").utf8)
        flushNow()
        queue.sync { file = nil }
    }

    /// Writes and syncs everything now, waiting for it (a signal, a lost X connection).
    public func flushNow() {
        guard isStarted else { return }
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
            do throws(FileError) {
                if !bytes.isEmpty { try file.write(bytes) }
                if sync { try file.sync() }
            } catch {
                if failure == nil { failure = error }
            }
        }
    }

    /// Replaces the journal by a snapshot of the canvas and the brush: the file stays bounded.
    /// The session's undo history goes too, since the new journal could not replay it.
    private func compact(_ session: Session) {
        session.dropHistory()
        bytesSinceSnapshot = 0
        generation += 1
        // Pixels are copied here, on the frame loop; encoding and writing happen on the queue.
        let canvas = session.canvasPixels()
        var header = firstHeader
        header.size = canvas.size
        let opening = Opening(header: header, canvas: canvas, brush: session.brush, visibleSize: session.canvas.visibleSize)
        let gen = generation
        let baked = pastedFiles
        pastedFiles = []
        queue.async { [self] in
            switch Self.startFile(path: path, opening, generation: gen) {
            case .success(let (writer, name)):
                if let old = snapshotName, old != name { AtomicFile.remove(FilePath.folder(of: path) + "/" + old) }
                for file in baked { AtomicFile.remove(FilePath.folder(of: path) + "/" + file) }
                file = writer
                snapshotName = name
            case .failure(let e):
                if failure == nil { failure = e }
            }
        }
    }

    /// Writes a new journal beside `path` (header, optional snapshot, brush and visible size),
    /// locks and syncs it and renames it over `path`. Returns the open writer and the snapshot's
    /// name. On failure nothing it wrote is left behind.
    private static func startFile(path: String, _ opening: Opening, generation: Int) -> Result<(LineWriter, String?), FileError> {
        var header = opening.header
        let folder = FilePath.folder(of: path), temp = path + ".new"
        var snapshotName: String?
        do throws(FileError) {
            if let canvas = opening.canvas {
                let png: [UInt8]
                do { png = try PNGImage(width: canvas.size.width, height: canvas.size.height, pixels: canvas.pixels).encode() } catch {
                    throw FileError(path: path, message: "cannot encode the canvas: \(error.message)")
                }
                // A fresh name each time: the journal being replaced may still refer to the old one.
                let name = FilePath.baseName(of: path) + ".snapshot-\(UInt32.random(in: .min ... .max))-\(generation).png"
                try AtomicFile.write(png, to: folder + "/" + name)
                snapshotName = name
            }
            header.snapshot = snapshotName
            let writer = try LineWriter(creating: temp)
            try writer.lock()
            for line in Replay.openingLines(header, brush: opening.brush, visibleSize: opening.visibleSize) { writer.append(line) }
            try writer.sync()
            try writer.rename(to: path)
            return .success((writer, snapshotName))
        } catch {
            AtomicFile.remove(temp)
            if let snapshotName { AtomicFile.remove(folder + "/" + snapshotName) }
            return .failure(error)
        }
    }
}
