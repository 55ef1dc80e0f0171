import Compute
import Events
import Geometry
import Kernels

extension WidgetID {
    public static let help = WidgetID("help")
}

/// The keys, over the canvas (F1): a panel centred in the window listing each binding and what
/// it does, from the same table as `--help`, the man page and docs/usage.md (the app hands it
/// the lines), laid out by `HelpLayout`: in as many columns as the window's width allows, and
/// on pages where they still do not fit its height, a footer saying which page is shown. While
/// it is open, Page Down, Page Up, the arrows, Home and End turn its pages (the router sends
/// them here: `PagedWidget`), and so does the wheel over it. A press outside it, Escape or F1
/// again closes it; it opens at its first page.
public final class HelpWidget: PagedWidget, ToggledWidget {
    public let id = WidgetID.help
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    /// (keys, what they do), in order.
    private let entries: [(keys: String, does: String)]
    private var open = false
    private let surface = WidgetSurface()
    /// The laid-out lines (made when it opens, and when the window's size changes).
    public private(set) var layout: HelpLayout?
    /// The page shown, from 0.
    public private(set) var page = 0

    /// - Parameter entries: the bindings to list, (keys, does).
    public init(windowSize: Size, scale: Double, font: UIFont, entries: [(keys: String, does: String)]) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
        self.entries = entries
    }

    public var frame: Rect? { surface.rect }
    public var isOpen: Bool { open }
    public var closesOnPressOutside: Bool { true }
    public var scrolls: Bool { true }

    public func toggle(atX x: Double, y: Double, brush: Brush) {
        open ? close() : show(page: 0)
    }

    public func close() {
        open = false
        surface.place(nil)
    }

    private func show(page: Int) {
        open = true
        let l = HelpLayout(entries: entries, window: windowSize, scale: scale, font: font)
        layout = l
        self.page = min(max(page, 0), l.pages - 1)
        surface.place(Rect(x: max(0, (windowSize.width - l.size.width) / 2), y: max(0, (windowSize.height - l.size.height) / 2),
                           width: l.size.width, height: l.size.height))
    }

    public func windowResized(to size: Size) {
        windowSize = size
        if open { show(page: page) }
    }

    public func turn(_ turn: PageTurn) {
        guard open, let l = layout, let r = surface.rect else { return }
        let next = switch turn {
        case .next: min(page + 1, l.pages - 1)
        case .previous: max(page - 1, 0)
        case .first: 0
        case .last: l.pages - 1
        }
        guard next != page else { return }
        page = next
        surface.changed(r)
    }

    /// A wheel click down shows the next page, up the one before.
    public func wheel(_ steps: Int, x: Double, y: Double) {
        if steps != 0 { turn(steps < 0 ? .next : .previous) }
    }

    public func contains(_ x: Double, _ y: Double) -> Bool { surface.rect?.contains(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) ?? false }
    public func press(x: Double, y: Double, brush: Brush) -> [Command] { [] }
    public func drag(x: Double, y: Double, brush: Brush) -> [Command] { [] }
    public func release(x: Double, y: Double, brush: Brush) -> [Command] { [] }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    /// The footer of page `page` of `pages`: which it is, and the key to the next or the one before.
    static func footer(page: Int, of pages: Int) -> String {
        "page \(page + 1)/\(pages) — " + (page + 1 < pages ? "Page Down for more" : "Page Up goes back")
    }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard open, let l = layout else { return }
        surface.draw(into: target, clip: clip) { r in
            Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { p in
                let u = scale, width = Double(r.width)
                p.fill(Box(x: 0, y: 0, width: width, height: Double(r.height)), Theme.page)
                font.draw("Keys", x: l.margin, y: l.margin, scale: u, Theme.text, on: p)
                let closes = "F1 or Escape closes"
                font.draw(closes, x: width - l.margin - font.width(closes, scale: u), y: l.margin, scale: u, Theme.dim, on: p)
                for line in l.lines(onPage: page) {
                    let (x, y) = l.origin(of: line)
                    if !line.keys.isEmpty { font.draw(line.keys, x: x, y: y, scale: u, Theme.text, on: p) }
                    font.draw(line.text, x: x + l.keysWidth, y: y, scale: u, Theme.dim, on: p)
                }
                if l.pages > 1 { font.draw(Self.footer(page: page, of: l.pages), x: l.margin, y: l.footerY, scale: u, Theme.text, on: p) }
            }
        }
    }
}
