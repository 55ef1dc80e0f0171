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
/// picture to paint over. Continuing never changes the file continued from: the new session
/// starts from a snapshot of it, in a journal of its own.
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
        /// The file the session continues (absolute), for its journal's header.
        public var continues: String?
        /// Lines for stderr about the files read (what was wrong with a journal, what was moved aside).
        public var notes: [String] = []
        /// The line saying which session was restored: for stderr once the window is open, since
        /// until then nothing has been restored for the user.
        public var restored: String?
    }

    /// A file given on the command line that cannot be opened: `FILE: what is wrong`.
    public struct BadFile: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest canvas side (the replay format's limit, and so a picture's).
    public static let maxSide = Replay.Header.sizes.upperBound

    public static func start(_ request: Request, store: SessionStore?, compute: ComputeContext, historyBytes: Int,
                             background: Color) throws(BadFile) -> Started {
        switch request {
        case .file(let path):
            if isPicture(path) { return Started(session: try picture(path, compute: compute, historyBytes: historyBytes, background: background)) }
            do { return try continuing(path, compute: compute, historyBytes: historyBytes).started } catch {
                throw BadFile(description: error.description)
            }
        case .restore:
            guard let store, let newest = store.newest() else {
                return Started(notes: ["quicksilver: no previous session to restore\(store.map { " in \($0.folder)" } ?? "")"])
            }
            return recover(newest.path, why: "as asked (--restore)", compute: compute, historyBytes: historyBytes)
        case .fresh:
            guard let store, let crashed = store.sessionToRecover() else { return Started() }
            return recover(crashed.path, why: "it did not end cleanly", compute: compute, historyBytes: historyBytes)
        }
    }

    /// A `.png` file, or any file that starts with PNG's signature.
    static func isPicture(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".png") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)).map(Array.init) == PNGImage.signature
    }

    /// A session whose canvas is the picture at `path`, at its own size.
    static func picture(_ path: String, compute: ComputeContext, historyBytes: Int, background: Color) throws(BadFile) -> Session {
        let image: PNGImage
        do { image = try PNGImage.read(from: path, maxSide: maxSide) } catch {
            throw BadFile(description: "\(path): \(error.message)")
        }
        let size = Size(width: image.width, height: image.height)
        let session = Session(size: size, background: background, compute: compute, historyBytes: historyBytes)
        session.load(pixels: Canvas.painted(picture: image.pixels, over: background), size: size)
        return session
    }

    /// Continues the session at `path`; one that cannot be read is moved aside, never deleted.
    private static func recover(_ path: String, why: String, compute: ComputeContext, historyBytes: Int) -> Started {
        do {
            var (started, strokes) = try continuing(path, compute: compute, historyBytes: historyBytes)
            started.restored = "quicksilver: restored the previous session from \(path) (\(strokes) stroke\(strokes == 1 ? "" : "s")): \(why)"
            return started
        } catch {
            let aside = path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            return Started(notes: ["quicksilver: cannot restore the previous session: \(error); kept it as \(aside)"])
        }
    }

    /// A session continuing the journal or replay at `path` (a last line cut off by a crash is
    /// forgiven, with a warning), and its strokes.
    private static func continuing(_ path: String, compute: ComputeContext, historyBytes: Int) throws(Playback.Failure)
        -> (started: Started, strokes: Int) {
        let loaded = try Playback.load(path, forgivingCutOffLastLine: true, compute: compute, historyBytes: historyBytes)
        let note = loaded.cutOff.map { cutOff in
            "quicksilver: warning: \(path):\(cutOff.line): the last line was cut off (\(cutOff.message)); recovered up to line \(cutOff.line - 1)"
        }
        return (Started(session: loaded.session, continues: SessionStore.absolute(path), notes: note.map { [$0] } ?? []), loaded.strokes)
    }
}
