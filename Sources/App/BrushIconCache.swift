import Compute
import PNGFile
import UI

/// The brushes' preview icons for the palette's ring and the chooser: each brush's `_prev.png`
/// (128x128 in the stock packs) read once and box-filtered down to the side asked for, then
/// kept, so a frame never decodes a picture. An icon that cannot be read is remembered as none.
public final class BrushIconCache: BrushIcons {
    /// Each brush's preview file, by name.
    private let files: [String: String]
    private var made: [Key: TextureStorage<UInt32>?] = [:]

    private struct Key: Hashable { var name: String, side: Int }

    /// The largest preview read (the stock ones are 128 px).
    static let maxSide = 1024

    public init(files: [String: String]) { self.files = files }

    public func icon(_ name: String, side: Int) -> Texture<UInt32>? {
        let key = Key(name: name, side: side)
        if let known = made[key] { return known?.texture }
        let icon = files[name].flatMap { try? PNGImage.read(from: $0, maxSide: Self.maxSide) }.map { Self.boxFiltered($0, side: side) }
        made[key] = icon
        return icon?.texture
    }

    /// `image` (straight alpha) shrunk to `side` x `side`, premultiplied: each pixel the mean of
    /// the source pixels whose centres fall in it (at least one).
    static func boxFiltered(_ image: PNGImage, side: Int) -> TextureStorage<UInt32> {
        let out = TextureStorage<UInt32>(width: side, height: side, filledWith: 0)
        func span(_ i: Int, _ length: Int) -> Range<Int> {
            let a = i * length / side
            return a..<max(a + 1, (i + 1) * length / side)
        }
        for y in 0..<side {
            let ys = span(y, image.height), row = out.texture.row(y)
            for x in 0..<side {
                let xs = span(x, image.width)
                var a = 0, r = 0, g = 0, b = 0
                for sy in ys {
                    for sx in xs {
                        let p = image[sx, sy], pa = Int(p >> 24)
                        a += pa; r += Int(p >> 16 & 0xFF) * pa; g += Int(p >> 8 & 0xFF) * pa; b += Int(p & 0xFF) * pa
                    }
                }
                let n = ys.count * xs.count
                func channel(_ sum: Int) -> UInt32 { UInt32((sum + n * 255 / 2) / (n * 255)) }
                row[x] = UInt32((a + n / 2) / n) << 24 | channel(r) << 16 | channel(g) << 8 | channel(b)
            }
        }
        return out
    }
}
