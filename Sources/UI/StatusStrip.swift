import Kernels

/// The small strip in the window's bottom-left corner that says the state: a swatch of the
/// colour, then the brush, size, layer, zoom and the journal's state; below them, when there is
/// one, what the app asks or just did — in the warning colour when it is a warning.
public struct StatusStrip: Equatable, Sendable {
    public var swatch: Color
    /// The fields of the first line, shown separated by dots.
    public var fields: [String]
    /// The second line, if any.
    public var notice: String?
    /// The notice (or, with none, the last field) is a warning.
    public var warning: Bool

    public init(swatch: Color, fields: [String], notice: String? = nil, warning: Bool = false) {
        self.swatch = swatch; self.fields = fields; self.notice = notice; self.warning = warning
    }

    /// The first line's text.
    var line: String { fields.joined(separator: " · ") }

    /// The strip made to fit `width` window pixels: a notice too long loses its closing
    /// parenthesis (a hint), then characters from just after its label ("save as: …/folder/
    /// name.ora_"), so a path typed at its end stays in view.
    public func fitted(to width: Int, scale u: Double, font: UIFont) -> StatusStrip {
        guard var text = notice, size(scale: u, font: font).width > width else { return self }
        var fitted = self
        if text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) {
            text = String(text[..<open.lowerBound])
            fitted.notice = text
            if fitted.size(scale: u, font: font).width <= width { return fitted }
        }
        let head = text.range(of: ": ").map { String(text[..<$0.upperBound]) } ?? ""
        var tail = Substring(text.dropFirst(head.count))
        while !tail.isEmpty {
            tail = tail.dropFirst()
            text = head + "…" + tail
            fitted.notice = text
            if fitted.size(scale: u, font: font).width <= width { break }
        }
        return fitted
    }

    /// Its size at `scale`, in window pixels.
    func size(scale u: Double, font: UIFont) -> (width: Int, height: Int) {
        let lines = notice == nil ? 1.0 : 2.0
        let textWidth = max(font.width(line, scale: u) + 14 * u, font.width(notice ?? "", scale: u))
        return (Int((textWidth + 12 * u).rounded(.up)), Int((lines * font.lineHeight(scale: u) + 8 * u).rounded(.up)))
    }

    /// Draws it with its top-left at (0, 0).
    func draw(_ p: Painter, scale u: Double, font: UIFont) {
        let (w, h) = size(scale: u, font: font)
        p.fill(Box(x: 0, y: 0, width: Double(w), height: Double(h)), Theme.panel)
        let line = font.lineHeight(scale: u)
        let swatch = Box(x: 6 * u, y: 4 * u + (line - 8 * u) / 2, width: 10 * u, height: 8 * u)
        p.fill(swatch.inset(by: -1 * u), Theme.dim)
        p.fill(swatch, Color(r: self.swatch.r, g: self.swatch.g, b: self.swatch.b))
        let warnFirst = warning && notice == nil
        font.draw(self.line, x: 20 * u, y: 4 * u, scale: u, warnFirst ? Theme.warning : Theme.text, on: p)
        if let notice {
            font.draw(notice, x: 6 * u, y: 4 * u + line, scale: u, warning ? Theme.warning : Theme.dim, on: p)
        }
    }
}
