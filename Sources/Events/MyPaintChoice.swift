import Kernels

/// A MyPaint brush chosen (a replay's `{"type": "brush", "kind": "mypaint", …}`): its name
/// ("classic/charcoal"), the colour it is set to, and its settings, the .myb file's JSON as text.
/// A journal embeds `settings` the first time a brush is used in a session, so that it never
/// depends on the brushes installed; a replay may leave them out, and the brush is then looked up
/// by name among the installed ones (an unknown name is an error on its line).
public struct MyPaintChoice: Sendable, Equatable {
    /// "pack/name", as `BrushLibrary` names the installed brushes.
    public var name: String
    /// The colour set through the brush's HSV base values when its event is played (nil: the
    /// current brush colour).
    public var color: Color?
    /// The .myb's JSON, one object; nil: the installed brush of that name.
    public var settings: String?

    public init(name: String, color: Color? = nil, settings: String? = nil) {
        self.name = name; self.color = color; self.settings = settings
    }
}
