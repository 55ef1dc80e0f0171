import Foundation
import Journal
import Paint
import Testing
import TestSupport

/// The endless canvas lets one layer hold strokes further apart than one saved picture may be
/// (16384 px a side): a journal's snapshot then holds that layer in pieces, and the journal
/// compacts as it would for any other paint.
@Suite struct WideLayerCompactionTests {
    @Test func paintFarApartOnOneLayerIsCompactedInPiecesAndRecovered() throws {
        let w = try CompactionHistoryTests.Window(try ScratchFolder.make("wide-layer"))
        w.stroke(y: 20)
        w.stroke(y: 40, from: 40_010, to: 40_180)
        w.stroke(y: -30_000, from: -20_000, to: -19_900)
        let pieces = w.session.documentImage().layers[0].pieces
        #expect(pieces.count == 3 && pieces.allSatisfy { $0.bounds.width <= DocumentImage.pieceSide }, "\(pieces.map(\.bounds))")
        #expect(w.session.layersTooLargeToWrite() == nil)
        try w.compactNow()
        try w.expectRecoveredSame("all three strokes, from the snapshot")
        w.command(.undo)
        try w.expectRecoveredSame("the near two, the far one undone across the compaction")
    }
}
