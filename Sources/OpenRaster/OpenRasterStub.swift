// TEMPORARY: the shape of the OpenRaster module (branch openraster), so the engine builds.
import Geometry
import PNGFile

public struct ORAAttribute: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) { self.name = name; self.value = value }
}

public struct ORALayer: Sendable, Equatable {
    public var name: String
    public var x: Int, y: Int
    public var opacity: Double
    public var visible: Bool
    public var compositeOp: String
    public var image: PNGImage
    public var extraAttributes: [ORAAttribute]
    public init(name: String, x: Int, y: Int, opacity: Double, visible: Bool, compositeOp: String, image: PNGImage, extraAttributes: [ORAAttribute]) {
        self.name = name; self.x = x; self.y = y; self.opacity = opacity; self.visible = visible; self.compositeOp = compositeOp
        self.image = image; self.extraAttributes = extraAttributes
    }
}

public struct ORADocument: Sendable, Equatable {
    public var size: Size
    public var layers: [ORALayer]
    public var notes: [String]
    public init(size: Size, layers: [ORALayer], notes: [String]) { self.size = size; self.layers = layers; self.notes = notes }
}

public struct ORAError: Error { public var message: String }

public enum OpenRaster {
    public static func read(from path: String, maxSide: Int) throws(ORAError) -> ORADocument { throw ORAError(message: "not yet") }
    public static func write(_ doc: ORADocument, merged: PNGImage, to path: String) throws(ORAError) { throw ORAError(message: "not yet") }
    public static func writeNew(_ doc: ORADocument, merged: PNGImage, to path: String) throws(ORAError) -> Bool { throw ORAError(message: "not yet") }
}
