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

    /// While a stroke is open the thumbnails wait (making them every frame held up the ink);
    /// they show the stroke once it ends. A MyPaint brush's, whose open stroke is in the layer's
    /// pixels from frame to frame.
    @Test func theThumbnailsWaitForTheStrokeToEnd() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        let myb = #"{"version": 3, "settings": {"radius_logarithmic": {"base_value": 1.5, "inputs": {}}}}"#
        h.session.handle(.command(.mypaint(MyPaintChoice(name: "test/brush", settings: myb))))
        h.step([])
        let blank = try #require(h.app.widgets?.layers?.panel?.rows.first?.thumbnail)
        h.step([.pointerDown(sample(40, 200, t: 0)), .pointerMove(sample(200, 200, t: 0.01))])
        h.step([.pointerMove(sample(360, 200, t: 0.02))])
        let during = h.app.widgets?.layers?.panel?.rows.first?.thumbnail
        #expect(during == blank ? true : false, "the thumbnail was made again while the stroke is open")
        h.step([.pointerUp(sample(360, 200, t: 0.03))])
        h.step([])
        let after = try #require(h.app.widgets?.layers?.panel?.rows.first?.thumbnail)
        #expect(after.contains { $0 != desk && ($0 & 0xFF) < 200 }, "the line shows once the stroke ends")
    }

    /// A group holds no pixels: its thumbnail is what it holds, composed as the group composes
    /// it (a hidden layer left out, a layer's opacity applied), and follows the strokes on a
    /// layer in it, whichever entry is current.
    @Test func aGroupsThumbnailShowsWhatItHolds() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        func rows() throws -> [LayerPanel.Row] {
            h.step([])
            return try #require(h.app.widgets?.layers?.panel).rows
        }
        func red(_ p: UInt32) -> Bool { Int((p >> 16) & 0xFF) > Int((p >> 8) & 0xFF) + 40 }
        func blue(_ p: UInt32) -> Bool { Int(p & 0xFF) > Int((p >> 16) & 0xFF) + 40 }
        func checkerOnly(_ t: [UInt32]) -> Bool { t.allSatisfy { $0 == desk || [0xFFFF_FFFF, 0xFFDD_DDDD].contains($0) } }
        h.step([h.key("3")])                                           // red
        h.step([.pointerDown(sample(40, 200, t: 0)), .pointerMove(sample(200, 200, t: 0.01)), .pointerUp(sample(360, 200, t: 0.02))])
        h.step([h.key("g", .control)])                                 // Layer 1 in Group 1, Layer 1 still current
        var r = try rows()
        #expect(r.map(\.name) == ["Layer 1", "Group 1"] && r[1].isGroup)
        let layer = r[0].thumbnail, group = r[1].thumbnail
        #expect(group.contains(where: red), "the group's thumbnail shows the red stroke")
        #expect(group.indices.allSatisfy { red(group[$0]) == red(layer[$0]) }, "where the layer has it")

        h.step([h.key(.pageUp)])                                       // the group current
        r = try rows()
        #expect(r[1].thumbnail == group, "choosing the group makes nothing again")
        h.step([h.key(.pageDown), h.key("7")])                         // Layer 1, blue
        h.step([.pointerDown(sample(40, 100, t: 1)), .pointerMove(sample(200, 100, t: 1.01)), .pointerUp(sample(360, 100, t: 1.02))])
        r = try rows()
        #expect(r[1].thumbnail.contains(where: blue) && r[1].thumbnail.contains(where: red), "a stroke on a layer in it shows in it")

        let opaque = r[1].thumbnail, own = r[0].thumbnail
        h.step(Array(repeating: h.key(","), count: 5))                 // Layer 1 at 50 %
        r = try rows()
        let lighter = r[1].thumbnail.indices.filter { red(opaque[$0]) }.allSatisfy { (r[1].thumbnail[$0] >> 8) & 0xFF > (opaque[$0] >> 8) & 0xFF }
        #expect(lighter, "the layer's opacity applies in the group's thumbnail")
        #expect(r[0].thumbnail == own, "a layer's own thumbnail leaves its opacity out")
        h.step([h.key("v")])                                           // Layer 1 hidden
        r = try rows()
        #expect(checkerOnly(r[1].thumbnail), "a hidden layer is left out")
        #expect(!checkerOnly(r[0].thumbnail), "its own thumbnail still shows it")
    }

    /// A layer painted while the panel was hidden, then left for another, shows what was
    /// painted once the panel comes back (its thumbnail follows its pixels, not which layer is
    /// current).
    @Test func aLayerPaintedWhileThePanelWasHiddenShowsItWhenItComesBack() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([h.key(.insert)])
        h.step([])
        let empty = try #require(h.app.widgets?.layers?.panel).rows[1].thumbnail
        h.step([h.key(.function(7))])                                  // the panel hidden
        #expect(h.app.widgets?.layers?.isOpen == false)
        h.step([.pointerDown(sample(40, 200, t: 0)), .pointerMove(sample(200, 200, t: 0.01)), .pointerUp(sample(360, 200, t: 0.02))])
        h.step([h.key(.pageDown)])                                     // Layer 1 current
        h.step([h.key(.function(7))])                                  // shown again
        h.step([])
        let panel = try #require(h.app.widgets?.layers?.panel)
        #expect(panel.current == 0 && panel.rows[1].name == "Layer 2")
        #expect(panel.rows[1].thumbnail != empty && panel.rows[1].thumbnail.contains { $0 != desk && ($0 & 0xFF) < 200 },
                "Layer 2's thumbnail shows the stroke drawn while the panel was hidden")
    }

    /// A click on a row composes and presents the panel's rows and the status strip that
    /// changed, each on its own: not the panel's header, nor the canvas between them (a 1080p window of it, flattening 20
    /// layers, was most of the click's frame).
    @Test func aClickOnARowPresentsThePanelAndTheStripNotTheCanvasBetween() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([.pointerDown(sample(40, 200, t: 0)), .pointerMove(sample(200, 200, t: 0.01)), .pointerUp(sample(360, 200, t: 0.02))])
        h.step([h.key(.insert)])
        h.step([h.key(.insert)])
        h.step([])
        #expect(h.session.document.current == 2)
        let before = h.window.presents.count
        // The panel at scale 1: 220 px wide, 8 px from the top-right corner, a 26 px header,
        // then 32 px rows, the top layer first: the bottom layer's row is the third.
        let row = sample(640 - 8 - 110, 8 + 26 + 2 * 32 + 16, t: 1)
        h.step([.pointerDown(row), .pointerUp(row)])
        h.step([])                                                     // the panel's rows follow
        #expect(h.session.document.current == 0)
        let presents = Array(h.window.presents[before...])
        #expect(presents.count >= 2, "the panel and the strip: \(presents)")
        #expect(!presents.contains { $0.contains(x: 200, y: 150) }, "nothing presented over the canvas between: \(presents)")
        #expect(presents.contains { $0.contains(x: 640 - 8 - 110, y: 8 + 26 + 16) }, "the row left presented: \(presents)")
        #expect(presents.contains { $0.contains(x: 640 - 8 - 110, y: 8 + 26 + 2 * 32 + 16) }, "the row chosen presented: \(presents)")
        #expect(!presents.contains { $0.contains(x: 640 - 8 - 110, y: 8 + 13) }, "the panel's header, unchanged, not: \(presents)")
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
