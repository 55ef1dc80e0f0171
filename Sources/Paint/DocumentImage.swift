import Compute
import Geometry
import Kernels

/// A document's layers as plain values, off the frame loop's objects: what a journal's snapshot
/// and an OpenRaster file hold. Pixels are premultiplied (see `Layer`), each layer's cropped to
/// where it has any.
public struct DocumentImage: Sendable, Equatable {
    public struct LayerImage: Sendable, Equatable {
        /// Part of a layer's pixels.
        public struct Piece: Sendable, Equatable {
            /// Where the pixels lie, in canvas coordinates.
            public var bounds: Rect
            /// `bounds.area` premultiplied pixels, row-major.
            public var pixels: [UInt32]
            public init(bounds: Rect, pixels: [UInt32]) { self.bounds = bounds; self.pixels = pixels }
        }

        public var attributes: LayerAttributes
        /// The layer's pixels, in pieces that do not overlap (`DocumentImage.pieceRects(of:)`):
        /// one for a layer whose paint fits a saved picture, one per `pieceSide` square of the
        /// plane holding paint for one whose strokes lie further apart, none for an empty layer
        /// or a group.
        public var pieces: [Piece]
        /// Where the pixels lie: the pieces' bounds together.
        public var bounds: Rect { pieces.reduce(Rect.empty) { $0.union($1.bounds) } }

        /// The premultiplied pixel at canvas point (`x`, `y`): 0 where no piece holds one.
        public subscript(x: Int, y: Int) -> UInt32 {
            guard let p = pieces.first(where: { $0.bounds.xs.contains(x) && $0.bounds.ys.contains(y) }) else { return 0 }
            return p.pixels[(y - p.bounds.minY) * p.bounds.width + x - p.bounds.minX]
        }

        /// A layer of one piece (of none when `bounds` is empty).
        public init(attributes: LayerAttributes, bounds: Rect, pixels: [UInt32]) {
            self.init(attributes: attributes, pieces: bounds.isEmpty ? [] : [Piece(bounds: bounds, pixels: pixels)])
        }

        public init(attributes: LayerAttributes, pieces: [Piece]) {
            self.attributes = attributes; self.pieces = pieces
        }
    }

    /// The side of the squares of the plane a layer too wide for one saved picture is cut
    /// along: each piece is at most this (256 MiB decoded), whatever its strokes.
    public static let pieceSide = 8192

    /// Where `layer`'s pieces lie: its painted tiles' bounds when they fit a saved picture
    /// (`DocumentLimits.frameSides`), else, for each `pieceSide` square (on a grid from 0, 0)
    /// that holds painted tiles, their bounds within it, rows of squares first.
    public static func pieceRects(of layer: Layer) -> [Rect] {
        let bounds = layer.bounds
        guard !bounds.isEmpty else { return [] }
        let most = DocumentLimits.frameSides.upperBound
        guard bounds.width > most || bounds.height > most else { return [bounds] }
        var squares: [TileKey: Rect] = [:]
        let shift = pieceSide.trailingZeroBitCount - 6
        for key in layer.pixels.keys {
            let square = TileKey(x: key.x >> shift, y: key.y >> shift)
            squares[square] = (squares[square] ?? .empty).union(key.rect)
        }
        return squares.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The largest frame size the document has had (`Document.storageSize`).
    public var size: Size
    /// The frame (`Document.frame`): `size` at 0,0 unless said otherwise.
    public var frame: Rect
    public var background: Color
    /// Bottom first.
    public var layers: [LayerImage]
    public var current: Int
    /// The document's attributes from an opened file that this program does not use (a
    /// resolution, say), kept for saving.
    public var extra: [ExtraAttribute] = []

    public init(size: Size, frame: Rect? = nil, background: Color, layers: [LayerImage], current: Int) {
        self.size = size; self.frame = frame ?? Rect(size: size); self.background = background
        self.layers = layers; self.current = current
    }

    init(_ document: Document) {
        size = document.storageSize
        frame = document.frame
        background = document.background
        current = document.current
        extra = document.extraAttributes
        layers = document.layers.map { layer in
            LayerImage(attributes: layer.attributes, pieces: Self.pieceRects(of: layer).map { bounds in
                var pixels = [UInt32](repeating: 0, count: bounds.area)
                pixels.withUnsafeMutableBufferPointer { p in
                    for y in bounds.ys { layer.pixels.copy(row: y, xs: bounds.xs, into: p.baseAddress! + (y - bounds.minY) * bounds.width - bounds.minX) }
                }
                return LayerImage.Piece(bounds: bounds, pixels: pixels)
            })
        }
    }

    /// Replaces `document`'s layers by these (tiles made only where a pixel is not transparent).
    func load(into document: Document) {
        document.resize(to: size)
        document.layers = layers.map { image in
            let layer = Layer(attributes: image.attributes)
            for piece in image.pieces {
                let r = piece.bounds.intersection(.plane)
                for key in TileKey.covering(r) {
                    let part = key.rect.intersection(r)
                    let rows = part.ys.map { y in piece.pixels[((y - piece.bounds.minY) * piece.bounds.width + part.minX - piece.bounds.minX)...].prefix(part.width) }
                    guard rows.contains(where: { $0.contains { $0 != 0 } }) else { continue }
                    let tile = layer.pixels.writableTile(key), origin = key.rect
                    for (k, row) in rows.enumerated() {
                        let dst = tile.texture.row(part.minY + k - origin.minY) + (part.minX - origin.minX)
                        row.withUnsafeBufferPointer { dst.update(from: $0.baseAddress!, count: $0.count) }
                    }
                }
            }
            return layer
        }
        if document.layers.isEmpty { document.layers = [Layer(attributes: LayerAttributes(name: "Layer 1"))] }
        document.current = min(max(current, 0), document.layers.count - 1)
        document.extraAttributes = extra
        document.reframe(frame)
        document.restacked = true
    }

    /// A one-layer document of a picture (straight alpha, as files hold it) at its own size.
    public static func picture(_ pixels: [UInt32], size: Size, background: Color, name: String = "Layer 1") -> DocumentImage {
        DocumentImage(size: size, background: background,
                      layers: [LayerImage(attributes: LayerAttributes(name: name), bounds: Rect(size: size), pixels: pixels.map(Premultiplied.from(straight:)))],
                      current: 0)
    }

    /// A one-layer document of a canvas snapshot written before layers (a journal's PNG): its
    /// colour was already blended over the background, its alpha how painted each pixel was.
    /// The layer is what, over the background, shows that colour.
    public static func legacyCanvas(_ pixels: [UInt32], size: Size, background: Color) -> DocumentImage {
        let bg = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        let layer = pixels.map { p -> UInt32 in
            let a = p >> 24, bare = 255 - a
            func channel(_ shift: UInt32, _ b: UInt32) -> UInt32 {
                let shown = (p >> shift) & 0xff, under = Blend.mul255(b, bare)
                return min(shown > under ? shown - under : 0, a)
            }
            return a << 24 | channel(16, bg.0) << 16 | channel(8, bg.1) << 8 | channel(0, bg.2)
        }
        return DocumentImage(size: size, background: background,
                             layers: [LayerImage(attributes: LayerAttributes(name: "Layer 1"), bounds: Rect(size: size), pixels: layer)], current: 0)
    }
}

/// Premultiplied pixels (the layers') and straight ones (files'), both 0xAARRGGBB. Converting
/// to straight and back gives the same premultiplied pixel, so a layer saved and read again is
/// exactly what it was.
public enum Premultiplied {
    @inline(__always) public static func from(straight p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        return Blend.over(0, r: (p >> 16) & 0xff, g: (p >> 8) & 0xff, b: p & 0xff, alpha: a)
    }

    @inline(__always) public static func straight(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        guard a != 0 else { return 0 }
        if a == 255 { return p }
        func channel(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xff) * 255 + a / 2) / a) }
        return a << 24 | channel(16) << 16 | channel(8) << 8 | channel(0)
    }
}
