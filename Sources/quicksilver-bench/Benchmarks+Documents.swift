import App
import Clock
import Compute
import Events
import Foundation
import Geometry
import Journal
import Paint
import PNGFile

/// The files' cases: the canvas as a PNG (clipboard.copy), and a layered document saved as
/// OpenRaster and opened from it beside the same picture flattened as a PNG (document.*).
extension Benchmarks {
    /// What Ctrl+C costs the frame loop: the canvas at 100 % as a PNG (its offer to the server
    /// is one request).
    func clipboardCopy() -> () throws -> Void {
        let session = drawnSession()
        return {
            let shot = session.snapshot()
            _ = try PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels).encode()
        }
    }

    /// Where `documentFile(what)` writes: a PNG for `png`, else the OpenRaster file that `save`
    /// writes and `open` reads (removed when the benchmarks end).
    static func documentPath(_ what: String) -> String {
        NSTemporaryDirectory() + "quicksilver-bench-\(getpid()).\(what == "png" ? "png" : "ora")"
    }

    /// The layers of the document cases (the issue's figure: a 20-layer document).
    static let documentLayers = 20

    /// A document of `layers` layers at the canvas size, each with a band of random-walk strokes
    /// across the canvas, drawn once.
    func layeredSession(layers: Int) -> Session {
        let session = Session(size: size, compute: compute)
        let walk = randomWalk(segments: layers * 2_000)
        for i in 0..<layers {
            if i > 0 { session.handle(.command(.layer(.new(name: nil)))) }
            session.handle(.command(.brush(size: 12, color: KeyMap.palette[i % 9])))
            for s in 0..<20 {
                let points = walk[(i * 20 + s) * 100..<(i * 20 + s + 1) * 100]
                for (k, p) in points.enumerated() {
                    let sample = StrokeSample(x: p.0, y: p.1, pressure: 0.5)
                    session.handle(k == 0 ? .pointerDown(sample) : k == points.count - 1 ? .pointerUp(sample) : .pointerMove(sample))
                }
            }
        }
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        return session
    }

    /// The `documentLayers` document saved as OpenRaster (`save`) or opened from the saved file
    /// (`open`): against exporting the same picture flattened as a PNG (`png`, written to a file too).
    func documentFile(_ what: String) throws -> () throws -> Void {
        let layers = Self.documentLayers
        let session = layeredSession(layers: layers)
        let path = Self.documentPath(what)
        func save() throws {
            let shot = session.snapshot()
            let merged = PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
            if what == "png" {
                try merged.write(to: path)
            } else if try !DocumentFile.write(session.documentImage(), merged: merged, to: path) {
                throw BenchFailure("\(path) was not written")
            }
        }
        try save()
        if what == "open" {
            return {
                let read = try DocumentFile.read(ora: path, maxSide: 16384)
                let count = read.image.layers.count
                guard count == layers else { throw BenchFailure("\(path): \(count) layers read back, not \(layers)") }
            }
        }
        return save
    }
}
