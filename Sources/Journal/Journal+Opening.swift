import Events
import Files
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// How a journal file begins, and how it is made: the files beside it (snapshot, history,
/// pictures) written whole first, then the journal beside its old self, synced and renamed
/// over it.
extension Journal {
    /// How a journal file begins: its header, the document it starts from and its undo history,
    /// pictures to keep beside it, then either the state lines of a fresh start or the events of
    /// the session it continues. Written (encoded, serialised) on the queue, off the frame loop.
    struct Opening: @unchecked Sendable {
        enum Snapshot {
            /// The document's layers, written as OpenRaster.
            case document(DocumentImage, merged: Paint.Snapshot)
            /// A file's bytes as they were (the snapshot of the session continued), and its extension.
            case file([UInt8], ext: String)
        }

        /// `session`'s layers as a snapshot: its stack the canvas at 0,0 of the layers' storage
        /// size, its merged image too (the frame may lie elsewhere, or be smaller: the opening
        /// lines put it back). Call after `settle()`.
        static func snapshot(of session: Session) -> Snapshot {
            let image = session.documentImage()
            return .document(image, merged: session.snapshot(of: Rect(size: image.size)))
        }

        enum History {
            /// The document's undo history, as taken on the frame loop: made into an image and
            /// encoded as a `HistoryFile` on the queue.
            case capture(HistoryImage.Capture)
            /// The document's undo history, encoded as a `HistoryFile`.
            case image(HistoryImage)
            /// A history file's bytes as they were (that of the session continued).
            case file([UInt8])
        }
        var header: Replay.Header
        var snapshot: Snapshot?
        /// Its steps refer to the layers of the snapshot (of a blank canvas without one).
        var history: History?
        var pictures: [(name: String, bytes: [UInt8])] = []
        /// Files that hold the same bytes as the snapshot (`snapshotRole`), the history
        /// (`historyRole`) or a picture (its name), written whole by a journal and never changed:
        /// linked rather than written, where they can be.
        var links: [String: String] = [:]
        static let snapshotRole = "snapshot", historyRole = "history"
        var lines: [String] = []
        var events: [Replay.TimedEvent] = []
    }

    /// The files a journal names beside it: its snapshot, its history, an opened picture's copy.
    struct Beside {
        var snapshot: String?
        var history: String?
        var opened: String?
        var names: [String] { [snapshot, history, opened].compactMap { $0 } }
    }

    /// The lines after a header that set a session's state as it is: the brush, the frame, the
    /// view, its filters and the symmetry where they are not the defaults, and the document's
    /// file where one is known.
    static func stateLines(of session: Session, brush: Brush?, header: Replay.Header, document: DocumentNote? = nil) -> [String] {
        var lines = Array(Replay.openingLines(header, brush: brush, frame: session.document.frame).dropFirst())
        var events: [SessionEvent] = []
        let view = session.view
        if view.invert { events.append(.command(.invert(true))) }
        if let p = view.pulse { events.append(.command(.pulse(on: true, hue: p.hue, centre: p.centre, range: p.range))) }
        if view.transform != .identity { events.append(.view(view.transform)) }
        if session.symmetry != .off { events.append(.command(.symmetry(session.symmetry))) }
        if let document { events.append(document.event) }
        lines += events.map { Replay.line(for: Replay.TimedEvent(t: 0, event: $0)) }
        return lines
    }

    /// Writes a new journal beside `path` (its snapshot, history and pictures, header, opening
    /// lines or events), locks and syncs it and renames it over `path`. Returns the open writer
    /// and the names of the snapshot and history it refers to. Every file is written whole and
    /// synced before the journal that names it is renamed into place, so a crash at any moment
    /// leaves the old journal with its own files, or the new one with its; on failure nothing
    /// it wrote is left behind.
    static func startFile(path: String, _ opening: Opening, generation: Int, locking: Bool)
        throws(FileError) -> (LineWriter, Beside) {
        let (header, written) = try writeBeside(path: path, opening, generation: generation)
        do throws(FileError) {
            var events: [UInt8] = []
            for e in opening.events {
                events.append(contentsOf: Replay.line(for: e).utf8)
                events.append(0x0a)
            }
            let writer = try startJournal(path: path, header: header, lines: opening.lines, then: events, locking: locking)
            return (writer, Beside(snapshot: header.snapshot, history: header.history, opened: header.opened?.copy))
        } catch {
            for name in written { AtomicFile.remove(FilePath.folder(of: path) + "/" + name) }
            throw error
        }
    }

    /// Writes the files an opening names beside the journal at `path` (its snapshot, history
    /// and pictures), each whole and synced; returns the header naming them and their names. On
    /// failure nothing it wrote is left behind.
    static func writeBeside(path: String, _ opening: Opening, generation: Int) throws(FileError) -> (Replay.Header, [String]) {
        var header = opening.header
        let folder = FilePath.folder(of: path)
        var written: [String] = []
        do throws(FileError) {
            // Fresh names each time: the journal being replaced may still refer to the old ones.
            let base = FilePath.baseName(of: path), tag = "\(UInt32.random(in: .min ... .max))-\(generation)"
            if let snapshot = opening.snapshot {
                let name: String
                switch snapshot {
                case .file(let bytes, let ext):
                    name = base + ".snapshot-" + tag + "." + ext
                    try put(bytes, at: folder + "/" + name, linking: opening.links[Opening.snapshotRole])
                case .document(let image, let merged):
                    name = base + ".snapshot-" + tag + ".ora"
                    // In the canvas's own coordinates (the frame's place is in the opening lines,
                    // `Opening.snapshot(of:)`), so the events after it land where they did.
                    try DocumentFile.write(image, merged: PNGImage(width: merged.width, height: merged.height, pixels: merged.pixels),
                                           to: folder + "/" + name, canvas: Rect(size: image.size))
                }
                written.append(name)
                header.snapshot = name
            }
            if let history = opening.history {
                let name = base + ".history-" + tag + "." + HistoryFile.fileExtension
                let (bytes, source): ([UInt8], String?) = switch history {
                case .capture(let capture): (HistoryFile.encode(HistoryImage(capture)), nil)
                case .image(let image): (HistoryFile.encode(image), nil)
                case .file(let bytes): (bytes, opening.links[Opening.historyRole])
                }
                try put(bytes, at: folder + "/" + name, linking: source)
                written.append(name)
                header.history = name
            }
            for picture in opening.pictures {
                try put(picture.bytes, at: folder + "/" + picture.name, linking: opening.links[picture.name])
                written.append(picture.name)
            }
            // The links made above, synced once: a folder sync each (a session continued after
            // many pastes links one per paste) held its first lines back for hundreds of
            // milliseconds on a busy disk, and a chaos kill then lost a stroke drawn meanwhile.
            if !opening.links.isEmpty { AtomicFile.syncFolder(folder) }
            return (header, written)
        } catch {
            for name in written { AtomicFile.remove(folder + "/" + name) }
            throw error
        }
    }

    /// Writes `bytes` whole at `path`, or links `source` there when it holds them (see
    /// `Opening.links`): a continued session's files take no time however big.
    private static func put(_ bytes: [UInt8], at path: String, linking source: String?) throws(FileError) {
        if let source, AtomicFile.link(source, to: path, size: bytes.count, syncing: false) { return }
        try AtomicFile.write(bytes, to: path)
    }

    /// Writes a journal beside `path` (its header, `lines`, then the bytes of whole lines
    /// `then`), locks and syncs it and renames it over `path`: the open writer. On failure
    /// nothing is left behind.
    static func startJournal(path: String, header: Replay.Header, lines: [String], then bytes: [UInt8], locking: Bool)
        throws(FileError) -> LineWriter {
        let temp = path + ".new"
        do throws(FileError) {
            let writer = try LineWriter(creating: temp)
            if locking { try writer.lock() }
            writer.append(Replay.line(for: header))
            for line in lines { writer.append(line) }
            try writer.write(bytes)
            try writer.sync()
            try writer.rename(to: path)
            return writer
        } catch {
            AtomicFile.remove(temp)
            throw error
        }
    }
}
