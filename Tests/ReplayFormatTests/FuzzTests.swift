import Foundation
import Fuzzing
import Testing

@Suite struct FuzzTests {
    /// The corpus `make fuzz` uses: valid and broken replays.
    static func corpus() throws -> [[UInt8]] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/corpus").path
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map {
            Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)))
        }
    }

    /// A short run of the fuzzer (`make fuzz` runs a million inputs).
    @Test func fuzzSmokeRun() throws {
        var fuzzer = ReplayFuzzer(corpus: try Self.corpus(), seed: 42)
        let finding = fuzzer.run(count: 3_000)
        #expect(finding == nil, "\(finding.map(\.description) ?? "")")
    }
}
