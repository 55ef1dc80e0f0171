import Brushes
import Dabs
import Geometry
import Kernels
import Testing

/// The playing protocol, seen from the surface: what libmypaint hands over, in which atomic
/// section, and where strokes end.
@Suite struct BrushPlayerTests {
    /// A slow-tracking brush's first stroke starts where it starts: a brush just made sits at
    /// (0, 0), and with a first dtime of 0 libmypaint smoothed towards it before its reset, so
    /// a charcoal stroke at (300, 200) was drawn in from the canvas's corner.
    @Test func aNewBrushsFirstStrokeIsNotDrawnInFromTheCorner() throws {
        let library = BrushLibrary.installed(environment: ["HOME": "/nonexistent"])
        let settings = try library.settings(named: "classic/charcoal")
        let events = (0...20).map { i in BrushEvent(t: 0.01 * Double(i), x: 300 + 5 * Double(i), y: 200, pressure: i == 20 ? 0 : 0.8) }
        let recorder = Recorder()
        try BrushPlayer.play(events, settings: settings, color: Color(r: 0, g: 0, b: 0), on: recorder)
        let nearest = recorder.dabs.map { min($0.x, $0.y) }.min() ?? 0
        #expect(!recorder.dabs.isEmpty && nearest > 150, "dabs reach \(nearest) px from the corner's edges")
    }

    /// A surface that records the calls and lays nothing.
    final class Recorder: DabSurface {
        var calls: [String] = []
        var dabs: [Dab] = []
        func beginAtomic() { calls.append("begin") }
        func draw(_ dab: Dab) -> Bool {
            dabs.append(dab)
            if calls.last != "dab" { calls.append("dab") }
            return true
        }
        func sampleColor(x: Float, y: Float, radius: Float, paint: Float) -> SampledColor {
            calls.append("sample \(paint)")
            return SampledColor(r: 0, g: 0, b: 0, a: 0)
        }
        func endAtomic() -> Rect {
            calls.append("end")
            return dabs.isEmpty ? .empty : Rect(x: 0, y: 0, width: 1, height: 1)
        }
        func endStroke() { calls.append("stroke") }
    }

    static let settings = try! BrushSettings.parse(Array(#"""
        {"version": 3, "settings": {
            "radius_logarithmic": {"base_value": 1.0, "inputs": {}},
            "opaque_multiply": {"base_value": 0.0, "inputs": {"pressure": [[0, 0], [1, 1]]}},
            "paint_mode": {"base_value": 0.0, "inputs": {}}
        }}
        """#.utf8), path: "test.myb")

    @Test func eachEventOneAtomicSectionAndStrokesEndAtPressureZero() throws {
        let surface = Recorder()
        let player = try BrushPlayer(settings: Self.settings, color: Color(r: 255, g: 0, b: 0), surface: surface)
        player.play(BrushEvent(t: 5, x: 10, y: 10, pressure: 0))
        #expect(surface.calls == ["begin", "end"])
        surface.calls = []
        for i in 1...5 { player.play(BrushEvent(t: 5 + Double(i) * 0.01, x: 10 + Double(i) * 5, y: 10, pressure: 0.8)) }
        #expect(surface.calls.filter { $0 == "begin" }.count == 5)
        #expect(!surface.calls.contains("stroke"))
        player.play(BrushEvent(t: 5.06, x: 40, y: 10, pressure: 0))
        #expect(surface.calls.last == "stroke")
        player.finish()
        #expect(surface.calls.filter { $0 == "stroke" }.count == 1)
        // The colour through its HSV base values: red.
        let d = try #require(surface.dabs.first)
        #expect(d.r == 1 && d.g == 0 && d.b == 0 && d.paint == 0)
        #expect(d.x > 10 && d.x < 40 && abs(d.y - 10) < 0.01)
    }

    @Test func finishEndsAStrokeLeftOpen() throws {
        let surface = Recorder()
        try BrushPlayer.play([BrushEvent(t: 0, x: 0, y: 0, pressure: 0), BrushEvent(t: 0.01, x: 3, y: 0, pressure: 1),
                              BrushEvent(t: 0.02, x: 6, y: 0, pressure: 1)],
                             settings: Self.settings, color: .black, on: surface)
        #expect(surface.calls.last == "stroke")
    }

    /// The first interface (mypaint_brush_stroke_to) reaches the surface too, without pigment.
    @Test func legacyInterface() throws {
        let surface = Recorder()
        let withPigment = try BrushSettings.parse(Array(Self.settings.json.replacingOccurrences(of: #""paint_mode":{"base_value":0"#,
                                                                                               with: #""paint_mode":{"base_value":1"#).utf8),
                                                  path: "test.myb")
        try BrushPlayer.play((0..<10).map { BrushEvent(t: Double($0) * 0.01, x: Double($0) * 4, y: 0, pressure: $0 == 0 ? 0 : 1) },
                             settings: withPigment, color: .black, on: surface, legacy: true)
        #expect(!surface.dabs.isEmpty)
        #expect(surface.dabs.allSatisfy { $0.paint == 0 && $0.posterize == 0 })
    }
}
