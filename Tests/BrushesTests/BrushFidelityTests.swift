import Brushes
import Compute
import Dabs
import Foundation
import Geometry
import Kernels
import Measures
import PNGFile
import Synchronization
import Testing

/// Twelve stock brushes of different kinds (ink, grain, a faint pencil, smudge, blur, eraser, lock
/// alpha, colorize, posterize, pigment smearing, a pixel brush) painted by the playing protocol
/// on Quicksilver's dab surface, each within 40 dB PSNR of libmypaint's own painting of the same
/// events (Tests/Fixtures/brushes: its README says how they are painted, `make brush-goldens`
/// paints them again).
@Suite struct BrushFidelityTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/brushes")
    static let size = Size(width: 768, height: 640)
    static let brushes = ["classic/calligraphy", "classic/charcoal", "deevad/4H_pencil", "classic/smudge", "classic/blur",
                          "classic/ink_eraser", "Dieterle/Pencil-_Left_Handed", "Dieterle/HalfTone#1", "Dieterle/Fountain_SF#1",
                          "Dieterle/Posterizer", "kaerhon_v1/Smear_sm", "experimental/1pixel"]

    static func events() throws -> [BrushEvent] {
        let path = folder.appendingPathComponent("painting10sec.dat").path
        return try BrushRecording.parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
    }

    /// The picture the protocol paints: marker underneath, shifted, then the brush.
    static func paint(_ name: String, threads: Int, precision: DabPrecision = .perStroke) throws -> [UInt32] {
        let library = BrushLibrary.installed(environment: ["HOME": "/nonexistent"])
        let events = try events()
        let surface = TiledDabSurface(compute: ComputeContext(threads: threads), precision: precision)
        let shifted = events.map { BrushEvent(t: $0.t, x: $0.x + 37, y: $0.y + 23, pressure: $0.pressure) }
        try BrushPlayer.play(shifted, settings: try library.settings(named: "classic/marker_fat"), color: Color(r: 0xe0, g: 0xa0, b: 0x30),
                             on: surface)
        try BrushPlayer.play(events, settings: try library.settings(named: name), color: Color(r: 0x30, g: 0x60, b: 0xc0), on: surface)
        let rgb = surface.overWhite(Rect(size: size))
        return (0..<size.area).map { 0xff00_0000 | UInt32(rgb[3 * $0]) << 16 | UInt32(rgb[3 * $0 + 1]) << 8 | UInt32(rgb[3 * $0 + 2]) }
    }

    @Test(arguments: brushes) func within40dBOfLibmypaint(brush: String) throws {
        let golden = try PNGImage.read(from: Self.folder.appendingPathComponent(brush.replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "#", with: "-") + ".png").path)
        try #require(golden.width == Self.size.width && golden.height == Self.size.height)
        let psnr = PSNR.decibels(try Self.paint(brush, threads: 2), golden.pixels)
        #expect(psnr >= 40, "\(brush): \(psnr) dB")
    }

    /// The same bytes whatever the number of threads, pigment and smudging included.
    @Test func sameBytesAtAnyThreadCount() throws {
        let one = try Self.paint("classic/smudge", threads: 1)
        #expect(try Self.paint("classic/smudge", threads: 4) == one)
    }
}

/// libmypaint 1.6 mixes smudge colours in one static buffer (`mix_colors`, helpers.c:566), so
/// two brushes smudging at once on two threads read each other's mixes; `BrushEngine` strokes
/// one at a time in the process. Each of two brushes painting at once must paint what it
/// paints alone: the same dabs, in the same colours.
@Suite struct BrushThreadTests {
    /// Lays nothing; answers every colour sample with a colour that depends on where it is, so
    /// a smudge brush mixes a different colour at every dab; keeps the dabs' colours.
    final class Stripes: DabSurface {
        var colors: [Float] = []
        func beginAtomic() {}
        func draw(_ dab: Dab) -> Bool {
            colors += [dab.r, dab.g, dab.b, dab.opaque]
            return true
        }
        func sampleColor(x: Float, y: Float, radius: Float, paint: Float) -> SampledColor {
            SampledColor(r: (x / 97).truncatingRemainder(dividingBy: 1), g: (y / 89).truncatingRemainder(dividingBy: 1), b: 0.5, a: 1)
        }
        func endAtomic() -> Rect { .empty }
        func endStroke() {}
        func setOrigin(x: Int, y: Int) {}
    }

    static func smudged(_ events: [BrushEvent], _ settings: BrushSettings) throws -> [Float] {
        let surface = Stripes()
        try BrushPlayer.play(events, settings: settings, color: Color(r: 0x30, g: 0x60, b: 0xc0), on: surface)
        return surface.colors
    }

    @Test func twoSmudgingBrushesOnTwoThreadsPaintAsEachAlone() throws {
        let settings = try BrushLibrary.installed(environment: ["HOME": "/nonexistent"]).settings(named: "classic/smudge")
        let events = try BrushFidelityTests.events()
        let alone = try Self.smudged(events, settings)
        let results = Mutex<[[Float]]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<40 {
                let painted = (try? Self.smudged(events, settings)) ?? []
                results.withLock { $0.append(painted) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 80 && alone.count > 10_000)
        for (i, painted) in all.enumerated() {
            #expect(painted == alone, "painting \(i): \(zip(painted, alone).filter { $0 != $1 }.count) of \(alone.count) values differ")
        }
    }
}
