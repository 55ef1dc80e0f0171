import Compute

extension TextureStorage where Pixel == UInt32 {
    /// A canvas whose pixel (x, y) is opaque 0xFF00XXYY: every pixel says where it is, so a
    /// view kernel's output names the canvas pixel it sampled.
    static func positionCoded(_ w: Int, _ h: Int) -> TextureStorage<UInt32> {
        let s = TextureStorage<UInt32>(width: w, height: h, filledWith: 0)
        for y in 0..<h { for x in 0..<w { s.texture[x, y] = 0xFF00_0000 | UInt32(x) << 8 | UInt32(y) } }
        return s
    }
}
