import Compute
import Geometry

/// A piece of UI drawn once into premultiplied pixels at a whole-pixel place in the window,
/// laid over each frame that needs it until the piece changes: a frame under a still palette
/// costs a copy of the pixels it damaged, not a redraw of the palette.
struct Sprite {
    let pixels: TextureStorage<UInt32>
    /// Where it lies in the window.
    let rect: Rect

    /// Draws a sprite of `size` at window point (x, y); `draw` paints it in its own coordinates.
    init(x: Int, y: Int, width: Int, height: Int, draw: (Painter) -> Void) {
        pixels = TextureStorage(width: max(1, width), height: max(1, height), filledWith: 0)
        rect = Rect(x: x, y: y, width: width, height: height)
        draw(Painter(pixels.texture, clip: pixels.texture.bounds))
    }

    /// Draws a sprite at window point (x, y) over a copy of `base` (a sprite's unchanging part),
    /// into `storage` if it has base's size: a piece redrawn often need not take fresh memory
    /// (and its page faults) each time.
    init(x: Int, y: Int, base: TextureStorage<UInt32>, reusing storage: TextureStorage<UInt32>? = nil, draw: (Painter) -> Void) {
        pixels = storage.flatMap { $0.width == base.width && $0.height == base.height ? $0 : nil }
            ?? TextureStorage(width: base.width, height: base.height, filledWith: 0)
        pixels.texture.copy(base.texture.bounds, from: base.texture)
        rect = Rect(x: x, y: y, width: base.width, height: base.height)
        draw(Painter(pixels.texture, clip: pixels.texture.bounds))
    }

    func draw(into target: Texture<UInt32>, clip: Rect) {
        Painter(target, clip: clip).blit(pixels.texture, x: rect.minX, y: rect.minY)
    }
}
