/// A width and height in pixels (or threads).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    @inlinable public init(width: Int, height: Int) { self.width = width; self.height = height }
    @inlinable public var area: Int { width * height }
    @inlinable public var description: String { "\(width)x\(height)" }
}
