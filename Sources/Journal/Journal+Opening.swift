import Events
import Files
import Geometry
import Paint
import PNGFile
import ReplayFormat

/// How a journal file begins, and how it is made: the files beside it written whole first,
/// then the journal beside its old self, synced and renamed over it.
extension Journal {
    /// How a journal file begins: its header, the canvas it starts from, pictures to keep
    /// beside it, then either the state lines of a fresh start or the events of the session it
    /// continues. Written (encoded, serialised) on the queue, off the frame loop.
    struct Opening: @unchecked Sendable {
        enum Snapshot {
            /// The document's layers, written as OpenRaster.
            case document(DocumentImage, merged: Paint.Snapshot)
            /// A file's bytes as they were (the snapshot of the session continued), and its extension.
            case file([UInt8], ext: String)
        }
        var header: Replay.Header
        var snapshot: Snapshot?
        var pictures: [(name: String, bytes: [UInt8])] = []
        var lines: [String] = []
        var events: [Replay.TimedEvent] = []
    }

    /// The lines after a header that set a session's state as it is: the brush, the shown
    /// size, and the view and its filters where they are not the defaults.
    static func stateLines(of session: Session, brush: Brush?, header: Replay.Header) -> [String] {
        var lines = Array(Replay.openingLines(header, brush: brush, visibleSize: session.document.visibleSize).dropFirst())
        var events: [SessionEvent] = []
        let view = session.view
        if view.invert { events.append(.command(.invert(true))) }
        if let p = view.pulse { events.append(.command(.pulse(on: true, hue: p.hue, centre: p.centre, range: p.range))) }
        if view.transform != .identity { events.append(.view(view.transform)) }
        lines += events.map { Replay.line(for: Replay.TimedEvent(t: 0, event: $0)) }
        return lines
    }

    /// Writes a new journal beside `path` (its snapshot and pictures, header, opening lines or
    /// events), locks and syncs it and renames it over `path`. Returns the open writer and the
    /// snapshot's name. On failure nothing it wrote is left behind.
    static func startFile(path: String, _ opening: Opening, generation: Int, locking: Bool)
        throws(FileError) -> (LineWriter, String?) {
        var header = opening.header
        let folder = FilePath.folder(of: path), temp = path + ".new"
        var written: [String] = []
        do throws(FileError) {
            if let snapshot = opening.snapshot {
                // A fresh name each time: the journal being replaced may still refer to the old one.
                let base = FilePath.baseName(of: path) + ".snapshot-\(UInt32.random(in: .min ... .max))-\(generation)"
                let name: String
                switch snapshot {
                case .file(let bytes, let ext):
                    name = base + "." + ext
                    try AtomicFile.write(bytes, to: folder + "/" + name)
                case .document(let image, let merged):
                    name = base + ".ora"
                    try DocumentFile.write(image, merged: PNGImage(width: merged.width, height: merged.height, pixels: merged.pixels),
                                           to: folder + "/" + name)
                }
                written.append(name)
                header.snapshot = name
            }
            for picture in opening.pictures {
                try AtomicFile.write(picture.bytes, to: folder + "/" + picture.name)
                written.append(picture.name)
            }
            let writer = try LineWriter(creating: temp)
            if locking { try writer.lock() }
            writer.append(Replay.line(for: header))
            for line in opening.lines { writer.append(line) }
            var events: [UInt8] = []
            for e in opening.events {
                events.append(contentsOf: Replay.line(for: e).utf8)
                events.append(0x0a)
                if events.count >= 1 << 20 { try writer.write(events); events.removeAll(keepingCapacity: true) }
            }
            try writer.write(events)
            try writer.sync()
            try writer.rename(to: path)
            return (writer, header.snapshot)
        } catch {
            AtomicFile.remove(temp)
            for name in written { AtomicFile.remove(folder + "/" + name) }
            throw error
        }
    }
}
