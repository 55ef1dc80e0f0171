import Compute
import Geometry
import Kernels

/// The painted pixels.
///
/// Layout: row-major 32-bit 0xAARRGGBB, the X visual's own format: RGB is the colour shown
/// (paint already composited over the background) and A is how painted the pixel is (0 bare,
/// 255 covered), which lets a pulsing background show through bare canvas only. Composing a
/// region with no live stroke is then a row copy that sets A to opaque, contiguous rows keep
/// the blend loop vectorised, and export writes the same bytes. (The aptpod demo's column-major
/// float4 buffer needed a conversion of 16 bytes per pixel every frame.)
///
/// The window's size does not change the canvas (the view shows more or less of it); a replay's
/// `resize` event, written by older versions, does: `visibleSize` is the canvas's size and the
/// storage only ever grows, so shrinking hides pixels and growing again shows them.
public final class Canvas {
    public private(set) var storage: TextureStorage<UInt32>
    public let background: Color
    public private(set) var visibleSize: Size

    /// All stored pixels (at least `visibleSize`).
    public var texture: Texture<UInt32> { storage.texture }
    /// The shown part.
    public var bounds: Rect { Rect(size: visibleSize) }
    /// The shown part as a texture of its own size (rows as stored).
    public var visibleTexture: Texture<UInt32> {
        let t = storage.texture
        return Texture(base: t.base, width: visibleSize.width, height: visibleSize.height, rowStride: t.rowStride)
    }

    public init(size: Size, background: Color) {
        self.background = Color(r: background.r, g: background.g, b: background.b)
        storage = TextureStorage(width: size.width, height: size.height, filledWith: 0)
        visibleSize = size
        clear()
    }

    /// A bare pixel: the background colour, alpha 0 (nothing painted).
    public var barePixel: UInt32 { background.pixel & 0x00FF_FFFF }

    /// Shows `size` pixels; returns true when the storage had to grow (views must be refreshed).
    @discardableResult
    public func resize(to size: Size) -> Bool {
        visibleSize = size
        let old = storage
        guard size.width > old.width || size.height > old.height else { return false }
        storage = TextureStorage(width: max(size.width, old.width), height: max(size.height, old.height),
                                 filledWith: barePixel)
        storage.texture.copy(old.texture.bounds, from: old.texture)
        return true
    }

    /// Every stored pixel back to the background.
    public func clear() { texture.fill(texture.bounds, with: barePixel) }

    /// Blends a picture (0xAARRGGBB, straight alpha, `size`) with its top-left corner at (x, y)
    /// over the canvas, source-over, within `region` (already clipped to the canvas).
    public func paste(_ pixels: [UInt32], size: Size, at x: Int, _ y: Int, over region: Rect) {
        let t = texture
        for cy in region.ys {
            let row = t.row(cy), from = (cy - y) * size.width - x
            for cx in region.xs {
                let p = pixels[from + cx]
                row[cx] = Blend.over(row[cx], r: (p >> 16) & 0xff, g: (p >> 8) & 0xff, b: p & 0xff, alpha: p >> 24)
            }
        }
    }

    /// A picture's pixels (0xAARRGGBB, straight alpha) as canvas pixels painted on
    /// `background`: each one's colour over the background, its alpha how painted it is (a
    /// transparent pixel is bare canvas, where a pulsing background shows).
    public static func painted(picture pixels: [UInt32], over background: Color) -> [UInt32] {
        let bare = background.pixel & 0x00FF_FFFF
        return pixels.map { p in
            Blend.over(bare, r: (p >> 16) & 0xff, g: (p >> 8) & 0xff, b: p & 0xff, alpha: p >> 24)
        }
    }
}
