import Compute
import Paint
import PNGFile

/// Replays and journals back into sessions: for `quicksilver render` and crash recovery.
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

    /// Reads a replay strictly, streaming it in bounded memory (lines over 1 MiB are errors).
    public static func read(_ path: String) throws(Failure) -> Replay {
        var parser = ReplayParser()
        do {
            try LineReader.forEachLine(in: path) { line in try parser.feed(line) }
            return try parser.finish()
        } catch let e as ReplayError {
            throw .malformed(path: path, e)
        } catch let e as LineReader.LineTooLong {
            throw .malformed(path: path, ReplayError(line: e.line, message: "line longer than \(e.limit) bytes"))
        } catch let e as FileError {
            throw .file(e)
        } catch {
            throw .file(FileError(path: path, message: "\(error)"))
        }
    }

    /// Reads a journal, forgiving a last line cut off by a crash (returned, for a warning).
    public static func readJournal(_ path: String) throws(Failure) -> (replay: Replay, cutOff: ReplayError?) {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path) } catch { throw .file(error) }
        do {
            return try bytes.withUnsafeBufferPointer { (b) throws(ReplayError) in
                try ReplayParser.parse(b, forgivingCutOffLastLine: true)
            }
        } catch {
            throw .malformed(path: path, error)
        }
    }

    /// A new session for `replay`, its canvas loaded from the snapshot beside `path` if any.
    public static func session(for replay: Replay, at path: String, compute: ComputeContext,
                               historyBytes: Int = 256 << 20) throws(Failure) -> Session {
        let session = Session(size: replay.header.size, background: replay.header.background, compute: compute,
                              historyBytes: historyBytes)
        if let name = replay.header.snapshot {
            let file = folder(of: path) + "/" + name
            do {
                let image = try PNGImage.read(from: file)
                session.load(pixels: image.pixels, size: Size(width: image.width, height: image.height))
            } catch {
                throw .file(FileError(path: file, message: "cannot read the snapshot: \(error.message)"))
            }
        }
        return session
    }

    /// Plays every event through `session` on the virtual frame clock without composing any
    /// frame: only the final canvas matters (recovery, render).
    public static func play(_ replay: Replay, into session: Session) {
        ReplayPlayer.play(replay.events, session: session, presenter: OffscreenPresenter(size: Size(width: 0, height: 0)))
    }
}
