import Clock
import Compute
import Events
import Foundation
import Geometry
import Kernels
import Paint

/// The engine's cases: the compose kernel, strokes, the mercurial brush's kernels, the pulse
/// and the zoomed view, each over a canvas of the run's size.
extension Benchmarks {
    /// The compose kernel over the whole canvas under a live stroke whose bounds are the whole
    /// canvas, one row in `coveredRowEvery` covered (1: every pixel blended, the worst case;
    /// 0: no live stroke, the copy a full redraw after expose, resize or clear costs), seen
    /// through `transform` (compose.rotated: turned 30° about the centre).
    func composeFull(coveredRowEvery: Int, transform: ViewTransform = .identity) -> () -> Void {
        var layer = TiledTexture()
        for key in TileKey.covering(Rect(size: size)) { layer.writableTile(key).texture.fill(Rect(x: 0, y: 0, width: Tile.side, height: Tile.side), with: 0x8040_2010) }
        let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        // The masks in tiles, as the live stroke's: the committed one over the whole canvas, the
        // tail (a few pixels in a real stroke) empty.
        var committed = TiledMask()
        for y in stride(from: 0, to: coveredRowEvery > 0 ? size.height : 0, by: max(1, coveredRowEvery)) {
            for key in TileKey.covering(Rect(x: 0, y: y, width: size.width, height: 1)) {
                committed.writableTile(key, rows: (y & 63)..<(y & 63) + 1).texture.row(y & 63).update(repeating: 200, count: Tile.side)
            }
        }
        let stroke = ComposeKernel.Stroke(color: Color(r: 30, g: 90, b: 200, a: 180), committed: committed,
                                          tail: TiledMask(), bounds: Rect(size: size))
        var kernel = ComposeKernel(below: .color(0xFFFF_FFFF), layer: layer, canvas: Rect(size: size), output: out.texture)
        kernel.stroke = coveredRowEvery > 0 ? stroke : nil
        kernel.transform = transform
        return { [compute, size] in withExtendedLifetime(out) { kernel.run(over: Rect(size: size), on: compute) } }
    }

    /// Copying a canvas's bytes (memcpy.full): the memory's bandwidth, the limit beside compose.full.
    func memcpyFull() -> () -> Void {
        let bytes = size.area * 4
        let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        a.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        b.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        return { b.copyMemory(from: a, byteCount: bytes) }  // buffers live for the process: a benchmark
    }

    /// One typical frame of a live pen stroke (`compose.stroke`, on a blank canvas); with
    /// `layers`, in a document of that many layers, each a translucent wash over the whole
    /// canvas, the stroke on the one in the middle (`compose.stroke.layers1` and `.layers20`:
    /// what the stack view's caches save).
    func composeStroke(layers: Int = 0) -> () -> Void {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        if layers > 0 {
            for i in 0..<layers {
                if i > 0 { session.handle(.command(.layer(.new(name: nil)))) }
                let wash = [UInt32](repeating: 0x2000_0000 | UInt32(i * 12) << 16 | 0x80, count: size.area)
                session.handle(.command(.paste(PastedImage(file: "wash.png", x: 0, y: 0, size: size, pixels: wash))))
            }
            session.handle(.command(.layer(.select(layers / 2))))
        }
        session.handle(.command(.brush(size: 16)))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        var frame = 0
        var x = 100.0, dx = 15.0
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return {
            frame += 1
            for _ in 0..<4 {
                x += dx
                if x > Double(size.width - 100) || x < 100 { dx = -dx }
                let y = Double(size.height) / 2 + 200 * sin(x / 150)
                session.handle(.pointerMove(StrokeSample(x: x, y: y, pressure: 0.5)))
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    func penStroke(size brushSize: Int) -> () -> Void {
        let walk = randomWalk(segments: 10_000)
        let session = Session(size: size, compute: compute, historyBytes: 0)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.brush(size: brushSize)))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return {
            queueStroke(walk, into: session)
            session.draw(FrameInfo(index: 1, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// One batch of four samples through the scaffold kernel, then blur and threshold of the
    /// whole canvas: the worst frame of a mercurial stroke.
    func mercurialFrame() -> () -> Void {
        let scaffold = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let mask = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let kernel = ScaffoldKernel(seed: 1), blur = GaussianBlur(sigma: 3)
        let cx = Int32(size.width / 2), cy = Int32(size.height / 2)
        let batch = SampleBatch(x: SIMD4(cx, cx + 20, cx + 40, cx + 60), y: SIMD4(cy, cy + 5, cy + 10, cy + 15))
        return { [compute] in
            _ = kernel.run(batch, radius: 100, into: scaffold.texture, clip: scaffold.texture.bounds, on: compute)
            blur.runThresholded(scaffold.texture, over: scaffold.texture.bounds, into: mask.texture, on: compute)
        }
    }

    /// A typical mercurial frame: four new samples of a stroke (default size 200, pressure
    /// 0.5), sprayed, blurred and thresholded over the damaged region, and composed.
    func mercurialStroke() -> () -> Void {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.brush(kind: .mercurial)))
        session.handle(.pointerDown(StrokeSample(x: 300, y: 500, pressure: 0.5)))
        var frame = 0, x = 300.0
        return {
            frame += 1
            for _ in 0..<4 {
                x = x > Double(size.width - 300) ? 300 : x + 4
                session.handle(.pointerMove(StrokeSample(x: x, y: 500 + 100 * sin(x / 200), pressure: 0.5)))
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// σ 3 Gaussian blur of a full single-channel canvas.
    func blurFull() -> () -> Void {
        let source = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        for y in stride(from: 0, to: size.height, by: 7) { for x in stride(from: 0, to: size.width, by: 5) { source.texture[x, y] = 255 } }
        let out = TextureStorage<Float>(width: size.width, height: size.height, filledWith: 0)
        let blur = GaussianBlur(sigma: 3)
        return { [compute] in blur.run(source.texture, over: source.texture.bounds, into: out.texture, on: compute) }
    }

    /// The emboss of a mask covering most of the canvas (height field, normals, hemisphere).
    func embossFull() -> () -> Void {
        let mask = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let w = Double(size.width), h = Double(size.height)
        for y in 0..<size.height {
            for x in 0..<size.width where sin(Double(x) / w * 12) * cos(Double(y) / h * 9) > -0.3 { mask.texture[x, y] = 255 }
        }
        let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        let emboss = Emboss(shading: .mercurialPaint)
        return { [compute] in emboss.shade(mask.texture, into: out.texture, on: compute) }
    }

    /// A frame while the background pulses: the whole window recomposed with the filter, over a
    /// canvas with a long 32 px stroke on it (bare, painted and edge pixels all occur).
    func pulseFrame() -> () -> Void {
        let session = drawnSession(color: .black)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.pulse(on: true)))
        var frame = 0
        return {
            frame += 1
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// A full-window frame at a zoom: the view moved (so the whole window is redrawn), composed
    /// through the transform.
    func zoomedFrame(scale: Int) -> () -> Void {
        let session = drawnSession()
        let presenter = OffscreenPresenter(size: size)
        var frame = 0
        return {
            frame += 1
            session.handle(.view(ViewTransform(scale: scale, x: -(frame % 7), y: -(frame % 5))))
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// A frame while panning over 20 layers (`compose.pan.layers20`): each a translucent wash
    /// over the canvas, the current one in the middle; the view moved, so the whole window is
    /// recomposed, through the stack view's tiled caches (made where new canvas comes into view).
    func panFrame(layers: Int) -> () -> Void {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        for i in 0..<layers {
            if i > 0 { session.handle(.command(.layer(.new(name: nil)))) }
            let wash = [UInt32](repeating: 0x2000_0000 | UInt32(i * 12) << 16 | 0x80, count: size.area)
            session.handle(.command(.paste(PastedImage(file: "wash.png", x: 0, y: 0, size: size, pixels: wash))))
        }
        session.handle(.command(.layer(.select(layers / 2))))
        var frame = 0
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return {
            frame += 1
            session.handle(.view(ViewTransform(scale: 0, x: -(frame % 64) * 8, y: -(frame % 32) * 4)))
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }
}
