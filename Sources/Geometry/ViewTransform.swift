#if canImport(Glibc)
import Glibc
#endif

/// How the window shows the canvas, as one affine value: mirrored, zoomed, turned, then moved.
///
/// A canvas point c = (cx, cy) is shown at window point w = O + zoom · R(angle) · F · c, where
/// F flips x when `mirror`, R turns clockwise on screen by `angle` degrees (y points down) and
/// O = (x, y) is where the canvas's top-left corner is. `canvasPoint` is the exact inverse, so
/// input maps back through the same value the compose samples through. Zoom runs from 1/8 to 32
/// (any factor); `x`, `y` are whole window pixels, so an upright view at a power of two shows
/// whole canvas pixels and the canvas moves with the hand.
public struct ViewTransform: Hashable, Sendable, CustomStringConvertible {
    /// The zoom factor, within `zooms`.
    public private(set) var zoom: Double
    /// Degrees, clockwise on screen, in [0, 360).
    public private(set) var angle: Double
    /// The canvas shown flipped left to right (before it is turned).
    public var mirror: Bool
    /// Where the canvas's top-left corner is, in window pixels.
    public var x: Int
    public var y: Int

    /// log₂ of the zoom at its ends: −3 (1/8) … 5 (32).
    public static let scales = -3...5
    /// The zooms a view may take.
    public static let zooms = 0.125...32.0
    public static let identity = ViewTransform(scale: 0, x: 0, y: 0)

    /// An upright view at zoom 2^scale (clamped to `scales`).
    public init(scale: Int, x: Int, y: Int) {
        let s = min(max(scale, Self.scales.lowerBound), Self.scales.upperBound)
        self.init(zoom: s >= 0 ? Double(1 << s) : 1 / Double(1 << -s), x: x, y: y)
    }

    /// A view at any zoom (clamped to `zooms`) and angle (degrees, taken modulo 360).
    public init(zoom: Double, angle: Double = 0, mirror: Bool = false, x: Int, y: Int) {
        self.zoom = zoom.isFinite ? min(max(zoom, Self.zooms.lowerBound), Self.zooms.upperBound) : 1
        self.angle = Self.normalised(angle)
        self.mirror = mirror; self.x = x; self.y = y
    }

    /// `degrees` in [0, 360) (0 for what is not finite).
    static func normalised(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let a = degrees.truncatingRemainder(dividingBy: 360)
        let b = a < 0 ? a + 360 : a
        return b >= 360 || b == 0 ? 0 : b
    }

    /// The view a session opens with: 100 % when the canvas fits the window, else the largest
    /// zoom out (1/2, 1/4, 1/8) that shows it whole; the canvas's corner at the window's.
    public static func opening(canvas: Size, window: Size) -> ViewTransform { opening(frame: Rect(size: canvas), window: window) }

    /// The view a session opens with on a document whose frame is `frame`: as
    /// `opening(canvas:window:)`, the frame's corner at the window's.
    public static func opening(frame: Rect, window: Size) -> ViewTransform {
        var scale = 0
        while scale > scales.lowerBound, frame.width > window.width << -scale || frame.height > window.height << -scale { scale -= 1 }
        return showing(corner: frame, scale: scale)
    }

    /// Upright, unmirrored, at 2^`scale`, `rect`'s corner at the window's (to the pixel).
    public static func showing(corner rect: Rect, scale: Int = 0) -> ViewTransform {
        let zoom = ViewTransform(scale: scale, x: 0, y: 0).zoom
        return ViewTransform(scale: scale, x: -Int((Double(rect.minX) * zoom).rounded(.down)), y: -Int((Double(rect.minY) * zoom).rounded(.down)))
    }

    /// log₂ of the zoom, to the nearest whole number.
    public var scale: Int { Int(zoom.log2Rounded) }

    /// The exponent of the zoom when the view is upright (neither turned nor mirrored) and the
    /// zoom an exact power of two: the compose then shows whole canvas pixels or their block
    /// averages.
    public var powerOfTwoScale: Int? {
        guard angle == 0, !mirror else { return nil }
        let s = scale
        return ViewTransform(scale: s, x: 0, y: 0).zoom == zoom ? s : nil
    }

    /// Turned by a multiple of nothing: only zoomed, mirrored and moved.
    public var isTurned: Bool { angle != 0 }

    /// The zoom (and the angle, when turned, and the mirroring) as the title shows it:
    /// "100 %", "12.5 %", "118.9 % 30°", "200 % mirrored".
    public var percent: String {
        var s = Self.shortest(zoom * 100, places: 1) + " %"
        if isTurned { s += " " + Self.shortest(angle, places: 1) + "°" }
        if mirror { s += " mirrored" }
        return s
    }

    static func shortest(_ v: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (v * scale).rounded() / scale
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    /// cos and sin of the angle (exact at multiples of 90°).
    public var cosSin: (cos: Double, sin: Double) {
        switch angle {
        case 0: (1, 0)
        case 90: (0, 1)
        case 180: (-1, 0)
        case 270: (0, -1)
        default: (cos(angle * .pi / 180), sin(angle * .pi / 180))
        }
    }

    /// The linear part canvas → window, row-major: window = (a·cx + b·cy, c·cx + d·cy) + O.
    public var matrix: (a: Double, b: Double, c: Double, d: Double) {
        let (cs, sn) = cosSin, m = mirror ? -1.0 : 1.0
        return (zoom * cs * m, -zoom * sn, zoom * sn * m, zoom * cs)
    }

    /// The linear part window → canvas (the inverse of `matrix`).
    public var inverseMatrix: (a: Double, b: Double, c: Double, d: Double) {
        let (cs, sn) = cosSin, m = mirror ? -1.0 : 1.0
        return (m * cs / zoom, m * sn / zoom, -sn / zoom, cs / zoom)
    }

    /// The window point showing canvas point (cx, cy).
    public func windowPoint(x cx: Double, y cy: Double) -> (x: Double, y: Double) {
        let m = matrix
        return (m.a * cx + m.b * cy + Double(x), m.c * cx + m.d * cy + Double(y))
    }

    /// The canvas point under window point (wx, wy).
    public func canvasPoint(x wx: Double, y wy: Double) -> (x: Double, y: Double) {
        let m = inverseMatrix, dx = wx - Double(x), dy = wy - Double(y)
        return (m.a * dx + m.b * dy, m.c * dx + m.d * dy)
    }

    /// How the compose samples the canvas at this view.
    public enum Sampling: Equatable, Sendable {
        /// Upright at 2^scale: whole canvas pixels repeated, or f×f blocks averaged.
        case exact(scale: Int)
        /// Unturned at 100 % or more (mirrored or not): the canvas pixel under each window
        /// pixel's centre.
        case nearest
        /// Bilinear between the four canvas pixels nearest each window pixel's centre, from
        /// the canvas averaged over `level`×`level` blocks (a mipmap level: the largest power of
        /// two no larger than 1/zoom, 1 at 100 % and above).
        case bilinear(level: Int)
    }

    public var sampling: Sampling {
        if let s = powerOfTwoScale { return .exact(scale: s) }
        if !isTurned, zoom >= 1 { return .nearest }
        var f = 1
        while f < 8, Double(f * 2) <= 1 / zoom { f *= 2 }
        return .bilinear(level: f)
    }

    /// Canvas pixels around a rectangle a compose may also read (or a pixel may change the
    /// look of) at this view: none when exact, a mipmap level's block and its neighbour when
    /// bilinear.
    var canvasMargin: Int {
        switch sampling {
        case .exact: 0
        case .nearest: 1
        case .bilinear(let f): 2 * f
        }
    }

    /// The window pixels that show any part of `rect` (canvas pixels).
    public func windowRect(covering rect: Rect) -> Rect {
        guard !rect.isEmpty else { return .empty }
        guard let scale = powerOfTwoScale else {
            let m = canvasMargin
            return Self.bounds(of: Rect(minX: rect.minX - m, minY: rect.minY - m, maxX: rect.maxX + m, maxY: rect.maxY + m), windowPoint).insetBy(-1)
        }
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
        guard let scale = powerOfTwoScale else {
            return Self.bounds(of: rect, canvasPoint).insetBy(-(canvasMargin + 1))
        }
        let moved = Rect(minX: rect.minX - x, minY: rect.minY - y, maxX: rect.maxX - x, maxY: rect.maxY - y)
        if scale <= 0 {
            let s = -scale
            return Rect(minX: moved.minX << s, minY: moved.minY << s, maxX: moved.maxX << s, maxY: moved.maxY << s)
        }
        func up(_ v: Int) -> Int { -((-v) >> scale) }             // ceiling
        return Rect(minX: moved.minX >> scale, minY: moved.minY >> scale, maxX: up(moved.maxX), maxY: up(moved.maxY))
    }

    /// The whole pixels covering the images of `rect`'s four corners under `map`.
    static func bounds(of rect: Rect, _ map: (Double, Double) -> (x: Double, y: Double)) -> Rect {
        let p = [map(Double(rect.minX), Double(rect.minY)), map(Double(rect.maxX), Double(rect.minY)),
                 map(Double(rect.minX), Double(rect.maxY)), map(Double(rect.maxX), Double(rect.maxY))]
        return Rect.covering(minX: min(p[0].x, p[1].x, p[2].x, p[3].x), minY: min(p[0].y, p[1].y, p[2].y, p[3].y),
                             maxX: max(p[0].x, p[1].x, p[2].x, p[3].x), maxY: max(p[0].y, p[1].y, p[2].y, p[3].y))
    }

    /// The same view with window point (wx, wy) showing canvas point (cx, cy) (to the nearest
    /// whole window pixel).
    func placing(_ cx: Double, _ cy: Double, at wx: Double, _ wy: Double) -> ViewTransform {
        var v = self
        v.x = 0; v.y = 0
        let shown = v.windowPoint(x: cx, y: cy)
        v.x = Int((wx - shown.x).rounded()); v.y = Int((wy - shown.y).rounded())
        return v
    }

    /// The same view zoomed to `scale`, keeping the canvas point under window point (wx, wy)
    /// where it is (to the nearest whole window pixel).
    public func zoomed(to scale: Int, around wx: Int, _ wy: Int) -> ViewTransform {
        let z = ViewTransform(scale: scale, x: 0, y: 0).zoom
        return zoomed(to: z, around: Double(wx), Double(wy))
    }

    /// The same view at zoom `zoom`, keeping the canvas point under window point (wx, wy)
    /// where it is (to the nearest whole window pixel).
    public func zoomed(to zoom: Double, around wx: Double, _ wy: Double) -> ViewTransform {
        let (cx, cy) = canvasPoint(x: wx, y: wy)
        var v = self
        v.zoom = ViewTransform(zoom: zoom, x: 0, y: 0).zoom
        if powerOfTwoScale != nil, v.powerOfTwoScale != nil {
            // Upright at powers of two: the corner lands on whole pixels as before.
            return ViewTransform(zoom: v.zoom, x: Int(wx.rounded(.down)) - Int((cx * v.zoom).rounded(.down)), y: Int(wy.rounded(.down)) - Int((cy * v.zoom).rounded(.down)))
        }
        return v.placing(cx, cy, at: wx, wy)
    }

    /// The same view turned by `degrees` (clockwise on screen) about window point (wx, wy).
    public func turned(by degrees: Double, around wx: Double, _ wy: Double) -> ViewTransform {
        turned(by: degrees, around: wx, wy, pivot: canvasPoint(x: wx, y: wy))
    }

    /// The same view turned by `degrees` about window point (wx, wy), with canvas point `pivot`
    /// placed there (to the nearest whole window pixel). Turns that keep one pivot do not drift:
    /// the canvas point the view shows at (wx, wy) after a turn is up to ½ px off the pivot, and
    /// turning about that one instead would add the error up, turn after turn.
    public func turned(by degrees: Double, around wx: Double, _ wy: Double, pivot: (x: Double, y: Double)) -> ViewTransform {
        var v = self
        v.angle = Self.normalised(angle + degrees)
        return v.placing(pivot.x, pivot.y, at: wx, wy)
    }

    /// The same view at angle `degrees`, turned about window point (wx, wy).
    public func turned(to degrees: Double, around wx: Double, _ wy: Double) -> ViewTransform {
        turned(by: degrees - angle, around: wx, wy)
    }

    /// The same view flipped left to right about the vertical line x = `wx` (window pixels):
    /// what was left of it is right of it, pixel for pixel.
    public func mirrored(about wx: Int) -> ViewTransform {
        // Flipping in the window: F_w · R(a) · F = R(−a) · F_w · F.
        ViewTransform(zoom: zoom, angle: -angle, mirror: !mirror, x: 2 * wx - x, y: y)
    }

    /// The zoom `steps` clicks in (or out, below 0) from this one, `perDoubling` clicks a factor
    /// of two, on the grid of those steps from 100 % (so powers of two stay exact).
    public func zoomStepped(by steps: Int, perDoubling: Int) -> Double {
        let n = Double(perDoubling), at = (log2(zoom) * n).rounded()
        return ViewTransform(zoom: exp2((at + Double(steps)) / n), x: 0, y: 0).zoom
    }

    /// The angle of (dx, dy) about the origin, degrees clockwise on screen (0 for the origin).
    public static func degrees(_ dx: Double, _ dy: Double) -> Double {
        dx == 0 && dy == 0 ? 0 : atan2(dy, dx) * 180 / .pi
    }

    /// The same view moved by (dx, dy) window pixels.
    public func moved(by dx: Int, _ dy: Int) -> ViewTransform {
        var v = self
        v.x = x + dx; v.y = y + dy
        return v
    }

    public var description: String { "\(percent) at (\(x), \(y))" }
}

extension Double {
    /// log₂, rounded to the nearest whole number (0 for what is not positive).
    var log2Rounded: Double {
        guard self > 0, isFinite else { return 0 }
        return Double(exponent) + (significand >= 1.4142135623730951 ? 1 : 0)
    }
}
