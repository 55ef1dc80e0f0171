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

@Suite struct JournalTests {
    private func folder() throws -> String { try ScratchFolder.make("journal") }

    /// A session opened on a picture of noise: a compaction's snapshot of it is slow to encode,
    /// so what is drawn meanwhile lands in the compaction's tail.
    private func noisySession(_ size: Size) -> Session {
        let session = Session(size: size, compute: ComputeContext(threads: 1))
        var state: UInt32 = 1
        let noise = (0..<size.area).map { _ -> UInt32 in state = state &* 1_664_525 &+ 1_013_904_223; return 0xFF00_0000 | state >> 8 }
        session.load(DocumentImage.picture(noise, size: size, background: .white))
        return session
    }

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

    /// How a session sprays the mercurial brush is part of its journal, whatever header it is
    /// given: a new session's journal says "spray": "stroke" and its mercurial strokes recover
    /// exactly; one continuing an older replay (no field) sprays as that did, and says nothing.
    @Test func theJournalSaysHowItsSessionSprays() throws {
        let dir = try folder()
        let session = Session(size: Size(width: 200, height: 120), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: dir + "/new.jsonl", session: session, header: Replay.Header(size: Size(width: 200, height: 120)))
        let mercurial = SessionEvent.command(.brush(kind: .mercurial, size: 20))
        journal.record(Replay.TimedEvent(t: 0, event: mercurial))
        session.handle(mercurial)
        stroke(session, journal, y: 60, t: 0)
        journal.flushNow()
        session.settle()
        let text = try String(contentsOfFile: dir + "/new.jsonl", encoding: .utf8)
        #expect(text.prefix { $0 != "\n" }.contains("\"spray\": \"stroke\""), "\(text.prefix(200))")
        expectSamePixels(try recovered(dir + "/new.jsonl").pixels, session.snapshot().pixels, width: 200, "the mercurial stroke recovered")
        let old = Session(size: Size(width: 200, height: 120), sprayFromStroke: false, compute: ComputeContext(threads: 1))
        let continued = try Journal(path: dir + "/old.jsonl", session: old, header: Replay.Header(size: Size(width: 200, height: 120)))
        stroke(old, continued, y: 30, t: 1)
        continued.flushNow()
        #expect(try !String(contentsOfFile: dir + "/old.jsonl", encoding: .utf8).contains("spray"))
    }

    /// A compaction's snapshot of a big canvas takes a while to make: the strokes drawn
    /// meanwhile go on reaching the disk (in the old file), and are the new file's first lines.
    @Test func strokesDrawnWhileACompactionIsMadeAreKept() throws {
        let dir = try folder()
        let path = dir + "/journal.jsonl"
        let size = Size(width: 1024, height: 1024)
        let session = noisySession(size)
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 300), session: session, header: Replay.Header(size: size))
        for i in 0..<12 { stroke(session, journal, y: Double(10 + i * 8), t: Double(i)) }
        journal.flushNow()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"snapshot\": \"journal.jsonl.snapshot-"), "compacted")
        expectSamePixels(try recovered(path).pixels, session.snapshot().pixels, width: size.width, "every stroke, the ones drawn during the compaction too")
        #expect(journal.close() == nil)
    }

    /// Pastes made while a compaction is being made are named by its new journal's tail: their
    /// pictures stay (a second compaction asked for meanwhile, which does not start, once took
    /// them as baked into the first one's snapshot and removed them: make chaos found the
    /// journal naming a picture that was gone).
    @Test func picturesPastedWhileACompactionIsMadeAreKept() throws {
        let dir = try folder()
        let path = dir + "/journal.jsonl"
        let size = Size(width: 1024, height: 1024)
        let session = noisySession(size)
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 300), session: session, header: Replay.Header(size: size))
        let red = [UInt32](repeating: 0xFFFF_0000, count: 12)
        for i in 0..<12 {
            stroke(session, journal, y: Double(10 + i * 8), t: Double(2 * i))
            let name = "paste-\(i + 1).png"
            try journal.keep(picture: try PNGImage(width: 4, height: 3, pixels: red).encode(), as: name)
            let paste = SessionEvent.command(.paste(PastedImage(file: name, x: 10 + 8 * i, y: 900, size: Size(width: 4, height: 3), pixels: red)))
            journal.record(Replay.TimedEvent(t: Double(2 * i + 1), event: paste))
            session.handle(paste)
            session.draw(FrameInfo(index: 120 * i + 60, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
            journal.strokeEnded(now: Double(2 * i + 1), session: session)
        }
        journal.flushNow()
        expectSamePixels(try recovered(path).pixels, session.snapshot().pixels, width: size.width, "every stroke and paste")
        #expect(journal.close() == nil)
    }

    /// The document's file, named by a `document` line when a save finished, outlives the
    /// compactions that bake that line into a snapshot: the compacted journal names it again,
    /// and says whether strokes came after the save.
    @Test func theDocumentsFileOutlivesACompaction() throws {
        let path = try folder() + "/journal.jsonl"
        let size = Size(width: 200, height: 120)
        let session = Session(size: size, compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 400), session: session, header: Replay.Header(size: size))
        func document() throws -> DocumentNote? {
            journal.flushNow()
            let loaded = try Playback.load(path, reading: .recovering, continuing: true, compute: ComputeContext(threads: 1))
            let c = try #require(loaded.continuation)
            return DocumentNote.after(c.events, opened: c.header.opened?.path)
        }
        stroke(session, journal, y: 10, t: 0)
        journal.record(Replay.TimedEvent(t: 1, event: .command(.document(file: "/drawings/a.ora", edited: false))))
        #expect(try document() == DocumentNote(file: "/drawings/a.ora", edited: false))
        for i in 1...10 {
            stroke(session, journal, y: Double(10 + i * 9), t: Double(1 + i))
            journal.flushNow()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Only a compaction writes it so: the line recorded said not edited.
        #expect(text.contains("\"snapshot\"") && text.contains(#""type": "document", "file": "/drawings/a.ora", "edited": true"#), "\(text)")
        #expect(try document() == DocumentNote(file: "/drawings/a.ora", edited: true), "named again, edited since")
        #expect(journal.close() == nil)
    }

    @Test func compactionKeepsThePictureAndBoundsTheFile() throws {
        let dir = try folder()
        let path = dir + "/journal.jsonl"
        let session = Session(size: Size(width: 200, height: 120), compute: ComputeContext(threads: 1))
        session.handle(.command(.brush(size: 3, color: Color(hex: "#3366ff"))))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 600), session: session,
                                  header: Replay.Header(size: Size(width: 200, height: 120)))
        journal.record(Replay.TimedEvent(t: 0, event: .command(.brush(size: 3, color: Color(hex: "#3366ff")))))
        // Each stroke waits for the last one's compaction (a stroke or two apart, as in a window):
        // strokes drawn while one is made are its new file's first lines (see the test below).
        for i in 0..<30 {
            stroke(session, journal, y: Double(5 + i * 4), t: Double(i))
            journal.flushNow()
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count < 2000, "compacted, not 30 strokes long")
        #expect(text.contains("\"snapshot\": \"journal.jsonl.snapshot-"))
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ora") }
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

    @Test func compactionKeepsTheShading() throws {
        let path = try folder() + "/journal.jsonl"
        let session = Session(size: Size(width: 100, height: 80), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, kind: .session(compactAfterBytes: 100), session: session,
                                  header: Replay.Header(size: Size(width: 100, height: 80)))
        let lights = Shading.mercurialPaint.lights.compactMap { Shading.Light(hue: 1 - $0.hue, brightness: 0.75, x: $0.y, y: $0.x, z: $0.z) }
        let shading = try #require(Shading(shininess: 0.25, lights: lights))
        journal.record(Replay.TimedEvent(t: 0, event: .command(.shading(shading))))
        session.handle(.command(.shading(shading)))
        stroke(session, journal, y: 40, t: 1)  // past 100 bytes: compacts
        journal.flushNow()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"snapshot\"") && text.contains("\"type\": \"shading\", \"shininess\": 0.25"))
        let restored = try Playback.load(path, reading: .recovering, compute: ComputeContext(threads: 1)).session
        #expect(restored.brush.shading == shading && restored.brush.tip == session.brush.tip)
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
        #expect(throws: ReplayError(line: 3, message: "unterminated string (column 21)", kind: .malformedJSON)) { try ReplayParser.parse(good + "{\"t\": 1, \"type\": \"cl") }
    }

    /// A disk that fills: lines are kept and written once there is room, the file always ends on
    /// a whole line, the change is signalled both ways, and no `exit` is written over lost lines.
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskKeepsTheLinesAndWritesThemOnceThereIsRoom() throws {
        let dir = try folder()
        guard system("mount -t tmpfs -o size=64k tmpfs '\(dir)'") == 0 else { Issue.record("cannot mount a tmpfs"); return }
        defer { _ = system("umount '\(dir)'") }
        let path = dir + "/journal.jsonl"
        let signals = Counter()
        let session = Session(size: Size(width: 200, height: 120), compute: ComputeContext(threads: 1))
        let journal = try Journal(path: path, session: session, header: Replay.Header(size: Size(width: 200, height: 120)),
                                  onHealthChange: { signals.add() })
        for i in 0..<2 { stroke(session, journal, y: Double(10 + i * 20), t: Double(i)) }
        journal.flushNow()
        #expect(journal.health == .writing)

        _ = system("dd if=/dev/zero of='\(dir)/filler' bs=1k count=100 2>/dev/null")
        // The file's last page may still have room: stroke on until the disk refuses.
        var drawn = 2
        while journal.health == .writing, drawn < 200 {
            stroke(session, journal, y: Double(10 + drawn % 5 * 20), t: Double(drawn))
            journal.flushNow()
            drawn += 1
        }
        guard case .failing(let e) = journal.health else { Issue.record("the full disk went unnoticed"); return }
        stroke(session, journal, y: 100, t: Double(drawn))
        journal.flushNow()
        drawn += 1
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let parsed = try ReplayParser.parse(text)
        let onDisk = text.components(separatedBy: "\"type\": \"up\"").count - 1
        #expect(e.kind == .noSpace && signals.value == 1)
        #expect(onDisk + journal.strokesNotSaved == drawn && journal.strokesNotSaved >= 2, "\(onDisk) on disk, \(journal.strokesNotSaved) waiting")
        #expect(text.hasSuffix("\n") && !parsed.endedCleanly, "whole lines only")

        try FileManager.default.removeItem(atPath: dir + "/filler")
        let deadline = Date().addingTimeInterval(20)
        // The health changes under the journal's lock; its signal comes just after.
        while journal.health != .writing || signals.value < 2, Date() < deadline { usleep(20_000) }
        #expect(journal.health == .writing && journal.strokesNotSaved == 0)
        #expect(signals.value == 2, "failing, then writing again: \(signals.value) signals")
        expectSamePixels(try recovered(path).pixels, session.snapshot().pixels, width: 200, "every stroke reached the disk")
        #expect(journal.close() == nil)
        #expect(try recovered(path).endedCleanly)
    }

    /// A continued session's journal carries the file it continues (events, pictures), so it
    /// replays alone, undo past the continuation included; a compaction later bakes it all in.
    @Test func aContinuedJournalStandsOnItsOwnUndoIncluded() throws {
        let dir = try folder()
        let size = Size(width: 100, height: 80)
        let first = Session(size: size, compute: ComputeContext(threads: 1))
        let parent = try Journal(path: dir + "/parent.jsonl", session: first, header: Replay.Header(size: size))
        let red = [UInt32](repeating: 0xFFFF_0000, count: 12)
        try parent.keep(picture: try PNGImage(width: 4, height: 3, pixels: red).encode(), as: "paste-1.png")
        let paste = SessionEvent.command(.paste(PastedImage(file: "paste-1.png", x: 10, y: 10, size: Size(width: 4, height: 3), pixels: red)))
        parent.record(Replay.TimedEvent(t: 0, event: paste))
        first.handle(paste)
        stroke(first, parent, y: 40, t: 1)
        #expect(parent.close() == nil)

        let loaded = try Playback.load(dir + "/parent.jsonl", continuing: true, compute: ComputeContext(threads: 1))
        let continuation = try #require(loaded.continuation)
        #expect(continuation.bytes == FileBytes.size(of: dir + "/parent.jsonl") && continuation.pictures.count == 1)
        let session = loaded.session
        let child = try Journal(path: dir + "/child.jsonl", kind: .session(compactAfterBytes: 1 << 20), session: session,
                                header: Replay.Header(size: size), continuing: continuation)
        for (i, e) in [SessionEvent.command(.continued), .command(.undo), .command(.undo)].enumerated() {
            child.record(Replay.TimedEvent(t: Double(i), event: e))
            session.handle(e)
        }
        session.draw(FrameInfo(index: 1, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        child.flushNow()
        #expect(session.snapshot().pixels.allSatisfy { $0 == 0xFFFF_FFFF }, "both steps of the parent undone")
        try FileManager.default.removeItem(atPath: dir + "/parent.jsonl")
        try FileManager.default.removeItem(atPath: dir + "/parent.jsonl.paste-1.png")
        let replayed = try Playback.load(dir + "/child.jsonl", compute: ComputeContext(threads: 1)).session
        expectSamePixels(replayed.snapshot().pixels, session.snapshot().pixels, width: 100, "the child alone, undo included")
        let redo = SessionEvent.command(.redo)
        child.record(Replay.TimedEvent(t: 3, event: redo))
        session.handle(redo)
        stroke(session, child, y: 60, t: 4)
        child.flushNow()
        let header = try String(contentsOfFile: dir + "/child.jsonl", encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains("\"continues\": \"\(dir)/parent.jsonl\"") && header.contains("\"continuesBytes\": \(continuation.bytes)"))
        #expect(FileManager.default.fileExists(atPath: dir + "/child.jsonl.earlier-paste-1.png"))
        expectSamePixels(try recovered(dir + "/child.jsonl").pixels, session.snapshot().pixels, width: 100, "redo of the paste")
    }

    /// A session continued in the folder of the file it continues (a recovery, `--restore`)
    /// links the files that file names beside it (snapshot, history, pasted pictures) rather
    /// than copying them: its journal, and the strokes drawn after the restore, reach the disk
    /// at once however big they are (`make chaos` lost the strokes of the first second after a
    /// restore of a 3000x2000 picture, killed while its copy was being written). Removing the
    /// old names leaves the new ones; a session continued from another folder copies them.
    @Test func aJournalContinuedInItsFolderLinksTheFilesItCarries() throws {
        let dir = try folder()
        let size = Size(width: 100, height: 80)
        let first = Session(size: size, compute: ComputeContext(threads: 1))
        let parent = try Journal(path: dir + "/parent.jsonl", kind: .session(compactAfterBytes: 1), session: first, header: Replay.Header(size: size))
        stroke(first, parent, y: 20, t: 1)
        parent.flushNow()
        let red = [UInt32](repeating: 0xFFFF_0000, count: 12)
        try parent.keep(picture: try PNGImage(width: 4, height: 3, pixels: red).encode(), as: "paste-1.png")
        let paste = SessionEvent.command(.paste(PastedImage(file: "paste-1.png", x: 10, y: 50, size: Size(width: 4, height: 3), pixels: red)))
        parent.record(Replay.TimedEvent(t: 2, event: paste))
        first.handle(paste)
        #expect(parent.close() == nil)
        func header(_ path: String) throws -> [String: String] {
            let line = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
            var fields: [String: String] = [:]
            for key in ["snapshot", "history"] {
                fields[key] = line.components(separatedBy: "\"\(key)\": \"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
            }
            return fields
        }
        func inode(_ path: String) -> UInt64? {
            var st = stat()
            return stat(path, &st) == 0 ? UInt64(st.st_ino) : nil
        }
        let named = try header(dir + "/parent.jsonl")
        let parentFiles = [try #require(named["snapshot"]), try #require(named["history"]), "parent.jsonl.paste-1.png"]

        let loaded = try Playback.load(dir + "/parent.jsonl", continuing: true, compute: ComputeContext(threads: 1))
        let continuation = try #require(loaded.continuation)
        #expect(continuation.beside == Set(parentFiles))
        for (place, linked) in [(dir, true), (try folder(), false)] {
            let session = try Playback.load(dir + "/parent.jsonl", continuing: true, compute: ComputeContext(threads: 1)).session
            let child = try Journal(path: place + "/child.jsonl", kind: .session(compactAfterBytes: 1 << 20), session: session,
                                    header: Replay.Header(size: size), continuing: continuation)
            child.record(Replay.TimedEvent(t: 0, event: .command(.continued)))
            session.handle(.command(.continued))
            stroke(session, child, y: 60, t: 3)
            child.flushNow()
            let childNamed = try header(place + "/child.jsonl")
            let childFiles = [try #require(childNamed["snapshot"]), try #require(childNamed["history"]), "child.jsonl.earlier-paste-1.png"]
            for (old, new) in zip(parentFiles, childFiles) {
                #expect((inode(dir + "/" + old) == inode(place + "/" + new)) == linked, "\(new): \(linked ? "a link" : "a copy") of \(old)")
            }
            expectSamePixels(try recovered(place + "/child.jsonl").pixels, session.snapshot().pixels, width: 100, "the child as drawn")
            #expect(child.close() == nil)
        }
        let shown = try recovered(dir + "/child.jsonl").pixels
        for old in parentFiles + ["parent.jsonl"] { try FileManager.default.removeItem(atPath: dir + "/" + old) }
        expectSamePixels(try recovered(dir + "/child.jsonl").pixels, shown, width: 100, "the child alone, its parent's files gone")
    }

    @Test func nothingMayFollowExit() {
        let text = "{\"quicksilver\": 1, \"width\": 20, \"height\": 20}\n{\"t\": 0, \"type\": \"exit\"}\n{\"t\": 0, \"type\": \"clear\"}\n"
        #expect(throws: ReplayError(line: 3, message: "nothing may follow the \"exit\" on line 2", kind: .afterExit)) { try ReplayParser.parse(text) }
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

/// Counts calls from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A session that opened a picture: its journal names the picture and its bytes' hash at once,
/// and a copy of them follows beside it. It plays from the copy, else from the picture while
/// unchanged; with neither, it says so in one line.
@Suite struct OpenedPictureJournalTests {
    @Test func playsFromTheCopyElseFromThePictureWhileItIsUnchanged() throws {
        let dir = try ScratchFolder.make("opened")
        let picturePath = dir + "/picture.png"
        let pixels = (0..<(64 * 48)).map { (i: Int) -> UInt32 in 0xFF00_0000 | UInt32(truncatingIfNeeded: (i &* 2_654_435_761) >> 8) & 0xFF_FFFF }
        try PNGImage(width: 64, height: 48, pixels: pixels).write(to: picturePath)
        let opened = try OpenedFile.read(picturePath)
        let image = try opened.document(background: .white, maxSide: 16384).image
        let session = Session(size: image.size, compute: ComputeContext(threads: 1))
        session.load(image)
        let path = dir + "/journal.jsonl"
        let journal = try Journal(path: path, session: session, header: Replay.Header(size: image.size), opened: opened)
        for e: SessionEvent in [.pointerDown(StrokeSample(x: 5, y: 5, pressure: 0.5)), .pointerUp(StrokeSample(x: 60, y: 40, pressure: 0.5))] {
            journal.record(Replay.TimedEvent(t: 0.1, event: e))
            session.handle(e)
        }
        session.draw(FrameInfo(index: 6, timestamp: 0.1, targetTimestamp: 0.1), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        journal.strokeEnded(now: 0.1, session: session)
        journal.flushNow()
        let header = try ReplayParser.parse(String(contentsOfFile: path, encoding: .utf8)).header
        let named = try #require(header.opened)
        #expect(named.path == picturePath && named.hash == FileHash.of(opened.bytes) && header.snapshot == nil)
        #expect(try FileBytes.read(dir + "/" + named.copy, limit: 1 << 30) == opened.bytes, "the copy beside is the picture's bytes")
        func played() throws -> [UInt32] { try Playback.load(path, compute: ComputeContext(threads: 1)).session.snapshot().pixels }
        let drawn = session.snapshot().pixels
        #expect(try played() == drawn)

        try FileManager.default.removeItem(atPath: picturePath)
        #expect(try played() == drawn, "from the copy, the picture gone")
        try FileManager.default.moveItem(atPath: dir + "/" + named.copy, toPath: picturePath)
        #expect(try played() == drawn, "from the picture, the copy not written yet")
        try PNGImage(width: 64, height: 48, pixels: pixels.map { $0 ^ 1 }).write(to: picturePath)
        do {
            _ = try Playback.load(path, compute: ComputeContext(threads: 1))
            Issue.record("a changed picture with no copy must be refused")
        } catch {
            #expect(error.description == "\(path):1: the picture the session opened, \(JSON.quoted(picturePath)), is gone or has changed, "
                + "and its copy \(JSON.quoted(named.copy)) is not beside the file")
        }
        #expect(journal.close() == nil)
    }
}
