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
    @Test func oraSeeds() throws { try expectEverySeedKeepsTheProperties(of: ORATarget.self) }

    /// The ora target reaches the stack: its seeds open, or are refused for what their stack.xml
    /// or layer PNG says, not for the zip they are wrapped in.
    @Test func oraSeedsReachTheStack() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try Self.seeds(of: ORATarget.name).map { ($0.name, $0.bytes) })
        func opened(_ name: String) -> String {
            switch ORATarget.opening(seeds[name] ?? []) {
            case .success(let names): names.joined(separator: ",")
            case .failure(let error): error.description
            }
        }
        #expect(opened("simple.xml") == "Paper,Ink")
        // Its nested stacks are groups, entries of their own above what they hold.
        #expect(opened("nested.xml") == "<&>\"'😀,deep,,a\tb,G\n1")
        #expect(opened("long-name.xml") == String(repeating: "n", count: 1024))
        #expect(opened("hostile.xml") == "fuzz.ora: stack.xml:1: src \"../a.png\" leads out of the archive")
        #expect(opened("too-large.xml").hasPrefix("fuzz.ora: "), "\(opened("too-large.xml"))")
        #expect(opened("lying-png.xml") == "fuzz.ora: data/b.png: cut off: its 11 bytes of image data cannot hold the 64x64 pixels its header declares",
                "\(opened("lying-png.xml"))")
        #expect(opened("over-budget.xml") == "fuzz.ora: too large: its layers would take 327680 bytes decoded (width × height × 4 bytes each), "
                + "more than the 65536 bytes a document may hold")
    }
}
