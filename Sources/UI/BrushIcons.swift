import Compute

/// Where the brushes' preview icons come from (the app reads each brush's `_prev.png` and
/// scales it down once; the widgets only draw them). Each is asked for often: a source keeps
/// what it made.
public protocol BrushIcons: AnyObject {
    /// The preview of the brush `name` ("pack/name"), `side` pixels square, premultiplied
    /// 0xAARRGGBB; nil when it has none or it cannot be read.
    func icon(_ name: String, side: Int) -> Texture<UInt32>?
}
