import Geometry

/// The key help laid out to fit a window: the entries in as many columns as its width allows
/// (each wide enough for the widest keys and 260 px of text at scale 1), flowed down one column
/// and on to the next, balanced when they all fit; where the window's height does not hold them
/// all, on as many pages as they need, a footer line saying which page is shown. An entry is not
/// split between columns or pages unless it is taller than a whole column. Every entry lands on
/// some page, and the panel fits the window with 8 px to spare on each side (for a window too
/// small for even one column of text, it keeps at least one line a column and some text width).
/// Pure, but for measuring text with the font.
public struct HelpLayout: Equatable {
    /// One line of an entry, where it lies.
    public struct Line: Equatable, Sendable {
        public var page: Int
        public var column: Int
        public var row: Int
        /// The entry it belongs to (its index in the entries).
        public var entry: Int
        /// The entry's keys, on its first line only ("" on the others).
        public var keys: String
        public var text: String
    }

    /// Every entry's lines, in the entries' order, page by page.
    public private(set) var lines: [Line] = []
    /// How many pages they take (1: all shown at once, no footer).
    public private(set) var pages = 1
    /// Columns a page, and rows a column.
    public private(set) var columns = 1
    public private(set) var rows = 0
    /// The panel's size, window pixels.
    public private(set) var size = Size(width: 0, height: 0)
    /// Around the text, inside the panel; between two columns; from one line's top to the next.
    public let margin: Double
    public let gap: Double
    public let lineHeight: Double
    /// Where an entry's text starts, from its column's left.
    public let keysWidth: Double
    /// A column's width, keys and text.
    public private(set) var columnWidth: Double = 0

    /// The text of the widest line must fit `columnWidth − keysWidth`; a column is at least
    /// this much text wide (scale 1) when the window allows, and at most `maxText`.
    static let minText = 260.0, maxText = 420.0

    /// Lays `entries` (keys, what they do) out for a window of `window` at UI `scale`.
    public init(entries: [(keys: String, does: String)], window: Size, scale u: Double, font: UIFont) {
        margin = 14 * u
        gap = 24 * u
        lineHeight = font.lineHeight(scale: u)
        keysWidth = (entries.map { font.width($0.keys, scale: u) }.max() ?? 0) + 12 * u
        let available = Double(window.width) - 2 * margin - 16 * u
        let fitColumns = max(1, Int((available + gap) / (keysWidth + Self.minText * u + gap)))
        columnWidth = min((available - Double(fitColumns - 1) * gap) / Double(fitColumns), keysWidth + Self.maxText * u)
        let textWidth = max(columnWidth - keysWidth, 40 * u)
        columnWidth = keysWidth + textWidth
        let wrapped = entries.map { Self.wrap($0.does, width: textWidth, font: font, scale: u) }
        let total = wrapped.reduce(0) { $0 + $1.count }
        // Rows below the title (and its blank line), within the window's height less 8 px a side.
        func fitRows(footer: Double) -> Int {
            max(1, Int((Double(window.height) - 16 * u - 2 * margin - (2 + footer) * lineHeight) / lineHeight))
        }
        let onePage = fitRows(footer: 0)
        // One page, its columns as even as the entries allow; else pages of full columns.
        var perColumn = min(onePage, (total + fitColumns - 1) / fitColumns)
        while perColumn < onePage, Self.place(wrapped, entries, perColumn: perColumn, columns: fitColumns).last?.page ?? 0 > 0 {
            perColumn += 1
        }
        lines = Self.place(wrapped, entries, perColumn: perColumn, columns: fitColumns)
        if lines.last?.page ?? 0 > 0 {
            perColumn = fitRows(footer: Self.footerLines)
            lines = Self.place(wrapped, entries, perColumn: perColumn, columns: fitColumns)
            pages = (lines.last?.page ?? 0) + 1
            columns = fitColumns
            rows = perColumn
        } else {
            columns = (lines.map(\.column).max() ?? 0) + 1
            rows = (lines.map(\.row).max() ?? -1) + 1
        }
        let width = 2 * margin + Double(columns) * columnWidth + Double(columns - 1) * gap
        let height = 2 * margin + lineHeight * (Double(2 + rows) + (pages > 1 ? Self.footerLines : 0))
        size = Size(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)))
    }

    /// The footer's height, in lines: a half line's space above it.
    static let footerLines = 1.5

    /// The top-left of a line's keys (its text starts `keysWidth` further right), panel pixels.
    public func origin(of line: Line) -> (x: Double, y: Double) {
        (margin + Double(line.column) * (columnWidth + gap), margin + lineHeight * Double(line.row + 2))
    }

    /// The top of the footer line (shown when there is more than one page), panel pixels.
    public var footerY: Double { Double(size.height) - margin - lineHeight }

    /// The lines on page `page`.
    public func lines(onPage page: Int) -> [Line] { lines.filter { $0.page == page } }

    /// `text` in lines no wider than `width` (a word wider than that alone on its line).
    private static func wrap(_ text: String, width: Double, font: UIFont, scale u: Double) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty, font.width(candidate, scale: u) > width {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        return lines + [current]
    }

    /// The wrapped entries flowed down columns of `perColumn` rows, `columns` a page.
    private static func place(_ wrapped: [[String]], _ entries: [(keys: String, does: String)], perColumn: Int, columns: Int) -> [Line] {
        var out: [Line] = [], page = 0, column = 0, row = 0
        func nextColumn() {
            row = 0
            column += 1
            if column == columns { column = 0; page += 1 }
        }
        for (i, text) in wrapped.enumerated() {
            if row > 0, row + text.count > perColumn { nextColumn() }
            for (k, t) in text.enumerated() {
                // Only an entry taller than a column goes on in the next one.
                if row >= perColumn { nextColumn() }
                out.append(Line(page: page, column: column, row: row, entry: i, keys: k == 0 ? entries[i].keys : "", text: t))
                row += 1
            }
        }
        return out
    }
}
