import Dispatch
import Files
import Paint
import ReplayFormat

/// Compaction, and the big files beside a journal: made on a queue of their own, so that the
/// lines drawn meanwhile reach the disk as fast as any others, in the journal that is valid now.
///
/// A compaction replaces the journal by a snapshot of the canvas, its undo history, the brush
/// and the view: the file stays bounded, and undo and redo reach as far back as before, in
/// the window and in a replay of the new file alike. Its snapshot and history take seconds to
/// encode and write for a big document; until they are on disk the old journal goes on taking
/// every line (and naming its own files), and the lines written to it since the compaction
/// began (its `tail`) are the new journal's first events, so a kill at any moment finds one
/// journal or the other whole, every line it was given in it.
extension Journal {
    /// A compaction under way: the lines written to the old journal since it began.
    struct Compaction {
        var tail: [UInt8] = []
    }

    /// Begins a compaction of the session as it is now (between strokes). Pixels are copied and
    /// the history's tiles taken here, on the frame loop; encoding and writing happen beside.
    func compact(_ session: Session) {
        bytesSinceSnapshot = 0
        generation += 1
        session.settle()
        // A document too large for a snapshot stays in the journal's events (nothing is lost;
        // the journal is longer until it fits again).
        guard session.layersTooLargeToWrite() == nil else { return }
        var header = firstHeader
        header.size = session.document.storageSize
        // The snapshot holds the document now: the picture opened is not named any more.
        header.opened = nil
        let opening = Opening(header: header, snapshot: Opening.snapshot(of: session),
                              history: .capture(session.historyCapture()),
                              lines: Self.stateLines(of: session, brush: session.brush, header: header, document: document))
        let baked = pastedFiles
        pastedFiles = []
        let generation = self.generation
        queue.async { [self] in
            // The pastes the snapshot bakes in go once a new journal no longer names them (the
            // old one does until then). Only a compaction that starts takes them: one already
            // under way took its snapshot before these pastes, and its new journal names them
            // in its tail, so they wait for the next.
            bakedFiles += baked
            // Lines the disk refused belong before the snapshot, which holds them: with any
            // waiting, the old journal stays (the next stroke past the limit tries again).
            guard file != nil, compaction == nil, unwritten.isEmpty else { return }
            let removing = bakedFiles
            bakedFiles = []
            compaction = Compaction()
            besideQueue.async { [self] in
                let made: Result<(Replay.Header, [String]), FileError>
                do throws(FileError) {
                    made = .success(try Self.writeBeside(path: path, opening, generation: generation))
                } catch {
                    made = .failure(error)
                }
                queue.async { [self] in switchOver(made, lines: opening.lines, removing: removing) }
            }
        }
    }

    /// On the queue: the compaction's files are on disk (or could not be made); the new journal
    /// is written from its header, its state lines and the tail, synced and renamed over the old
    /// one, whose files then go. On any failure the old journal simply stays.
    private func switchOver(_ made: Result<(Replay.Header, [String]), FileError>, lines: [String], removing baked: [String]) {
        let tail = compaction?.tail ?? []
        compaction = nil
        guard case .success(let (header, written)) = made else {
            bakedFiles += baked
            return
        }
        let folder = FilePath.folder(of: path)
        do throws(FileError) {
            let writer = try Self.startJournal(path: path, header: header, lines: lines, then: tail, locking: kind.locks)
            let names = Beside(snapshot: header.snapshot, history: header.history, opened: header.opened?.copy)
            for old in beside.names where !names.names.contains(old) { AtomicFile.remove(folder + "/" + old) }
            for name in baked { AtomicFile.remove(folder + "/" + name) }
            file = writer
            beside = names
            // What was written but not yet synced is in the tail, synced in the new file.
            (unsynced, unsyncedStrokes) = ([], 0)
        } catch {
            for name in written { AtomicFile.remove(folder + "/" + name) }
            bakedFiles += baked
        }
    }

    /// Beside: writes an opened picture's copy, which the journal names; tried again a second
    /// later while the disk refuses it (the journal plays from the picture itself meanwhile),
    /// and given up once a compaction has replaced the journal that names it.
    func writeBeside(_ copy: (name: String, bytes: [UInt8])) {
        guard queue.sync(execute: { beside.opened == copy.name }) else { return }
        do throws(FileError) {
            try AtomicFile.write(copy.bytes, to: FilePath.folder(of: path) + "/" + copy.name)
        } catch {
            besideQueue.asyncAfter(deadline: .now() + Self.retryInterval) { [self] in writeBeside(copy) }
        }
    }
}
