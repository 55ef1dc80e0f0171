import CMalloc
import Clock
import Compute
import Events
import Foundation
import Geometry
import Kernels
import Paint

/// The layers' cases: a whole canvas-sized layer composited row by row, on one thread, onto an
/// opaque backdrop with `LayerBlend.blendRow`, beside a copy of the same rows (blend.*), and the
/// memory a document of many layers takes (layers.memory).
extension Benchmarks {
    /// blend.memcpy (each row copied), blend.normal (every pixel translucent, so none skips the
    /// arithmetic), blend.normal.opacity (the same at opacity 128), blend.normal.painted (a
    /// layer as painting leaves one: in runs of 64 pixels, half bare, a quarter solid, a quarter
    /// translucent), and blend.<mode> for every other mode (every pixel translucent).
    func layerCases() -> [(String, Int, () throws -> () throws -> Void)] {
        [("blend.memcpy", 50, { layerRows(mode: nil) }), ("blend.normal", 50, { layerRows(mode: .normal) }),
         ("blend.normal.opacity", 50, { layerRows(mode: .normal, opacity: 128) }),
         ("blend.normal.painted", 50, { layerRows(mode: .normal, painted: true) })]
            + BlendMode.allCases.filter { $0 != .normal }.map { mode in ("blend." + mode.name, 20, { layerRows(mode: mode) }) }
    }

    /// Blends (or, without a mode, copies) every row of a translucent layer onto an opaque one.
    func layerRows(mode: BlendMode?, opacity: UInt32 = 255, painted: Bool = false) -> () -> Void {
        let layer = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        let backdrop = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        var state: UInt32 = 0x1234_5678
        func next() -> UInt32 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return state
        }
        for y in 0..<size.height {
            for x in 0..<size.width {
                let r = next(), translucent: UInt32 = 1 + next() % 254
                let a: UInt32 = !painted ? translucent : [0, 0, 255, translucent][x / 64 % 4]
                func pre(_ shift: UInt32) -> UInt32 { ((r >> shift & 0xFF) * a / 255) << shift }
                layer.texture[x, y] = a << 24 | pre(16) | pre(8) | pre(0)
                backdrop.texture[x, y] = 0xFF00_0000 | next() & 0x00FF_FFFF
            }
        }
        let width = size.width, height = size.height
        return {
            withExtendedLifetime((layer, backdrop)) {
                for y in 0..<height {
                    if let mode {
                        LayerBlend.blendRow(layer.texture.row(y), onto: backdrop.texture.row(y), count: width, opacity: opacity, mode: mode)
                    } else {
                        backdrop.texture.row(y).update(from: layer.texture.row(y), count: width)
                    }
                }
            }
        }
    }

    /// Resident memory a 3840x2160 document with 40 empty layers and one stroke (on the one in
    /// the middle) adds, with a frame of it composed, in MB: empty layers must cost next to nothing.
    static func layersMemory(compute: ComputeContext) throws -> Double {
        // The cases before it leave freed pages resident, which the document would take without
        // growing the process (a whole `make bench` printed 0.0 MB): give them back first.
        _ = malloc_trim(0)
        let before = try residentBytes()
        let size = Size(width: 3840, height: 2160)
        let session = Session(size: size, compute: compute)
        for _ in 1..<40 { session.handle(.command(.layer(.new(name: nil)))) }
        session.handle(.command(.layer(.select(20))))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        session.handle(.pointerMove(StrokeSample(x: 3700, y: 2000, pressure: 0.5)))
        session.handle(.pointerUp(StrokeSample(x: 3700, y: 100, pressure: 0.5)))
        let window = OffscreenPresenter(size: size)
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: window)
        let after = try residentBytes()
        return withExtendedLifetime((session, window)) { Double(after - before) / 1e6 }
    }

    /// The process's resident memory in bytes (/proc/self/statm); throws where it cannot be read.
    private static func residentBytes() throws -> Int {
        let path = "/proc/self/statm"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchFailure("cannot read \(path)") }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { throw BenchFailure("\(path) has no resident size: \(text)") }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
