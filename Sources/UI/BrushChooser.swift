import Compute
import Geometry

/// The brush chooser's layout (`BrushChooserWidget`): a panel of the installed MyPaint brushes,
/// pack by pack (classic, deevad, ramon…, as MyPaint groups them), each pack a header over a
/// grid of the brushes' icons, scrolled by the wheel when it does not fit the window. Pure: its
/// own coordinates, at a UI scale, its top-left at (0, 0).
public struct BrushChooser: Equatable, Sendable {
    /// One pack and its brushes ("pack/name"), in the library's order.
    public struct Group: Equatable, Sendable {
        public var pack: String
        public var brushes: [String]
        public init(pack: String, brushes: [String]) { self.pack = pack; self.brushes = brushes }
    }

    public let groups: [Group]
    /// The MyPaint brush in use, framed.
    public var current: String?
    public let scale: Double
    /// Icons a row.
    public let columns: Int
    /// The panel's size in window pixels.
    public let width: Int, height: Int
    /// How far the grid is scrolled, window pixels (0: the first pack's header at the top).
    public private(set) var scroll: Double = 0

    /// What lies under a point of the chooser.
    public enum Hit: Equatable, Sendable {
        case brush(String)
        /// The panel itself: nothing happens.
        case panel
    }

    // At scale 1.
    static let icon = 44.0, cell = 52.0, margin = 12.0, title = 34.0, header = 26.0, windowMargin = 16.0, maxColumns = 12
    /// Grid rows a wheel click scrolls.
    static let rowsPerWheelStep = 2.0

    /// Lays `groups` out in a panel that fits a window of `window` (at most `maxColumns` icons
    /// a row, as tall as the window allows).
    public init(groups: [Group], current: String?, scale: Double, fitting window: Size) {
        self.groups = groups
        self.current = current
        self.scale = scale
        let u = scale
        let room = Double(window.width) - 2 * (Self.windowMargin + Self.margin) * u
        columns = max(1, min(Self.maxColumns, Int(room / (Self.cell * u))))
        width = Int(((2 * Self.margin + Double(columns) * Self.cell) * u).rounded(.up))
        let wanted = (Self.title + Self.margin) * u + Self.contentHeight(groups, columns: columns) * u
        height = Int(min(wanted, max(Double(window.height) - 2 * Self.windowMargin * u, (Self.title + Self.header + Self.cell) * u)).rounded(.up))
    }

    /// The grid's height at scale 1: each pack's header, then its rows of icons.
    static func contentHeight(_ groups: [Group], columns: Int) -> Double {
        groups.reduce(0) { $0 + header + Double(($1.brushes.count + columns - 1) / columns) * cell }
    }

    /// The part of the panel the grid shows through, window pixels from its top-left corner.
    var viewport: Box {
        let u = scale
        return Box(x: 0, y: Self.title * u, width: Double(width), height: max(0, Double(height) - (Self.title + Self.margin / 2) * u))
    }

    /// The furthest the grid scrolls.
    public var maxScroll: Double { max(0, Self.contentHeight(groups, columns: columns) * scale - viewport.height) }

    /// Scrolls by wheel clicks (`steps` > 0: up, toward the first pack); false when it was
    /// already at that end.
    public mutating func scroll(by steps: Int) -> Bool {
        let next = min(max(scroll - Double(steps) * Self.rowsPerWheelStep * Self.cell * scale, 0), maxScroll)
        defer { scroll = next }
        return next != scroll
    }

    /// Each pack's header and each brush's icon, where they lie as scrolled.
    func layout() -> (headers: [(pack: String, count: Int, y: Double)], icons: [(name: String, box: Box)]) {
        let u = scale
        var y = viewport.y - scroll
        var headers: [(String, Int, Double)] = [], icons: [(String, Box)] = []
        let inset = (Self.cell - Self.icon) / 2 * u
        for g in groups {
            headers.append((g.pack, g.brushes.count, y))
            y += Self.header * u
            for (i, name) in g.brushes.enumerated() {
                let x = (Self.margin + Double(i % columns) * Self.cell) * u + inset
                let top = y + Double(i / columns) * Self.cell * u + inset
                icons.append((name, Box(x: x.rounded(), y: top.rounded(), width: (Self.icon * u).rounded(), height: (Self.icon * u).rounded())))
            }
            y += Double((g.brushes.count + columns - 1) / columns) * Self.cell * u
        }
        return (headers, icons)
    }

    /// What is at (x, y) (chooser coordinates); nil outside the panel.
    public func hit(_ x: Double, _ y: Double) -> Hit? {
        guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { return nil }
        guard viewport.contains(x, y) else { return .panel }
        let pad = (Self.cell - Self.icon) / 2 * scale
        return layout().icons.first { $0.box.inset(by: -pad).contains(x, y) }.map { .brush($0.name) } ?? .panel
    }

    /// An icon's side in window pixels at `scale`.
    public static func iconSide(scale: Double) -> Int { Int((icon * scale).rounded()) }

    /// Draws it: the title (the brush in use), then the packs and their icons within the
    /// viewport (`icon` gives each at `iconSide`).
    func draw(_ p: Painter, font: UIFont, icon: (String) -> Texture<UInt32>?) {
        let u = scale, m = Self.margin * u
        p.fill(Box(x: 0, y: 0, width: Double(width), height: Double(height)), Theme.panel)
        font.draw("Brushes", x: m, y: 9 * u, scale: u, Theme.text, on: p)
        let note = (current.map { $0 + " · " } ?? "") + "Escape closes"
        font.draw(note, x: Double(width) - m - font.width(note, scale: u), y: 9 * u, scale: u, Theme.dim, on: p)
        let view = viewport
        let inside = Painter(p.target, clip: view.covering.intersection(p.clip))
        guard !groups.isEmpty else {
            font.draw("No MyPaint brushes installed (mypaint-data/2.0/brushes)", x: m, y: view.y + 4 * u, scale: u, Theme.dim, on: inside)
            return
        }
        let l = layout()
        for h in l.headers where h.y + Self.header * u > view.y && h.y < view.maxY {
            font.draw("\(h.pack) · \(h.count)", x: m, y: h.y + 6 * u, scale: u, Theme.dim, on: inside)
        }
        for item in l.icons where item.box.maxY > view.y && item.box.y < view.maxY {
            inside.brushIcon(icon(item.name), in: item.box, chosen: item.name == current, scale: u)
        }
    }
}
