/// How the window shows the canvas: zoomed by a power of two, then moved.
///
/// A canvas point (cx, cy) is shown at window point (cx · zoom + x, cy · zoom + y). Zoom runs
/// from 1/8 to 32 in factors of two; `x`, `y` are whole window pixels, so at every zoom the
/// canvas moves with the hand.
public struct ViewTransform: Hashable, Sendable, CustomStringConvertible {
    /// log₂ of the zoom: −3 (1/8) … 5 (32).
    public var scale: Int
    /// Where the canvas's top-left corner is, in window pixels.
    public var x: Int
    public var y: Int

    public static let scales = -3...5
    public static let identity = ViewTransform(scale: 0, x: 0, y: 0)

    public init(scale: Int, x: Int, y: Int) {
        self.scale = min(max(scale, Self.scales.lowerBound), Self.scales.upperBound)
        self.x = x; self.y = y
    }

    /// The view a session opens with: 100 % when the canvas fits the window, else the largest
    /// zoom out (1/2, 1/4, 1/8) that shows it whole; the canvas's corner at the window's.
    public static func opening(canvas: Size, window: Size) -> ViewTransform {
        var scale = 0
        while scale > scales.lowerBound, canvas.width > window.width << -scale || canvas.height > window.height << -scale { scale -= 1 }
        return ViewTransform(scale: scale, x: 0, y: 0)
    }

    /// The zoom factor: 2^scale.
    public var zoom: Double { scale >= 0 ? Double(1 << scale) : 1 / Double(1 << -scale) }

    /// The zoom as the title shows it: "100 %", "12.5 %", "3200 %".
    public var percent: String {
        let p = zoom * 100
        return (p == p.rounded() ? String(Int(p)) : String(p)) + " %"
    }

    /// The canvas point under window point (wx, wy).
    public func canvasPoint(x wx: Double, y wy: Double) -> (x: Double, y: Double) {
        ((wx - Double(x)) / zoom, (wy - Double(y)) / zoom)
    }

    /// The window pixels that show any part of `rect` (canvas pixels).
    public func windowRect(covering rect: Rect) -> Rect {
        guard !rect.isEmpty else { return .empty }
        if scale >= 0 {
            return Rect(minX: rect.minX << scale + x, minY: rect.minY << scale + y, maxX: rect.maxX << scale + x, maxY: rect.maxY << scale + y)
        }
        let s = -scale
        func down(_ v: Int) -> Int { v >> s }                      // floor
        func up(_ v: Int) -> Int { -((-v) >> s) }                 // ceiling
        return Rect(minX: down(rect.minX) + x, minY: down(rect.minY) + y, maxX: up(rect.maxX) + x, maxY: up(rect.maxY) + y)
    }

    /// The canvas pixels that window pixels `rect` show (at a zoom below 100 %, every canvas
    /// pixel they sample from): the part of the canvas a compose of `rect` reads.
    public func canvasRect(shownIn rect: Rect) -> Rect {
        guard !rect.isEmpty else { return .empty }
        let moved = Rect(minX: rect.minX - x, minY: rect.minY - y, maxX: rect.maxX - x, maxY: rect.maxY - y)
        if scale <= 0 {
            let s = -scale
            return Rect(minX: moved.minX << s, minY: moved.minY << s, maxX: moved.maxX << s, maxY: moved.maxY << s)
        }
        func up(_ v: Int) -> Int { -((-v) >> scale) }             // ceiling
        return Rect(minX: moved.minX >> scale, minY: moved.minY >> scale, maxX: up(moved.maxX), maxY: up(moved.maxY))
    }

    /// The same view zoomed to `scale`, keeping the canvas point under window point (wx, wy)
    /// where it is (to the nearest whole window pixel).
    public func zoomed(to scale: Int, around wx: Int, _ wy: Int) -> ViewTransform {
        let new = ViewTransform(scale: scale, x: 0, y: 0)
        let (cx, cy) = canvasPoint(x: Double(wx), y: Double(wy))
        return ViewTransform(scale: new.scale, x: wx - Int((cx * new.zoom).rounded(.down)), y: wy - Int((cy * new.zoom).rounded(.down)))
    }

    /// The same view moved by (dx, dy) window pixels.
    public func moved(by dx: Int, _ dy: Int) -> ViewTransform { ViewTransform(scale: scale, x: x + dx, y: y + dy) }

    public var description: String { "\(percent) at (\(x), \(y))" }
}
