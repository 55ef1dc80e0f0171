import Geometry
import Testing

/// The libm-free roundings the dab path uses must give libm's answers for every value: a single
/// difference would move a dab and change the goldens.
@Suite struct RoundingTests {
    static let awkward: [Double] = [
        0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
        1 - 0x1p-53, -(1 - 0x1p-53), 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52, -0x1p52, 0x1p52 + 1, 1e300, -1e300,
        .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 4503599627370495.5, 123456.75, -123456.25,
    ]

    @Test func matchLibmOnAwkwardValues() {
        for x in Self.awkward {
            #expect(x.roundedDown == x.rounded(.down), "\(x)")
            #expect(x.roundedUp == x.rounded(.up), "\(x)")
            #expect(x.roundedToNearest == x.rounded(), "\(x)")
            if abs(x) < 0x1p52 { #expect(x.roundedToNearestInt == Int(x.rounded()), "\(x)") }
        }
        #expect(Double.nan.roundedDown.isNaN && Double.nan.roundedUp.isNaN && Double.nan.roundedToNearest.isNaN)
    }

    @Test func matchLibmOnManyValues() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in 0..<200_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Quarter steps (the dab grid), then any bits at every scale.
            let x = i < 100_000 ? Double(Int64(bitPattern: state) >> 40) / 4 : Double(bitPattern: state)
            guard !x.isNaN else { continue }
            #expect(x.roundedDown == x.rounded(.down), "\(x)")
            #expect(x.roundedUp == x.rounded(.up), "\(x)")
            #expect(x.roundedToNearest == x.rounded(), "\(x)")
            if abs(x) < 0x1p52 { #expect(x.roundedToNearestInt == Int(x.rounded()), "\(x)") }
        }
    }

    /// `Rect.covering` rounds after clamping to ±1e12: the same rectangle as libm's floor and
    /// ceiling clamped afterwards, for every value (a dab's damage and a walk's are made by it).
    @Test func coveringMatchesLibmThenClamp() {
        func reference(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int { Int(min(max(v.rounded(rule), -1e12), 1e12)) }
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var values = Self.awkward.filter { $0.isFinite } + [1e12, -1e12, 1e12 + 0.5, -1e12 - 0.5, 1e12 - 0.5, -(1e12 - 0.5)]
        for i in 0..<100_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = i < 50_000 ? Double(Int64(bitPattern: state) >> 40) / 7 : Double(bitPattern: state)
            if x.isFinite { values.append(x) }
        }
        for v in values {
            let r = Rect.covering(minX: v, minY: -v, maxX: v, maxY: -v)
            #expect(r.minX == reference(v, .down) && r.minY == reference(-v, .down), "\(v)")
            #expect(r.maxX == reference(v, .up) && r.maxY == reference(-v, .up), "\(v)")
        }
    }
}
