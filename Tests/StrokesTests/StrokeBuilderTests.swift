import Geometry
import Strokes
import Testing

private func distance(_ a: StrokeSink.Dab, _ b: StrokeSink.Dab) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

/// Draws a stroke through `points` and returns what the sink received.
private func stroke(_ points: [(Double, Double)], tip: BrushTip = BrushTip(), pressure: Double = 0.5,
                    clip: Rect = Rect(x: 0, y: 0, width: 1000, height: 1000)) -> StrokeSink {
    var sink = StrokeSink(clip: clip)
    var damage = Rect.empty
    let ps = points.map { StrokePoint(x: $0.0, y: $0.1, pressure: pressure) }
    var b = StrokeBuilder(tip: tip, start: ps[0], into: &sink, damage: &damage)
    for p in ps.dropFirst().dropLast() { b.add(p, into: &sink) }
    b.finish(at: ps.last!, into: &sink)
    return sink
}

@Suite struct PenTests {
    @Test func tapPaintsOneDot() {
        let s = stroke([(10, 10), (10, 10)])
        #expect(s.dabs == [StrokeSink.Dab(x: 10, y: 10, radius: 4)])
    }

    @Test func spacingDoesNotDependOnSampleRate() {
        // A straight line sampled sparsely and densely: the smoothed curve is the same line, and
        // carrying the remainder puts every dab at the same place.
        let sparse = stroke([(100, 100), (300, 100), (500.3, 100)])
        let dense = stroke((0...50).map { (100 + Double($0) * 8, 100) } + [(500.3, 100)])
        #expect(sparse.dabs.count == dense.dabs.count)
        for (a, b) in zip(sparse.dabs, dense.dabs) { #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6) }
    }

    @Test func noGapsWhenSamplesAreFarApart() {
        let s = stroke([(10, 10), (210, 10), (210, 210), (10, 210), (400, 600)])
        let spacing = (0.4 * 8.0).squareRoot() // √(0.8 r) for the 8 px diameter
        for (a, b) in zip(s.dabs, s.dabs.dropFirst()) { #expect(distance(a, b) <= spacing + 1e-9) }
        #expect(s.dabs.count > 500)
    }

    @Test func fastStrokesAreCurvesNotPolylines() {
        // Through a corner sample the curve cuts inside: no dab sits on the corner itself, and
        // dabs pass near the midpoints (the curve's joints).
        let s = stroke([(0, 0), (200, 0), (200, 200)])
        let nearCorner = s.dabs.map { distance($0, StrokeSink.Dab(x: 200, y: 0, radius: 0)) }.min()!
        #expect(nearCorner > 35) // the curve's closest point is (175, 25)
        let nearMid = s.dabs.map { distance($0, StrokeSink.Dab(x: 100, y: 0, radius: 0)) }.min()!
        #expect(nearMid < 1)
    }

    @Test func pressureScalesTheDiameter() {
        #expect(BrushTip(size: 8).diameter(pressure: 0.5) == 8)
        #expect(BrushTip(size: 8).diameter(pressure: 1) == 16)
        #expect(BrushTip(size: 1).diameter(pressure: 0.1) == 1)
        #expect(BrushTip(size: 9999).size == 512)
    }

    @Test func farCoordinatesAreClippedCheaply() {
        let clip = Rect(x: 0, y: 0, width: 100, height: 100)
        let s = stroke([(-1e9, -1e9), (1e9, 1e9)], clip: clip)
        // Only the visible diagonal (141 px plus the margins) gets dabs, at 1.79 px spacing.
        #expect(s.dabs.count > 75 && s.dabs.count < 90)
        for d in s.dabs { #expect(d.x > -10 && d.x < 110 && abs(d.x - d.y) < 1e-3) }
    }

    @Test(arguments: [1e20, 1e300, Double.greatestFiniteMagnitude])
    func hugeCoordinatesKeepTheirLine(far: Double) {
        // Straight across a 100x100 clip from ∓far: every dab on the line, none more than a
        // spacing from the next, from beyond one edge to beyond the other.
        let s = stroke([(-far, 50), (far, 50)], clip: Rect(x: 0, y: 0, width: 100, height: 100))
        let spacing = (0.4 * 8.0).squareRoot()
        #expect(s.dabs.allSatisfy { $0.y == 50 && $0.x > -7 && $0.x < 107 })
        for (a, b) in zip(s.dabs, s.dabs.dropFirst()) { #expect(b.x > a.x && b.x - a.x <= spacing + 1e-9) }
        #expect((s.dabs.first?.x ?? 50) <= -4 + spacing && (s.dabs.last?.x ?? 50) >= 104 - spacing, "from edge to edge")
        // Off along a slope of ½ from a sample inside: the dabs of the same line to a near sample.
        let sloped = stroke([(10, 10), (10 + far, 10 + far / 2)], clip: Rect(x: 0, y: 0, width: 100, height: 100))
        let near = stroke([(10, 10), (2010, 1010)], clip: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(sloped.dabs.count == near.dabs.count)
        for (a, b) in zip(sloped.dabs, near.dabs) { #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9) }
    }

    @Test func liveTailReachesTheNewestSample() {
        var sink = StrokeSink(clip: Rect(x: 0, y: 0, width: 500, height: 500))
        var damage = Rect.empty
        var b = StrokeBuilder(tip: BrushTip(), start: StrokePoint(x: 10, y: 10, pressure: 0.5), into: &sink, damage: &damage)
        b.add(StrokePoint(x: 110, y: 10, pressure: 0.5), into: &sink)
        var tailSink = StrokeSink(clip: sink.clip)
        let tailDamage = b.tail(into: &tailSink)
        #expect(tailSink.dabs.last!.x > 110 - (0.4 * 8.0).squareRoot(), "within one dab spacing of the pointer")
        #expect(tailDamage.contains(x: 110, y: 10))
        // Committed geometry stops at the midpoint.
        #expect(sink.dabs.last!.x <= 60.0001)
    }
}

@Suite struct PixelPenTests {
    private func pixels(_ s: StrokeSink) -> Set<[Int]> {
        var out = Set<[Int]>()
        for span in s.spans { for x in span.x0..<span.x1 { out.insert([x, span.y]) } }
        return out
    }

    @Test func bresenhamLineWithOnePixelPen() {
        let s = stroke([(0.5, 0.5), (5.5, 2.5)], tip: BrushTip(kind: .pixel, size: 1))
        #expect(pixels(s) == [[0, 0], [1, 0], [2, 1], [3, 1], [4, 2], [5, 2]])
    }

    @Test func midpointFilledCircle() {
        // Radius 2 (size 4 at pressure 0.5): rows are ±2, ±2, ±1 wide.
        let s = stroke([(10, 10), (10, 10)], tip: BrushTip(kind: .pixel, size: 4))
        let expected: Set<[Int]> = Set((8...12).flatMap { y -> [[Int]] in
            let half = [2, 2, 1][abs(y - 10)]
            return (10 - half...10 + half).map { [$0, y] }
        })
        #expect(pixels(s) == expected)
    }

    @Test func pixelPenClipsFarLines() {
        let s = stroke([(-1e9, 5), (1e9, 5)], tip: BrushTip(kind: .pixel, size: 2), clip: Rect(x: 0, y: 0, width: 50, height: 10))
        let p = pixels(s)
        #expect(p.contains([0, 5]) && p.contains([49, 5]) && p.contains([25, 4]))
        #expect(p.allSatisfy { $0[0] >= 0 && $0[0] < 50 && $0[1] >= 0 && $0[1] < 10 })
    }

    @Test(arguments: [1e13, 1e300, Double.greatestFiniteMagnitude])
    func pixelPenKeepsTheDirectionOfALineToAHugeCoordinate(far: Double) {
        // Beyond the cells' reach (10¹²) the line is cut along itself, not bent by clamping each
        // coordinate: the same pixels as the line to a near sample on it.
        let clip = Rect(x: 0, y: 0, width: 50, height: 20), tip = BrushTip(kind: .pixel, size: 1)
        let sloped = pixels(stroke([(0.5, 0.5), (0.5 + far, 0.5 + far / 2)], tip: tip, clip: clip))
        #expect(sloped == pixels(stroke([(0.5, 0.5), (2000.5, 1000.5)], tip: tip, clip: clip)))
        #expect(sloped.contains([38, 19]) && !sloped.contains([19, 19]))
    }
}
