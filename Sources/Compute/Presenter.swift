import Geometry

/// Where composed frames go: the X window (XShm or XPutImage) or an offscreen image. The
/// stand-in for a CAMetalLayer's drawables.
///
/// The session composes straight into `frameTarget()` and then calls `present(_:)` with the
/// damaged rectangle. A presenter must never hand out memory the display server is still reading.
public protocol Presenter: AnyObject {
    /// The current drawable size in pixels.
    var size: Size { get }
    /// The image the next frame is composed into: 32-bit pixels 0xAARRGGBB (B,G,R,A in memory).
    /// Blocks, if it must, until the previous present has completed.
    func frameTarget() -> Texture<UInt32>
    /// Shows `damage` of the frame target.
    func present(_ damage: Rect)
}
