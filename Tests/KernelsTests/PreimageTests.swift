import Foundation
import Testing

@testable import Kernels

/// A turned view's scratch rows: the span `Preimage` gives each row must hold every pixel a
/// sample inside the parallelogram reads (else the sample reads memory never composed), and
/// not much more (else the view composes pixels it never shows).
@Suite struct PreimageTests {
    /// Corners of a `width`×`height` rectangle at (x, y) through the map (a, b; c, d), in order.
    private func corners(x: Double, y: Double, width: Double, height: Double,
                         _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [(Double, Double)] {
        [(0.0, 0.0), (width, 0), (width, height), (0, height)].map { p in
            (x + a * p.0 + b * p.1, y + c * p.0 + d * p.1)
        }
    }

    @Test func everyRowsSpanHoldsThePixelsItsSamplesReadAndLittleMore() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        // Turned, mirrored and zoomed groups, and level ones (edges parallel to the rows).
        var cases: [[(Double, Double)]] = [
            corners(x: 10, y: 5, width: 60, height: 20, 1, 0, 0, 1),
            corners(x: 80, y: 30, width: 40, height: 25, 0, -1, 1, 0),
            corners(x: 50, y: 50, width: 30, height: 30, -1, 0, 0, 1),
        ]
        for _ in 0..<60 {
            let angle = random(0...(2 * .pi)), zoom = random(0.5...3), mirror = random(0...1) < 0.5 ? -1.0 : 1.0
            let (cs, sn) = (cos(angle) / zoom, sin(angle) / zoom)
            cases.append(corners(x: random(20...120), y: random(20...120), width: random(1...70), height: random(1...40),
                                 cs * mirror, -sn, sn * mirror, cs))
        }
        for quad in cases {
            let preimage = ComposeKernel.Preimage(quad)
            let limit = -1000..<1000
            // Pixels read, by row: a point (u, v) reads rows ⌊v⌋ and ⌊v⌋ + 1, columns ⌊u⌋ and ⌊u⌋ + 1.
            var read: [Int: (lo: Int, hi: Int)] = [:]
            let steps = 240
            for i in 0...steps {
                for j in 0...steps {
                    let s = Double(i) / Double(steps), t = Double(j) / Double(steps)
                    // Bilinear over the corners: inside the parallelogram, edges included.
                    let u = quad[0].0 + s * (quad[1].0 - quad[0].0) + t * (quad[3].0 - quad[0].0)
                    let v = quad[0].1 + s * (quad[1].1 - quad[0].1) + t * (quad[3].1 - quad[0].1)
                    let x = Int(u.rounded(.down)), y = Int(v.rounded(.down))
                    for row in [y, y + 1] {
                        let old = read[row] ?? (x, x + 1)
                        read[row] = (min(old.lo, x), max(old.hi, x + 1))
                    }
                }
            }
            for (row, columns) in read {
                let span = preimage.span(ofRow: row, within: limit)
                #expect(span.contains(columns.lo) && span.contains(columns.hi), "row \(row): \(span) misses \(columns) of \(quad)")
                #expect(span.lowerBound >= columns.lo - 8 && span.upperBound <= columns.hi + 9,
                        "row \(row): \(span) much wider than \(columns) of \(quad)")
            }
        }
    }
}
