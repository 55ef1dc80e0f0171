import Compute
import Events
import Files
import Foundation
import Geometry
import Journal
import Paint
import ReplayFormat

/// The journal's cases: a 300,000-sample journal restored (restore.300k), parsed alone
/// (parse.300k) and played alone (play.300k), and the C and C++ programs they are compared with.
extension Benchmarks {
    /// Where `restore300k` writes its journal (removed when the benchmarks end).
    static let journalPath = NSTemporaryDirectory() + "quicksilver-bench-journal-\(getpid()).jsonl"

    /// The journal's strokes, and the samples in each.
    static let journalStrokes = 1_500, journalStrokeSamples = 200

    /// restore.300k's journal given to `binary`, a C or C++ program doing the same work another way
    /// (Tests/Bench/simdjson_parse.cpp parses it, Tests/Bench/cairo_play.c draws its strokes): its
    /// median milliseconds (the first number it prints). Throws when it cannot be run, fails or
    /// prints no number.
    static func comparison(_ binary: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [journalPath, "5"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { throw BenchFailure("cannot run \(binary): \(error.localizedDescription)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationReason == .exit else { throw BenchFailure("\(binary) was killed by signal \(process.terminationStatus)") }
        guard process.terminationStatus == 0 else { throw BenchFailure("\(binary) exited with status \(process.terminationStatus)") }
        guard let first = output.split(separator: " ").first, let ms = Double(first) else {
            throw BenchFailure("\(binary) printed no milliseconds: \(output.prefix(80).debugDescription)")
        }
        return ms
    }

    /// Parsing alone: the same journal's lines read and checked, nothing played (the floor under
    /// `restore.300k`).
    func parse300k() throws -> () throws -> Void {
        _ = try restore300k()   // writes the journal
        return { _ = try Self.parseJournal { _ in } }
    }

    /// Playing alone: the same journal's events, parsed beforehand, played into a fresh session
    /// (the other half of `restore.300k`, which overlaps the two on two threads).
    func play300k() throws -> () throws -> Void {
        _ = try restore300k()
        var events: [Replay.TimedEvent] = []
        _ = try Self.parseJournal { events += $0 }
        return { [compute, size, events] in
            let session = Session(size: size, compute: compute)
            ReplayPlayer.play(events, session: session, presenter: OffscreenPresenter(size: Size(width: 0, height: 0)))
        }
    }

    /// Reads the journal's lines through a `ReplayParser` as crash recovery does, handing its
    /// events over in chunks of about 4096; throws unless every line parses and every sample is
    /// there.
    private static func parseJournal(_ take: ([Replay.TimedEvent]) -> Void) throws -> Int {
        var parser = ReplayParser()
        var count = 0
        do {
            try LineReader.forEachLine(in: journalPath) { bytes, _ in
                if let bad = try parser.feed(bytes, recovering: true) { throw bad }
                if parser.events.count >= 4096 {
                    let events = parser.takeEvents()
                    count += events.count
                    take(events)
                }
            }
        } catch let error as ReplayError {
            throw BenchFailure("\(journalPath):\(error.line): \(error.message)")
        }
        let rest = parser.takeEvents()
        take(rest)
        count += rest.count
        guard count == journalStrokes * journalStrokeSamples else {
            throw BenchFailure("\(journalPath): \(count) events parsed, not \(journalStrokes * journalStrokeSamples)")
        }
        return count
    }

    /// Crash recovery of a journal holding 300,000 samples (an hour of drawing at ~83 Hz, here
    /// 1,500 strokes of 200 samples): read, parse, play into a fresh session.
    func restore300k() throws -> () throws -> Void {
        let path = Self.journalPath, strokes = Self.journalStrokes, samples = Self.journalStrokeSamples
        var text = Replay.line(for: Replay.Header(size: size)) + "\n"
        let walk = randomWalk(segments: strokes * samples)
        var t = 0.0
        for stroke in 0..<strokes {
            for i in 0..<samples {
                // As the window records them: whole-pixel X coordinates, millisecond times.
                let p = walk[stroke * samples + i]
                let sample = StrokeSample(x: p.0.rounded(), y: p.1.rounded(), pressure: 0.5)
                let event: SessionEvent = i == 0 ? .pointerDown(sample) : i == samples - 1 ? .pointerUp(sample) : .pointerMove(sample)
                text += Replay.line(for: Replay.TimedEvent(t: (t * 1000).rounded() / 1000, event: event)) + "\n"
                t += 0.012
            }
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw BenchFailure("cannot write \(path)") }
        return { [compute] in
            let loaded = try Playback.load(path, reading: .recovering, compute: compute)
            if let stop = loaded.stoppedAt { throw BenchFailure("\(path):\(stop.error.line): \(stop.error.message)") }
            guard loaded.strokes == strokes else { throw BenchFailure("\(path): \(loaded.strokes) strokes restored, not \(strokes)") }
        }
    }
}
