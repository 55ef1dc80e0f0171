import Compute
import Foundation
import Kernels
import Strokes

/// The pop-up palette (Krita's, after a right click): a hue ring around a saturation/value
/// square (the HSV hexcone), the last colours used on a ring outside it, where MyPaint brushes
/// are installed a ring of favourite brushes round that (`BrushRing`), and under them the four
/// brush kinds, the size and (with the brushes) a button for the brush chooser. Laid out at a UI
/// scale in its own coordinates, its centre `centreOffset` from its top-left corner both ways;
/// `PaletteWidget` places it at the pointer.
public struct Palette: Equatable, Sendable {
    /// The colour shown, as hue, saturation and value (kept apart so a grey keeps its hue).
    public var hue: Double, saturation: Double, value: Double
    /// The last colours used, the latest first (at most `recentCount`).
    public var recent: [Color]
    public var kind: BrushKind
    public var size: Int
    public let scale: Double
    /// The favourite brushes; nil where no MyPaint brush is installed (the palette is then smaller).
    public var ring: BrushRing?

    public static let recentCount = 8

    /// What lies under a point of the palette.
    public enum Hit: Equatable, Sendable {
        case hue(Double)
        case saturationValue(saturation: Double, value: Double)
        case recent(Color)
        case kind(BrushKind)
        /// The size's − (smaller) or + button.
        case size(smaller: Bool)
        /// A brush on the ring, by name.
        case brush(String)
        /// The button that opens the brush chooser.
        case brushChooser
        /// The palette's own background: nothing happens.
        case panel
    }

    public init(color: Color, recent: [Color], kind: BrushKind, size: Int, scale: Double, ring: BrushRing? = nil) {
        (hue, saturation, value) = HSV.components(of: color)
        self.recent = Array(recent.prefix(Self.recentCount))
        self.kind = kind; self.size = size; self.scale = scale
        self.ring = ring
    }

    /// A hue chosen on the ring. Where the colour is a grey (black and white too) a hue alone
    /// would change nothing seen, so the colour becomes that hue at full saturation (and, from
    /// black, full value): the ring always does what it shows.
    public mutating func choose(hue h: Double) {
        hue = h
        if saturation < 0.05 { saturation = 1 }
        if value < 0.05 { value = 1 }
    }

    /// The colour the hue, saturation and value make.
    public var color: Color { HSV.color(h: hue, s: saturation, v: value) }

    // Layout at scale 1 (multiplied by `scale`), without the ring of brushes; with it the centre
    // moves out by `ringShift` and the rows go below the ring.
    static let centre = 140.0, ringOuter = 100.0, ringInner = 78.0, square = 104.0
    static let recentRadius = 122.0, recentDot = 11.0
    static let rowsTop = 284.0, button = (width: 64.0, height: 22.0, gap: 4.0, left: 6.0)
    static let ringShift = BrushRing.reach + 3 - centre

    /// The centre's distance from the top and the left edge, and the rows' top, at scale 1.
    private var units: (centre: Double, rowsTop: Double, shift: Double) {
        guard ring != nil else { return (Self.centre, Self.rowsTop, 0) }
        return (Self.centre + Self.ringShift, 2 * (Self.centre + Self.ringShift) + 3, Self.ringShift)
    }
    /// The round panel's radius at scale 1.
    private var discRadius: Double { ring == nil ? Self.recentRadius + Self.recentDot + 4 : BrushRing.reach }

    /// The palette's size in window pixels.
    public var width: Int { Int((2 * units.centre * scale).rounded(.up)) }
    public var height: Int { Int(((units.rowsTop + 2 * Self.button.height + 12) * scale).rounded(.up)) }
    /// The window offset of its centre from its top-left corner.
    public var centreOffset: Double { units.centre * scale }

    private var c: Double { units.centre * scale }
    private var squareBox: Box {
        let s = Self.square * scale
        return Box(x: c - s / 2, y: c - s / 2, width: s, height: s)
    }
    private var rowsBox: Box {
        Box(x: units.shift * scale, y: (units.rowsTop - 6) * scale, width: 2 * Self.centre * scale, height: (2 * Self.button.height + 18) * scale)
    }
    private func kindBox(_ i: Int) -> Box {
        let b = Self.button
        return Box(x: (units.shift + b.left + Double(i) * (b.width + b.gap)) * scale, y: units.rowsTop * scale, width: b.width * scale,
                   height: b.height * scale)
    }
    /// The size row: −, the size, + across the row; with the ring, across its left half, the
    /// chooser's button on the right.
    private func sizeBox(smaller: Bool) -> Box {
        let b = Self.button
        let right = ring == nil ? 2 * Self.centre - b.left - b.height : 116
        return Box(x: (units.shift + (smaller ? b.left : right)) * scale, y: (units.rowsTop + b.height + b.gap) * scale,
                   width: b.height * scale, height: b.height * scale)
    }
    private var sizeLabelX: Double { ring == nil ? c : (units.shift + 72) * scale }
    private var chooserBox: Box? {
        guard ring != nil else { return nil }
        let b = Self.button
        return Box(x: (units.shift + 144) * scale, y: (units.rowsTop + b.height + b.gap) * scale, width: 130 * scale, height: b.height * scale)
    }
    private func recentCentre(_ i: Int) -> (x: Double, y: Double) {
        let angle = -Double.pi / 2 + Double(i) * 2 * Double.pi / Double(Self.recentCount)
        return (c + cos(angle) * Self.recentRadius * scale, c + sin(angle) * Self.recentRadius * scale)
    }

    /// What is at (x, y) (palette coordinates); nil outside the palette.
    public func hit(_ x: Double, _ y: Double) -> Hit? {
        let dx = x - c, dy = y - c, d = (dx * dx + dy * dy).squareRoot()
        if squareBox.contains(x, y) { return saturationValue(x, y) }
        if d >= Self.ringInner * scale, d <= Self.ringOuter * scale { return .hue(hue(x, y)) }
        for i in recent.indices {
            let p = recentCentre(i)
            if (x - p.x) * (x - p.x) + (y - p.y) * (y - p.y) <= pow((Self.recentDot + 2) * scale, 2) { return .recent(recent[i]) }
        }
        if let name = ring?.hit(x, y, centre: c, scale: scale) { return .brush(name) }
        for (i, k) in BrushKind.allCases.enumerated() where kindBox(i).contains(x, y) { return .kind(k) }
        for smaller in [true, false] where sizeBox(smaller: smaller).contains(x, y) { return .size(smaller: smaller) }
        if chooserBox?.contains(x, y) == true { return .brushChooser }
        if d <= discRadius * scale || rowsBox.contains(x, y) { return .panel }
        return nil
    }

    /// The hue at (x, y), wherever it is (a drag that started on the ring follows the angle).
    public func hue(_ x: Double, _ y: Double) -> Double {
        let a = atan2(y - c, x - c) / (2 * Double.pi) + 0.25  // red at the top
        return ((a - a.rounded(.down)) * 1000).rounded() / 1000
    }

    /// The saturation and value at (x, y), clamped to the square (for a drag that leaves it).
    public func saturationValue(_ x: Double, _ y: Double) -> Hit {
        let b = squareBox
        let s = min(max((x - b.x) / b.width, 0), 1), v = 1 - min(max((y - b.y) / b.height, 0), 1)
        return .saturationValue(saturation: (s * 1000).rounded() / 1000, value: (v * 1000).rounded() / 1000)
    }

    /// Draws it with its top-left at (0, 0).
    /// Draws what every palette of this scale shows, whatever its state: the panel and the hue
    /// ring (drawn once and kept: most of the pixels, and the costliest).
    func drawBase(_ p: Painter) {
        let u = scale
        p.ring(cx: c, cy: c, inner: 0, outer: discRadius * u, Theme.panel)
        p.fill(rowsBox, Theme.panel)
        // The hue ring, red at the top, turning clockwise.
        p.ring(cx: c, cy: c, inner: Self.ringInner * u, outer: Self.ringOuter * u) { dx, dy in
            let a = atan2(dy, dx) / (2 * Double.pi) + 0.25
            return HSV.color(h: a - a.rounded(.down), s: 1, v: 1)
        }
    }

    /// Draws the rest over `drawBase`'s pixels: the square for the hue, the marks, the recent
    /// colours, the brushes (their icons from `icon`), the kinds and the size.
    func draw(_ p: Painter, font: UIFont, icon: (String) -> Texture<UInt32>? = { _ in nil }) {
        let u = scale
        // Saturation across, value down, for the hue: value · (1 − s · (1 − the pure hue)), the
        // hexcone without its case split per pixel.
        let pure = HSV.rgb(h: hue, s: 1, v: 1)
        let k = (r: 1 - pure.r, g: 1 - pure.g, b: 1 - pure.b)
        p.gradient(squareBox) { s, v in
            let value = (1 - v) * 255
            return Color(r: UInt8(value * (1 - s * k.r) + 0.5), g: UInt8(value * (1 - s * k.g) + 0.5), b: UInt8(value * (1 - s * k.b) + 0.5))
        }
        // Where the colour is: a notch on the ring, a ring on the square.
        let a = (hue - 0.25) * 2 * Double.pi
        let notch = (x: c + cos(a) * (Self.ringInner + Self.ringOuter) / 2 * u, y: c + sin(a) * (Self.ringInner + Self.ringOuter) / 2 * u)
        p.ring(cx: notch.x, cy: notch.y, inner: 7 * u, outer: 9 * u, Theme.dark)
        p.ring(cx: notch.x, cy: notch.y, inner: 5 * u, outer: 7 * u, Theme.light)
        let sq = squareBox
        let mark = (x: sq.x + saturation * sq.width, y: sq.y + (1 - value) * sq.height)
        p.ring(cx: mark.x, cy: mark.y, inner: 5 * u, outer: 6.5 * u, Theme.dark)
        p.ring(cx: mark.x, cy: mark.y, inner: 3.5 * u, outer: 5 * u, Theme.light)
        for i in 0..<Self.recentCount {
            let q = recentCentre(i)
            if i < recent.count {
                let col = recent[i]
                p.ring(cx: q.x, cy: q.y, inner: 0, outer: Self.recentDot * u, Color(r: col.r, g: col.g, b: col.b))
                p.ring(cx: q.x, cy: q.y, inner: Self.recentDot * u, outer: (Self.recentDot + 1) * u, Theme.dim)
            } else {
                p.ring(cx: q.x, cy: q.y, inner: (Self.recentDot - 1) * u, outer: Self.recentDot * u, Theme.raised)
            }
        }
        for (i, k) in BrushKind.allCases.enumerated() {
            let b = kindBox(i)
            // A MyPaint brush in use paints instead of the kind: none is marked.
            p.fill(b, k == kind && ring?.current == nil ? Theme.selected : Theme.raised)
            font.draw(k.rawValue.capitalized, centredAt: b.midX, b.midY, scale: u, Theme.text, on: p)
        }
        for smaller in [true, false] {
            let b = sizeBox(smaller: smaller)
            p.fill(b, Theme.raised)
            font.draw(smaller ? "−" : "+", centredAt: b.midX, b.midY, scale: u, Theme.text, on: p)
        }
        font.draw("Size \(size)", centredAt: sizeLabelX, sizeBox(smaller: true).midY, scale: u, Theme.text, on: p)
        ring?.draw(p, centre: c, scale: u, icon: icon)
        if let b = chooserBox {
            p.fill(b, Theme.raised)
            font.draw("Brushes…", centredAt: b.midX, b.midY, scale: u, Theme.text, on: p)
        }
    }
}
