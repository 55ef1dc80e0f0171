import Foundation
import Geometry
import Paint
import ReplayFormat
import Testing
import TestSupport

/// Mirror painting survives a compaction: the compacted journal opens with the symmetry in
/// force, so the strokes after it are mirrored in every replay as in the window.
@Suite struct SymmetryJournalTests {
    @Test func aCompactedJournalOpensWithTheSymmetryInForce() throws {
        let w = try CompactionHistoryTests.Window(try ScratchFolder.make("symmetry-journal"))
        let rotating = Symmetry(mode: .rotational, x: 100.5, y: 60, lines: 5)
        w.command(.symmetry(rotating))
        w.stroke(y: 20, from: 110, to: 180)
        try w.compactNow()
        let text = try String(contentsOfFile: w.path, encoding: .utf8)
        #expect(text.contains(#""type": "symmetry", "mode": "rotational", "x": 100.5, "y": 60, "lines": 5"#), "an opening line")
        #expect(try w.recovered().symmetry == rotating)
        w.stroke(y: 30, from: 120, to: 170)
        try w.expectRecoveredSame("a mirrored stroke after the compaction")
        w.command(.symmetry(Symmetry(mode: .off, x: 100.5, y: 60, lines: 5)))
        try w.compactNow()
        #expect(try w.recovered().symmetry.mode == .off)
        #expect(w.journal.close() == nil)
    }
}
