import Compute
import Dabs
import Foundation
import Geometry
import Kernels
import PNGFile
import Testing

/// The dab kernel against libmypaint's own tiled surface: Tests/Fixtures/dabs/dabs.txt lists dabs
/// of every kind (hard, soft, elliptical across four tiles, anti-aliased small ones, eraser, smudged
/// alpha, lock alpha, colorize, posterize, pigment, faint ones piling up), and dabs.png is what
/// libmypaint 1.6 paints of them, each dab in its own atomic section on a 128x128 surface,
/// composited over white (`make dab-goldens`: Tests/Bench/mypaint-render.c --dabs). At 15 bits
/// the surface must paint the same bytes, at one thread and at four.
@Suite struct DabKernelGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dabs")
    static let side = 128

    /// The dabs of dabs.txt.
    static func dabs() throws -> [Dab] {
        let text = try String(contentsOf: folder.appendingPathComponent("dabs.txt"), encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            let v = line.split(separator: " ").compactMap { Float($0) }
            guard v.count == 16 else { throw Malformed(line: String(line)) }
            return Dab(x: v[0], y: v[1], radius: v[2], r: v[3], g: v[4], b: v[5], opaque: v[6], hardness: v[7], alphaEraser: v[8],
                       aspectRatio: v[9], angle: v[10], lockAlpha: v[11], colorize: v[12], posterize: v[13], posterizeLevels: v[14],
                       paint: v[15])
        }
    }

    struct Malformed: Error { let line: String }

    /// The dabs painted on a fresh surface, each in its own atomic section, over white.
    static func paint(_ dabs: [Dab], threads: Int, precision: DabPrecision) -> [UInt32] {
        let surface = TiledDabSurface(compute: ComputeContext(threads: threads, inlineThreshold: 0), precision: precision)
        for d in dabs {
            surface.beginAtomic()
            surface.draw(d)
            _ = surface.endAtomic()
        }
        surface.endStroke()
        let rgb = surface.overWhite(Rect(x: 0, y: 0, width: side, height: side))
        return (0..<(side * side)).map { 0xff00_0000 | UInt32(rgb[3 * $0]) << 16 | UInt32(rgb[3 * $0 + 1]) << 8 | UInt32(rgb[3 * $0 + 2]) }
    }

    @Test(arguments: [1, 4]) func sameBytesAsLibmypaint(threads: Int) throws {
        let golden = try PNGImage.read(from: Self.folder.appendingPathComponent("dabs.png").path)
        #expect(golden.width == Self.side && golden.height == Self.side)
        let ours = Self.paint(try Self.dabs(), threads: threads, precision: .fifteenBit)
        var differ = 0
        for i in ours.indices where ours[i] != golden.pixels[i] { differ += 1 }
        #expect(differ == 0, "\(differ) pixels differ from libmypaint's")
    }

    /// One rounding per stroke stays within a level of libmypaint; rounding every dab loses the
    /// faint ones (what docs/brushes.md measures on whole recordings).
    @Test func roundingOncePerStrokeKeepsFaintDabs() throws {
        let golden = try PNGImage.read(from: Self.folder.appendingPathComponent("dabs.png").path).pixels
        let dabs = try Self.dabs()
        func worst(_ p: [UInt32]) -> Int {
            zip(p, golden).map { a, b in [16, 8, 0].map { abs(Int((a >> $0) & 0xff) - Int((b >> $0) & 0xff)) }.max() ?? 0 }.max() ?? 0
        }
        #expect(worst(Self.paint(dabs, threads: 2, precision: .perStroke)) <= 1)
        #expect(worst(Self.paint(dabs, threads: 2, precision: .eightBit)) > 1)
    }
}
