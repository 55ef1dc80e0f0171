import Foundation
import Kernels
import PNGFile
import Testing

/// `LayerBlend` against Krita 5.1.5's own flattening of the same two layers, kept as golden files
/// in Tests/Fixtures/krita: `source.png` and `backdrop.png` are the two layers of docs/interop.md's
/// 112x112 grid (16 colours at 7 alphas, straight RGBA: every source along x on every backdrop
/// down y), and `opacity-255.png` and `opacity-153.png` hold what `krita FILE.ora --export` made
/// of them with the source layer at that opacity in each mode, the 16 pictures side by side in
/// `BlendMode.allCases`' order. `Tests/Tools/krita_blend.py --update-goldens` wrote them (it
/// needs Krita; see the tool's help).
///
/// Each golden must lie within the largest difference docs/interop.md's table gives for its mode
/// and opacity, on every pixel and channel, in premultiplied levels (the layer stack's own
/// pixels), and further than that from the kernel's result in every other mode: a golden that
/// any mode would pass would check nothing.
///
/// With QS_KRITA_DIR set, the kernel's results are also written there (`MODE-OPACITY.kernel.rgba`,
/// premultiplied RGBA bytes) for krita_blend.py's table; what is checked is the same either way.
@Suite struct KritaGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/krita")
    static let side = 112
    static let opacities: [UInt32] = [255, 153]

    /// docs/interop.md's table: the largest difference from Krita, premultiplied levels.
    static func tolerance(_ mode: BlendMode, opacity: UInt32) -> Int {
        switch mode {
        case .normal: opacity == 255 ? 1 : 2
        case .colorDodge: opacity == 255 ? 2 : 3
        case .colorBurn: opacity == 255 ? 4 : 3
        case .hue, .saturation: opacity == 255 ? 3 : 2
        default: 2
        }
    }

    struct WrongSize: Error, CustomStringConvertible {
        let name: String, width: Int, height: Int, pictures: Int
        var description: String { "\(name) is \(width)x\(height), not \(side * pictures)x\(side)" }
    }

    /// A straight RGBA PNG `pictures` grids wide as premultiplied pixels (each channel rounded to
    /// nearest), as the layer stack holds a file's layer: one array per grid, left to right.
    static func premultipliedPNG(_ name: String, pictures: Int = 1) throws -> [[UInt32]] {
        let image = try PNGImage.read(from: folder.appendingPathComponent(name).path)
        guard image.width == side * pictures, image.height == side else {
            throw WrongSize(name: name, width: image.width, height: image.height, pictures: pictures)
        }
        return (0..<pictures).map { k in
            (0..<side * side).map { i in
                let p = image[k * side + i % side, i / side]
                return premultiplied(p >> 16 & 0xFF, p >> 8 & 0xFF, p & 0xFF, p >> 24)
            }
        }
    }

    static func key(_ mode: BlendMode, _ opacity: UInt32) -> String { "\(mode.name)-\(opacity)" }

    /// Krita's pictures and the kernel's, keyed "MODE-OPACITY". The kernel blends each row of
    /// the source layer onto the same row of the backdrop, one call a row.
    static let pictures = Result<(krita: [String: [UInt32]], kernel: [String: [UInt32]]), any Error> {
        let source = try premultipliedPNG("source.png")[0], backdrop = try premultipliedPNG("backdrop.png")[0]
        var krita: [String: [UInt32]] = [:], kernel: [String: [UInt32]] = [:]
        for opacity in opacities {
            let golden = try premultipliedPNG("opacity-\(opacity).png", pictures: BlendMode.allCases.count)
            for (mode, picture) in zip(BlendMode.allCases, golden) {
                krita[key(mode, opacity)] = picture
                var pixels = backdrop
                source.withUnsafeBufferPointer { s in
                    pixels.withUnsafeMutableBufferPointer { d in
                        for y in 0..<side {
                            LayerBlend.blendRow(s.baseAddress! + y * side, onto: d.baseAddress! + y * side, count: side,
                                                opacity: opacity, mode: mode)
                        }
                    }
                }
                kernel[key(mode, opacity)] = pixels
            }
        }
        return (krita, kernel)
    }

    /// The largest channel difference (alpha included) between two premultiplied images, and where.
    static func worst(_ a: [UInt32], _ b: [UInt32]) -> (levels: Int, at: Int) {
        var worst = (levels: 0, at: 0)
        for i in a.indices where a[i] != b[i] {
            for shift: UInt32 in [24, 16, 8, 0] {
                let d = abs(Int(a[i] >> shift & 0xFF) - Int(b[i] >> shift & 0xFF))
                if d > worst.levels { worst = (d, i) }
            }
        }
        return worst
    }

    /// Whether any channel of any pixel differs by more than `levels`.
    static func differs(_ a: [UInt32], _ b: [UInt32], by levels: Int) -> Bool {
        a.indices.contains { i in
            a[i] != b[i] && [24, 16, 8, 0].contains { (shift: UInt32) in abs(Int(a[i] >> shift & 0xFF) - Int(b[i] >> shift & 0xFF)) > levels }
        }
    }

    @Test(arguments: BlendMode.allCases, opacities)
    func theKernelIsWithinTheDocumentedLevelsOfKrita(mode: BlendMode, opacity: UInt32) throws {
        let (goldens, results) = try Self.pictures.get()
        let name = Self.key(mode, opacity)
        let krita = try #require(goldens[name]), ours = try #require(results[name])
        if let dir = ProcessInfo.processInfo.environment["QS_KRITA_DIR"] {
            let bytes = ours.flatMap { p in [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF), UInt8(p >> 24)] }
            try Data(bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name + ".kernel.rgba"))
        }
        let (levels, at) = Self.worst(ours, krita)
        let limit = Self.tolerance(mode, opacity: opacity)
        func hex(_ p: UInt32) -> String { "0x" + String(p, radix: 16) }
        #expect(levels <= limit, """
            \(name): \(levels) levels from Krita (docs/interop.md allows \(limit)) at source cell \(at % Self.side), \
            backdrop cell \(at / Self.side): kernel \(hex(ours[at])), Krita \(hex(krita[at])) (premultiplied)
            """)
        for other in BlendMode.allCases where other != mode {
            let theirs = try #require(results[Self.key(other, opacity)])
            #expect(Self.differs(theirs, krita, by: limit), "\(name): the kernel in \(other.name) mode is also within \(limit) levels of this golden")
        }
    }
}
