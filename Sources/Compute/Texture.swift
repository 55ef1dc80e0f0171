/// A view of pixels in memory that someone else owns: the CPU twin of an `MTLTexture`.
///
/// Row-major; `rowStride` is in pixels. Views are copied freely and handed to worker threads,
/// which is why the type is `@unchecked Sendable`: kernels write disjoint pixels, so no two
/// threads ever touch the same memory.
import Geometry
public struct Texture<Pixel>: @unchecked Sendable {
    public let base: UnsafeMutablePointer<Pixel>
    public let width: Int
    public let height: Int
    public let rowStride: Int

    public init(base: UnsafeMutablePointer<Pixel>, width: Int, height: Int, rowStride: Int) {
        precondition(width >= 0 && height >= 0 && rowStride >= width)
        self.base = base; self.width = width; self.height = height; self.rowStride = rowStride
    }

    @inlinable public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    @inlinable public var size: Size { Size(width: width, height: height) }

    /// The first pixel of row `y`.
    @inlinable @inline(__always) public func row(_ y: Int) -> UnsafeMutablePointer<Pixel> { base + y &* rowStride }

    @inlinable @inline(__always) public subscript(x: Int, y: Int) -> Pixel {
        get { base[y &* rowStride &+ x] }
        nonmutating set { base[y &* rowStride &+ x] = newValue }
    }
}

/// Pixels owned by Swift: a texture's storage. Reference type so views stay valid while it lives.
public final class TextureStorage<Pixel: BitwiseCopyable>: @unchecked Sendable {
    public let texture: Texture<Pixel>

    /// Storage filled with `value`. Filled with zero, it is calloc'd: a canvas-sized mask costs
    /// no time or memory until drawn into, and then only the pages drawn into.
    public init(width: Int, height: Int, filledWith value: Pixel) {
        let count = Swift.max(1, width * height)
        let isZero = withUnsafeBytes(of: value) { $0.allSatisfy { $0 == 0 } }
        guard let p = isZero ? System.zeroedMemory(Pixel.self, count: count) : System.memory(Pixel.self, count: count) else {
            fatalError("out of memory for a \(width)x\(height) texture")
        }
        if !isZero { p.initialize(repeating: value, count: count) }
        texture = Texture(base: p, width: width, height: height, rowStride: width)
    }
    deinit { System.freeMemory(texture.base) }
    public var width: Int { texture.width }
    public var height: Int { texture.height }

    /// All pixels, row-major (for tests and files).
    public var pixels: [Pixel] {
        Array(UnsafeBufferPointer(start: texture.base, count: texture.width * texture.height))
    }
}

extension Texture {
    /// Fills `rect` (clipped to the texture) with `value`.
    @inlinable public func fill(_ rect: Rect, with value: Pixel) {
        let r = rect.intersection(bounds)
        for y in r.ys { (row(y) + r.minX).update(repeating: value, count: r.width) }
    }
    /// Copies `rect` (clipped to both) from `source` at the same coordinates.
    @inlinable public func copy(_ rect: Rect, from source: Texture<Pixel>) {
        let r = rect.intersection(bounds).intersection(source.bounds)
        for y in r.ys { (row(y) + r.minX).update(from: source.row(y) + r.minX, count: r.width) }
    }
}
