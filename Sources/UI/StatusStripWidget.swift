import Compute
import Geometry

extension WidgetID {
    public static let status = WidgetID("status")
}

/// The status strip in the window's bottom-left corner (`StatusStrip` says what it shows).
public final class StatusStripWidget: Widget {
    public let id = WidgetID.status
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    public private(set) var strip: StatusStrip?
    private let surface = WidgetSurface()

    public init(windowSize: Size, scale: Double, font: UIFont) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
    }

    public var frame: Rect? { surface.rect }

    /// The content shown, before it is fitted to the window.
    private var content: StatusStrip?

    /// Shows the strip's new content (nil: none).
    public func show(_ new: StatusStrip?) {
        guard new != content else { return }
        content = new
        place()
    }

    private func place() {
        let margin = Int((6 * scale).rounded())
        strip = content.map { $0.fitted(to: windowSize.width - 2 * margin, scale: scale, font: font) }
        surface.place(strip.map(rect(for:)))
    }

    private func rect(for s: StatusStrip) -> Rect {
        let (w, h) = s.size(scale: scale, font: font)
        let margin = Int((6 * scale).rounded())
        return Rect(x: margin, y: windowSize.height - h - margin, width: w, height: h)
    }

    public func windowResized(to size: Size) {
        windowSize = size
        place()
    }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard let strip else { return }
        surface.draw(into: target, clip: clip) { r in
            Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { strip.draw($0, scale: scale, font: font) }
        }
    }
}
