import Compute
import Foundation
import Journal
import Paint
import PNGFile
import Testing

/// Every replay under Tests/Fixtures/golden and the two in Resources, rendered and compared
/// pixel for pixel with the PNG committed beside it: at one thread and at many.
@Suite struct GoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let replays = ["Resources/demo.jsonl", "Resources/mercurial.jsonl",
                          "Tests/Fixtures/golden/filters.jsonl", "Tests/Fixtures/golden/pixel-undo-resize.jsonl"]

    @Test(arguments: replays, [1, 4])
    func rendersExactlyAsTheGolden(replay: String, threads: Int) throws {
        let name = URL(fileURLWithPath: replay).deletingPathExtension().lastPathComponent
        let golden = try PNGImage.read(from: Self.root.appendingPathComponent("Tests/Fixtures/golden/\(name).png").path)
        // As `quicksilver render` does: play the file, then snapshot what the session shows.
        let loaded = try Playback.load(Self.root.appendingPathComponent(replay).path, compute: ComputeContext(threads: threads))
        let rendered = loaded.session.snapshot()
        #expect(rendered.width == golden.width && rendered.height == golden.height)
        let diff = pixelDifference(rendered.pixels, golden.pixels, width: golden.width)
        #expect(diff == nil, "\(replay) at \(threads) threads: \(diff ?? "")")
    }
}

/// nil when the two images are equal; otherwise how many pixels differ and the first of them,
/// with both values (what a failed golden comparison needs to be read).
func pixelDifference(_ actual: [UInt32], _ expected: [UInt32], width: Int) -> String? {
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
