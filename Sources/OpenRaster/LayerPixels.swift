import Geometry
import PNGFile

/// The pixel work of writing: layers cropped to what they hold, and the thumbnail.
enum LayerPixels {
    /// The part of `image` inside the bounds of its pixels with any alpha, and where that part
    /// starts in it. A layer with none gives one transparent pixel at (0, 0): ORA needs a PNG.
    static func cropped(_ image: PNGImage) -> (image: PNGImage, x: Int, y: Int) {
        var bounds = Rect.empty
        for y in 0..<image.height {
            let row = y * image.width
            guard let first = (0..<image.width).first(where: { image.pixels[row + $0] >> 24 != 0 }),
                  let last = (0..<image.width).last(where: { image.pixels[row + $0] >> 24 != 0 }) else { continue }
            bounds = bounds.union(Rect(minX: first, minY: y, maxX: last + 1, maxY: y + 1))
        }
        if bounds.isEmpty { return (PNGImage(width: 1, height: 1, pixels: [0]), 0, 0) }
        if bounds == Rect(x: 0, y: 0, width: image.width, height: image.height) { return (image, 0, 0) }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(bounds.area)
        for y in bounds.ys { pixels += image.pixels[(y * image.width + bounds.minX)..<(y * image.width + bounds.maxX)] }
        return (PNGImage(width: bounds.width, height: bounds.height, pixels: pixels), bounds.minX, bounds.minY)
    }

    /// The size of `size` scaled down, keeping its shape, to fit a `side`x`side` square (the same
    /// when it fits already); at least 1x1.
    static func fitting(_ size: Size, in side: Int) -> Size {
        let longest = max(size.width, size.height)
        guard longest > side else { return size }
        return Size(width: max(1, (size.width * side + longest / 2) / longest), height: max(1, (size.height * side + longest / 2) / longest))
    }

    /// `image` scaled down to fit a `side`x`side` square by a box filter: each pixel is the mean
    /// of the source pixels its box covers, weighted by alpha so that the colour of transparent
    /// pixels (straight alpha keeps one) does not bleed into what is seen.
    static func thumbnail(_ image: PNGImage, side: Int = 256) -> PNGImage {
        let size = fitting(Size(width: image.width, height: image.height), in: side)
        if size.width == image.width && size.height == image.height { return image }
        var pixels = [UInt32](repeating: 0, count: size.area)
        for ty in 0..<size.height {
            let ys = (ty * image.height / size.height)..<max(ty * image.height / size.height + 1, (ty + 1) * image.height / size.height)
            for tx in 0..<size.width {
                let xs = (tx * image.width / size.width)..<max(tx * image.width / size.width + 1, (tx + 1) * image.width / size.width)
                var a = 0, r = 0, g = 0, b = 0
                for y in ys {
                    for x in xs {
                        let p = image.pixels[y * image.width + x]
                        let alpha = Int(p >> 24)
                        a += alpha
                        r += alpha * Int(p >> 16 & 0xFF); g += alpha * Int(p >> 8 & 0xFF); b += alpha * Int(p & 0xFF)
                    }
                }
                guard a > 0 else { continue }
                let count = xs.count * ys.count
                func channel(_ sum: Int) -> UInt32 { UInt32((sum + a / 2) / a) }
                pixels[ty * size.width + tx] = UInt32((a + count / 2) / count) << 24 | channel(r) << 16 | channel(g) << 8 | channel(b)
            }
        }
        return PNGImage(width: size.width, height: size.height, pixels: pixels)
    }
}
