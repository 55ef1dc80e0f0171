import Clock
import Compute
import Events
import Files
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

/// A compaction keeps the undo history beside its snapshot: undo and redo reach as far back
/// after it as before, in the window's session and in every replay of the journal, which draws
/// exactly what the window showed.
@Suite struct CompactionHistoryTests {
    /// A session with its journal, played as the window plays it: each action its own frame,
    /// then `strokeEnded`. The journal compacts when told to (`compactNow`) and not otherwise.
    final class Window {
        static let limit = 50_000
        let session: Session
        let journal: Journal
        let path: String
        let width: Int
        private var t = 0.0

        init(_ dir: String, size: Size = Size(width: 200, height: 120), undoMegabytes: Int = 256) throws {
            path = dir + "/journal.jsonl"
            width = size.width
            session = Session(size: size, compute: ComputeContext(threads: 1), historyBytes: undoMegabytes << 20)
            journal = try Journal(path: path, kind: .session(compactAfterBytes: Self.limit), session: session,
                                  header: Replay.Header(size: size, undoMegabytes: undoMegabytes))
        }

        func play(_ events: [SessionEvent]) {
            for e in events {
                journal.record(Replay.TimedEvent(t: t, event: e))
                session.handle(e)
            }
            session.draw(FrameInfo(index: Int(t * 60), timestamp: t, targetTimestamp: t), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
            journal.strokeEnded(now: t, session: session)
            t += 1
        }

        /// Lines that change nothing, past the journal's limit: it compacts at their end.
        func compactNow(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let before = try header().snapshot
            play(Array(repeating: .command(.invert(false)), count: Self.limit / 40))
            #expect(try header().snapshot != before, "compacted", sourceLocation: sourceLocation)
        }

        func stroke(y: Double, from x0: Double = 10, to x1: Double = 180) {
            play([.pointerDown(StrokeSample(x: x0, y: y, pressure: 0.5)), .pointerMove(StrokeSample(x: (x0 + x1) / 2, y: y + 5, pressure: 0.7)),
                  .pointerUp(StrokeSample(x: x1, y: y, pressure: 0.5))])
        }

        func command(_ c: Command) { play([.command(c)]) }
        func layer(_ op: LayerOp) { command(.layer(op)) }

        /// The journal's header as it is on disk now.
        func header() throws -> Replay.Header {
            journal.flushNow()
            return try ReplayParser.parse(String(contentsOfFile: path, encoding: .utf8)).header
        }

        /// The journal played back as a crash recovery would, checked to have needed nothing
        /// it could not read.
        func recovered(sourceLocation: SourceLocation = #_sourceLocation) throws -> Session {
            journal.flushNow()
            let loaded = try Playback.load(path, reading: .recovering, compute: ComputeContext(threads: 1))
            #expect(loaded.stoppedAt == nil && loaded.historyLost == nil, sourceLocation: sourceLocation)
            return loaded.session
        }

        /// Expects the recovered journal to show what the session shows, layers and all.
        func expectRecoveredSame(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let replayed = try recovered(sourceLocation: sourceLocation)
            expectSamePixels(replayed.snapshot().pixels, session.snapshot().pixels, width: width, what, sourceLocation: sourceLocation)
            let difference = Self.difference(replayed.documentImage(), session.documentImage())
            #expect(difference == nil, "\(what): \(difference ?? "")", sourceLocation: sourceLocation)
        }

        /// Compacts, then undoes the `steps` steps one by one back to `start` (and one more, which
        /// finds none), the recovered journal agreeing at each; compacts again and redoes them
        /// all to `end`, the journal agreeing at each.
        func expectUndoneAndRedoneAcrossCompactions(steps: Int, from start: DocumentImage, to end: DocumentImage,
                                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
            try compactNow(sourceLocation: sourceLocation)
            try expectRecoveredSame("the whole session", sourceLocation: sourceLocation)
            for k in 1...steps + 1 {
                command(.undo)
                try expectRecoveredSame("recovered after undo \(k)", sourceLocation: sourceLocation)
            }
            #expect(Self.difference(session.documentImage(), start) == nil, "back to the start", sourceLocation: sourceLocation)
            try compactNow(sourceLocation: sourceLocation)
            for k in 1...steps {
                command(.redo)
                try expectRecoveredSame("recovered after redo \(k)", sourceLocation: sourceLocation)
            }
            #expect(Self.difference(session.documentImage(), end) == nil, "every step redone", sourceLocation: sourceLocation)
        }

        /// Where two documents differ, in a few words; nil when they do not.
        static func difference(_ a: DocumentImage, _ b: DocumentImage) -> String? {
            guard a != b else { return nil }
            guard a.layers.count == b.layers.count else { return "\(a.layers.count) layers, expected \(b.layers.count)" }
            if a.current != b.current { return "layer \(a.current) current, expected \(b.current)" }
            for (i, (x, y)) in zip(a.layers, b.layers).enumerated() where x != y {
                if x.attributes != y.attributes { return "layer \(i): \(x.attributes), expected \(y.attributes)" }
                if x.bounds != y.bounds { return "layer \(i) has tiles over \(x.bounds), expected \(y.bounds)" }
                if x.pieces.map(\.bounds) != y.pieces.map(\.bounds) { return "layer \(i) in pieces \(x.pieces.map(\.bounds)), expected \(y.pieces.map(\.bounds))" }
                for (p, q) in zip(x.pieces, y.pieces) where p != q {
                    return "layer \(i): " + (pixelDifference(p.pixels, q.pixels, width: max(p.bounds.width, 1)) ?? "")
                }
            }
            // What the window does not know of its document, a replay of a snapshot does: the
            // attributes `DocumentFile` writes to `<image>` (its namespace, MyPaint's eotf).
            return a.extra == b.extra ? "the canvas" : nil
        }
    }

    private func folder() throws -> String { try ScratchFolder.make("compaction-history") }

    private func files(in dir: String, ending: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(ending) }
    }

    @Test func undoReachesAcrossACompactionInTheWindowAndInTheRecoveredJournal() throws {
        let dir = try folder()
        let w = try Window(dir)
        var shown: [[UInt32]] = [w.session.snapshot().pixels]
        for i in 0..<8 {
            w.stroke(y: Double(8 + i * 14))
            shown.append(w.session.snapshot().pixels)
            if i == 3 { try w.compactNow() }
        }
        try w.compactNow()
        let header = try w.header()
        let history = try #require(header.history, "the compacted journal names its history")
        #expect(header.snapshot != nil && history.hasPrefix("journal.jsonl.history-") && history.hasSuffix(".qsh"))
        #expect(try files(in: dir, ending: ".qsh") == [history] && files(in: dir, ending: ".ora").count == 1, "the old ones are gone")
        #expect(try !String(contentsOfFile: w.path, encoding: .utf8).contains("\"type\": \"up\""), "every stroke is in the snapshot")
        // Every stroke undone, one by one, far past the snapshot: the window shows what it
        // showed before each, and the journal (its undo lines after the snapshot) agrees.
        for k in 1...9 {
            w.command(.undo)
            expectSamePixels(w.session.snapshot().pixels, shown[max(8 - k, 0)], width: 200, "the window after \(k) undos")
            try w.expectRecoveredSame("recovered after \(k) undos")
            if k == 5 { try w.compactNow() }  // a history with redo steps too
        }
        for k in 1...3 {
            w.command(.redo)
            expectSamePixels(w.session.snapshot().pixels, shown[k], width: 200, "the window after \(k) redos")
            try w.expectRecoveredSame("recovered after \(k) redos")
        }
        w.stroke(y: 100, from: 20, to: 150)
        try w.expectRecoveredSame("a new stroke after the undos")
        #expect(w.journal.close() == nil)
        try w.expectRecoveredSame("after a clean exit")
    }

    @Test func redoReachesAcrossACompaction() throws {
        let dir = try folder()
        let w = try Window(dir)
        var shown: [[UInt32]] = [w.session.snapshot().pixels]
        for i in 0..<5 {
            w.stroke(y: Double(10 + i * 20))
            shown.append(w.session.snapshot().pixels)
        }
        for _ in 0..<5 { w.command(.undo) }
        try w.compactNow()
        expectSamePixels(w.session.snapshot().pixels, shown[0], width: 200, "all undone")
        try w.expectRecoveredSame("all undone, the redo steps kept beside the snapshot")
        for k in 1...5 {
            w.command(.redo)
            expectSamePixels(w.session.snapshot().pixels, shown[k], width: 200, "redo \(k)")
            try w.expectRecoveredSame("recovered after redo \(k)")
        }
        w.command(.redo)  // nothing left to redo, in the window as in the journal
        try w.expectRecoveredSame("a redo that finds nothing")
    }

    @Test func aHistoryOfLayersInsertedRemovedMovedAndChangedComesBack() throws {
        let dir = try folder()
        let w = try Window(dir)
        let start = w.session.documentImage()
        let picture: [UInt32] = [0xFF00_FF00, 0x8000_00FF, 0, 0xFFFF_0000]
        try w.journal.keep(picture: try PNGImage(width: 2, height: 2, pixels: picture).encode(), as: "paste-1.png")
        w.stroke(y: 30)
        w.layer(.new(name: "Ink"))
        w.stroke(y: 60, from: 40, to: 160)
        w.layer(.set(opacity: 0.5, mode: .multiply))
        w.layer(.new(name: nil))                       // "Layer 2"
        w.stroke(y: 90, from: 5, to: 120)
        w.layer(.move(-1))
        w.layer(.set(visible: false, name: "Hidden"))
        w.layer(.delete)                               // a layer only the history holds now
        w.layer(.new(name: "Top"))
        w.stroke(y: 20, from: 100, to: 190)
        w.layer(.mergeDown)                            // pixels changed below, a layer removed
        w.command(.paste(PastedImage(file: "paste-1.png", x: 30, y: 20, size: Size(width: 2, height: 2), pixels: picture)))
        let steps = 13
        let end = w.session.documentImage()
        #expect(end.layers.map(\.attributes.name) == ["Layer 1", "Ink"])
        try w.expectUndoneAndRedoneAcrossCompactions(steps: steps, from: start, to: end)
        // The next layer is numbered as in the window ("Layer 3": 2 was taken before the
        // compaction, though no layer of the snapshot has that name).
        try w.compactNow()
        w.layer(.new(name: nil))
        #expect(w.session.documentImage().layers.map(\.attributes.name) == ["Layer 1", "Layer 3", "Ink"])
        try w.expectRecoveredSame("a new layer, numbered as in the window")
    }

    @Test func theUndoMemoryBoundsWhatIsKeptTheSameInTheWindowAndTheReplay() throws {
        let dir = try folder()
        let size = Size(width: 512, height: 256)
        // 2 MiB: some of the strokes below (each saves 16 to 24 tiles of 16 KiB).
        let w = try Window(dir, size: size, undoMegabytes: 2)
        w.command(.brush(size: 60, color: Color(hex: "#3366ff")))
        var shown: [[UInt32]] = [w.session.snapshot().pixels]
        for i in 0..<6 {
            w.stroke(y: Double(40 + i * 18), from: 0, to: 512)
            shown.append(w.session.snapshot().pixels)
        }
        // Erased to nothing: tiles that stay, transparent, in the window as in the replay, so
        // that the strokes over them save 16 KiB each for undo in both.
        w.command(.brush(kind: .eraser, size: 200))
        w.stroke(y: 128, from: 0, to: 512)
        shown.append(w.session.snapshot().pixels)
        w.command(.brush(kind: .pen))
        try w.compactNow()
        for i in 0..<4 {
            w.stroke(y: Double(100 + i * 16), from: 0, to: 512)
            shown.append(w.session.snapshot().pixels)
        }
        let history = try #require(try w.header().history)
        #expect(try w.header().undoMegabytes == 2)
        #expect(FileBytes.size(of: dir + "/" + history) < 2 << 20, "the history file holds no more than the undo memory")
        var undone = 0
        for k in 1...12 {
            w.command(.undo)
            if k < shown.count, w.session.snapshot().pixels == shown[shown.count - 1 - k] { undone = k }
            try w.expectRecoveredSame("recovered after \(k) undos")
        }
        // Past the compaction (4 steps after it), not to the start: the oldest were dropped.
        #expect((5..<shown.count - 1).contains(undone), "\(undone) of \(shown.count - 1) steps undone")
        for k in 1...4 {
            w.command(.redo)
            try w.expectRecoveredSame("recovered after \(k) redos")
        }
        w.stroke(y: 200, from: 0, to: 512)
        for k in 1...6 {
            w.command(.undo)
            try w.expectRecoveredSame("recovered after \(k) undos of a new branch")
        }
    }

    /// A compacted journal continued (after a crash, `--restore`) carries a copy of its history:
    /// the new session's journal replays alone, undo past both the compaction and the restore.
    @Test func aContinuedJournalCarriesItsHistory() throws {
        let dir = try folder()
        let w = try Window(dir)
        for i in 0..<6 { w.stroke(y: Double(10 + i * 18)) }
        try w.compactNow()
        #expect(w.journal.close() == nil)
        let loaded = try Playback.load(w.path, continuing: true, compute: ComputeContext(threads: 1))
        let continuation = try #require(loaded.continuation)
        let session = loaded.session
        let child = try Journal(path: dir + "/child.jsonl", kind: .session(compactAfterBytes: 1 << 20), session: session,
                                header: Replay.Header(size: Size(width: 200, height: 120)), continuing: continuation)
        for (i, e) in ([SessionEvent.command(.continued)] + Array(repeating: .command(.undo), count: 6)).enumerated() {
            child.record(Replay.TimedEvent(t: Double(i), event: e))
            session.handle(e)
        }
        session.draw(FrameInfo(index: 1, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        #expect(child.close() == nil)
        #expect(session.snapshot().pixels.allSatisfy { $0 == 0xFFFF_FFFF }, "every stroke undone, past the parent's compaction")
        let childHeader = try ReplayParser.parse(String(contentsOfFile: dir + "/child.jsonl", encoding: .utf8)).header
        let copied = try #require(childHeader.history)
        #expect(copied.hasPrefix("child.jsonl.history-"))
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasPrefix("journal.jsonl") {
            try FileManager.default.removeItem(atPath: dir + "/" + name)
        }
        let replayed = try Playback.load(dir + "/child.jsonl", compute: ComputeContext(threads: 1)).session
        expectSamePixels(replayed.snapshot().pixels, session.snapshot().pixels, width: 200, "the child alone")
    }

    @Test func aDamagedHistoryIsRefusedInOneLineAndRecoveryStopsAtTheFirstUndo() throws {
        let dir = try folder()
        let w = try Window(dir)
        for i in 0..<7 { w.stroke(y: Double(10 + i * 15)) }
        try w.compactNow()
        let history = try #require(try w.header().history)
        w.stroke(y: 112, from: 30, to: 60)
        let afterStroke = w.session.snapshot().pixels
        w.command(.undo)    // the stroke just drawn
        w.command(.undo)    // one from before the compaction, in the history file
        w.stroke(y: 50, from: 120, to: 190)
        #expect(try w.header().history == history, "no compaction since")
        let text = try String(contentsOfFile: w.path, encoding: .utf8)
        let undoLine = try #require(text.split(separator: "\n").firstIndex { $0.contains("\"type\": \"undo\"") }) + 1
        #expect(w.journal.close() == nil)
        let file = dir + "/" + history
        let good = try FileBytes.read(file, limit: 1 << 30)
        func refusal() -> String? {
            do { _ = try Playback.load(w.path, compute: ComputeContext(threads: 1)); return nil } catch { return error.description }
        }
        var damaged = good
        damaged[good.count / 2] ^= 0x40
        try AtomicFile.write(damaged, to: file)
        #expect(refusal() == "\(w.path):1: cannot read the undo history \"\(history)\": damaged (its checksum does not match)")
        try AtomicFile.write(Array(good.dropLast(100)), to: file)
        #expect(refusal() == "\(w.path):1: cannot read the undo history \"\(history)\": cut short: \(good.count - 100) of \(good.count) bytes")
        try AtomicFile.write(Array("not a history".utf8), to: file)
        #expect(refusal() == "\(w.path):1: cannot read the undo history \"\(history)\": not a Quicksilver history file")
        try FileManager.default.removeItem(atPath: file)
        #expect(refusal()?.hasPrefix("\(w.path):1: cannot read the undo history \"\(history)\": ") == true)
        #expect(refusal()?.contains("\n") == false)

        // Recovery does without it, up to the first undo: nothing before it needs the history,
        // and from it on the journal could no longer be played as the window played it.
        try AtomicFile.write(damaged, to: file)
        let loaded = try Playback.load(w.path, reading: .recovering, continuing: true, compute: ComputeContext(threads: 1))
        #expect(loaded.historyLost?.message == "cannot read the undo history \"\(history)\": damaged (its checksum does not match)")
        #expect(loaded.stoppedAt?.error.line == undoLine)
        expectSamePixels(loaded.session.snapshot().pixels, afterStroke, width: 200, "restored up to the first undo")
        // A session continuing it has no history before the snapshot, and its journal says so.
        let continuation = try #require(loaded.continuation)
        let child = try Journal(path: dir + "/child.jsonl", session: loaded.session, header: Replay.Header(size: Size(width: 200, height: 120)),
                                continuing: continuation)
        child.record(Replay.TimedEvent(t: 0, event: .command(.continued)))
        for e in [SessionEvent.command(.continued), .command(.undo), .command(.undo)] { loaded.session.handle(e) }
        for e in [SessionEvent.command(.undo), .command(.undo)] { child.record(Replay.TimedEvent(t: 0, event: e)) }
        loaded.session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        #expect(child.close() == nil)
        let childText = try String(contentsOfFile: dir + "/child.jsonl", encoding: .utf8)
        #expect(try ReplayParser.parse(childText).header.history == nil)
        let replayed = try Playback.load(dir + "/child.jsonl", compute: ComputeContext(threads: 1)).session
        expectSamePixels(replayed.snapshot().pixels, loaded.session.snapshot().pixels, width: 200, "the continued session replays alone")
    }

    /// A crash while a compaction is written (its snapshot and history beside the journal, the
    /// new journal not yet renamed over the old) leaves the old journal whole, with its own files.
    @Test func aCrashMidCompactionLeavesTheOldJournalWhole() throws {
        let dir = try folder(), fm = FileManager.default
        let w = try Window(dir)
        for i in 0..<5 { w.stroke(y: Double(10 + i * 20)) }
        try w.compactNow()
        w.stroke(y: 110, from: 20, to: 90)
        w.command(.undo)
        w.command(.undo)
        w.journal.flushNow()
        let crashed = try folder()
        let old = try fm.contentsOfDirectory(atPath: dir)
        for name in old { try fm.copyItem(atPath: dir + "/" + name, toPath: crashed + "/" + name) }
        try w.compactNow()
        for name in try fm.contentsOfDirectory(atPath: dir) where !old.contains(name) {
            try fm.copyItem(atPath: dir + "/" + name, toPath: crashed + "/" + name)
        }
        try fm.copyItem(atPath: w.path, toPath: crashed + "/journal.jsonl.new")
        let loaded = try Playback.load(crashed + "/journal.jsonl", reading: .recovering, compute: ComputeContext(threads: 1))
        #expect(loaded.stoppedAt == nil && loaded.historyLost == nil)
        let recovered = loaded.session
        for k in 0...4 {
            if k > 0 {
                for s in [w.session, recovered] {
                    s.handle(.command(.undo))
                    s.draw(FrameInfo(index: 1000 + k, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
                }
            }
            expectSamePixels(recovered.snapshot().pixels, w.session.snapshot().pixels, width: 200, "the old journal, \(k) undos on")
        }
    }
}
