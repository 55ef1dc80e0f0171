import Geometry

/// A picture pasted onto the canvas: where its top-left corner lands, its pixels, and the PNG
/// file that keeps it beside the journal or replay (a replay line names only the file).
public struct PastedImage: Sendable, Equatable {
    /// A plain file name in the replay's folder.
    public var file: String
    /// Canvas pixels of its top-left corner.
    public var x: Int
    public var y: Int
    public var size: Size
    /// 0xAARRGGBB, straight alpha, row-major; empty until read from `file`.
    public var pixels: [UInt32]

    public init(file: String, x: Int, y: Int, size: Size = Size(width: 0, height: 0), pixels: [UInt32] = []) {
        self.file = file; self.x = x; self.y = y; self.size = size; self.pixels = pixels
    }

    /// The canvas pixels it covers.
    public var bounds: Rect { Rect(x: x, y: y, width: size.width, height: size.height) }
}
