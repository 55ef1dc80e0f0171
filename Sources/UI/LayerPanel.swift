import Geometry
import Compute
import Events
import Kernels

/// What the layer panel shows: each layer's thumbnail, name, eye, mode and opacity, the
/// current one marked, groups with what they hold indented under them and a triangle that
/// folds them; and where each part lies (`hit`), so that presses become the layer commands the
/// keys send. Pure: the app makes it from the document (`rows` bottom first, as the document
/// orders them; the panel lists them top first, as Krita and MyPaint do).
public struct LayerPanel: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        /// Which layer it is, as the app tells them apart (its thumbnail is kept while it stays).
        public var key: Int
        public var name: String
        public var visible: Bool
        /// "multiply", or "" for normal.
        public var mode: String
        /// 0…100.
        public var opacity: Int
        /// `LayerPanel.thumbnailSize(scale:)` pixels, opaque (over a light checker).
        public var thumbnail: [UInt32]
        /// How many groups hold it.
        public var depth: Int
        /// Non-nil for a group: whether it is isolated (else pass-through).
        public var isolated: Bool?
        public init(key: Int, name: String, visible: Bool, mode: String, opacity: Int, thumbnail: [UInt32], depth: Int = 0, isolated: Bool? = nil) {
            self.key = key; self.name = name; self.visible = visible; self.mode = mode; self.opacity = opacity; self.thumbnail = thumbnail
            self.depth = depth; self.isolated = isolated
        }
        public var isGroup: Bool { isolated != nil }
    }

    public var rows: [Row]
    public var current: Int
    public var scale: Double
    /// How many rows fit (the window's height decides); the ones shown keep the current in view.
    public var visibleRows: Int
    /// The keys of the groups folded: what they hold is not listed. The panel's own, never the
    /// document's: no command, not journaled, not saved.
    public var folded: Set<Int> = []

    public init(rows: [Row], current: Int, scale: Double, visibleRows: Int = .max) {
        self.rows = rows; self.current = current; self.scale = scale; self.visibleRows = max(1, visibleRows)
    }

    /// The groups as the rows hold them.
    public var outline: StackOutline { StackOutline(depths: rows.map(\.depth), groups: rows.map(\.isGroup)) }

    /// A thumbnail's size at `scale`, in window pixels.
    public static func thumbnailSize(scale u: Double) -> (width: Int, height: Int) { (Int(36 * u), Int(24 * u)) }

    var width: Int { Int(220 * scale) }
    var headerHeight: Double { 26 * scale }
    var rowHeight: Double { 32 * scale }
    var height: Int { Int(headerHeight + Double(shown.count) * rowHeight + 4 * scale) }

    /// The layer indices shown, top first: those no folded group holds, as many as fit around
    /// the current one (or the folded group that holds it).
    var shown: [Int] {
        var listed: [Int] = [], foldedAt: Int?
        for i in rows.indices.reversed() {
            if let depth = foldedAt {
                if rows[i].depth > depth { continue }
                foldedAt = nil
            }
            listed.append(i)
            if rows[i].isGroup, folded.contains(rows[i].key) { foldedAt = rows[i].depth }
        }
        let count = min(listed.count, visibleRows)
        let at = listed.lastIndex { $0 >= current } ?? 0
        let start = max(0, min(at - count / 2, listed.count - count))
        return Array(listed[start..<start + count])
    }

    /// What a point of the panel (its own pixels) is.
    public enum Hit: Equatable, Sendable {
        case newLayer, deleteLayer, mergeDown, group, ungroup
        /// The triangle of group `index`.
        case fold(Int)
        /// The eye of layer `index`.
        case eye(Int)
        /// The rest of layer `index`'s row.
        case row(Int)
        case panel
    }

    /// The header's buttons, right to left: merge down, delete, new, ungroup, group.
    func button(_ hit: Hit) -> Box {
        let u = scale, side = 20 * u
        let slot = switch hit { case .mergeDown: 1.0; case .deleteLayer: 2.0; case .newLayer: 3.0; case .ungroup: 4.0; default: 5.0 }
        return Box(x: Double(width) - slot * (side + 4 * u), y: 3 * u, width: side, height: side)
    }

    /// Where this panel looks different from `old` (panel pixels), when only rows changed in
    /// place (one chosen, an eye, a thumbnail, a name): nil when anything else did (rows came or
    /// went, or scrolled, or the scale or the folds changed), which redraws it all.
    public func changedRows(from old: LayerPanel) -> Rect? {
        let shown = shown
        guard rows.count == old.rows.count, scale == old.scale, visibleRows == old.visibleRows, folded == old.folded,
              shown == old.shown else { return nil }
        var changed = Rect.empty
        for (position, index) in shown.enumerated()
        where rows[index] != old.rows[index] || (index == current) != (index == old.current) {
            changed = changed.union(rowBox(position).covering)
        }
        return changed
    }

    /// Where row `index` is drawn (panel pixels), or nil while it is not shown.
    public func rowRect(_ index: Int) -> Rect? { shown.firstIndex(of: index).map { rowBox($0).covering } }

    private func rowBox(_ position: Int) -> Box {
        Box(x: 0, y: headerHeight + Double(position) * rowHeight, width: Double(width), height: rowHeight)
    }

    private func eyeBox(_ row: Box) -> Box { Box(x: row.x + 6 * scale, y: row.y + 8 * scale, width: 16 * scale, height: 16 * scale) }

    /// How far a row's thumbnail, triangle and name are moved right: 10 px a level, at most 6.
    private func indent(_ index: Int) -> Double { Double(min(rows[index].depth, 6)) * 10 * scale }

    /// A group's fold triangle, left of its thumbnail.
    private func foldBox(_ row: Box, _ index: Int) -> Box {
        Box(x: row.x + 26 * scale + indent(index), y: row.y + 8 * scale, width: 12 * scale, height: 16 * scale)
    }

    private func thumbnailX(_ row: Box, _ index: Int) -> Double { row.x + (rows[index].isGroup ? 40 : 28) * scale + indent(index) }

    public func hit(_ x: Double, _ y: Double) -> Hit {
        for b in [Hit.newLayer, .deleteLayer, .mergeDown, .group, .ungroup] where button(b).contains(x, y) { return b }
        for (position, index) in shown.enumerated() {
            let box = rowBox(position)
            guard box.contains(x, y) else { continue }
            if eyeBox(box).inset(by: -3 * scale).contains(x, y) { return .eye(index) }
            if rows[index].isGroup, foldBox(box, index).inset(by: -2 * scale).contains(x, y) { return .fold(index) }
            return .row(index)
        }
        return .panel
    }

    /// The layer a drag at height `y` would drop at (the nearest row).
    func dropIndex(atY y: Double) -> Int {
        let order = shown
        let position = min(max(Int(((y - headerHeight) / rowHeight).rounded(.down)), 0), order.count - 1)
        return order[position]
    }

    /// Draws it with its top-left at (0, 0); `dropAt`: a drag would move the current layer there.
    func draw(_ p: Painter, font: UIFont, dropAt: Int?) {
        let u = scale
        p.fill(Box(x: 0, y: 0, width: Double(width), height: Double(height)), Theme.panel)
        font.draw("Layers", x: 8 * u, y: 6 * u, scale: u, Theme.text, on: p)
        for (b, label) in [(Hit.newLayer, "+"), (.deleteLayer, "−"), (.mergeDown, "↓"), (.group, "⊞"), (.ungroup, "⊟")] {
            let box = button(b)
            p.fill(box, Theme.raised)
            font.draw(label, centredAt: box.x + box.width / 2, box.y + box.height / 2, scale: u, Theme.text, on: p)
        }
        let (tw, th) = Self.thumbnailSize(scale: u)
        for (position, index) in shown.enumerated() {
            let row = rows[index], box = rowBox(position)
            if index == current { p.fill(box.inset(by: 1 * u), Color(r: 66, g: 133, b: 244, a: 110)) }
            if index == dropAt && dropAt != current { p.fill(Box(x: box.x, y: box.y, width: box.width, height: 2 * u), Theme.selected) }
            let eye = eyeBox(box)
            p.ring(cx: eye.x + eye.width / 2, cy: eye.y + eye.height / 2, inner: 5 * u, outer: 7 * u, row.visible ? Theme.text : Theme.dim)
            if row.visible { p.ring(cx: eye.x + eye.width / 2, cy: eye.y + eye.height / 2, inner: 0, outer: 3 * u, Theme.text) }
            if row.isGroup {
                let f = foldBox(box, index), open = !folded.contains(row.key)
                font.draw(open ? "▾" : "▸", centredAt: f.x + f.width / 2, f.y + f.height / 2, scale: u, Theme.text, on: p)
            }
            let tx = Int(thumbnailX(box, index)), ty = Int(box.y + 4 * u)
            if row.thumbnail.count == tw * th {
                var pixels = row.thumbnail
                pixels.withUnsafeMutableBufferPointer { b in
                    if let base = b.baseAddress { p.blit(Texture(base: base, width: tw, height: th, rowStride: tw), x: tx, y: ty) }
                }
            }
            let textX = thumbnailX(box, index) + Double(tw) + 8 * u
            font.draw(row.name, x: textX, y: box.y + 2 * u, scale: u, row.visible ? Theme.text : Theme.dim, on: p)
            // A pass-through group's mode is not used: it says pass-through instead.
            let how = row.isolated == false ? "pass-through" : (row.mode.isEmpty ? "normal" : row.mode)
            let detail = (row.isolated == true ? ["isolated"] : []) + [how, "\(row.opacity) %"]
            let detailText = detail.joined(separator: " · ")
            font.draw(detailText, x: textX, y: box.y + 2 * u + font.lineHeight(scale: u) * 0.95, scale: u * 0.85, Theme.dim, on: p)
        }
    }
}
