import Geometry
import PNGFile

/// A layered picture as an OpenRaster file holds it: the image's size and its layers, bottom first
/// (nested stacks among them: each an entry above what it holds, see `ORALayer.Kind`).
public struct ORADocument: Sendable, Equatable {
    /// The image's width and height (`<image w h>`).
    public var size: Size
    /// Bottom first: index 0 is the lowest layer (stack.xml lists them top first).
    public var layers: [ORALayer]
    /// The other attributes of `<image>` (xres, yres, …), in file order, written back as they were.
    /// `w`, `h` and `version` are not among them: they are written from `size` and the spec.
    public var attributes: [ORAAttribute]
    /// What reading changed, one line each ("a layer name … cut to …").
    /// Empty for a file read as it is, and for a document made in memory; never written.
    public var notes: [String]

    public init(size: Size, layers: [ORALayer], attributes: [ORAAttribute] = [], notes: [String] = []) {
        self.size = size; self.layers = layers; self.attributes = attributes; self.notes = notes
    }

    /// The same document with every layer's picture decoded (`ORALayer.decoded()`): what a
    /// document made in memory is, to compare with one.
    public func decoded() throws(ORAError) -> ORADocument {
        var document = self
        for i in document.layers.indices { document.layers[i] = try document.layers[i].decoded() }
        return document
    }

    /// What the layers' pictures take decoded, all told (Int.max when that overflows).
    public var pixelBytes: Int {
        layers.reduce(0) { sum, layer in
            let (total, overflow) = sum.addingReportingOverflow(layer.pixelBytes)
            return overflow ? .max : total
        }
    }
}

/// One raster layer or nested stack: its pixels, where they go in the image and how they are
/// composed.
public struct ORALayer: Sendable, Equatable {
    /// A `<layer>`, or a nested `<stack>` (a group), which has no pixels of its own and holds
    /// the entries directly below it in the list that are deeper than it.
    public enum Kind: Sendable, Equatable {
        case layer
        /// `isolated`: its `isolation` attribute is "isolate" (Krita reads anything else as
        /// pass-through, and writes "auto" for one).
        case stack(isolated: Bool)
    }

    public var kind: Kind = .layer
    /// How many nested stacks hold the entry (0: the root stack's own).
    public var depth = 0
    /// At most `DocumentLimits.nameBytes` of UTF-8 when read from a file (a longer one is cut).
    public var name: String
    /// Where the layer's top-left pixel goes in the image (may be negative, or beyond it).
    public var x: Int
    public var y: Int
    /// 0…1.
    public var opacity: Double
    public var visible: Bool
    /// As in the file, e.g. "svg:multiply"; "svg:src-over" when the file names none.
    public var compositeOp: String
    /// The layer's pixels, at its own size (none, 0x0, for a stack): a picture in memory, or, read from a file, its PNG
    /// not yet decoded (`image()` decodes it), so that a reader can take the layers one at a time.
    public var pixels: Pixels
    /// Every other attribute of `<layer>` (Krita's and MyPaint's: selected, locked, …), in file
    /// order, so that open → save keeps them.
    public var extraAttributes: [ORAAttribute]

    /// A layer's pixels, decoded or not yet.
    public enum Pixels: Sendable, Equatable {
        /// 0xAARRGGBB, straight alpha.
        case image(PNGImage)
        /// The layer's PNG as the archive held it (the entry named), checked as far as it can be
        /// without decoding (`PNGImage.declaredSize(of:maxSide:)`), and the width and height its
        /// header declares.
        case png([UInt8], width: Int, height: Int, entry: String)
    }

    public static let defaultCompositeOp = "svg:src-over"

    public init(name: String, x: Int = 0, y: Int = 0, opacity: Double = 1, visible: Bool = true,
                compositeOp: String = ORALayer.defaultCompositeOp, image: PNGImage, extraAttributes: [ORAAttribute] = []) {
        self.init(name: name, x: x, y: y, opacity: opacity, visible: visible, compositeOp: compositeOp, pixels: .image(image),
                  extraAttributes: extraAttributes)
    }

    public init(name: String, x: Int = 0, y: Int = 0, opacity: Double = 1, visible: Bool = true,
                compositeOp: String = ORALayer.defaultCompositeOp, pixels: Pixels, extraAttributes: [ORAAttribute] = []) {
        self.name = name; self.x = x; self.y = y; self.opacity = opacity; self.visible = visible
        self.compositeOp = compositeOp; self.pixels = pixels; self.extraAttributes = extraAttributes
    }

    /// A nested stack (a group) `depth` stacks deep, holding the entries below it that are deeper.
    public static func stack(name: String, isolated: Bool, depth: Int = 0, opacity: Double = 1, visible: Bool = true,
                             compositeOp: String = ORALayer.defaultCompositeOp, extraAttributes: [ORAAttribute] = []) -> ORALayer {
        var s = ORALayer(name: name, opacity: opacity, visible: visible, compositeOp: compositeOp,
                         image: PNGImage(width: 0, height: 0, pixels: []), extraAttributes: extraAttributes)
        s.kind = .stack(isolated: isolated)
        s.depth = depth
        return s
    }

    /// Whether this is a nested stack.
    public var isStack: Bool { kind != .layer }

    /// The width and height of the layer's picture (as its PNG declares it, before decoding).
    public var size: Size {
        switch pixels {
        case .image(let image): Size(width: image.width, height: image.height)
        case .png(_, let width, let height, _): Size(width: width, height: height)
        }
    }

    /// What the layer's picture takes decoded: width × height × 4 bytes.
    public var pixelBytes: Int { ORAReader.product(size.width, size.height, 4) }

    /// The same layer with its picture decoded.
    public func decoded() throws(ORAError) -> ORALayer {
        var layer = self
        layer.pixels = .image(try image())
        return layer
    }

    /// The layer's picture, decoded when it is still a PNG (not kept: each call decodes).
    /// Errors name the entry, as `ORAError`s of the file do.
    public func image() throws(ORAError) -> PNGImage {
        switch pixels {
        case .image(let image): return image
        case .png(let bytes, let width, let height, let entry):
            do throws(PNGError) { return try PNGImage.decode(bytes, maxSide: max(width, height)) } catch {
                throw ORAError(entry: entry, message: error.message)
            }
        }
    }
}

/// An XML attribute kept as the file had it: its name (namespace prefix included) and its value.
public struct ORAAttribute: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    public var description: String { "\(name)=\"\(value)\"" }
}
