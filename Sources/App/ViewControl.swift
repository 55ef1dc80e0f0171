import Geometry

/// The window's view of the canvas as the user moves it: zoom in factors of two around a
/// point, pan by drags and the wheel, back to 100 % at the top-left corner. Pure: the app feeds
/// it window positions and queues what it says as `.view` events.
public struct ViewControl: Sendable, Equatable {
    public private(set) var transform: ViewTransform
    /// The drag in progress: where it started and the view then.
    private var drag: (x: Int, y: Int, from: ViewTransform)?
    /// Window pixels the wheel pans per click.
    public static let wheelStep = 64

    public init(_ transform: ViewTransform = .identity) { self.transform = transform }

    public static func == (a: ViewControl, b: ViewControl) -> Bool { a.transform == b.transform && (a.drag == nil) == (b.drag == nil) }

    /// The view a session opens with: 100 % when the canvas fits the window, else the largest
    /// zoom out (1/2, 1/4, 1/8) that shows it whole; the canvas's corner at the window's.
    public static func opening(canvas: Size, window: Size) -> ViewControl {
        var scale = 0
        while scale > ViewTransform.scales.lowerBound,
              canvas.width > window.width << -scale || canvas.height > window.height << -scale { scale -= 1 }
        return ViewControl(ViewTransform(scale: scale, x: 0, y: 0))
    }

    /// Zooms in (`steps` > 0) or out by factors of two, keeping the canvas point under window
    /// point (x, y) still.
    public mutating func zoom(by steps: Int, around x: Double, _ y: Double) {
        transform = transform.zoomed(to: transform.scale + steps, around: Int(x.rounded(.down)), Int(y.rounded(.down)))
    }

    /// 100 %, the canvas's top-left corner at the window's.
    public mutating func reset() { transform = ViewTransform(scale: 0, x: 0, y: 0) }

    /// A wheel click: vertical, or horizontal with Shift (and for the sideways clicks). The
    /// canvas moves the way the page does under a wheel: down shows what is below.
    public mutating func scroll(down: Int, right: Int) {
        transform = transform.moved(by: -right * Self.wheelStep, -down * Self.wheelStep)
    }

    public var isPanning: Bool { drag != nil }

    /// A panning drag starts at window point (x, y).
    public mutating func beginPan(at x: Double, _ y: Double) {
        drag = (Int(x.rounded(.down)), Int(y.rounded(.down)), transform)
    }

    /// The drag is at (x, y): the canvas moves with the hand, pixel for pixel at any zoom.
    public mutating func pan(to x: Double, _ y: Double) {
        guard let drag else { return }
        transform = drag.from.moved(by: Int(x.rounded(.down)) - drag.x, Int(y.rounded(.down)) - drag.y)
    }

    public mutating func endPan() { drag = nil }
}
