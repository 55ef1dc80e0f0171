import Compute
import Files
import Events
import Foundation
import Geometry
import Journal
import OpenRaster
import Paint
import PNGFile
import ReplayFormat
import Testing
import TestSupport

/// A frame fitted to the ink, at a negative corner, in the journal and in an OpenRaster file.
@Suite struct FrameJournalTests {
    /// A 200x120 window with strokes past its left, top and bottom edges, its frame fitted.
    private func fitted(_ name: String) throws -> CompactionHistoryTests.Window {
        let w = try CompactionHistoryTests.Window(try ScratchFolder.make(name))
        w.stroke(y: -25, from: -40, to: 120)
        w.layer(.new(name: nil))
        w.stroke(y: 150, from: 30, to: 190)
        w.command(.frame(.fit))
        let frame = w.session.document.frame
        #expect(frame.minX < -40 && frame.minY < -25 && frame.maxY > 150, "\(frame)")
        return w
    }

    @Test func aRecoveredSessionKeepsTheFittedFrameAcrossCompactions() throws {
        let w = try fitted("frame-journal")
        let frame = w.session.document.frame
        #expect(try w.recovered().document.frame == frame, "the fit replayed")
        try w.expectRecoveredSame("fitted")
        try w.compactNow()
        let text = try String(contentsOfFile: w.path, encoding: .utf8)
        #expect(text.contains(#""type": "resize", "width": \#(frame.width), "height": \#(frame.height), "x": \#(frame.minX), "y": \#(frame.minY)"#),
                "the compacted journal opens with the frame where it is")
        #expect(try w.recovered().document.frame == frame, "the frame kept by the snapshot's opening")
        try w.expectRecoveredSame("compacted")
        // The fit is in the compacted history: undone after the compaction, in both.
        w.command(.undo)
        #expect(w.session.document.frame == Rect(x: 0, y: 0, width: 200, height: 120))
        #expect(try w.recovered().document.frame == w.session.document.frame, "undone in the recovered session too")
        try w.expectRecoveredSame("undone")
        try w.compactNow()
        w.command(.redo)
        #expect(try w.recovered().document.frame == frame, "redone after another compaction")
        try w.expectRecoveredSame("redone")
        #expect(w.journal.close() == nil)
    }

    /// A journal or recording begun on a session whose frame was moved (a window restored, say)
    /// starts from a snapshot of it, and opens with the frame where it is: here smaller than the
    /// largest frame it had, which the snapshot's stack keeps.
    @Test func aJournalBegunOnAMovedFrameKeepsIt() throws {
        let w = try fitted("frame-new-journal")
        w.command(.frame(.set(Rect(x: -30, y: -20, width: 100, height: 80))))
        let session = w.session, path = FilePath.folder(of: w.path) + "/second.jsonl"
        let second = try Journal(path: path, kind: .recording, session: session, header: Replay.Header(size: session.document.frame.size))
        second.flushNow()
        let loaded = try Playback.load(path, reading: .recovering, compute: ComputeContext(threads: 1))
        #expect(loaded.stoppedAt == nil && loaded.historyLost == nil)
        #expect(loaded.session.document.frame == session.document.frame)
        expectSamePixels(loaded.session.snapshot().pixels, session.snapshot().pixels, width: session.document.frame.width, "the same picture")
        #expect(second.close() == nil)
        #expect(w.journal.close() == nil)
    }

    @Test func anOpenRasterFileOfAFittedFrameIsTheFrameElsewhere() throws {
        let w = try fitted("frame-ora")
        let session = w.session, frame = session.document.frame
        let path = FilePath.folder(of: w.path) + "/fitted.ora"
        let shown = session.snapshot()
        try DocumentFile.write(session.documentImage(), merged: PNGImage(width: shown.width, height: shown.height, pixels: shown.pixels), to: path)

        // stack.xml: the frame's size, each layer at its offset from the frame's corner.
        let doc = try OpenRaster.read(from: path, maxSide: 1024)
        #expect(doc.size == frame.size)
        // The layers' pictures are cropped to their pixels: together they reach the frame's
        // four edges (it is the ink's box), and no further.
        let pictures = doc.layers.filter { $0.name != "Background" }.map { Rect(x: $0.x, y: $0.y, width: $0.size.width, height: $0.size.height) }
        #expect(pictures.count == 2)
        #expect(pictures.reduce(Rect.empty) { $0.isEmpty ? $1 : $0.union($1) } == Rect(size: frame.size), "\(pictures)")
        let background = try #require(doc.layers.first { $0.name == "Background" })
        #expect(background.x == 0 && background.y == 0 && background.size == frame.size)

        // Opened again: the frame at 0,0, the same picture.
        let read = try DocumentFile.read(ora: path, maxSide: 1024).image
        #expect(read.frame == Rect(size: frame.size))
        let opened = Session(size: read.size, background: read.background, compute: ComputeContext(threads: 1))
        opened.load(read)
        expectSamePixels(opened.snapshot().pixels, shown.pixels, width: shown.width, "opened again")
        #expect(w.journal.close() == nil)
    }
}
