import Compute
import Geometry

extension WidgetID {
    public static let outline = WidgetID("outline")
}

/// The brush's footprint under the pointer (`BrushOutline`), drawn straight into each frame
/// that needs it (two rings cost less than a sprite).
public final class OutlineWidget: Widget {
    public let id = WidgetID.outline
    public private(set) var outline: BrushOutline?
    private var damage = Rect.empty

    public init() {}

    public var frame: Rect? { outline?.rect }

    /// Moves the outline (nil hides it).
    public func show(_ new: BrushOutline?) {
        guard new != outline else { return }
        if let outline { damage = damage.union(outline.rect) }
        if let new { damage = damage.union(new.rect) }
        outline = new
    }

    public var hasDamage: Bool { !damage.isEmpty }

    public func takeDamage() -> Rect {
        defer { damage = .empty }
        return damage
    }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        if let outline, !outline.rect.intersection(clip).isEmpty { outline.draw(Painter(target, clip: clip)) }
    }
}
