// TEMPORARY until the blend-mode kernels land (branch blendmodes): every mode is source-over.
/// A layer's blend mode: the OpenRaster composite-op it is saved as.
public enum BlendMode: String, CaseIterable, Sendable {
    case normal = "svg:src-over", multiply = "svg:multiply", screen = "svg:screen", overlay = "svg:overlay"
    case darken = "svg:darken", lighten = "svg:lighten", colorDodge = "svg:color-dodge", colorBurn = "svg:color-burn"
    case hardLight = "svg:hard-light", softLight = "svg:soft-light", difference = "svg:difference", color = "svg:color"
    case luminosity = "svg:luminosity", hue = "svg:hue", saturation = "svg:saturation", plus = "svg:plus"
}

public enum LayerBlend {
    public static func blendRow(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32, mode: BlendMode) {
        for i in 0..<count {
            var s = src[i]
            if opacity < 255 {
                s = Blend.mul255(s >> 24, opacity) << 24 | Blend.mul255((s >> 16) & 0xff, opacity) << 16
                    | Blend.mul255((s >> 8) & 0xff, opacity) << 8 | Blend.mul255(s & 0xff, opacity)
            }
            let inv = 255 &- (s >> 24), d = dst[i]
            dst[i] = ((s >> 24) &+ Blend.mul255(d >> 24, inv)) << 24 | ((s >> 16 & 0xff) &+ Blend.mul255(d >> 16 & 0xff, inv)) << 16
                | ((s >> 8 & 0xff) &+ Blend.mul255(d >> 8 & 0xff, inv)) << 8 | ((s & 0xff) &+ Blend.mul255(d & 0xff, inv))
        }
    }
}
extension BlendMode {
    public var name: String { String(rawValue.dropFirst(4)) }
}
