import Events
import Paint
import Testing
import TestSupport

/// Group commands in a journal: recovered as the window had them, and their undo history kept
/// across a compaction (a history file of version 2, which keeps what groups each layer).
@Suite struct GroupHistoryTests {
    private typealias Window = CompactionHistoryTests.Window

    @Test func groupCommandsAndTheirUndoComeBackAcrossACompaction() throws {
        let w = try Window(try ScratchFolder.make("group-history"))
        let start = w.session.documentImage()
        w.stroke(y: 30)
        w.layer(.new(name: "Ink"))
        w.stroke(y: 60, from: 40, to: 160)
        w.layer(.set(mode: .multiply))
        w.layer(.group(name: nil))                      // Ink in "Group 1"
        w.layer(.select(0))
        w.layer(.into)                                  // Layer 1 in it too
        w.layer(.select(2))
        w.layer(.set(opacity: 0.5, mode: .screen, isolated: true))
        w.layer(.group(name: "Outer"))                  // a group in a group
        w.layer(.select(0))
        w.layer(.out)
        w.layer(.new(name: "Top"))
        w.stroke(y: 90, from: 5, to: 120)
        w.layer(.select(3))
        w.layer(.move(-1))                              // Group 1 with what it holds, below Top
        w.layer(.select(0))
        w.layer(.delete)
        let steps = 13
        let end = w.session.documentImage()
        #expect(end.layers.contains { $0.attributes.group == .isolated })
        try w.expectUndoneAndRedoneAcrossCompactions(steps: steps, from: start, to: end)
    }
}
