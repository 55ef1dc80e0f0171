import Geometry

/// Builds one stroke from pointer samples, emitting its geometry to a `StrokeSink`.
///
/// Pen: samples s0, s1, … are joined by quadratic Bézier curves from midpoint to midpoint with
/// the sample as control point, so fast strokes come out as curves, not polylines. Everything up
/// to the newest midpoint is committed as soon as the sample arrives; the piece from there to the
/// newest sample (the live tail) is drawn by `tail(into:)` each frame without being committed.
/// Committed geometry depends only on the sample sequence, never on how samples were batched
/// into frames.
///
/// Pixel pen: a Bresenham line from sample to sample, each pixel stamped with a midpoint filled
/// circle; there is no smoothing and no tail.
public struct StrokeBuilder: Sendable {
    public let tip: BrushTip
    /// The newest sample.
    private var last: StrokePoint
    /// Where committed pen geometry ends: the midpoint of the last two samples.
    private var committedEnd: StrokePoint
    /// Pen: distance along the curve until the next dab. Carried across samples, so spacing does
    /// not depend on how often samples arrive.
    private var toNextDab: Double
    /// Mirror painting's copies beyond the stroke itself (none without symmetry): the pen's
    /// dabs are each placed again under every copy, the pixel pen's lines drawn again between
    /// the copies' images of their end pixels.
    private let mirrors: [Symmetry.Copy]

    /// Starts a stroke at `start`, painting its first dab (so a tap paints one dot), and its
    /// copies under `symmetry`.
    public init(tip: BrushTip, start: StrokePoint, symmetry: Symmetry = .off, into sink: inout StrokeSink, damage: inout Rect) {
        self.tip = tip
        last = start
        committedEnd = start
        toNextDab = 0
        mirrors = Array(symmetry.copies.dropFirst())
        switch tip.kind {
        case .pen, .eraser:
            var walker = PenWalker(tip: tip, toNextDab: 0, clip: sink.clip, mirrors: mirrors)
            walker.line(from: start, to: start, into: &sink)
            damage = damage.union(walker.damage)
            toNextDab = walker.toNextDab
        case .pixel:
            let (cx, cy) = (PixelPen.cell(start.x), PixelPen.cell(start.y))
            damage = damage.union(PixelPen.stamp(x: cx, y: cy, tip: tip, pressure: start.pressure, into: &sink))
            for m in mirrors {
                let c = m.cell(cx, cy)
                damage = damage.union(Self.underCopy(m, of: &sink) { PixelPen.stamp(x: c.x, y: c.y, tip: tip, pressure: start.pressure, into: &$0) })
            }
        case .mercurial:
            break  // no geometry: the session sprays its particles
        }
    }

    /// Adds a sample, committing the curve up to the midpoint between it and the previous one.
    /// Returns the damaged rectangle.
    @discardableResult
    public mutating func add(_ p: StrokePoint, into sink: inout StrokeSink) -> Rect {
        switch tip.kind {
        case .pen, .eraser:
            let end = StrokePoint.mid(last, p)
            var walker = PenWalker(tip: tip, toNextDab: toNextDab, clip: sink.clip, mirrors: mirrors)
            walker.quad(from: committedEnd, control: last, to: end, into: &sink)
            toNextDab = walker.toNextDab
            committedEnd = end
            last = p
            return walker.damage
        case .pixel:
            // From the last cell, or, for a sample beyond PixelPen.reach, from where the line
            // to this one comes within it.
            var damage = Rect.empty
            if let (from, to) = PixelPen.cells(last, p) {
                damage = PixelPen.line(from: from, to: to, pressures: (last.pressure, p.pressure), tip: tip, into: &sink)
                // Bresenham's steps depend only on |dx| and |dy|, so a line between mirrored
                // ends is the mirrored line, pixel for pixel.
                for m in mirrors {
                    damage = damage.union(Self.underCopy(m, of: &sink) {
                        PixelPen.line(from: m.cell(from.x, from.y), to: m.cell(to.x, to.y), pressures: (last.pressure, p.pressure), tip: tip, into: &$0)
                    })
                }
            }
            last = p
            return damage
        case .mercurial:
            last = p
            return .empty
        }
    }

    /// What `draw` adds to `sink` with its clip moved to copy `m`'s image of it (on the plane):
    /// a pixel-pen copy is drawn wherever the stroke itself is, however far off that lands.
    private static func underCopy(_ m: Symmetry.Copy, of sink: inout StrokeSink, _ draw: (inout StrokeSink) -> Rect) -> Rect {
        let own = sink.clip
        sink.clip = m.image(of: own).intersection(.plane)
        defer { sink.clip = own }
        return draw(&sink)
    }

    /// Draws the live tail (last committed point → newest sample) without committing it, and on
    /// to `predicted` (a predicted continuation) when given.
    public func tail(into sink: inout StrokeSink, predictedTo predicted: StrokePoint? = nil) -> Rect {
        guard tip.kind.isSmooth else { return .empty }
        var walker = PenWalker(tip: tip, toNextDab: toNextDab, clip: sink.clip, mirrors: mirrors)
        walker.line(from: committedEnd, to: last, into: &sink)
        walker.endDab(at: last, into: &sink)
        if let predicted {
            walker.line(from: last, to: predicted, into: &sink)
            walker.endDab(at: predicted, into: &sink)
        }
        return walker.damage
    }

    /// Ends the stroke at `p`: adds it, then commits the tail. Returns the damaged rectangle.
    @discardableResult
    public mutating func finish(at p: StrokePoint, into sink: inout StrokeSink) -> Rect {
        var damage = add(p, into: &sink)
        if tip.kind.isSmooth {
            var walker = PenWalker(tip: tip, toNextDab: toNextDab, clip: sink.clip, mirrors: mirrors)
            walker.line(from: committedEnd, to: last, into: &sink)
            walker.endDab(at: last, into: &sink)
            damage = damage.union(walker.damage)
            toNextDab = walker.toNextDab
            committedEnd = last
        }
        return damage
    }
}
