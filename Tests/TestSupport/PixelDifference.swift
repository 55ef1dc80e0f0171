import PNGFile
import Testing

/// nil when the two images are equal; otherwise how many pixels differ and the first of them,
/// with both values (what a failed golden comparison needs to be read).
public func pixelDifference(_ actual: [UInt32], _ expected: [UInt32], width: Int) -> String? {
    guard actual.count == expected.count else { return "\(actual.count) pixels, expected \(expected.count)" }
    var count = 0, first: Int?
    for i in actual.indices where actual[i] != expected[i] {
        count += 1
        if first == nil { first = i }
    }
    guard let first else { return nil }
    func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16, uppercase: true) }
    return "\(count) pixels differ; the first at (\(first % width), \(first / width)): got \(hex(actual[first])), expected \(hex(expected[first]))"
}

/// Expects two images of `width` pixels a row to be equal, naming the first difference if not.
public func expectSamePixels(_ actual: [UInt32], _ expected: [UInt32], width: Int, _ what: String = "",
                             sourceLocation: SourceLocation = #_sourceLocation) {
    let diff = pixelDifference(actual, expected, width: width)
    #expect(diff == nil, "\(what)\(what.isEmpty ? "" : ": ")\(diff ?? "")", sourceLocation: sourceLocation)
}

/// Expects two rendered pictures to be equal, naming the first difference if not.
public func expectSame(_ actual: Picture, _ expected: Picture, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.width == expected.width && actual.height == expected.height, "\(what)", sourceLocation: sourceLocation)
    expectSamePixels(actual.pixels, expected.pixels, width: expected.width, what, sourceLocation: sourceLocation)
}

/// Expects two PNG images to be equal, naming the first difference if not.
public func expectSame(_ actual: PNGImage, _ expected: PNGImage, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.width == expected.width && actual.height == expected.height,
            "\(what): \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)", sourceLocation: sourceLocation)
    expectSamePixels(actual.pixels, expected.pixels, width: expected.width, what, sourceLocation: sourceLocation)
}

/// The largest difference of any colour channel between two pictures of the same size.
public func largestChannelDifference(_ a: [UInt32], _ b: [UInt32]) -> Int {
    var worst = 0
    for (p, q) in zip(a, b) where p != q {
        for shift in [UInt32(16), 8, 0] {
            worst = max(worst, abs(Int((p >> shift) & 0xff) - Int((q >> shift) & 0xff)))
        }
    }
    return worst
}
