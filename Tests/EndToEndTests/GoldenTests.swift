import Foundation
import PNGFile
import Testing
import TestSupport

/// Every replay under Tests/Fixtures/golden and the two in Resources, rendered by the shipped
/// command (`quicksilver render`) and compared pixel for pixel with the PNG committed beside
/// it, at one thread and at many: the goldens check what users run, undo included.
/// QS_UPDATE_GOLDENS=1 first writes each PNG whose pixels the render changed, or that is missing
/// (then look at them).
@Suite struct GoldenTests {
    static let replays = ["Resources/demo.jsonl", "Resources/mercurial.jsonl",
                          "Tests/Fixtures/golden/filters.jsonl", "Tests/Fixtures/golden/layers.jsonl",
                          "Tests/Fixtures/golden/pixel-undo-resize.jsonl",
                          "Tests/Fixtures/golden/shading.jsonl", "Tests/Fixtures/golden/stroke-ends.jsonl",
                          "Tests/Fixtures/golden/symmetry.jsonl"]

    @Test(arguments: replays, [1, 4])
    func rendersExactlyAsTheGolden(replay: String, threads: Int) throws {
        let name = URL(fileURLWithPath: replay).deletingPathExtension().lastPathComponent
        let goldenPath = packageRoot.appendingPathComponent("Tests/Fixtures/golden/\(name).png").path
        let out = try temporaryFolder() + "/\(name).png"
        let r = try runProgram(binary, ["render", packageRoot.appendingPathComponent(replay).path, "-o", out, "--threads", "\(threads)"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let rendered = try PNGImage.read(from: out)
        if ProcessInfo.processInfo.environment["QS_UPDATE_GOLDENS"] != nil, (try? PNGImage.read(from: goldenPath)) != rendered {
            try rendered.write(to: goldenPath)
        }
        let golden = try PNGImage.read(from: goldenPath)
        #expect(rendered.width == golden.width && rendered.height == golden.height)
        expectSamePixels(rendered.pixels, golden.pixels, width: golden.width, "\(replay) at \(threads) threads")
    }
}
