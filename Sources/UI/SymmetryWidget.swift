import Compute
import Geometry

extension WidgetID {
    public static let symmetry = WidgetID("symmetry")
}

/// Mirror painting's axes over the canvas (`SymmetryGuide`), under every panel; drawn straight
/// into each frame that needs it, and shown only while symmetry is on.
public final class SymmetryWidget: Widget {
    public let id = WidgetID.symmetry
    public private(set) var guide: SymmetryGuide?
    private var damage = Rect.empty

    public init() {}

    public var frame: Rect? { guide?.rect }

    /// Shows `new` (nil hides the axes).
    public func show(_ new: SymmetryGuide?) {
        guard new != guide else { return }
        if let guide { damage = damage.union(guide.rect) }
        if let new { damage = damage.union(new.rect) }
        guide = new
    }

    public var hasDamage: Bool { !damage.isEmpty }

    public func takeDamage() -> Rect {
        defer { damage = .empty }
        return damage
    }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        if let guide, !guide.rect.intersection(clip).isEmpty { guide.draw(Painter(target, clip: clip)) }
    }
}
