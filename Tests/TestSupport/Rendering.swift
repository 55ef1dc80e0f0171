import Clock
import Compute
import Foundation
import Geometry
import Journal
import Paint
import ReplayFormat
import Testing

/// A rendered image, owning its pixels (a `Texture` is only a view: it must not outlive its storage).
public struct Picture {
    public let width: Int, height: Int
    public let pixels: [UInt32]
    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}

/// Renders replay text the way `quicksilver render` does, through `Playback` (the one player of
/// replays), with the frames presented to an offscreen window: the last frame presented must
/// equal a fresh snapshot of the session.
public func render(_ text: String, threads: Int = 1) throws -> Picture {
    let path = try ScratchFolder.make("render") + "/replay.jsonl"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let replay = try ReplayParser.parse(text)
    let presenter = OffscreenPresenter(size: replay.header.size)
    let session = try Playback.load(path, compute: ComputeContext(threads: threads), presenter: presenter).session
    // A mercurial stroke's emboss may still be computing after the last frame: the snapshot
    // waits for it, and the next frame shows it.
    let shown = session.snapshot().pixels
    // The same frame again, so a pulsing background keeps its phase.
    let lastFrame = ReplayPlayer.frameIndex(at: replay.events.last?.t ?? 0)
    session.draw(FrameInfo(index: lastFrame, timestamp: 0, targetTimestamp: 0), to: presenter)
    let presented = presenter.image.pixels
    let diff = pixelDifference(presented, shown, width: presenter.size.width)
    #expect(diff == nil, "the presented frame is what the session shows: \(diff ?? "")")
    return Picture(width: presenter.size.width, height: presenter.size.height, pixels: presented)
}

/// A replay of one stroke through `points` (all in frame 0 unless `dt` spreads them).
public func strokeReplay(_ points: [(Double, Double)], width: Int = 200, height: Int = 100, brush: String? = nil, dt: Double = 0) -> String {
    var lines = ["{\"quicksilver\": 1, \"width\": \(width), \"height\": \(height)}"]
    if let brush { lines.append("{\"t\": 0, \"type\": \"brush\", \(brush)}") }
    for (i, p) in points.enumerated() {
        let type = i == 0 ? "down" : "move"
        lines.append("{\"t\": \(Double(i) * dt), \"type\": \"\(type)\", \"x\": \(p.0), \"y\": \(p.1)}")
    }
    let last = points[points.count - 1]
    lines.append("{\"t\": \(Double(points.count) * dt), \"type\": \"up\", \"x\": \(last.0), \"y\": \(last.1)}")
    return lines.joined(separator: "\n") + "\n"
}

/// Points along a sine wave.
public func wave(count: Int, x0: Double, dx: Double, y0: Double, amplitude: Double, period: Double) -> [(Double, Double)] {
    (0..<count).map { i -> (Double, Double) in
        let x: Double = x0 + Double(i) * dx
        let y: Double = y0 + amplitude * sin(Double(i) / period)
        return (x, y)
    }
}


extension Session {
    /// The current layer's pixels, every one of the canvas (premultiplied; transparent is 0).
    public var layerPixels: [UInt32] {
        _ = documentImage()   // a pending emboss baked in first
        let layer = document.currentLayer, size = document.storageSize
        var out = [UInt32](repeating: 0, count: size.area)
        out.withUnsafeMutableBufferPointer { p in
            for y in 0..<size.height { layer.pixels.copy(row: y, xs: 0..<size.width, into: p.baseAddress! + y * size.width) }
        }
        return out
    }
}
