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
        }
    }
}
