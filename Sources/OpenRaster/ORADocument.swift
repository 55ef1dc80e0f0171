import Geometry
import PNGFile

/// A layered picture as an OpenRaster file holds it: the image's size and its layers, bottom first.
public struct ORADocument: Sendable, Equatable {
    /// The image's width and height (`<image w h>`).
    public var size: Size
    /// Bottom first: index 0 is the lowest layer (stack.xml lists them top first).
    public var layers: [ORALayer]
    /// The other attributes of `<image>` (xres, yres, …), in file order, written back as they were.
    /// `w`, `h` and `version` are not among them: they are written from `size` and the spec.
    public var attributes: [ORAAttribute]
    /// What reading changed, one line each ("nested stacks flattened into their layers: …").
    /// Empty for a file read as it is, and for a document made in memory; never written.
    public var notes: [String]

    public init(size: Size, layers: [ORALayer], attributes: [ORAAttribute] = [], notes: [String] = []) {
        self.size = size; self.layers = layers; self.attributes = attributes; self.notes = notes
    }
}

/// One raster layer: its pixels, where they go in the image and how they are composed.
public struct ORALayer: Sendable, Equatable {
    public var name: String
    /// Where the layer's top-left pixel goes in the image (may be negative, or beyond it).
    public var x: Int
    public var y: Int
    /// 0…1.
    public var opacity: Double
    public var visible: Bool
    /// As in the file, e.g. "svg:multiply"; "svg:src-over" when the file names none.
    public var compositeOp: String
    /// 0xAARRGGBB, straight alpha, at the layer PNG's own size.
    public var image: PNGImage
    /// Every other attribute of `<layer>` (Krita's and MyPaint's: selected, locked, …), in file
    /// order, so that open → save keeps them.
    public var extraAttributes: [ORAAttribute]

    public static let defaultCompositeOp = "svg:src-over"

    public init(name: String, x: Int = 0, y: Int = 0, opacity: Double = 1, visible: Bool = true,
                compositeOp: String = ORALayer.defaultCompositeOp, image: PNGImage, extraAttributes: [ORAAttribute] = []) {
        self.name = name; self.x = x; self.y = y; self.opacity = opacity; self.visible = visible
        self.compositeOp = compositeOp; self.image = image; self.extraAttributes = extraAttributes
    }
}

/// An XML attribute kept as the file had it: its name (namespace prefix included) and its value.
public struct ORAAttribute: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    public var description: String { "\(name)=\"\(value)\"" }
}
