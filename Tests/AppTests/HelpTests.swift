import App
import Compute
import Events
import Geometry
import Input
import Testing
import UI

/// The key help (F1) shows every key of the table, whatever the window's size: in the columns
/// its width allows, on pages where they do not fit its height, the page keys and the wheel
/// turning them.
@Suite struct HelpTests {
    let entries = KeyMap.bindings.map { (keys: $0.keys, does: $0.does) }

    /// Every entry lands on some page, each line inside the panel and the panel inside the
    /// window, at the E2E test's 960x600, a small 640x400 and a large window, at scales 1 and 2.
    @Test(arguments: [(960, 600, 1.0), (640, 400, 1), (1920, 1080, 1), (1920, 1200, 2), (1280, 800, 2)])
    func everyEntryLandsOnAPageInsideTheWindow(width: Int, height: Int, scale: Double) {
        let font = UIFont(family: "DejaVu Sans"), window = Size(width: width, height: height)
        let l = HelpLayout(entries: entries, window: window, scale: scale, font: font)
        let label = "\(width)x\(height)@\(scale)"
        #expect(Set(l.lines.map(\.entry)) == Set(entries.indices), "\(label): every entry placed")
        for (i, e) in entries.enumerated() {
            let first = l.lines.first { $0.entry == i }
            #expect(first?.keys == e.keys, "\(label): \(e.keys) heads its first line")
            #expect(l.lines.filter { $0.entry == i }.map(\.text).joined(separator: " ") == e.does, "\(label): \(e.keys) in full")
        }
        #expect(l.size.width <= width - Int(16 * scale) && l.size.height <= height - Int(16 * scale), "\(label): \(l.size)")
        let bottom = l.pages > 1 ? l.footerY : Double(l.size.height) - l.margin
        for line in l.lines {
            let (x, y) = l.origin(of: line)
            #expect(line.page < l.pages && line.row < l.rows && line.column < l.columns)
            #expect(x + l.keysWidth + font.width(line.text, scale: scale) <= Double(l.size.width) - l.margin + 0.5, "\(label): \(line.text)")
            #expect(y + l.lineHeight <= bottom + 0.5, "\(label): \(line.text) at row \(line.row)")
        }
    }

    /// At 960x600 the table takes two columns and more than one page, the last entry (Ctrl+Q)
    /// on the last; a large window shows it all on one page in more columns.
    @Test func theColumnsFollowTheWidthAndThePagesTheHeight() throws {
        let font = UIFont(family: "DejaVu Sans")
        let small = HelpLayout(entries: entries, window: Size(width: 960, height: 600), scale: 1, font: font)
        #expect(small.columns == 2 && small.pages >= 2, "\(small.columns) columns, \(small.pages) pages")
        #expect(try #require(small.lines.last).entry == entries.count - 1 && small.lines.last?.page == small.pages - 1)
        let narrow = HelpLayout(entries: entries, window: Size(width: 640, height: 400), scale: 1, font: font)
        #expect(narrow.columns == 1 && narrow.pages > small.pages)
        let large = HelpLayout(entries: entries, window: Size(width: 2560, height: 1440), scale: 1, font: font)
        #expect(large.pages == 1 && large.columns >= 3, "\(large.columns) columns, \(large.pages) pages")
    }

    /// The page keys turn the help's pages while it is open (Page Down no longer selects the
    /// layer below), Ctrl+Page Down still moves the layer; Home and End go to the first and last
    /// page, the wheel over it turns them too; F1 opens it again at its first page.
    @Test func thePageKeysAndTheWheelTurnThePages() throws {
        let h = try Harness(size: Size(width: 960, height: 600), uiScale: 1)
        h.step([h.key(.insert)])
        h.step([h.key(.function(1))])
        let help = try #require(h.app.widgets?.help)
        let pages = try #require(help.layout?.pages)
        #expect(help.isOpen && help.page == 0 && pages >= 2)
        h.step([h.key(.pageDown)])
        #expect(help.page == 1)
        #expect(h.session.document.current == 1, "Page Down turned the page, not the layer")
        h.step([h.key(.end)])
        #expect(help.page == pages - 1)
        h.step([h.key(.pageDown)])
        #expect(help.page == pages - 1, "no page after the last")
        h.step([h.key(.home)])
        #expect(help.page == 0)
        h.step([h.key(.right), h.key(.left), h.key(.down)])
        #expect(help.page == 1)
        let frame = try #require(help.frame)
        let (cx, cy) = (Double(frame.minX + frame.width / 2), Double(frame.minY + frame.height / 2))
        h.step([.button(.wheelUp, isDown: true, sample(cx, cy, t: 1))])
        #expect(help.page == 0, "the wheel up: the page before")
        h.step([.button(.wheelDown, isDown: true, sample(cx, cy, t: 1.1))])
        #expect(help.page == 1, "the wheel down: the next page")
        h.step([h.key(.pageDown, .control)])
        #expect(help.page == 1 && h.session.document.layers.count == 2 && h.session.document.current == 0, "Ctrl+Page Down moved the layer")
        h.step([h.key(.escape)])
        #expect(!help.isOpen)
        h.step([h.key(.pageDown)])
        #expect(h.session.document.current == 0 && !help.isOpen, "closed, Page Down selects again")
        h.step([h.key(.function(1))])
        #expect(help.isOpen && help.page == 0)
    }

    /// On the last page, the last entry's keys are drawn where the layout puts them.
    @Test func theLastEntryIsDrawnOnTheLastPage() throws {
        let window = Size(width: 960, height: 600)
        let help = HelpWidget(windowSize: window, scale: 1, font: UIFont(family: "DejaVu Sans"), entries: entries)
        help.toggle(atX: 0, y: 0, brush: Brush())
        let l = try #require(help.layout), frame = try #require(help.frame), last = try #require(l.lines.last)
        func lit(onPage page: Int) -> Int {
            help.turn(page == 0 ? .first : .last)
            let t = TextureStorage<UInt32>(width: window.width, height: window.height, filledWith: 0xFFFF_FFFF)
            help.draw(into: t.texture, clip: t.texture.bounds)
            let (x, y) = l.origin(of: last)
            let x0 = frame.minX + Int(x), y0 = frame.minY + Int(y), w = Int(l.keysWidth), hgt = Int(l.lineHeight)
            // The keys are drawn in the light text colour on the dark panel.
            return (y0..<y0 + hgt).reduce(0) { n, py in n + (x0..<x0 + w).filter { (t.texture[$0, py] >> 8) & 0xFF > 200 }.count }
        }
        #expect(lit(onPage: l.pages - 1) > 30, "\(last.keys) drawn")
        #expect(lit(onPage: 0) != lit(onPage: l.pages - 1), "another page shows something else there")
    }
}
