import Compute
import Events
import Geometry

extension WidgetID {
    public static let layers = WidgetID("layers")
}

/// The layer panel (`LayerPanel`) at the window's right edge: shown at start, F7 hides and
/// shows it, Tab hides it with the rest. A press on a row makes that layer current and a drag
/// moves it (one `up`/`down` by as many places, on release; onto a group, into it; onto a row
/// outside its group, out of it); the eye shows or hides a layer; a group's triangle folds and
/// unfolds it (the panel's own state: no command); the buttons add a layer, delete the current
/// one, merge it down, group it and ungroup a group. Each is the command the keys send, so it
/// is journaled, undone and replayed as they are. A double-click on a row renames it (the
/// router starts the rename: `renames(atX:y:)`).
public final class LayerPanelWidget: InteractiveWidget, ToggledWidget {
    public let id = WidgetID.layers
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    public private(set) var panel: LayerPanel?
    private var open = true
    /// The layer a press on a row grabbed, and where a drag would drop it.
    private var dragging: (from: Int, to: Int)?
    private let surface = WidgetSurface()
    /// The document changed: the app makes the rows again before the next frame shows them.
    public var needsRows = true
    /// The groups folded, by row key (the panel's own: never the document's).
    public private(set) var folded: Set<Int> = []

    public init(windowSize: Size, scale: Double, font: UIFont, open: Bool = true) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
        self.open = open
    }

    public var frame: Rect? { surface.rect }
    public var isOpen: Bool { open }

    /// How many rows fit the window below the header.
    public var visibleRows: Int { max(1, Int((Double(windowSize.height) - 80 * scale) / (32 * scale))) }

    /// Shows the document's layers as `new` says.
    public func show(_ new: LayerPanel) {
        needsRows = false
        var new = new
        // Groups no longer there are forgotten.
        folded.formIntersection(new.rows.filter(\.isGroup).map(\.key))
        new.folded = folded
        guard new != panel else { return }
        // Rows changed in place: only they are composed and shown again, not the whole panel.
        let rows = open ? panel.flatMap { new.changedRows(from: $0) } : nil
        panel = new
        if let rows { changed(rows) } else { place() }
    }

    /// Shows again `area` of the panel (panel pixels).
    private func changed(_ area: Rect) {
        guard let rect = surface.rect else { return }
        surface.changed(Rect(x: rect.minX + area.minX, y: rect.minY + area.minY, width: area.width, height: area.height))
    }

    /// Shows again the rows at `indices` (each with the marker line at its top).
    private func changed(rows indices: [Int]) {
        guard let panel else { return }
        for i in indices { if let r = panel.rowRect(i) { changed(r) } }
    }

    private func place() {
        guard open, let panel else { return surface.place(nil) }
        let margin = Int((8 * scale).rounded())
        surface.place(Rect(x: windowSize.width - panel.width - margin, y: margin, width: panel.width, height: panel.height))
    }

    public func toggle(atX x: Double, y: Double, brush: Brush) {
        open.toggle()
        dragging = nil
        place()
    }

    public func close() {
        open = false
        place()
    }

    public func windowResized(to size: Size) {
        windowSize = size
        needsRows = true
        place()
    }

    public func contains(_ x: Double, _ y: Double) -> Bool { surface.rect?.contains(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) ?? false }

    private func local(_ x: Double, _ y: Double) -> (Double, Double) {
        (x - Double(surface.rect?.minX ?? 0), y - Double(surface.rect?.minY ?? 0))
    }

    public func press(x: Double, y: Double, brush: Brush) -> [Command] {
        guard let panel else { return [] }
        let (lx, ly) = local(x, y)
        switch panel.hit(lx, ly) {
        case .newLayer: return [.layer(.new(name: nil))]
        case .deleteLayer: return [.layer(.delete)]
        case .mergeDown: return [.layer(.mergeDown)]
        case .group: return [.layer(.group(name: nil))]
        case .ungroup: return [.layer(.ungroup)]
        case .fold(let i):
            let key = panel.rows[i].key
            if folded.remove(key) == nil { folded.insert(key) }
            var changed = panel
            changed.folded = folded
            self.panel = changed
            place()
            return []
        case .eye(let i):
            let shown = !panel.rows[i].visible
            if i == panel.current { return [.layer(.set(visible: shown))] }
            return [.layer(.select(i)), .layer(.set(visible: shown)), .layer(.select(panel.current))]
        case .row(let i):
            dragging = (i, i)
            return i == panel.current ? [] : [.layer(.select(i))]
        case .panel: return []
        }
    }

    public func drag(x: Double, y: Double, brush: Brush) -> [Command] {
        guard let panel, let d = dragging else { return [] }
        let to = panel.dropIndex(atY: local(x, y).1)
        if to != d.to {
            dragging = (d.from, to)
            changed(rows: [d.to, to])
        }
        return []
    }

    public func release(x: Double, y: Double, brush: Brush) -> [Command] {
        guard let d = dragging, let panel else { return [] }
        dragging = nil
        // The drop marker goes; a click that did not move showed none.
        if d.to != d.from { changed(rows: [d.to]) }
        return panel.outline.drop(d.from, on: d.to).map { .layer($0) }
    }

    /// Whether a double-click at window point (x, y) renames: on a row, not its eye or triangle.
    public func renames(atX x: Double, y: Double) -> Bool {
        guard open, contains(x, y), let panel else { return false }
        let (lx, ly) = local(x, y)
        if case .row = panel.hit(lx, ly) { return true }
        return false
    }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard let panel else { return }
        let drop = dragging?.to
        surface.draw(into: target, clip: clip) { r in
            Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { panel.draw($0, font: font, dropAt: drop) }
        }
    }
}
