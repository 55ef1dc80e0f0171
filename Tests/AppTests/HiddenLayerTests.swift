import App
import Events
import Input
import Testing

/// A stroke on a hidden layer is not drawn unseen: refused, and the status says why (as Krita does).
@Suite struct HiddenLayerTests {
    @Test func paintingOnAHiddenLayerIsRefusedAndSaid() throws {
        let h = try Harness()
        h.step([h.key("v")])
        #expect(h.app.status?.layer == "layer 1/1 (hidden)")
        let before = h.window.image.pixels
        h.step([.pointerDown(sample(30, 30, t: 0.1)), .pointerMove(sample(100, 60, t: 0.11)), .pointerUp(sample(170, 90, t: 0.12))])
        #expect(h.app.status?.message == "Layer 1 is hidden: v shows it, then draw")
        #expect(!h.app.router.isDrawing && h.window.image.pixels == before)
        h.step([h.key("v"), .pointerDown(sample(30, 30, t: 0.2)), .pointerUp(sample(170, 90, t: 0.21))])
        #expect(h.window.image.pixels != before, "shown again, it takes the stroke")
    }
}

/// At the layer limit the window says so, rather than Insert doing nothing silently.
@Suite struct LayerLimitTests {
    @Test func insertAtTheLimitIsSaid() throws {
        let h = try Harness()
        h.step(Array(repeating: h.key(.insert), count: LayerOp.maxLayers - 2))
        #expect(h.app.status?.message == nil)
        h.step([h.key(.insert), h.key(.insert)])
        #expect(h.app.status?.message == "\(LayerOp.maxLayers) layers: the most a document holds (Insert makes no more)")
        #expect(h.app.status?.layer.hasPrefix("layer \(LayerOp.maxLayers)/\(LayerOp.maxLayers)") == true)
    }
}
