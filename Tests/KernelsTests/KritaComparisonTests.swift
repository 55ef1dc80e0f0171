import Foundation
import Kernels
import Testing

/// The kernel's half of `Tests/Tools/krita_blend.py`, which sets QS_KRITA_DIR: reads the grid's
/// two layers (straight RGBA bytes), premultiplies them as a layer stack would on loading, blends
/// them in every mode whose Krita result the tool made, and writes the kernel's pixels
/// (premultiplied RGBA bytes) beside Krita's for the tool to compare. Skipped without Krita.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QS_KRITA_DIR"] != nil))
struct KritaComparison {
    @Test func writeKernelResults() throws {
        let dir = URL(fileURLWithPath: ProcessInfo.processInfo.environment["QS_KRITA_DIR"]!)
        let n = try #require(Int(String(decoding: try Data(contentsOf: dir.appendingPathComponent("size")), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        func layer(_ name: String) throws -> [UInt32] {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            return (0..<n * n).map { i in
                let a = UInt32(bytes[4 * i + 3])
                func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }  // exact .5 cannot occur: 255 is odd
                return a << 24 | pre(bytes[4 * i]) << 16 | pre(bytes[4 * i + 1]) << 8 | pre(bytes[4 * i + 2])
            }
        }
        let source = try layer("source.rgba"), backdrop = try layer("backdrop.rgba")
        var written = 0
        for mode in BlendMode.allCases {
            for opacity: UInt32 in [255, 153] {
                let stem = "\(mode.name)-\(opacity)"
                guard FileManager.default.fileExists(atPath: dir.appendingPathComponent(stem + ".krita.rgba").path) else { continue }
                var out = backdrop
                source.withUnsafeBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { d in
                        for y in 0..<n {
                            LayerBlend.blendRow(s.baseAddress! + y * n, onto: d.baseAddress! + y * n, count: n, opacity: opacity, mode: mode)
                        }
                    }
                }
                let bytes = out.flatMap { p in [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF), UInt8(p >> 24)] }
                try Data(bytes).write(to: dir.appendingPathComponent(stem + ".kernel.rgba"))
                written += 1
            }
        }
        #expect(written > 0)
    }
}
