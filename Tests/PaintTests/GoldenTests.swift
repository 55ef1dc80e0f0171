import Compute
import Foundation
import Journal
import Paint
import PNGFile
import Testing
import TestSupport

/// Every replay under Tests/Fixtures/golden and the two in Resources, rendered and compared
/// pixel for pixel with the PNG committed beside it: at one thread and at many.
@Suite struct GoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let replays = ["Resources/demo.jsonl", "Resources/mercurial.jsonl",
                          "Tests/Fixtures/golden/filters.jsonl", "Tests/Fixtures/golden/pixel-undo-resize.jsonl",
                          "Tests/Fixtures/golden/stroke-ends.jsonl"]

    @Test(arguments: replays, [1, 4])
    func rendersExactlyAsTheGolden(replay: String, threads: Int) throws {
        let name = URL(fileURLWithPath: replay).deletingPathExtension().lastPathComponent
        let golden = try PNGImage.read(from: Self.root.appendingPathComponent("Tests/Fixtures/golden/\(name).png").path)
        // As `quicksilver render` does: play the file, then snapshot what the session shows.
        let loaded = try Playback.load(Self.root.appendingPathComponent(replay).path, compute: ComputeContext(threads: threads))
        let rendered = loaded.session.snapshot()
        #expect(rendered.width == golden.width && rendered.height == golden.height)
        expectSamePixels(rendered.pixels, golden.pixels, width: golden.width, "\(replay) at \(threads) threads")
    }
}
