import Compute
import Events
import Geometry
import Kernels

extension WidgetID {
    public static let help = WidgetID("help")
}

/// The keys, over the canvas (F1): a panel centred in the window listing each binding and what
/// it does, from the same table as `--help`, the man page and docs/usage.md (the app hands it
/// the lines). In two columns when one does not fit the window's height; what fits neither is
/// cut with an ellipsis. A press outside it, Escape or F1 again closes it.
public final class HelpWidget: InteractiveWidget, ToggledWidget {
    public let id = WidgetID.help
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    /// (keys, what they do), in order.
    private let entries: [(keys: String, does: String)]
    private var open = false
    private let surface = WidgetSurface()
    /// The laid-out lines, and the panel's size (made when it opens).
    private var layout: Layout?

    private struct Layout {
        /// Each line: its column, its row, the keys (on an entry's first line only) and text.
        var lines: [(column: Int, row: Int, keys: String, text: String)]
        var size: Size
        var keysWidth: Double
        var columnWidth: Double
    }

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

    public func toggle(atX x: Double, y: Double, brush: Brush) {
        open ? close() : show()
    }

    public func close() {
        open = false
        surface.place(nil)
    }

    private func show() {
        open = true
        let l = makeLayout()
        layout = l
        surface.place(Rect(x: max(0, (windowSize.width - l.size.width) / 2), y: max(0, (windowSize.height - l.size.height) / 2),
                           width: l.size.width, height: l.size.height))
    }

    public func windowResized(to size: Size) {
        windowSize = size
        if open { show() }
    }

    /// The entries wrapped to the columns that fit the window.
    private func makeLayout() -> Layout {
        let u = scale, margin = 14 * u, gap = 24 * u, line = font.lineHeight(scale: u)
        let keysWidth = entries.map { font.width($0.keys, scale: u) }.max().map { $0 + 12 * u } ?? 0
        let available = Double(windowSize.width) - 2 * margin - 16 * u
        let columns = available >= 2 * (keysWidth + 260 * u) + gap ? 2 : 1
        let columnWidth = min((available - Double(columns - 1) * gap) / Double(columns), keysWidth + 420 * u)
        var wrapped: [[(keys: String, text: String)]] = []
        for e in entries {
            var lines: [(String, String)] = [], current = ""
            for word in e.does.split(separator: " ") {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if !current.isEmpty, font.width(candidate, scale: u) > columnWidth - keysWidth {
                    lines.append((lines.isEmpty ? e.keys : "", current))
                    current = String(word)
                } else {
                    current = candidate
                }
            }
            lines.append((lines.isEmpty ? e.keys : "", current))
            wrapped.append(lines)
        }
        let total = wrapped.reduce(0) { $0 + $1.count }
        let fitRows = max(1, Int((Double(windowSize.height) - 2 * margin - line * 2 - 16 * u) / line))
        let perColumn = min(fitRows, (total + columns - 1) / columns)
        var placed: [(column: Int, row: Int, keys: String, text: String)] = []
        var column = 0, row = 0
        entriesLoop: for lines in wrapped {
            // An entry is not split between columns.
            if row + lines.count > perColumn, row > 0 { column += 1; row = 0 }
            for l in lines {
                if column >= columns { break entriesLoop }
                if row >= perColumn {
                    placed[placed.count - 1].text += " …"
                    break entriesLoop
                }
                placed.append((column, row, l.keys, l.text))
                row += 1
            }
        }
        let rows = min(perColumn, placed.map { $0.row + 1 }.max() ?? 0)
        let width = Int((2 * margin + Double(columns) * columnWidth + Double(columns - 1) * gap).rounded(.up))
        let height = Int((2 * margin + line * Double(rows + 2)).rounded(.up))
        return Layout(lines: placed, size: Size(width: width, height: height), keysWidth: keysWidth, columnWidth: columnWidth)
    }

    public func contains(_ x: Double, _ y: Double) -> Bool { surface.rect?.contains(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) ?? false }
    public func press(x: Double, y: Double, brush: Brush) -> [Command] { [] }
    public func drag(x: Double, y: Double, brush: Brush) -> [Command] { [] }
    public func release(x: Double, y: Double, brush: Brush) -> [Command] { [] }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard open, let l = layout else { return }
        surface.draw(into: target, clip: clip) { r in
            Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { p in
                let u = scale, margin = 14 * u, gap = 24 * u, line = font.lineHeight(scale: u)
                p.fill(Box(x: 0, y: 0, width: Double(r.width), height: Double(r.height)), Theme.panel)
                font.draw("Keys", x: margin, y: margin, scale: u, Theme.text, on: p)
                font.draw("F1 or Escape closes", x: Double(r.width) - margin - font.width("F1 or Escape closes", scale: u), y: margin,
                          scale: u, Theme.dim, on: p)
                for entry in l.lines {
                    let x = margin + Double(entry.column) * (l.columnWidth + gap), y = margin + line * Double(entry.row + 2)
                    if !entry.keys.isEmpty { font.draw(entry.keys, x: x, y: y, scale: u, Theme.text, on: p) }
                    font.draw(entry.text, x: x + l.keysWidth, y: y, scale: u, Theme.dim, on: p)
                }
            }
        }
    }
}
