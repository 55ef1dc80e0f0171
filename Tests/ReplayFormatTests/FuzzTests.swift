import Foundation
import Fuzzing
import Testing

/// The libFuzzer targets' bodies over their committed seeds, without libFuzzer (`make fuzz`
/// runs them for real): every seed of every target keeps its target's properties.
@Suite struct FuzzTests {
    /// Tests/Fixtures/fuzz/NAME: the seeds `make fuzz` starts from, and the findings kept.
    static func seeds(of name: String) throws -> [(name: String, bytes: [UInt8])] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/\(name)").path
        return try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map {
            ($0, Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0))))
        }
    }

    private func expectEverySeedKeepsTheProperties<Target: FuzzTarget>(of target: Target.Type) throws {
        let seeds = try Self.seeds(of: Target.name)
        #expect(!seeds.isEmpty)
        for seed in seeds {
            let finding = seed.bytes.withUnsafeBufferPointer { Target.check($0) }
            #expect(finding == nil, "\(Target.name)/\(seed.name): \(finding.map(\.description) ?? "")")
        }
    }

    @Test func replaySeeds() throws { try expectEverySeedKeepsTheProperties(of: ReplayTarget.self) }
    @Test func replayFastPathSeeds() throws { try expectEverySeedKeepsTheProperties(of: FastPathTarget.self) }
    @Test func pngSeeds() throws { try expectEverySeedKeepsTheProperties(of: PNGTarget.self) }
    @Test func x11EventSeeds() throws { try expectEverySeedKeepsTheProperties(of: X11EventsTarget.self) }
}
