import App
import Brushes
import Compute
import Events
import Foundation
import Geometry
import PNGFile
import ReplayFormat
import Testing
import TestSupport
import UI

/// A brush library in a scratch folder: classic/pencil, classic/pen, classic/charcoal (with a
/// 4x4 preview) and extra/dot, each a small valid .myb.
private func library() throws -> BrushLibrary {
    let folder = try ScratchFolder.make("brushes")
    let myb = #"{"version": 3, "settings": {"opaque": {"base_value": 0.5, "inputs": {}}}}"#
    for (pack, names) in [("classic", ["pencil", "pen", "charcoal"]), ("extra", ["dot"])] {
        try FileManager.default.createDirectory(atPath: folder + "/" + pack, withIntermediateDirectories: true)
        for name in names { try myb.write(toFile: "\(folder)/\(pack)/\(name).myb", atomically: true, encoding: .utf8) }
    }
    // Left half opaque red, right half transparent.
    let pixels = (0..<16).map { $0 % 4 < 2 ? UInt32(0xFFFF_0000) : 0 }
    try PNGImage(width: 4, height: 4, pixels: pixels).write(to: folder + "/classic/charcoal_prev.png")
    return BrushLibrary(folders: [folder])
}

/// The brushes the window offers: the ring's favourites (the last chosen, remembered in the
/// state folder, then the stock defaults), their icons, and a click on the ring in the app.
@Suite struct BrushShelfTests {
    @Test func theRecentBrushesRoundTripAndAMissingFileIsNone() throws {
        let file = RecentBrushesFile(folder: try ScratchFolder.make("state") + "/not/yet")
        #expect(file.load().names == [] && file.load().problem == nil)
        try file.save(["classic/pen", "deevad/2B_pencil"])
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "{\"version\": 1, \"recent\": [\"classic/pen\", \"deevad/2B_pencil\"]}\n")
        #expect(file.load().names == ["classic/pen", "deevad/2B_pencil"] && file.load().problem == nil)
    }

    @Test(arguments: ["", "{", "[1]", #"{"version": 2, "recent": []}"#, #"{"version": 1}"#, #"{"version": 1, "recent": [1]}"#,
                      #"{"version": 1, "recent": [""]}"#, "\u{FF}\u{FE}"])
    func aDamagedFileIsOneLineAndTheDefaultsAreUsed(text: String) throws {
        let folder = try ScratchFolder.make("state")
        let file = RecentBrushesFile(folder: folder)
        try text.write(toFile: file.path, atomically: true, encoding: .utf8)
        let (names, problem) = file.load()
        #expect(names == [])
        let said = try #require(problem)
        #expect(said.hasPrefix("quicksilver: \(file.path): ") && !said.contains("\n"), "\(said)")
        let lines = Lines()
        let shelf = BrushShelf(library: try library(), file: file, console: Console(out: { _ in }, err: { lines.append($0) }))
        #expect(lines.all == [said])
        #expect(shelf.favourites == ["classic/pencil", "classic/pen", "classic/charcoal", "extra/dot"], "the defaults, then the library's")
        shelf.used("extra/dot")
        #expect(file.load().names == ["extra/dot"], "the next choice writes it whole again")
    }

    @Test func theRingIsTheRecentBrushesThenTheDefaults() throws {
        let file = RecentBrushesFile(folder: try ScratchFolder.make("state"))
        try file.save(["extra/dot", "gone/brush", "classic/pen"])
        let shelf = BrushShelf(library: try library(), file: file, console: Console(out: { _ in }, err: { _ in }))
        #expect(shelf.favourites == ["extra/dot", "classic/pen", "classic/pencil", "classic/charcoal"], "brushes not installed left out")
        shelf.used("classic/charcoal")
        #expect(shelf.favourites.first == "classic/charcoal")
        #expect(file.load().names == ["classic/charcoal", "extra/dot", "gone/brush", "classic/pen"], "remembered, installed or not")
        #expect(shelf.groups == [BrushChooser.Group(pack: "classic", brushes: ["classic/charcoal", "classic/pen", "classic/pencil"]),
                                 BrushChooser.Group(pack: "extra", brushes: ["extra/dot"])])
        let none = BrushShelf(library: BrushLibrary(folders: ["/nonexistent"]), file: nil)
        #expect(none.favourites == [] && none.groups == [])
        // More than the ring holds: the ring's count.
        let ten = BrushShelf(library: BrushLibrary.installed(environment: ["HOME": "/nonexistent"]), file: nil)
        if ten.library.brushes.count >= 196 {
            #expect(ten.favourites == BrushShelf.defaults, "every default is a stock brush")
        }
    }

    @Test func iconsAreBoxFilteredOnceAndKept() throws {
        let shelf = BrushShelf(library: try library(), file: nil)
        let icon = try #require(shelf.icons.icon("classic/charcoal", side: 2))
        // Each pixel the mean of a 2x2 block: the left column opaque red, the right transparent.
        #expect(icon[0, 0] == 0xFFFF_0000 && icon[1, 1] == 0)
        let again = try #require(shelf.icons.icon("classic/charcoal", side: 2))
        #expect(icon.base == again.base, "kept, not decoded again")
        let one = try #require(shelf.icons.icon("classic/charcoal", side: 1))
        #expect(one[0, 0] == 0x8080_0000, "half covered: premultiplied")
        #expect(shelf.icons.icon("classic/pen", side: 2) == nil, "a brush without a preview")
    }

    /// A right click, a click on the ring's third brush: the MyPaint brush is chosen with its
    /// settings embedded (the journal never depends on the brushes installed), remembered, and
    /// first on the ring the next time the palette opens.
    @Test func aClickOnTheRingChoosesTheBrushWithItsSettingsAndRemembersIt() throws {
        let file = RecentBrushesFile(folder: try ScratchFolder.make("state"))
        let shelf = BrushShelf(library: try library(), file: file)
        let h = try Harness(size: Size(width: 640, height: 480), uiScale: 1, brushes: shelf)
        h.draw(frame: 1)
        h.input([.button(.right, isDown: true, sample(320, 240, t: 0.1)), .button(.right, isDown: false, sample(320, 240, t: 0.12))])
        h.draw(frame: 2)
        #expect(h.app.widgets?.palette?.palette?.ring?.brushes == ["classic/pencil", "classic/pen", "classic/charcoal", "extra/dot"])
        // The third brush at 72° from the top, 155 px out: the charcoal, its icon drawn.
        let a = -Double.pi / 2 + 2 * 2 * Double.pi / 10
        let (x, y) = (320 + cos(a) * 155, 240 + sin(a) * 155)
        #expect(h.window.image.texture[Int(x) - 10, Int(y)] == 0xFFFF_0000, "the icon's red half")
        h.input([.pointerDown(sample(x, y, t: 0.2)), .pointerUp(sample(x, y, t: 0.21))])
        h.draw(frame: 3)
        #expect(h.session.brush.mypaint?.name == "classic/charcoal")
        #expect(h.app.widgets?.palette?.palette == nil, "the palette closed")
        #expect(h.app.status?.title.contains("classic/charcoal") == true)
        let choices = try h.recorded().compactMap { e -> MyPaintChoice? in if case .command(.mypaint(let c)) = e.event { c } else { nil } }
        #expect(choices.count == 1 && choices.first?.name == "classic/charcoal" && choices.first?.settings?.contains("opaque") == true)
        #expect(file.load().names == ["classic/charcoal"])
        #expect(h.app.widgets?.palette?.favourites.first == "classic/charcoal")
        #expect(try !h.recorded().contains { if case .pointerDown = $0.event { true } else { false } }, "the click drew nothing")
    }

    /// F6 opens the chooser; a click on a brush there chooses it as the ring does.
    @Test func f6OpensTheChooserAndAClickChooses() throws {
        let shelf = BrushShelf(library: try library(), file: RecentBrushesFile(folder: try ScratchFolder.make("state")))
        let h = try Harness(size: Size(width: 640, height: 480), uiScale: 1, brushes: shelf)
        h.draw(frame: 1)
        h.input([h.key(.function(6), at: 0.1)])
        h.draw(frame: 2)
        let frame = try #require(h.app.widgets?.chooser?.frame)
        // classic's header, then its first brush (the charcoal, by name: no order.conf).
        h.input([.pointerDown(sample(Double(frame.minX) + 20, Double(frame.minY) + 34 + 26 + 20, t: 0.2)),
                 .pointerUp(sample(Double(frame.minX) + 20, Double(frame.minY) + 34 + 26 + 20, t: 0.21))])
        h.draw(frame: 3)
        #expect(h.session.brush.mypaint?.name == "classic/charcoal" && h.app.widgets?.chooser?.isOpen == false)
        #expect(shelf.recent == ["classic/charcoal"])
    }
}
