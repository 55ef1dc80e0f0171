import Compute
import Files
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import PNGFile
import ReplayFormat

/// What the window starts from: a blank canvas, the session a crash left (restored on its
/// own), the newest session (`--restore`), or a file: a session or replay to continue, or a
/// picture to paint over. Continuing never changes the file continued from: the new session's
/// journal opens with its events (see `Continuation`), so undo and redo reach back past the
/// restore, in the window and in every replay alike. A session another window still has open
/// is never taken over: this window continues a copy of it as it is now, and says so.
public enum SessionStart {
    public enum Request: Equatable, Sendable {
        /// A plain start: blank, unless a crash left a session, which is restored.
        case fresh
        /// `--restore`: the newest session, however it ended.
        case restore
        /// `quicksilver window FILE`: a PNG picture, or a session or replay file.
        case file(String)
    }

    /// A session to start from (nil: a blank canvas) and what to say about it.
    public struct Started {
        public var session: Session?
        /// The file the session continues, for its journal to open with.
        public var continuation: Continuation?
        /// Lines for stderr about the files read (what was wrong with a journal, a copy made).
        public var notes: [String] = []
        /// The line saying which session was restored: for stderr once the window is open, since
        /// until then nothing has been restored for the user.
        public var restored: String?
        /// With `playing`, the file's events, not yet played into `session` (at its opening
        /// canvas): the window plays them (`Playthrough`). Nil for anything but a session file.
        public var unplayed: [Replay.TimedEvent]?
        /// The picture opened, with its bytes, for the journal to name at once and keep a copy of.
        public var opened: OpenedFile?
        /// The file a continued session's document is kept in, as its events tell it (the
        /// picture it opened, the last file it was saved to), and whether it changed since.
        public var document: DocumentNote?
    }

    /// A file given on the command line that cannot be opened: `FILE: what is wrong`.
    public struct BadFile: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest canvas side (the replay format's limit, and so a picture's).
    public static let maxSide = Replay.Header.sizes.upperBound

    /// - Parameter historyBytes: the undo memory of a new session (a blank canvas or a picture);
    ///   a continued session keeps the one its file gives, which its replays play with.
    /// - Parameter playing: a session file's events are left for the window to play (`unplayed`).
    public static func start(_ request: Request, store: SessionStore?, compute: ComputeContext, historyBytes: Int,
                             background: Color, playing: Bool = false) throws(BadFile) -> Started {
        switch request {
        case .file(let path):
            // A pipe or FIFO (`window /dev/stdin`) can only be a picture: it is read once, and a
            // session names files beside it. One named as a session is said to be what it is,
            // not read as a picture (where "empty file: not a PNG picture" misled).
            if FileBytes.isStream(path) && path.lowercased().hasSuffix(".jsonl") {
                throw BadFile(description: "\(path): \(FileBytes.streamKind(path) ?? "a stream"), not a regular file: the window continues "
                              + "a session or replay from a file, beside the pictures it names (quicksilver render plays one from a pipe)")
            }
            if FileBytes.isStream(path) || isPicture(path) || DocumentFile.isOpenRaster(path) {
                let (session, opened, notes) = try picture(path, compute: compute, historyBytes: historyBytes, background: background)
                var started = Started(session: session, notes: notes)
                started.opened = opened
                return started
            }
            let live = LineWriter.isLocked(path)
            do {
                var started = try continuing(path, reading: live ? .recovering : .toleratingCutOff, deferring: playing, compute: compute).started
                if live { started.notes.insert(copyNote(path), at: 0) }
                return started
            } catch {
                throw BadFile(description: error.description)
            }
        case .restore:
            guard let store, let newest = store.newest() else {
                return Started(notes: ["quicksilver: no previous session to restore\(store.map { " in \($0.folder)" } ?? "")"])
            }
            var started = recover(newest.path, why: "as asked (--restore)", compute: compute)
            if newest.state == .inUse { started.notes.insert(copyNote(newest.path), at: 0) }
            return started
        case .fresh:
            guard let store, let crashed = store.sessionToRecover() else { return Started() }
            return recover(crashed.path, why: "it did not end cleanly", compute: compute)
        }
    }

    private static func copyNote(_ path: String) -> String {
        "quicksilver: \(path) is open in another window: this window continues a copy of it as it is now (what that window draws next stays in its own session)"
    }

    /// A `.png` file, or any regular file that starts with PNG's signature.
    static func isPicture(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".png") { return true }
        guard FileBytes.isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)).map(Array.init) == PNGImage.signature
    }

    /// A session whose document is the picture at `path` (one layer, at its own size), or the
    /// OpenRaster document there (its layers), the file's bytes as they were read, and what
    /// reading it changed.
    static func picture(_ path: String, compute: ComputeContext, historyBytes: Int, background: Color) throws(BadFile)
        -> (session: Session, opened: OpenedFile, notes: [String]) {
        let opened: OpenedFile, image: DocumentImage, notes: [String]
        do {
            opened = try OpenedFile.read(path)
            (image, notes) = try opened.document(background: background, maxSide: maxSide, readablePath: path)
        } catch {
            throw BadFile(description: error.description)
        }
        let session = Session(size: image.size, background: image.background, compute: compute, historyBytes: historyBytes)
        session.load(image)
        return (session, opened, notes.map { "quicksilver: \(path): \($0)" })
    }

    /// Continues the session at `path` as far as it can be read; one that cannot be read at all
    /// is left as it is (the next start, or `quicksilver window PATH`, tries again).
    private static func recover(_ path: String, why: String, compute: ComputeContext) -> Started {
        do {
            var started = try continuing(path, reading: .recovering, compute: compute)
            let strokes = started.strokes
            started.started.restored = "quicksilver: restored the previous session from \(path) (\(strokes) stroke\(strokes == 1 ? "" : "s")): \(why)"
            return started.started
        } catch {
            return Started(notes: ["quicksilver: cannot restore the previous session: \(error); the file is left as it is"])
        }
    }

    /// A session continuing the journal or replay at `path`, with a warning where a recovering
    /// read stopped before the end, and its strokes.
    private static func continuing(_ path: String, reading: Playback.Reading, deferring: Bool = false,
                                   compute: ComputeContext) throws(Playback.Failure) -> (started: Started, strokes: Int) {
        let loaded = try Playback.load(path, reading: reading, continuing: true, deferring: deferring, compute: compute)
        let note = loaded.stoppedAt.map { stop in
            let n = stop.error.line
            return stop.cutOff
                ? "quicksilver: warning: \(path):\(n): the last line was cut off (\(stop.error.message)); recovered up to line \(n - 1)"
                : "quicksilver: warning: \(path):\(n): \(stop.error.message); restored what came before line \(n) and left the file as it is"
        }
        let lost = loaded.historyLost.map { e in
            "quicksilver: warning: \(path):\(e.line): \(e.message); restored without it: undo stops at its snapshot"
        }
        var started = Started(session: loaded.session, continuation: loaded.continuation, notes: [lost, note].compactMap { $0 },
                              unplayed: loaded.unplayed)
        started.document = loaded.continuation.flatMap { DocumentNote.after($0.events + (loaded.unplayed ?? []), opened: $0.header.opened?.path) }
        return (started, loaded.strokes)
    }
}
