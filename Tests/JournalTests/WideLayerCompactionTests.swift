import Foundation
import Journal
import Paint
import ReplayFormat
import Testing
import TestSupport

/// The endless canvas lets one layer hold strokes further apart than a snapshot's layer may be
/// (16384 px a side, what a journal reads back): the journal then does not compact, and keeps
/// every line instead, so a crash still loses nothing; once the paint fits again it compacts.
@Suite struct WideLayerCompactionTests {
    @Test func paintTooWideForASnapshotStaysInTheEventsAndCompactsOnceItFits() throws {
        let w = try CompactionHistoryTests.Window(try ScratchFolder.make("wide-layer"))
        w.stroke(y: 20)
        w.stroke(y: 40, from: 40_010, to: 40_180)
        #expect(w.session.layersTooWideToWrite(maxSide: Replay.Header.sizes.upperBound)?.contains("16384 px a side") == true)
        let before = try w.header().snapshot
        w.play(Array(repeating: .command(.invert(false)), count: CompactionHistoryTests.Window.limit / 40))
        #expect(try w.header().snapshot == before, "not compacted: the far stroke's layer is 40,000 px wide")
        try w.expectRecoveredSame("both strokes, from the journal's lines")
        w.command(.undo)
        #expect(w.session.layersTooWideToWrite(maxSide: Replay.Header.sizes.upperBound) == nil)
        try w.compactNow()
        try w.expectRecoveredSame("the near stroke, from the snapshot")
    }
}
