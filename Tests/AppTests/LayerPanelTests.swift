import App
import Events
import Input
import Testing
import UI

/// The layer panel's rows follow the document, and its presses are the layer commands.
@Suite struct LayerPanelTests {
    /// The thumbnail of a layer shows what was drawn on it, a thin line included.
    /// Around the canvas's picture in a thumbnail (its shape is not the thumbnail's).
    let desk: UInt32 = 0xFF50_5358

    @Test func theThumbnailFollowsTheStrokes() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([.pointerDown(sample(40, 200, t: 0)), .pointerMove(sample(200, 200, t: 0.01)), .pointerUp(sample(360, 200, t: 0.02))])
        h.step([])
        let panel = try #require(h.app.widgets?.layers?.panel)
        #expect(panel.rows.count == 1 && panel.current == 0)
        #expect(panel.rows[0].thumbnail.contains { $0 != desk && ($0 & 0xFF) < 200 }, "the black line shows in the thumbnail")
        h.step([h.key(.insert)])
        h.step([])
        let two = try #require(h.app.widgets?.layers?.panel)
        #expect(two.rows.count == 2 && two.current == 1 && two.rows[0].thumbnail == panel.rows[0].thumbnail)
        #expect(two.rows[1].thumbnail.allSatisfy { $0 == desk || [0xFFFF_FFFF, 0xFFDD_DDDD].contains($0) }, "the new layer is empty")
    }

    /// F2 renames the current layer, typed in the status strip; the panel and the title follow.
    @Test func f2RenamesTheCurrentLayer() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([.key(KeyPress(.function(2), time: 0))])
        #expect(h.app.status?.prompt == "rename the layer: Layer 1_ (Ctrl+U clears, Return renames, Escape cancels)")
        h.step([h.key("u", .control)] + "Ciel étoilé".map { .key(KeyPress(.char($0), time: 0, text: String($0))) } + [.key(KeyPress(.enter, time: 0))])
        #expect(h.app.status?.layer == "layer 1/1 Ciel étoilé" && h.app.status?.prompt == nil)
        h.step([])
        #expect(h.app.widgets?.layers?.panel?.rows.first?.name == "Ciel étoilé")
        #expect(try h.recorded().contains { $0.event == .command(.layer(.set(name: "Ciel étoilé"))) })
    }
}
