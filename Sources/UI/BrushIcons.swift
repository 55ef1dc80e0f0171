import Compute

/// Where the brushes' preview icons come from (the app reads each brush's `_prev.png` and
/// scales it down once; the widgets only draw them). Each is asked for often: a source keeps
/// what it made.
public protocol BrushIcons: AnyObject {
    /// The preview of the brush `name` ("pack/name"), `side` pixels square, premultiplied
    /// 0xAARRGGBB; nil when it has none or it cannot be read.
    func icon(_ name: String, side: Int) -> Texture<UInt32>?
}

extension Painter {
    /// A brush's icon in `box` on a raised square with a thin frame, a thicker one in the
    /// selection colour when it is the brush in use (the palette's ring and the chooser).
    func brushIcon(_ icon: Texture<UInt32>?, in box: Box, chosen: Bool, scale u: Double) {
        fill(box.inset(by: -(chosen ? 3 : 1) * u), chosen ? Theme.selected : Theme.dim)
        fill(box, Theme.raised)
        if let icon { blit(icon, x: Int(box.x), y: Int(box.y)) }
    }
}
