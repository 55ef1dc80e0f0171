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
        /// The origins set, in order (not among `calls`: they are between sections).
        var origins: [(x: Int, y: Int)] = []
        func setOrigin(x: Int, y: Int) { origins.append((x, y)) }
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

    /// libmypaint's positions are `Float`s (a step of 128 px at 2³⁰), so a brush far out is
    /// played near zero: a charcoal's strokes 2³⁰ px away reach the surface as the same dabs as
    /// near (0, 0), with the surface's origin at 2³⁰; a stroke begun more than 2¹⁵ px from the
    /// origin moves it, and its dabs stay near zero.
    @Test func aBrushFarOutIsPlayedNearZero() throws {
        let settings = try BrushLibrary.installed(environment: ["HOME": "/nonexistent"]).settings(named: "classic/charcoal")
        func strokes(_ dx: Double, _ dy: Double) -> [BrushEvent] {
            (0..<40).map { (i: Int) -> BrushEvent in
                let along = 7.25 * Double(i % 20), down = 31.5 * Double(i / 20)
                return BrushEvent(t: 0.01 * Double(i), x: dx + 300 + along, y: dy + 200 + down, pressure: i % 20 == 19 ? 0 : 0.8)
            }
        }
        let near = Recorder(), far = Recorder()
        try BrushPlayer.play(strokes(0, 0), settings: settings, color: .black, on: near)
        try BrushPlayer.play(strokes(Double(1 << 30), -Double(1 << 30)), settings: settings, color: .black, on: far)
        #expect(!near.dabs.isEmpty && far.dabs == near.dabs, "\(far.dabs.count) dabs far, \(near.dabs.count) near")
        #expect(near.origins.map { [$0.x, $0.y] } == [[0, 0]])
        #expect(far.origins.map { [$0.x, $0.y] } == [[1 << 30, -(1 << 30)]])

        let surface = Recorder()
        let player = try BrushPlayer(settings: settings, color: .black, surface: surface)
        for e in strokes(0, 0) + strokes(100_000, 0).map({ BrushEvent(t: $0.t + 1, x: $0.x, y: $0.y, pressure: $0.pressure) }) {
            player.play(e)
        }
        #expect(surface.origins.map { [$0.x, $0.y] } == [[0, 0], [3 * 32768, 0]])
        let painted = surface.dabs.filter { $0.opaque > 0 }
        // (Dabs of opacity 0 are handed over too, on the way from the last stroke's end.)
        let farthest = painted.map { max(abs($0.x), abs($0.y)) }.max() ?? 0
        #expect(!painted.isEmpty && farthest < 20_000, "every dab that paints is near zero: \(farthest)")
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
