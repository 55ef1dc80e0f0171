import Compute
import Kernels

/// The painted pixels.
///
/// Layout: row-major 32-bit 0xAARRGGBB, the X visual's own format. The canvas is always opaque
/// (an opaque background, strokes composited source-over), so composing a region with no live
/// stroke is a plain row copy into the presented image, contiguous rows keep the blend loop
/// vectorised, and export writes the same bytes. (The aptpod demo's column-major float4 buffer
/// needed a conversion of 16 bytes per pixel every frame.)
public final class Canvas {
    public let storage: TextureStorage<UInt32>
    public let background: Color
    public var texture: Texture<UInt32> { storage.texture }
    public var size: Size { storage.texture.size }

    public init(size: Size, background: Color) {
        self.background = Color(r: background.r, g: background.g, b: background.b)
        storage = TextureStorage(width: size.width, height: size.height, filledWith: self.background.pixel)
    }

    public func clear() { texture.fill(texture.bounds, with: background.pixel) }
}
