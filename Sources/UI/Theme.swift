import Kernels

/// The colours every piece of UI is drawn in: light marks on a dark, mostly opaque panel, which
/// reads over light and dark paint alike.
enum Theme {
    static let panel = Color(r: 32, g: 33, b: 36, a: 224)
    /// The panel's colour where a page of text is read over other panels (the key help).
    static let page = Color(r: 32, g: 33, b: 36)
    static let raised = Color(r: 70, g: 72, b: 78)
    static let selected = Color(r: 66, g: 133, b: 244)
    static let text = Color(r: 232, g: 234, b: 237)
    static let dim = Color(r: 154, g: 160, b: 166)
    static let warning = Color(r: 255, g: 110, b: 64)
    static let dark = Color(r: 0, g: 0, b: 0, a: 200)
    static let light = Color(r: 255, g: 255, b: 255, a: 230)

}
