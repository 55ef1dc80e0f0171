/// A picture of what a session shows: row-major 0xAARRGGBB pixels, every one opaque.
public struct Snapshot: Sendable {
    public let width: Int, height: Int
    public let pixels: [UInt32]

    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}
