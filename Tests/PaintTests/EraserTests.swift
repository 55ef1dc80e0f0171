import Kernels
import Testing
import TestSupport

/// The eraser brings back the background, anti-aliased, as one undo step.
@Suite struct EraserTests {
    private let header = "{\"quicksilver\": 1, \"width\": 200, \"height\": 100, \"background\": \"#f0e0d0\"}\n"
    private let bare: UInt32 = 0xFFF0_E0D0

    private func line(_ t: Double, from: (Int, Int), to: (Int, Int)) -> String {
        "{\"t\": \(t), \"type\": \"down\", \"x\": \(from.0), \"y\": \(from.1)}\n{\"t\": \(t), \"type\": \"up\", \"x\": \(to.0), \"y\": \(to.1)}\n"
    }

    private var painted: String { header + "{\"t\": 0, \"type\": \"brush\", \"size\": 30, \"color\": \"#203040\"}\n" + line(0, from: (10, 50), to: (190, 50)) }
    private var erased: String { painted + "{\"t\": 1, \"type\": \"brush\", \"kind\": \"eraser\", \"size\": 10}\n" + line(1, from: (100, 0), to: (100, 100)) }

    @Test func erasingBringsBackTheBackgroundWithAntiAliasedEdges() throws {
        let before = try render(painted), after = try render(erased)
        #expect(before[100, 50] == 0xFF20_3040 && after[100, 50] == bare, "the eraser's middle is bare canvas")
        #expect(after[60, 50] == 0xFF20_3040 && after[140, 50] == 0xFF20_3040, "paint away from it stays")
        // The edge at radius 10: partly erased pixels between the paint and the background.
        let edge = (85...115).map { after[$0, 50] }.filter { $0 != bare && $0 != 0xFF20_3040 }
        #expect(!edge.isEmpty, "anti-aliased edges")
        #expect(edge.allSatisfy { ($0 >> 16 & 0xff) > 0x20 && ($0 >> 16 & 0xff) < 0xf0 })
    }

    @Test func oneErasingStrokeIsOneUndoStep() throws {
        expectSame(try render(erased + "{\"t\": 2, \"type\": \"undo\"}\n"), try render(painted), "undone")
        expectSame(try render(erased + "{\"t\": 2, \"type\": \"undo\"}\n{\"t\": 3, \"type\": \"redo\"}\n"), try render(erased), "redone")
    }

    @Test func anErasedPixelIsBareSoThePulseShowsThrough() throws {
        let pulsing = erased + "{\"t\": 2, \"type\": \"pulse\", \"on\": true}\n"
        let img = try render(pulsing)
        let shown = Pulse().color(loc: Pulse.loc(frames: 0)).pixel
        #expect(img[100, 50] == shown && img[100, 5] == shown, "erased canvas shows the pulse, as bare canvas does")
        #expect(img[60, 50] == 0xFF20_3040, "paint stays on top")
    }

    @Test func theEraserKeepsItsOwnSize() throws {
        let text = header + "{\"t\": 0, \"type\": \"brush\", \"kind\": \"eraser\"}\n{\"t\": 0, \"type\": \"brush\", \"size\": 40}\n"
            + "{\"t\": 0, \"type\": \"brush\", \"kind\": \"pen\"}\n" + line(0, from: (20, 50), to: (180, 50))
        let img = try render(text)
        #expect(img[100, 50] == 0xFF00_0000 && img[100, 42] == bare, "the pen kept 8 when the eraser went to 40")
    }
}
