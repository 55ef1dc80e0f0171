import Clock
import Compute
import Events
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import PNGFile
import ReplayFormat
import Strokes
import Testing
import TestSupport

@Suite struct JournalTests {
    private func folder() throws -> String { try ScratchFolder.make("journal") }

    private func stroke(_ session: Session, _ journal: Journal, y: Double, t: Double) {
        let events: [SessionEvent] = [
            .pointerDown(StrokeSample(x: 10, y: y, pressure: 0.5)),
            .pointerMove(StrokeSample(x: 100, y: y + 5, pressure: 0.7)),
            .pointerUp(StrokeSample(x: 180, y: y, pressure: 0.5)),
        ]
        for e in events {
            journal.record(Replay.TimedEvent(t: t, event: e))
            session.handle(e)
        }
        session.draw(FrameInfo(index: Int(t * 60), timestamp: t, targetTimestamp: t), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        journal.strokeEnded(now: t, session: session)
    }

    private func recovered(_ path: String) throws -> (pixels: [UInt32], endedCleanly: Bool) {
        let loaded = try Playback.load(path, reading: .recovering, compute: ComputeContext(threads: 1))
        #expect(loaded.stoppedAt == nil)
        return (loaded.session.snapshot().pixels, loaded.endedCleanly)
    }

    @Test func recoversWhatWasDrawnAndMarksACleanExit() throws {
        let path = try folder() + "/journal.jsonl"
        let session = Session(size: Size(width: 200, height: 120), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, session: session, header: Replay.Header(size: Size(width: 200, height: 120)))
        for i in 0..<5 { stroke(session, journal, y: Double(10 + i * 20), t: Double(i)) }
        journal.flushNow()
        let crashed = try recovered(path)
        expectSamePixels(crashed.pixels, session.snapshot().pixels, width: 200, "recovered after a crash")
        #expect(!crashed.endedCleanly)
        #expect(journal.close() == nil)
        #expect(try recovered(path).endedCleanly)
    }

    @Test func compactionKeepsThePictureAndBoundsTheFile() throws {
        let dir = try folder()
        let path = dir + "/journal.jsonl"
        let session = Session(size: Size(width: 200, height: 120), compute: ComputeContext(threads: 1))
        session.handle(.command(.brush(size: 3, color: Color(hex: "#3366ff"))))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 600), session: session,
                                  header: Replay.Header(size: Size(width: 200, height: 120)))
        journal.record(Replay.TimedEvent(t: 0, event: .command(.brush(size: 3, color: Color(hex: "#3366ff")))))
        for i in 0..<30 { stroke(session, journal, y: Double(5 + i * 4), t: Double(i)) }
        journal.flushNow()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count < 2000, "compacted, not 30 strokes long")
        #expect(text.contains("\"snapshot\": \"journal.jsonl.snapshot-"))
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }
        #expect(snapshots.count == 1, "old snapshots are removed: \(snapshots)")
        expectSamePixels(try recovered(path).pixels, session.snapshot().pixels, width: 200, "recovered from the compacted journal")
        // The brush carries over the compaction.
        #expect(text.contains("\"size\": 3, \"color\": \"#3366ff\""))
    }

    @Test func compactionKeepsTheSizeEachBrushKindRemembers() throws {
        let path = try folder() + "/journal.jsonl"
        let session = Session(size: Size(width: 100, height: 80), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 100), session: session,
                                  header: Replay.Header(size: Size(width: 100, height: 80)))
        for c in [Command.brush(size: 30), .brush(kind: .pixel, size: 5), .brush(kind: .mercurial, size: 300), .brush(kind: .pen)] {
            journal.record(Replay.TimedEvent(t: 0, event: .command(c)))
            session.handle(.command(c))
        }
        stroke(session, journal, y: 40, t: 1)  // ends a stroke: past 100 bytes, so the journal compacts
        journal.flushNow()
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"snapshot\""))
        let restored = try Playback.load(path, reading: .recovering, compute: ComputeContext(threads: 1)).session
        for kind in BrushKind.allCases { #expect(restored.brush.size(for: kind) == session.brush.size(for: kind), "\(kind)") }
        #expect(restored.brush.tip == session.brush.tip && restored.brush.size(for: .pixel) == 5)
    }

    @Test func aRecoveringReadStopsAtTheFirstLineThatCannotBeRead() throws {
        let good = "{\"quicksilver\": 1, \"width\": 20, \"height\": 20}\n{\"t\": 0, \"type\": \"clear\"}\n"
        func recovering(_ text: String) throws -> (replay: Replay, stoppedAt: ReplayError?) {
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBufferPointer { b in try ReplayParser.parse(UnsafeBufferPointer(b), recovering: true) }
        }
        // A last line cut off by a crash, a damaged line in the middle, a whole line of a type
        // this version does not know: each ends the journal, and what came before stands.
        for tail in ["{\"t\": 1, \"type\": \"cl", "{\"t\": 1, \"type\": \"cl\n{\"t\": 2, \"type\": \"clear\"}\n",
                     "{\"t\": 1, \"type\": \"layer\"}\n"] {
            let (replay, stoppedAt) = try recovering(good + tail)
            #expect(replay.events.map(\.event) == [.command(.clear)], "\(tail)")
            #expect(stoppedAt?.line == 3, "\(tail)")
        }
        // A damaged header is not recovered, and a strict parse never forgives.
        #expect(throws: ReplayError.self) { try recovering("{\"quicksilver\": 1, \"width\": 20\n") }
        #expect(throws: ReplayError(line: 3, message: "unterminated string (column 21)")) { try ReplayParser.parse(good + "{\"t\": 1, \"type\": \"cl") }
    }

    @Test func nothingMayFollowExit() {
        let text = "{\"quicksilver\": 1, \"width\": 20, \"height\": 20}\n{\"t\": 0, \"type\": \"exit\"}\n{\"t\": 0, \"type\": \"clear\"}\n"
        #expect(throws: ReplayError(line: 3, message: "nothing may follow the \"exit\" on line 2")) { try ReplayParser.parse(text) }
    }

    @Test func aLazyJournalStartsAtTheFirstChangeWithEverythingBeforeIt() throws {
        let dir = try folder()
        let path = dir + "/session.jsonl"
        let session = Session(size: Size(width: 100, height: 80), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, session: session, header: Replay.Header(size: Size(width: 100, height: 80)))
        journal.record(Replay.TimedEvent(t: 0.5, event: .command(.brush(size: 20))))
        journal.record(Replay.TimedEvent(t: 0.6, event: .command(.invert(true))))
        journal.tick(now: 10)
        #expect(!journal.isStarted && !FileManager.default.fileExists(atPath: path), "a brush change and a view filter change no picture")
        journal.record(Replay.TimedEvent(t: 1, event: .command(.clear)))
        journal.flushNow()
        #expect(journal.isStarted)
        let replay = try ReplayParser.parse(String(contentsOfFile: path, encoding: .utf8))
        #expect(replay.events.suffix(3).map(\.event) == [.command(.brush(size: 20)), .command(.invert(true)), .command(.clear)])
    }

    @Test func aSessionThatChangesNothingLeavesNothing() throws {
        let dir = try folder()
        let session = Session(size: Size(width: 100, height: 80), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: dir + "/session.jsonl", session: session, header: Replay.Header(size: Size(width: 100, height: 80)))
        journal.record(Replay.TimedEvent(t: 0.5, event: .command(.brush(kind: .pixel))))
        #expect(journal.close() == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aCompactionBakesPastedPicturesIntoItsSnapshotAndRemovesTheirFiles() throws {
        let dir = try folder()
        let path = dir + "/journal.jsonl"
        let session = Session(size: Size(width: 100, height: 80), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 200), session: session,
                                  header: Replay.Header(size: Size(width: 100, height: 80)))
        let red = [UInt32](repeating: 0xFFFF_0000, count: 12)
        try journal.keep(picture: try PNGImage(width: 4, height: 3, pixels: red).encode(), as: "paste-1.png")
        let paste = SessionEvent.command(.paste(PastedImage(file: "paste-1.png", x: 10, y: 10, size: Size(width: 4, height: 3), pixels: red)))
        journal.record(Replay.TimedEvent(t: 0, event: paste))
        session.handle(paste)
        stroke(session, journal, y: 40, t: 1)   // past 200 bytes: compacts
        journal.flushNow()
        #expect(!FileManager.default.fileExists(atPath: path + ".paste-1.png"), "baked into the snapshot")
        let (recovered, _) = try recovered(path)
        expectSamePixels(recovered, session.snapshot().pixels, width: 100, "the paste survives the compaction")
        #expect(recovered[10 * 100 + 12] == 0xFFFF_0000)
    }
}
