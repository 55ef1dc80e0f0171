import Compute
import Paint
import ReplayFormat

/// Replays and journals: the strict parse (`ReplayParser.parse(_:)`: `render`, a replay opened)
/// and the recovering one (`parse(_:recovering:)`: a journal restored after a crash, which may
/// be cut off or damaged anywhere after its header).
///
/// For every input: no crash or hang; every rejection names a line that exists, in one line of
/// words; the recovering parse agrees with the strict one where that accepts, fails as it does
/// on a bad header, and otherwise stops at the very line the strict one rejects, keeping exactly
/// what the lines before it hold; whatever either parse accepts writes back and reads again as
/// the same replay, and plays through a session.
public enum ReplayTarget: FuzzTarget {
    public static let name = "replay"

    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        let lines = bytes.split(separator: 0x0a, omittingEmptySubsequences: false).count
        let strict = Result { () throws(ReplayError) in try ReplayParser.parse(bytes) }
        let recovering = Result { () throws(ReplayError) in try ReplayParser.parse(bytes, recovering: true) }
        switch (strict, recovering) {
        case (.success(let replay), .success(let (again, stoppedAt))):
            guard stoppedAt == nil, same(again, replay) else {
                return FuzzFinding("the recovering parse disagrees with the strict one, which accepted the input")
            }
            return accepted(replay)
        case (.success, .failure(let error)):
            return FuzzFinding("the recovering parse rejects what the strict one accepts: \(describe(error))")
        case (.failure(let error), .failure(let again)):
            if let finding = rejection(error, lines: lines) { return finding }
            guard error.line == 1 else { return FuzzFinding("the recovering parse rejects a file whose header is good: \(describe(again))") }
            return error == again ? nil : FuzzFinding("the parses reject differently: \(describe(error)); \(describe(again))")
        case (.failure(let error), .success(let (replay, stoppedAt))):
            if let finding = rejection(error, lines: lines) { return finding }
            guard stoppedAt == error, error.line > 1 else {
                return FuzzFinding("the recovering parse does not stop where the strict one fails (\(describe(error)))")
            }
            // The lines before the one it stopped at, parsed strictly, are what it kept.
            var start = 0, line = 1
            while line < error.line, let nl = bytes[start...].firstIndex(of: 0x0a) { start = nl + 1; line += 1 }
            let kept = UnsafeBufferPointer(rebasing: bytes[..<start])
            guard case .success(let before) = Result(catching: { () throws(ReplayError) in try ReplayParser.parse(kept) }),
                  same(before, replay) else {
                return FuzzFinding("the recovering parse keeps something else than the lines before the one it stopped at")
            }
            return accepted(replay)
        }
    }

    /// A rejection must name a line of the input and say what is wrong in one line.
    private static func rejection(_ error: ReplayError, lines: Int) -> FuzzFinding? {
        if error.line < 1 || error.line > max(lines, 1) { return FuzzFinding("the error names line \(error.line) of \(lines)") }
        if error.message.isEmpty || error.message.contains("\n") { return FuzzFinding("bad message \(error.message.debugDescription)") }
        return nil
    }

    /// What is accepted writes back and reads again the same, and plays.
    private static func accepted(_ replay: Replay) -> FuzzFinding? {
        let written = replay.text
        guard let reread = try? ReplayParser.parse(written), same(reread, replay) else {
            return FuzzFinding("does not read back the same after writing:\n\(written)")
        }
        play(replay)
        return nil
    }

    private static func same(_ a: Replay, _ b: Replay) -> Bool {
        a.header == b.header && a.events == b.events && a.endedCleanly == b.endedCleanly
    }

    private static func describe(_ error: ReplayError) -> String { "line \(error.line): \(error.message)" }

    /// Plays small replays only, so that an input stays fast while renderer crashes on odd input
    /// are still found.
    private static func play(_ replay: Replay) {
        let small = 512 * 512
        guard replay.header.size.area <= small, replay.events.count <= 5000,
              !replay.events.contains(where: { e in
                  switch e.event {
                  case .resize(let s): s.area > small
                  case .reframe(let r), .command(.frame(.set(let r))): r.area > small
                  default: false
                  }
              })
        else { return }
        let session = Session(size: replay.header.size, background: replay.header.background, seed: replay.header.seed,
                              compute: ComputeContext(threads: 1), historyBytes: replay.header.undoBytes)
        ReplayPlayer.play(replay.events, session: session, presenter: OffscreenPresenter(size: replay.header.size))
    }
}
