import Geometry
@testable import Strokes
import Testing

/// The stroke builder's copies under a symmetry: each pen dab placed again under every copy,
/// the pixel pen's spans mirrored, and the work bounded however far the centre or a sample is.
@Suite struct SymmetryStrokeTests {
    private let clip = Rect(x: 0, y: 0, width: 100, height: 80)

    private func start(_ tip: BrushTip, at p: StrokePoint, _ symmetry: Symmetry) -> (StrokeBuilder, StrokeSink) {
        var sink = StrokeSink(clip: clip), damage = Rect.empty
        let builder = StrokeBuilder(tip: tip, start: p, symmetry: symmetry, into: &sink, damage: &damage)
        return (builder, sink)
    }

    @Test func aTapPlacesADabUnderEachCopy() {
        let (_, sink) = start(BrushTip(kind: .pen, size: 4), at: StrokePoint(x: 10.25, y: 20, pressure: 0.5),
                              Symmetry(mode: .both, x: 50, y: 40))
        #expect(sink.dabs.map { [$0.x, $0.y] } == [[10.25, 20], [89.75, 20], [10.25, 60], [89.75, 60]])
    }

    @Test func aRotationTurnsEachDabAboutTheCentre() {
        let (_, sink) = start(BrushTip(kind: .pen, size: 4), at: StrokePoint(x: 60, y: 40, pressure: 0.5),
                              Symmetry(mode: .rotational, x: 50, y: 40, lines: 4))
        // A quarter turn clockwise on screen (y down): right → down → left → up.
        #expect(sink.dabs.map { [$0.x, $0.y] } == [[60, 40], [50, 50], [40, 40], [50, 30]])
    }

    @Test func thePixelPensMirrorSpansAreTheMirroredRows() {
        var (builder, sink) = start(BrushTip(kind: .pixel, size: 2), at: StrokePoint(x: 10.5, y: 10.5, pressure: 0.5),
                                    Symmetry(mode: .vertical, x: 50.5, y: 0))
        builder.add(StrokePoint(x: 30.5, y: 22.5, pressure: 0.5), into: &sink)
        let left = Set(sink.spans.filter { $0.x1 <= 50 }.flatMap { s in (s.x0..<s.x1).map { [$0, s.y] } })
        let right = Set(sink.spans.filter { $0.x0 > 50 }.flatMap { s in (s.x0..<s.x1).map { [100 - $0, s.y] } })
        #expect(!left.isEmpty && left == right, "pixel x ↔ 100 − x")
    }

    @Test func aCopyIsPlacedWhereverItLandsAndOnlyWhereTheStrokeIs() {
        // The mirror of a dab in the clip lands 2·10⁶ px off it, and is placed all the same.
        var (builder, sink) = start(BrushTip(kind: .pen, size: 4), at: StrokePoint(x: 10.25, y: 20, pressure: 0.5),
                                    Symmetry(mode: .vertical, x: 1e6, y: 0))
        #expect(sink.dabs.map { [$0.x, $0.y] } == [[10.25, 20], [2e6 - 10.25, 20]])
        // A line out of the clip: neither it nor its copy is drawn past the clip's edge.
        builder.finish(at: StrokePoint(x: 400, y: 20, pressure: 0.5), into: &sink)
        let own = sink.dabs.filter { $0.x < 5e5 }, copies = sink.dabs.filter { $0.x > 5e5 }
        #expect(own.count == copies.count && own.allSatisfy { $0.x < 104 }, "\(own.count) dabs, \(copies.count) copies")
        #expect(zip(own, copies).allSatisfy { $0.x + $1.x == 2e6 && $0.y == $1.y }, "each copy the mirror of its dab")
    }

    @Test func thePixelPensFarCopyIsDrawnWhereItLands() {
        var (builder, sink) = start(BrushTip(kind: .pixel, size: 2), at: StrokePoint(x: 10.5, y: 10.5, pressure: 0.5),
                                    Symmetry(mode: .vertical, x: 100_000, y: 0))
        builder.add(StrokePoint(x: 30.5, y: 22.5, pressure: 0.5), into: &sink)
        let left = Set(sink.spans.filter { $0.x1 <= 100 }.flatMap { s in (s.x0..<s.x1).map { [$0, s.y] } })
        let right = Set(sink.spans.filter { $0.x0 > 100 }.flatMap { s in (s.x0..<s.x1).map { [200_000 - 1 - $0, s.y] } })
        #expect(!left.isEmpty && left == right, "pixel x ↔ 199,999 − x")
    }

    @Test func aFarCentreAndAFarSampleCostABoundedWalk() {
        var (builder, sink) = start(BrushTip(kind: .pen, size: 1), at: StrokePoint(x: 10, y: 10, pressure: 0.5),
                                    Symmetry(mode: .rotational, x: 1e9, y: -1e9, lines: 7))
        builder.add(StrokePoint(x: 9e8, y: 10, pressure: 0.5), into: &sink)
        builder.finish(at: StrokePoint(x: -9e8, y: 5e8, pressure: 0.5), into: &sink)
        // The walk is held near the canvas: a few hundred pixels of path at this spacing.
        #expect(sink.dabs.count < 20_000, "\(sink.dabs.count) dabs")
    }
}
