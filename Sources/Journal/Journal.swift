// Journal: never lose a stroke. Start with `Journal`: the window hands it every event it acts
// on; it writes them in the replay format from a background queue (so drawing never waits on
// the disk), syncs when a stroke ends and at least every 100 ms while drawing, marks a clean
// exit, and compacts itself past a size limit into a snapshot of the document, its undo history
// (`HistoryFile`) and the events since. A write that fails (a full disk, a read-only folder) is
// cut back to the last whole line, the lines wait in memory, and they are written as soon as the
// disk takes them again; `health` says so at once. `--record` files are journals too, of their
// own kind.
// `Continuation` is what a continued session's journal opens with, so it replays on its own.
// `SessionStore` is the folder of sessions, one journal each: it names new ones, lists them,
// says which one a start must recover, and prunes the oldest. `Playback` turns a replay or
// journal (and its pictures) back into a session: the one way any file is played.
import Compute
import Dispatch
import Events
import Files
import Foundation
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// A session journal (or a `--record` file) on disk.
///
/// A session's journal is made when the session first changes something (a stroke, a clear,
/// an undo): a session that changes nothing leaves nothing behind. While the journal is open
/// the file is locked, so another process can tell a live session from one a crash left.
///
/// Threading: every method is called from the frame loop's thread; file work happens on a
/// private serial queue, in order, and the big files beside it (a compaction's snapshot and
/// history, an opened picture's copy) on a second one, so that lines keep reaching the disk
/// while those are made. Nothing the frame loop calls blocks on the disk except `close()`,
/// `flushNow()` and `keep(picture:as:)`, which must.
public final class Journal: @unchecked Sendable {
    public enum Kind: Sendable {
        /// A session's journal in the sessions folder: made at the first change, locked while
        /// open, compacted past `compactAfterBytes`, ended by an `exit` line.
        case session(compactAfterBytes: Int)
        /// A `--record` file: made at once, never compacted.
        case recording
    }

    /// Whether what was recorded reaches the disk.
    public enum Health: Sendable, Equatable {
        case writing
        /// The last write failed: the lines wait in memory and are tried again every second.
        case failing(FileError)
    }

    public let path: String
    public let kind: Kind
    /// True once the file has been asked for (the session changed something).
    public private(set) var isStarted = false

    /// How long a failed write waits before it is tried again.
    static let retryInterval = 1.0

    let queue = DispatchQueue(label: "quicksilver.journal")
    /// Where the files beside the journal are made: a compaction's snapshot and history, an
    /// opened picture's copy (see `Journal+Compaction.swift`).
    let besideQueue = DispatchQueue(label: "quicksilver.journal.beside")
    private let onHealthChange: @Sendable () -> Void
    /// The first header, whose identity (when the session started, what it continues, its undo
    /// memory) every compacted file keeps.
    let firstHeader: Replay.Header

    // Frame-loop state.
    /// Lines not yet handed to the queue, and the strokes they end.
    private var pending: [UInt8] = []
    private var pendingStrokes = 0
    private var lastHandOff = -Double.infinity
    var bytesSinceSnapshot = 0
    private var lastT = 0.0
    var generation = 0
    /// Pictures beside the file that it names (pastes): a compaction bakes them into its snapshot.
    var pastedFiles: [String] = []
    /// The document's file as the events so far tell it: a compaction, which bakes them into
    /// its snapshot, names it again.
    var document: DocumentNote?

    // Queue state.
    /// The file being written (nil until made).
    var file: LineWriter?
    /// The first file, still to be made from this opening before anything else is written (or
    /// one whose making failed and is tried again).
    private var toStart: Opening?
    /// An opened picture's copy, to be written beside the journal once it has started.
    private var copyToWrite: (name: String, bytes: [UInt8])?
    /// A compaction under way: its files are being made beside; the lines written meanwhile
    /// (`tail`) go into the old file and, once they are made, into the new one.
    var compaction: Compaction?
    /// Lines accepted but not yet written, and lines written since the last sync (written
    /// again if the sync fails), with the strokes each ends.
    var unwritten: [UInt8] = []
    var unsynced: [UInt8] = []
    var unwrittenStrokes = 0, unsyncedStrokes = 0
    /// The files the journal names beside it (removed once a new file names others).
    var beside = Beside()
    private var retryScheduled = false

    // Shared, under `lock`.
    private let lock = NSLock()
    private var currentHealth = Health.writing
    private var unsavedStrokes = 0

    /// A journal at `path` for `session` as it is now. When the session continues a file,
    /// `continuing` is what it was played from: the journal opens with its events, so undo and
    /// redo replay as the window plays them. When it opened a picture, `opened` is it: the
    /// journal names it at once, and a copy of its bytes follows once the journal has started.
    /// Otherwise a canvas that is not blank becomes the journal's snapshot.
    ///
    /// A session's journal is made at its first change; a recording now (so a bad path is
    /// reported at once).
    public init(path: String, kind: Kind = .session(compactAfterBytes: 64 << 20), session: Session, header: Replay.Header,
                continuing: Continuation? = nil, opened: OpenedFile? = nil,
                onHealthChange: @escaping @Sendable () -> Void = {}) throws(FileError) {
        self.path = path
        self.kind = kind
        self.onHealthChange = onHealthChange
        var header = header
        header.size = session.document.storageSize
        // How the session sprays is the session's (a continued one's is the file's it played).
        header.sprayFromStroke = session.sprayFromStroke
        var opening: Opening
        if let c = continuing {
            header.size = c.header.size
            header.seed = c.header.seed
            header.background = c.header.background
            header.undoMegabytes = c.header.undoMegabytes
            header.continues = c.path
            header.continuesBytes = c.bytes
            opening = Opening(header: header, snapshot: c.header.snapshot.flatMap { name in
                c.pictures[name].map { .file($0, ext: FilePath.extension(of: name)) }
            }, history: c.header.history.flatMap { c.pictures[$0] }.map { .file($0) })
            // The files beside a journal continued in this folder are linked, not copied: the
            // new journal, and every line after it, is on disk at once, however big they are.
            let folder = FilePath.folder(of: c.path)
            let sameFolder = folder == FilePath.folder(of: SessionStore.absolute(path))
            func link(_ name: String?, as role: String) {
                if sameFolder, let name, c.beside.contains(name) { opening.links[role] = folder + "/" + name }
            }
            link(c.header.snapshot, as: Opening.snapshotRole)
            link(c.header.history, as: Opening.historyRole)
            // The picture the continued session opened: its copy comes along, under a new name.
            if let picture = c.header.opened, let bytes = c.pictures[picture.copy] {
                let copy = Self.copyName(path, ext: FilePath.extension(of: picture.copy))
                opening.header.opened = OpenedPicture(path: picture.path, hash: picture.hash, copy: copy)
                opening.pictures.append((copy, bytes))
                link(picture.copy, as: copy)
            }
            var renamed: [String: String] = [:]
            opening.events = c.events.map { e in
                guard case .command(.paste(var p)) = e.event else { return e }
                let name = renamed[p.file] ?? {
                    let new = FilePath.baseName(of: path) + ".earlier-paste-\(renamed.count + 1).png"
                    renamed[p.file] = new
                    opening.pictures.append((new, c.pictures[p.file] ?? []))
                    link(p.file, as: new)
                    return new
                }()
                p.file = name
                return Replay.TimedEvent(t: e.t, event: .command(.paste(p)))
            }
            pastedFiles = opening.pictures.map(\.name)
            document = DocumentNote.after(c.events, opened: c.header.opened?.path)
        } else if let opened, session.historyImage().isEmpty {
            document = DocumentNote(file: opened.path)
            // Named at once; its bytes follow, beside, once the journal has started.
            let copy = Self.copyName(path, ext: opened.ext)
            header.opened = OpenedPicture(path: opened.path, hash: opened.hash, copy: copy)
            opening = Opening(header: header)
            copyToWrite = (copy, opened.bytes)
            let brush: Brush? = if case .recording = kind, session.brush == Brush() { nil } else { session.brush }
            opening.lines = Self.stateLines(of: session, brush: brush, header: header)
        } else {
            session.settle()
            // A session with undo steps already (none opened from a picture has any) writes
            // them beside a snapshot, which their layers refer to, even of a blank canvas.
            let history = session.historyImage()
            opening = Opening(header: header, snapshot: session.hasPaint || !history.isEmpty ? Opening.snapshot(of: session) : nil,
                              history: history.isEmpty ? nil : .image(history))
            let brush: Brush? = if case .recording = kind, session.brush == Brush() { nil } else { session.brush }
            opening.lines = Self.stateLines(of: session, brush: brush, header: header)
        }
        firstHeader = header
        if case .recording = kind {
            isStarted = true
            (file, beside) = try Self.startFile(path: path, opening, generation: 0, locking: false)
            if let copy = copyToWrite {
                copyToWrite = nil
                besideQueue.async { [self] in writeBeside(copy) }
            }
        } else {
            toStart = opening
        }
    }

    /// A fresh name beside the journal at `path` for a copy of an opened picture.
    static func copyName(_ path: String, ext: String) -> String {
        FilePath.baseName(of: path) + ".opened-\(UInt32.random(in: .min ... .max))." + ext
    }

    /// What the journal's writes have come to (read at every wake-up of the frame loop).
    public var health: Health { lock.withLock { currentHealth } }

    /// Strokes that are not on disk yet because writing failed.
    public var strokesNotSaved: Int { lock.withLock { unsavedStrokes } }

    /// Queues one event line; the first event that changes something starts the file. A paste
    /// names its picture as `keep(picture:as:)` kept it.
    public func record(_ event: Replay.TimedEvent) {
        var event = event
        if case .command(.paste(var p)) = event.event {
            p.file = FilePath.baseName(of: path) + "." + p.file
            pastedFiles.append(p.file)
            event.event = .command(.paste(p))
        }
        pending.append(contentsOf: Replay.line(for: event).utf8)
        pending.append(0x0a)
        if case .pointerUp = event.event { pendingStrokes += 1 }
        DocumentNote.noting(event.event, in: &document)
        lastT = max(lastT, event.t)
        if !isStarted, event.event.changesThePicture { isStarted = true }
    }

    /// Keeps a pasted picture's PNG beside the journal as `<journal>.<name>`, now, before its
    /// paste is recorded: a journal naming a picture that is not there could not be replayed.
    public func keep(picture png: [UInt8], as name: String) throws(FileError) {
        try AtomicFile.write(png, to: path + "." + name)
    }

    /// Called every wake-up of the frame loop: hands pending lines to the writer at least every
    /// 100 ms.
    public func tick(now: Double) {
        if isStarted, !pending.isEmpty, now - lastHandOff >= 0.1 { handOff(sync: false, now: now) }
    }

    /// A stroke (or command) ended: write and fsync. Compacts when the journal has grown past
    /// its limit, no stroke is live, the disk is taking writes and no compaction is under way.
    public func strokeEnded(now: Double, session: Session) {
        guard isStarted else { return }
        handOff(sync: true, now: now)
        if case .session(let limit) = kind, bytesSinceSnapshot > limit, !session.isStroking, health == .writing { compact(session) }
    }

    /// Marks a clean exit (a session's `exit` line) and waits until everything is on disk.
    /// Returns why it could not be, if so: then no `exit` is written (the file must not pass
    /// for a whole session), and the next start recovers what reached the disk.
    public func close() -> FileError? {
        guard isStarted else { return nil }
        handOff(sync: true, now: lastHandOff)
        waitForBeside()
        return queue.sync { () -> FileError? in
            if case .failing(let e) = currentHealth { return e }
            guard let file else { return nil }
            if case .session = kind {
                do throws(FileError) {
                    try file.write(Array((Replay.exitLine(t: lastT) + "\n").utf8))
                    try file.sync()
                } catch {
                    return error
                }
            }
            self.file = nil
            return nil
        }
    }

    /// Writes and syncs everything now, waiting for it (a signal, a lost X connection), and
    /// for what is being made beside (a compaction switches over; an opened picture's copy).
    public func flushNow() {
        guard isStarted else { return }
        handOff(sync: true, now: lastHandOff)
        waitForBeside()
    }

    /// Waits for the queue, for the work it handed beside, and for what that handed back.
    private func waitForBeside() {
        queue.sync {}
        besideQueue.sync {}
        queue.sync {}
    }

    func handOff(sync: Bool, now: Double) {
        let bytes = pending, strokes = pendingStrokes
        pending.removeAll(keepingCapacity: true)
        pendingStrokes = 0
        lastHandOff = now
        bytesSinceSnapshot += bytes.count
        queue.async { [self] in
            unwritten += bytes
            unwrittenStrokes += strokes
            writeOut(sync: sync)
        }
    }

    // MARK: - On the queue

    /// Makes the file if it is to be made, then writes what waits, whole lines or nothing; a
    /// failure is reported and tried again a second later.
    func writeOut(sync: Bool) {
        do throws(FileError) {
            if var opening = toStart {
                // Encoded once, not again at each retry of a disk that refuses the file.
                switch opening.history {
                case .capture(let capture)?: opening.history = .file(HistoryFile.encode(HistoryImage(capture)))
                case .image(let image)?: opening.history = .file(HistoryFile.encode(image))
                case .file?, nil: break
                }
                toStart = opening
                let (writer, names) = try Self.startFile(path: path, opening, generation: generation, locking: kind.locks)
                let folder = FilePath.folder(of: path)
                for old in beside.names where !names.names.contains(old) { AtomicFile.remove(folder + "/" + old) }
                for baked in bakedFiles { AtomicFile.remove(folder + "/" + baked) }
                bakedFiles = []
                file = writer
                beside = names
                toStart = nil
                if let copy = copyToWrite {
                    copyToWrite = nil
                    besideQueue.async { [self] in writeBeside(copy) }
                }
            }
            guard let file else { return }
            if !unwritten.isEmpty {
                try file.write(unwritten)
                compaction?.tail += unwritten
                unsynced += unwritten
                unsyncedStrokes += unwrittenStrokes
                unwritten.removeAll(keepingCapacity: true)
                unwrittenStrokes = 0
            }
            if sync {
                let syncedLength = file.length - unsynced.count
                do { try file.sync() } catch {
                    // What failed to sync may never reach the disk: cut it and write it again.
                    file.truncate(to: syncedLength)
                    if var c = compaction {
                        c.tail.removeLast(min(unsynced.count, c.tail.count))
                        compaction = c
                    }
                    unwritten = unsynced + unwritten
                    unwrittenStrokes += unsyncedStrokes
                    (unsynced, unsyncedStrokes) = ([], 0)
                    throw error
                }
                unsynced.removeAll(keepingCapacity: true)
                unsyncedStrokes = 0
            }
            setHealth(.writing)
        } catch {
            setHealth(.failing(error))
            scheduleRetry()
        }
    }

    /// Pasted pictures the compaction being made bakes in: removed once its file is in place.
    var bakedFiles: [String] = []

    func setHealth(_ new: Health) {
        let changed = lock.withLock { () -> Bool in
            unsavedStrokes = unwrittenStrokes + unsyncedStrokes
            guard currentHealth != new else { return false }
            currentHealth = new
            return true
        }
        if changed { onHealthChange() }
    }

    private func scheduleRetry() {
        guard !retryScheduled else { return }
        retryScheduled = true
        queue.asyncAfter(deadline: .now() + Self.retryInterval) { [self] in
            retryScheduled = false
            if currentHealth != .writing { writeOut(sync: true) }
        }
    }
}

extension Journal.Kind {
    /// A session's journal is locked while open; a recording is not.
    var locks: Bool {
        if case .session = self { return true }
        return false
    }
}
