import App
import Events
import Input
import Testing
import UI

/// Groups in the layer panel: indented under their group, folded by its triangle (the panel's
/// own state, no command), a drag onto a group puts the layer in it, a double-click on a row
/// renames it as F2 does; and what a drag asks, worked out from the depths alone.
@Suite struct GroupPanelTests {
    /// A row's centre, `position` rows from the top of the panel (scale 1).
    private func row(_ h: Harness, _ position: Int, x: Double = 150) throws -> (Double, Double) {
        let frame = try #require(h.app.widgets?.layers?.frame)
        return (Double(frame.minX) + x, Double(frame.minY) + 26 + 32 * Double(position) + 16)
    }

    private func click(_ h: Harness, _ at: (Double, Double), t: Double) {
        h.step([.pointerDown(sample(at.0, at.1, t: t)), .pointerUp(sample(at.0, at.1, t: t + 0.02))])
    }

    @Test func theTriangleFoldsAGroupAndADoubleClickRenamesARow() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([h.key("g", .control)])
        h.step([])
        let panel = try #require(h.app.widgets?.layers?.panel)
        #expect(panel.rows.map(\.name) == ["Layer 1", "Group 1"] && panel.rows.map(\.depth) == [1, 0] && panel.rows[1].isolated == false)
        let open = try #require(h.app.widgets?.layers?.frame)
        // The group's triangle, left of its thumbnail: its row folds, the frame loses a row.
        click(h, try row(h, 0, x: 32), t: 1)
        h.step([])
        let folded = try #require(h.app.widgets?.layers?.frame)
        #expect(folded.height == open.height - 32, "\(open) → \(folded)")
        click(h, try row(h, 0, x: 32), t: 2)
        h.step([])
        #expect(h.app.widgets?.layers?.frame == open)
        #expect(try h.recorded().allSatisfy { if case .command(.layer(.select)) = $0.event { false } else { true } }, "folding is no command")

        // Two clicks on the group's name within 0.4 s: the first selects it, the second renames it.
        click(h, try row(h, 0), t: 3)
        h.step([.pointerDown(sample(try row(h, 0).0, try row(h, 0).1, t: 3.2))])
        #expect(h.app.status?.prompt?.hasPrefix("rename the layer: Group 1_") == true, "\(h.app.status?.prompt ?? "no prompt")")
        h.step([.pointerUp(sample(try row(h, 0).0, try row(h, 0).1, t: 3.22)), h.key("u", .control)]
               + "Ciel".map { .key(KeyPress(.char($0), time: 4, text: String($0))) } + [.key(KeyPress(.enter, time: 4))])
        h.step([])
        #expect(h.app.widgets?.layers?.panel?.rows.map(\.name) == ["Layer 1", "Ciel"])
        #expect(try h.recorded().contains { $0.event == .command(.layer(.set(name: "Ciel"))) })
        // Slower, it is two clicks: no rename.
        click(h, try row(h, 1), t: 10)
        click(h, try row(h, 1), t: 11)
        #expect(h.app.status?.prompt == nil)
    }

    @Test func aDragOntoAGroupPutsTheLayerInIt() throws {
        let h = try Harness(size: .init(width: 640, height: 400), uiScale: 1)
        h.step([h.key("g", .control)])                              // Layer 1 in Group 1
        h.step([h.key(.pageUp)])                                    // the group current
        h.step([h.key(.insert)])                                    // Layer 2 above it, outside
        h.step([])
        #expect(h.app.widgets?.layers?.panel?.rows.map(\.depth) == [1, 0, 0])
        let (x, y0) = try row(h, 0), y1 = try row(h, 1).1
        h.step([.pointerDown(sample(x, y0, t: 1)), .pointerMove(sample(x, y1, t: 1.1)), .pointerUp(sample(x, y1, t: 1.2))])
        h.step([])
        let rows = try #require(h.app.widgets?.layers?.panel?.rows)
        #expect(rows.map(\.name) == ["Layer 2", "Layer 1", "Group 1"] && rows.map(\.depth) == [1, 1, 0])
        let layerOps = try h.recorded().compactMap { e -> LayerOp? in if case .command(.layer(let op)) = e.event { op } else { nil } }
        #expect(layerOps.suffix(2) == [.move(-1), .into])
    }

    @Test func whatADragAsksFollowsTheGroups() {
        // Bottom first: a, b in G; c; d in H (empty H2 in H too); top.
        let o = StackOutline(depths: [1, 1, 0, 0, 1, 2, 1, 0, 0], groups: [false, false, true, false, false, false, true, true, false])
        // Names by index: 0 a, 1 b, 2 G, 3 c, 4 d, 5 e (in H2), 6 H2, 7 H, 8 top.
        #expect(StackOutline(depths: [0, 0, 0], groups: [false, false, false]).drop(0, on: 2) == [.move(2)])
        #expect(o.drop(8, on: 3) == [.move(-2)])                    // past H, onto c's place
        #expect(o.drop(3, on: 8) == [.move(2)])
        #expect(o.drop(3, on: 7) == [.into])                        // onto H, just above: in
        #expect(o.drop(8, on: 2) == [.move(-3), .into])             // onto G: below it, then in
        #expect(o.drop(8, on: 7) == [.move(-1), .into])             // onto H, just below: under it, then in
        #expect(o.drop(0, on: 8) == [.out])                         // out of G, one level a drag
        #expect(o.drop(1, on: 0) == [.move(-1)])
        #expect(o.drop(7, on: 5) == [])                             // onto what it holds
        #expect(o.drop(3, on: 5) == [.move(1)])                     // onto a row in H: H's place
    }
}
