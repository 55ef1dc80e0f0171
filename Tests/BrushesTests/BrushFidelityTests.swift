import Brushes
import Compute
import Dabs
import Foundation
import Geometry
import Kernels
import Measures
import PNGFile
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
