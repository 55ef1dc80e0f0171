import Foundation
import Testing

/// `quicksilver-bench`, the benchmarks' own program: it runs the cases asked for, and a case whose
/// work fails is named on stderr and fails the run (it used to be timed as a success).
@Suite struct BenchProgramTests {
    @Test func runsTheCasesAskedForAndPrintsTheirFigures() throws {
        let r = try runProgram(benchBinary, ["--only", "memcpy", "--size", "64x48", "--json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.status): \(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Double]
        #expect(object.map { Array($0.keys) } == ["memcpy.full"], "\(r.stdout)")
        let rows = try runProgram(benchBinary, ["--only", "memcpy", "--size", "64x48"])
        #expect(rows.status == 0 && rows.stdout.hasPrefix("memcpy.full ") && rows.stdout.hasSuffix(" ms\n"), "\(rows.stdout)")
    }

    @Test func aCaseWhoseWorkFailsIsNamedAndFailsTheRun() throws {
        // /bin/false stands for a libmypaint program that fails: the stabilizer table must not
        // come out as if it had not been built.
        let r = try runProgram(benchBinary, ["--only", "stabilizer", "--mypaint", "/bin/false"])
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == 1, "\(r.status)")
        #expect(lines.first == "quicksilver-bench: stabilizer: libmypaint slow_tracking 10: /bin/false exited with status 1", "\(r.stderr)")
        #expect(lines.last == "quicksilver-bench: 1 failed: stabilizer" && lines.count == 2, "\(r.stderr)")
        #expect(!r.stdout.contains("stabilizer."), "\(r.stdout)")
    }
}
