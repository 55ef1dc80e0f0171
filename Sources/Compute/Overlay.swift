import Geometry

/// What the window shows over the canvas: on-canvas tools (a palette, a brush outline, a status
/// strip), drawn by the same pass into the same frame after the canvas, in window pixels. Never
/// part of the picture: exports, files, the clipboard and the journal never see it.
public protocol Overlay: AnyObject {
    /// The window areas whose overlay changed since the last call (where it was and where it is
    /// now), a rectangle for each piece that changed: the next frame composes the canvas there
    /// again and draws the overlay over it.
    func takeDamagePieces() -> [Rect]
    /// Draws the overlay's part within `clip` onto `target` (which holds the canvas there).
    func draw(into target: Texture<UInt32>, clip: Rect)
}
