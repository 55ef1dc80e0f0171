import Compute
import Events
import Files
import Foundation
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// Replays and journals back into sessions: the one way a file is played, for `quicksilver
/// render`, crash recovery, `--restore` and a file opened in the window alike, so a replay
/// draws the same pixels wherever it is played. Nothing but the file decides what it draws:
/// the undo memory comes from its header, not from an option.
///
/// A file is parsed on a second thread while this one plays the events already parsed, so on
/// two cores recovery costs about the larger of parsing and drawing, not their sum. Pictures
/// (the snapshot, pastes) are read on the parsing thread too, where their line is known.
public enum Playback {
    /// Why a file could not be played.
    public enum Failure: Error, CustomStringConvertible {
        /// A malformed line, or one naming a picture that cannot be read: `FILE:LINE: what`
        /// (exit status 2).
        case malformed(path: String, ReplayError)
        /// The file itself could not be read (exit status 1).
        case file(FileError)

        public var description: String {
            switch self {
            case .malformed(let path, let e): "\(path):\(e.line): \(e.message)"
            case .file(let e): "\(e)"
            }
        }
    }

    /// How a file is read.
    public enum Reading: Sendable {
        /// Every line must be valid: a replay, `render`.
        case strict
        /// As strict, but for a last line cut off (no newline: a crash mid-write), which ends
        /// the file (`Loaded.stoppedAt` says so): a session or replay opened in the window.
        case toleratingCutOff
        /// A session's journal after a crash, or one still being written by another window:
        /// the first line after the header that cannot be played (cut off by the crash,
        /// damaged, naming a picture that is gone) ends it, and what came before is restored.
        /// An undo history that cannot be read is done without (`Loaded.historyLost`): the
        /// first `undo` or `redo` line then ends it, since it may have reached into that history
        /// (or, through the undo memory it shared, kept a step the replay would not), and
        /// nothing before it depends on the history.
        case recovering
    }

    /// Where a recovering read stopped.
    public struct Stop: Sendable {
        /// The line that could not be played, and why.
        public var error: ReplayError
        /// It was the file's last line and had no newline: a write cut off by a crash.
        public var cutOff: Bool
    }

    /// A moment of a playback that `load`'s `watch` is told of.
    public enum Moment: Equatable, Sendable {
        /// The canvas the file opens with (blank, or its snapshot), before any event.
        case opening
        /// A frame of the player's 60 Hz clock, just drawn.
        case frame(Int)
    }

    /// A played file.
    public struct Loaded {
        public var session: Session
        /// The file ends with `{"type": "exit"}`: its session closed cleanly.
        public var endedCleanly: Bool
        /// Where a recovering read stopped, if it did (warn about it).
        public var stoppedAt: Stop?
        /// Why a recovering read did without the undo history its header names, if it did
        /// (warn about it): undo then finds nothing before the snapshot.
        public var historyLost: ReplayError?
        /// Strokes played (pointer ups).
        public var strokes: Int
        /// What a session continuing this one must carry (when asked for).
        public var continuation: Continuation?
        /// With `deferring`, the file's events, parsed and checked but not played: the session
        /// is at its opening canvas, for the window to play them (`window --play`).
        public var unplayed: [Replay.TimedEvent]?
    }

    /// Reads, checks and plays the replay or journal at `path` into a new session. Only the
    /// final canvas matters, so no frame is composed unless a `presenter` is given (tests check
    /// that what it is shown equals the snapshot).
    ///
    /// - Parameter continuing: also keep what a session continuing this file must carry.
    /// - Parameter deferring: check and parse every event but play none: they are returned in
    ///   `unplayed`, in the order `ReplayPlayer` is to be fed them.
    /// - Parameter watch: told of the opening canvas, before any event is played, then of each
    ///   frame once it is drawn (a timelapse pictures the session there); it must not change it.
    public static func load(_ path: String, reading: Reading = .strict, continuing: Bool = false, deferring: Bool = false,
                            compute: ComputeContext, presenter: Presenter? = nil, watch: ((Moment, Session) -> Void)? = nil) throws(Failure) -> Loaded {
        let size = FileBytes.size(of: path)
        let channel = EventChannel()
        let parsing = Thread { parse(path, reading: reading, keeping: continuing, into: channel) }
        parsing.start()
        defer { channel.cancel() }
        guard let opening = channel.opening() else { throw channel.failure ?? .malformed(path: path, ReplayError(line: 1, message: "empty file", kind: .noHeader)) }
        let header = opening.header
        let session = Session(size: header.size, background: header.background, seed: header.seed, sprayFromStroke: header.sprayFromStroke, compute: compute,
                              historyBytes: header.undoBytes)
        if let snapshot = opening.snapshot { session.load(snapshot) }
        if let history = opening.history {
            // Checked against the snapshot on the parsing thread already: this cannot fail.
            do { try session.load(history: history) } catch {
                throw .malformed(path: path, ReplayError(line: 1, message: "the undo history does not fit the snapshot: \(error)"))
            }
        }
        var player = ReplayPlayer(session: session, presenter: presenter ?? OffscreenPresenter(size: Size(width: 0, height: 0)))
        if let watch {
            watch(.opening, session)
            player.afterFrame = { watch(.frame($0), session) }
        }
        var unplayed: [Replay.TimedEvent] = []
        while let chunk = channel.next() {
            if deferring { unplayed.append(contentsOf: chunk) } else { player.feed(chunk) }
        }
        if let failure = channel.failure { throw failure }
        if !deferring { player.finish() }
        let end = channel.ending
        let continuation = end.kept.map {
            Continuation(path: SessionStore.absolute(path), bytes: size, header: header, events: $0.events, pictures: $0.pictures,
                         beside: $0.beside)
        }
        return Loaded(session: session, endedCleanly: end.endedCleanly, stoppedAt: end.stop, historyLost: end.historyLost,
                      strokes: end.strokes, continuation: continuation, unplayed: deferring ? unplayed : nil)
    }

    /// The parsing thread: streams lines through the parser, reads the pictures they name,
    /// hands events over in chunks.
    private static func parse(_ path: String, reading: Reading, keeping: Bool, into channel: EventChannel) {
        // All the per-line state in one value: the line closure captures that alone (each
        // captured variable it changed cost an exclusivity check on every line).
        var lines = JournalLines(folder: FilePath.folder(of: path), channel: channel, keeping: keeping, recovering: reading == .recovering)
        do {
            try LineReader.forEachLine(in: path) { bytes, terminated in
                if (lines.line + 1) % 4096 == 0, channel.isCancelled { throw CancellationError() }
                do throws(ReplayError) {
                    try lines.take(bytes)
                } catch {
                    guard reading == .recovering || (reading == .toleratingCutOff && !terminated), lines.line > 1 else { throw error }
                    lines.ending.stop = Stop(error: error, cutOff: !terminated)
                    throw StopReading()
                }
            }
        } catch is StopReading {
        } catch is CancellationError {
            return  // the playing side went away
        } catch let e as ReplayError {
            return channel.fail(.malformed(path: path, e))
        } catch let e as LineReader.LineTooLong {
            let error = ReplayError(line: e.line, message: "line longer than \(e.limit) bytes", kind: .lineTooLong)
            guard reading == .recovering, e.line > 1 else { return channel.fail(.malformed(path: path, error)) }
            lines.ending.stop = Stop(error: error, cutOff: false)
        } catch let e as FileError {
            return channel.fail(.file(e))
        } catch {
            return channel.fail(.file(FileError(path: path, message: "\(error)")))
        }
        if lines.parser.header == nil {
            return channel.fail(.malformed(path: path, ReplayError(line: 1, message: "empty file: expected the header {\"quicksilver\": 1, \"width\": …, \"height\": …}", kind: .noHeader)))
        }
        channel.put(lines.parser.takeEvents())
        lines.ending.endedCleanly = lines.parser.sawExit
        lines.ending.strokes = lines.parser.pointerUps
        lines.ending.kept = lines.kept
        lines.ending.historyLost = lines.historyLost
        channel.finish(lines.ending)
    }

    /// Ends a recovering read at the line that could not be played.
    private struct StopReading: Error {}
}

/// The parsing thread's work on each line: the parser, the pictures lines name (read beside
/// the file), what a continuing session keeps, and the hand-over of events in chunks.
private struct JournalLines {
    let folder: String
    let channel: EventChannel
    var parser = ReplayParser()
    var ending = EventChannel.Ending()
    var kept: (events: [Replay.TimedEvent], pictures: [String: [UInt8]], beside: Set<String>)?
    var line = 0
    /// A recovering read: a history that cannot be read is done without.
    let recovering: Bool
    /// Why the history the header names was done without.
    var historyLost: ReplayError?
    /// Where a MyPaint brush given by name alone is found.
    let brushes = InstalledBrushes()

    init(folder: String, channel: EventChannel, keeping: Bool, recovering: Bool) {
        self.folder = folder
        self.channel = channel
        self.recovering = recovering
        if keeping { kept = ([], [:], []) }
    }

    /// Parses line `line + 1`; its event is then with the parser's (a paste with its picture).
    /// A line parsed but not to be played (a picture it names cannot be read) throws, and its
    /// event goes no further.
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>) throws(ReplayError) {
        line += 1
        let fast = parser.fastLines, before = parser.events.count
        try parser.feed(bytes)
        do throws(ReplayError) { try complete(fast: fast) } catch {
            if parser.events.count > before {
                var events = parser.takeEvents()
                events.removeLast()
                channel.put(events)
            }
            throw error
        }
    }

    /// What a line parsed needs besides: the header its snapshot and history, a paste its
    /// picture, an undo or redo the history (when it was lost); keeps what is to be kept.
    private mutating func complete(fast: Int) throws(ReplayError) {
        if line == 1, let header = parser.header {
            var snapshot: DocumentImage?, history: HistoryImage?
            if let name = header.snapshot { snapshot = try document(name, header) }
            if snapshot == nil, let picture = header.opened { snapshot = try document(opened: picture, header) }
            if let name = header.history {
                do throws(ReplayError) { history = try self.history(name, header, snapshot) } catch {
                    guard recovering else { throw error }
                    historyLost = error
                }
            }
            channel.put(EventChannel.Opening(header: header, snapshot: snapshot, history: history))
            return
        }
        // A pointer line the fast path read needs nothing more (most lines): the event is not
        // even looked at unless it is kept.
        if parser.fastLines == fast {
            guard var last = parser.lastEvent else { return }
            switch last.event {
            case .command(.paste(var p)):
                let image = try picture(p.file, "pasted picture")
                p.size = Size(width: image.width, height: image.height)
                p.pixels = image.pixels
                last.event = .command(.paste(p))
                parser.lastEvent = last
                kept?.events.append(Replay.TimedEvent(t: last.t, event: .command(.paste(PastedImage(file: p.file, x: p.x, y: p.y)))))
            case .command(.mypaint):
                // Played with its settings: the embedded ones checked, else the installed brush's.
                last = try brushes.completed(last, line: line)
                parser.lastEvent = last
                kept?.events.append(last)
            case .command(.exit): break
            case .command(.undo), .command(.redo):
                if historyLost != nil { throw ReplayError(line: line, message: "an undo or redo may reach into the undo history, which cannot be read") }
                kept?.events.append(last)
            default: kept?.events.append(last)
            }
        } else if kept != nil, let last = parser.lastEvent {
            kept?.events.append(last)
        }
        if parser.events.count >= 4096 { channel.put(parser.takeEvents()) }
    }

    /// A picture beside the file, for the event on `line`; its bytes kept when asked.
    private mutating func picture(_ name: String, _ what: String) throws(ReplayError) -> PNGImage {
        func failure(_ why: String) -> ReplayError {
            ReplayError(line: line, message: "cannot read the \(what) \(JSON.quoted(name)): \(why)", kind: .unreadablePicture)
        }
        let bytes: [UInt8], image: PNGImage
        do { bytes = try FileBytes.read(folder + "/" + name, limit: 1 << 30) } catch { throw failure(error.message) }
        do { image = try PNGImage.decode(bytes, maxSide: Replay.Header.sizes.upperBound) } catch { throw failure(error.message) }
        kept?.pictures[name] = bytes
        kept?.beside.insert(name)
        return image
    }

    /// The undo history beside the file, checked against the document it was taken with: the
    /// snapshot's (or, with none, the blank canvas). Its bytes kept when asked.
    private mutating func history(_ name: String, _ header: Replay.Header, _ snapshot: DocumentImage?) throws(ReplayError) -> HistoryImage {
        func failure(_ why: String) -> ReplayError {
            ReplayError(line: line, message: "cannot read the undo history \(JSON.quoted(name)): \(why)")
        }
        let storage = Size(width: max(header.size.width, snapshot?.size.width ?? 0), height: max(header.size.height, snapshot?.size.height ?? 0))
        let limit = HistoryFile.memoryLimit(undoBytes: header.undoBytes, storage: storage, layers: max(snapshot?.layers.count ?? 1, 1))
        let bytes: [UInt8], image: HistoryImage
        do { bytes = try FileBytes.read(folder + "/" + name, limit: limit + limit / 8 + (64 << 20)) } catch { throw failure(error.message) }
        do { image = try HistoryFile.decode(bytes, memoryLimit: limit) } catch { throw failure(error.message) }
        do { try image.check(size: header.size, snapshot: snapshot) } catch { throw failure("it does not fit the snapshot: \(error.message)") }
        kept?.pictures[name] = bytes
        kept?.beside.insert(name)
        return image
    }

    /// The document of the picture a session opened: from its copy beside the file when that is
    /// there and whole, else from the picture itself while it holds the bytes it was opened with.
    private mutating func document(opened picture: OpenedPicture, _ header: Replay.Header) throws(ReplayError) -> DocumentImage {
        let copy = folder + "/" + picture.copy
        for place in [copy, picture.path] {
            guard let bytes = try? FileBytes.read(place, limit: OpenedFile.byteLimit), FileHash.of(bytes) == picture.hash else { continue }
            do {
                let image = try OpenedFile(path: picture.path, bytes: bytes)
                    .document(background: header.background, maxSide: Replay.Header.sizes.upperBound, readablePath: place).image
                kept?.pictures[picture.copy] = bytes
                if place == copy { kept?.beside.insert(picture.copy) }
                return image
            } catch {
                throw ReplayError(line: line, message: "cannot read the picture the session opened, \(JSON.quoted(place)): \(error.message)",
                                  kind: .unreadablePicture)
            }
        }
        throw ReplayError(line: line, message: "the picture the session opened, \(JSON.quoted(picture.path)), is gone or has changed, "
                          + "and its copy \(JSON.quoted(picture.copy)) is not beside the file", kind: .unreadablePicture)
    }

    /// The document a snapshot holds: an OpenRaster file, or a PNG of a canvas from before layers.
    private mutating func document(_ name: String, _ header: Replay.Header) throws(ReplayError) -> DocumentImage {
        guard DocumentFile.isOpenRaster(name) else {
            let image = try picture(name, "snapshot")
            return DocumentImage.legacyCanvas(image.pixels, size: Size(width: image.width, height: image.height), background: header.background)
        }
        do {
            // Read once: the bytes kept are the bytes decoded.
            let bytes = try FileBytes.read(folder + "/" + name, limit: DocumentLimits.fileBytes)
            kept?.pictures[name] = bytes
            kept?.beside.insert(name)
            return try DocumentFile.decode(ora: bytes, name: folder + "/" + name, maxSide: Replay.Header.sizes.upperBound).image
        } catch {
            throw ReplayError(line: line, message: "cannot read the snapshot \(JSON.quoted(name)): \(error.message)", kind: .unreadablePicture)
        }
    }
}
