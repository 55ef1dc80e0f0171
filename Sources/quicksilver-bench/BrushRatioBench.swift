import Foundation

/// `brushes.libmypaint`: the fidelity goldens' brushes (Tests/Fixtures/brushes) each painting the
/// 10-second recording there, by libmypaint's program (Tests/Bench/mypaint-render.c, built by
/// `make bench`) and by `quicksilver render` of it as a replay (the brush event, then each event
/// one pointer line: the playing protocol, docs/journal.md), whole process against whole process,
/// the better of two runs each; the median ratio over the brushes. `make brush-table` measures
/// every stock brush on the 30-second recording (docs/brushes.md).
struct BrushRatioBench {
    /// The libmypaint program.
    let mypaint: String
    /// The `quicksilver` program (beside this one).
    let quicksilver: String
    static let recording = "Tests/Fixtures/brushes/painting10sec.dat"
    static let stock = "/usr/share/mypaint-data/2.0/brushes"
    static let brushes = ["classic/calligraphy", "classic/charcoal", "deevad/4H_pencil", "classic/smudge", "classic/blur",
                          "classic/ink_eraser", "Dieterle/Pencil-_Left_Handed", "Dieterle/HalfTone#1", "Dieterle/Fountain_SF#1",
                          "Dieterle/Posterizer", "kaerhon_v1/Smear_sm", "experimental/1pixel"]

    /// The median ratio (quicksilver ÷ libmypaint) and each brush's, or why it cannot be measured.
    func ratios() throws -> (median: Double, each: [(brush: String, ratio: Double)]) {
        for program in [mypaint, quicksilver] where !FileManager.default.isExecutableFile(atPath: program) {
            throw BenchFailure("\(program) is not built (make bench builds it)")
        }
        let text: String
        do { text = try String(contentsOfFile: Self.recording, encoding: .utf8) } catch {
            throw BenchFailure("cannot read \(Self.recording) (run from the repository): \(error.localizedDescription)")
        }
        let events = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.filter { $0.count >= 4 }
        guard let first = events.first, let last = events.last else { throw BenchFailure("\(Self.recording) holds no events") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qs-brushes-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var each: [(String, Double)] = []
        for brush in Self.brushes {
            let myb = Self.stock + "/" + brush + ".myb"
            let settings: String
            do { settings = try String(contentsOfFile: myb, encoding: .utf8).replacingOccurrences(of: "\n", with: " ") } catch {
                throw BenchFailure("cannot read \(myb) (make test-deps installs mypaint-brushes)")
            }
            var lines = [#"{"quicksilver": 1, "width": 1024, "height": 768}"#,
                         "{\"t\": \(first[0]), \"type\": \"brush\", \"kind\": \"mypaint\", \"name\": \"\(brush)\", \"color\": \"#3060c0\", \"settings\": \(settings)}"]
            for (i, e) in events.enumerated() {
                lines.append("{\"t\": \(e[0]), \"type\": \"\(i == 0 ? "down" : "move")\", \"x\": \(e[1]), \"y\": \(e[2]), \"pressure\": \(e[3])}")
            }
            lines.append("{\"t\": \(last[0]), \"type\": \"up\", \"x\": \(last[1]), \"y\": \(last[2]), \"pressure\": 0}")
            let replay = folder + "/replay.jsonl"
            do { try (lines.joined(separator: "\n") + "\n").write(toFile: replay, atomically: true, encoding: .utf8) } catch {
                throw BenchFailure("cannot write \(replay): \(error.localizedDescription)")
            }
            let theirs = try best(mypaint, [myb, "#3060c0", Self.recording, folder + "/theirs.png"])
            let ours = try best(quicksilver, ["render", replay, "-o", folder + "/ours.png"])
            each.append((brush, ours / theirs))
        }
        let sorted = each.map(\.1).sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return (median, each)
    }

    /// The better of two runs of `program`, in seconds, whole process.
    private func best(_ program: String, _ arguments: [String]) throws -> Double {
        var times: [Double] = []
        for _ in 0..<2 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = Date()
            do { try process.run() } catch { throw BenchFailure("cannot run \(program): \(error.localizedDescription)") }
            process.waitUntilExit()
            times.append(Date().timeIntervalSince(start))
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                throw BenchFailure("\(program) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
            }
        }
        return times.min() ?? 0
    }
}
