/// How a layer mixes with what is below it: the blend modes of OpenRaster's `composite-op`
/// attribute that Krita reads, with the W3C "Compositing and Blending Level 1" formulas (two
/// details as in Krita: see `LayerBlend`).
///
/// The raw value is the OpenRaster composite-op; `name` is the short display name.
public enum BlendMode: String, CaseIterable, Sendable {
    case normal = "svg:src-over"
    case multiply = "svg:multiply"
    case screen = "svg:screen"
    case overlay = "svg:overlay"
    case darken = "svg:darken"
    case lighten = "svg:lighten"
    case colorDodge = "svg:color-dodge"
    case colorBurn = "svg:color-burn"
    case hardLight = "svg:hard-light"
    case softLight = "svg:soft-light"
    case difference = "svg:difference"
    case color = "svg:color"
    case luminosity = "svg:luminosity"
    case hue = "svg:hue"
    case saturation = "svg:saturation"
    /// Additive: Krita's "Addition", which is how Krita reads `svg:plus` (see `LayerBlend`).
    case plus = "svg:plus"

    /// The short display name: "normal", "multiply", "color-dodge", …
    public var name: String {
        self == .normal ? "normal" : String(rawValue.dropFirst(4))
    }

    /// The mode with display name `name` ("normal", "color-dodge", …); nil for any other name.
    public init?(name: String) {
        guard let mode = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = mode
    }

    /// True for the modes that mix each channel on its own; false for hue, saturation, color and
    /// luminosity, which mix whole colours.
    public var isSeparable: Bool {
        switch self {
        case .hue, .saturation, .color, .luminosity: false
        default: true
        }
    }
}
