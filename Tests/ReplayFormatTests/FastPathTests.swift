import Events
import Foundation
import Fuzzing
import Geometry
import Input
import ReplayFormat
import Testing
import TestSupport

private let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#
private let down = #"{"t": 0, "type": "down", "x": 1, "y": 2}"#

/// Both ways of reading `text`: with the fast path for pointer lines, and with the general parser
/// alone. Each is the replay, or the error.
private func bothWays(_ text: String, recovering: Bool = false)
    -> (fast: Result<(replay: Replay, stoppedAt: ReplayError?), ReplayError>, general: Result<(replay: Replay, stoppedAt: ReplayError?), ReplayError>) {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { b in
        let buffer = UnsafeBufferPointer(b)
        return (Result { () throws(ReplayError) in try ReplayParser.parse(buffer, recovering: recovering, fastPath: true) },
                Result { () throws(ReplayError) in try ReplayParser.parse(buffer, recovering: recovering, fastPath: false) })
    }
}

/// How many lines of `text` the fast path read.
private func fastLines(_ text: String) -> Int {
    var parser = ReplayParser()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
        var bytes = Array(line.utf8)
        _ = try? bytes.withUnsafeMutableBufferPointer { b in try parser.feed(UnsafeBufferPointer(b), recovering: true) }
    }
    return parser.fastLines
}

/// Expects the two ways to agree on `text`, strictly and recovering: the same events bit for bit,
/// or the same error.
private func expectAgreement(_ text: String, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for recovering in [false, true] {
        let (fast, general) = bothWays(text, recovering: recovering)
        switch (fast, general) {
        case (.success(let a), .success(let b)):
            #expect(a.stoppedAt == b.stoppedAt, "\(comment)", sourceLocation: sourceLocation)
            let difference = FastPathTarget.difference(a.replay, b.replay)
            #expect(difference == nil, "\(comment): \(difference ?? "")", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(comment)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(comment): the fast path gives \(fast), the general parser \(general)", sourceLocation: sourceLocation)
        }
    }
}

@Suite struct FastPathTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let resources = fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources")

    /// The goldens, the demo replays and the fuzz seeds.
    static func journals() throws -> [URL] {
        var files: [URL] = []
        for folder in [fixtures.appendingPathComponent("golden"), resources, fixtures.appendingPathComponent("fuzz/replay")] {
            files += try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "jsonl" }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func theFastPathAndTheGeneralParserAgreeOnEveryFixtureJournal() throws {
        let files = try Self.journals()
        #expect(files.count >= 10)
        for file in files {
            expectAgreement(try String(contentsOf: file, encoding: .utf8), file.lastPathComponent)
        }
    }

    /// The pointer lines the window writes are all read by the fast path: in the goldens and
    /// the demos, exactly as many lines as there are pointer events.
    @Test func theFastPathReadsEveryPointerLineTheWriterWrites() throws {
        for file in try Self.journals() where !file.path.contains("/fuzz/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            let replay = try ReplayParser.parse(text)
            let pointers = replay.events.filter {
                switch $0.event { case .pointerDown, .pointerMove, .pointerUp: true; default: false }
            }.count
            #expect(pointers > 0, "\(file.lastPathComponent)")
            #expect(fastLines(text) == pointers, "\(file.lastPathComponent)")
        }
    }

    /// Whatever the writer writes for random samples (any coordinates, pressures and modifiers)
    /// the fast path reads, every line, as the general parser does.
    @Test func everythingTheWriterWritesIsReadByTheFastPath() throws {
        var rng = SplitMix64(seed: 1919)
        var lines = [Replay.line(for: Replay.Header(size: Size(width: 64, height: 48)))]
        var t = 0.0
        for stroke in 0..<200 {
            for i in 0..<10 {
                let x = stroke % 3 == 0 ? Double(bitPattern: rng.next() >> 2) : Double.random(in: -1e4...1e4, using: &rng).rounded()
                let sample = StrokeSample(x: x.isFinite ? x : 0, y: Double.random(in: -1e6...1e6, using: &rng),
                                          pressure: stroke % 2 == 0 ? Double.random(in: 0...1, using: &rng) : 0.5,
                                          mods: Modifiers(rawValue: UInt8(rng.next() % 4)))
                let event: SessionEvent = i == 0 ? .pointerDown(sample) : i == 9 ? .pointerUp(sample) : .pointerMove(sample)
                lines.append(Replay.line(for: Replay.TimedEvent(t: t, event: event)))
                t += Double.random(in: 0...0.02, using: &rng)
            }
        }
        let text = lines.joined(separator: "\n") + "\n"
        expectAgreement(text, "the writer's lines")
        #expect(fastLines(text) == 2000)
    }

    /// Lines the fast path must take itself, each read the same as by the general parser.
    static let taken: [String] = [
        #"{"t": 1, "type": "move", "x": 3, "y": 4}"#,
        #"{"t": 1, "type": "move", "x": -0, "y": -0.0, "pressure": 0}"#,
        #"{"t": 1, "type": "move", "x": 1e2, "y": 1E-2, "pressure": 5e-1}"#,
        #"{"t": 1, "type": "move", "x": 1.5e+300, "y": -2.5E-300}"#,
        #"{"t": 1, "type": "move", "x": 1.7976931348623157e308, "y": 4.9e-324}"#,
        #"{"t": 1, "type": "move", "x": 1e-400, "y": -1e-400}"#,
        #"{"t": 1, "type": "move", "x": 12345678901234567890, "y": -123456789012345678}"#,
        #"{"t": 1, "type": "move", "x": 9007199254740993, "y": 0.1234567890123456789}"#,
        #"{"t": 1, "type": "move", "x": 0.30000000000000004, "y": 2.2250738585072011e-308}"#,
        #"{"t": 1, "type": "move", "x": 123456789012345, "y": 0.000000000000001}"#,
        #"  {"y":2,"x":1 ,\#t"pressure" :1,"type" : "move" , "t":1.25 }  "#,
        #"{"pressure": 0.25, "mods": ["shift", "control"], "y": 2, "x": 1, "type": "move", "t": 1}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": []}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": [ "control" , "control" ]}"#,
        #"{"t": 1, "type": "up", "x": 1, "y": 2, "pressure": 1}"#,
        #"{"t": 1, "type": "move", "x": 3, "y": 4, "pressure": 1, "mods": ["shift", "control"]}"#,
        #"{"t": 1, "type": "move", "x": 3, "y": 4, "pressure": 1, "mods": ["control"]}"#,
        "{\"t\": 1, \"type\": \"move\", \"x\": 1, \"y\": 2}\r",
    ]

    @Test(arguments: taken)
    func linesTheFastPathTakes(line: String) {
        let text = header + "\n" + down + "\n" + line + "\n"
        expectAgreement(text, line)
        #expect(fastLines(text) == 2, "the fast path did not take \(line)")
    }

    /// Lines the fast path must leave to the general parser: valid ones it does not read
    /// (escapes), and every kind of error, which must be the general parser's word for word.
    static let leftToTheGeneralParser: [String] = [
        #"{"t": 1, "type": "m\u006fve", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "\u0078": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": ["shi\u0066t"]}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "x": 3}"#,
        #"{"t": 1, "t": 1, "type": "move", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "z": 3}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "note": "hi"}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2} x"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2}}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2,}"#,
        #"{"t": 1, "type": "move" "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2"#,
        #"{"t": 1, "type": "move", "x": 1e999, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": -1e999, "y": 2}"#,
        #"{"t": 1e999, "type": "move", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 01, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": -01, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1., "y": 2}"#,
        #"{"t": 1, "type": "move", "x": .5, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": +1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1e, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1e+, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": -, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": NaN, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": "1", "y": 2}"#,
        #"{"t": 1, "type": "move", "x": true, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1}"#,
        #"{"t": 1, "type": "move", "y": 2}"#,
        #"{"type": "move", "x": 1, "y": 2}"#,
        #"{"t": 1, "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "moved", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "Move", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "pressure": 1.0000001}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "pressure": -0.5}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "pressure": null}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": ["alt"]}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": "shift"}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2, "mods": ["shift",]}"#,
        #"{"t": -1, "type": "move", "x": 1, "y": 2}"#,
        #"{"t": -0.5, "type": "move", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "down", "x": 1, "y": 2}"#,
        #"{"t": 1, "type": "move", "x": 1, "y": 2}"# + "\u{7}",
        "{\"t\": 1, \"type\": \"move\", \"x\": 1, \"y\": 2, \"mods\": [\"shift\u{0}\"]}",
        #"[{"t": 1, "type": "move", "x": 1, "y": 2}]"#,
        "",
        " ",
    ]

    @Test(arguments: leftToTheGeneralParser)
    func linesLeftToTheGeneralParser(line: String) {
        let text = header + "\n" + down + "\n" + line + "\n"
        expectAgreement(text, line)
        #expect(fastLines(text) == 1, "the fast path took \(line)")
    }

    /// Time going backwards, a move before any down, and pointer lines after an exit are the
    /// general parser's errors too, on the right line.
    @Test func stateErrorsAreTheGeneralParsers() {
        let move = #"{"t": 1, "type": "move", "x": 1, "y": 2}"#
        for text in [
            header + "\n" + move + "\n",
            header + "\n" + down + "\n" + #"{"t": 2, "type": "up", "x": 1, "y": 2}"# + "\n" + move + "\n",
            header + "\n" + down + "\n" + #"{"t": 2, "type": "move", "x": 1, "y": 2}"# + "\n" + move + "\n",
            header + "\n" + down + "\n" + #"{"t": 2, "type": "exit"}"# + "\n" + #"{"t": 3, "type": "move", "x": 1, "y": 2}"# + "\n",
            down + "\n" + move + "\n",
            move + "\n",
        ] {
            expectAgreement(text, text)
            if case .failure(let error) = bothWays(text).fast { #expect(error.line > 1 || !text.hasPrefix(header)) } else { Issue.record("accepted: \(text)") }
        }
    }

    /// One random number literal in JSON's grammar: integers and decimals of any length, with
    /// and without exponents, shortest forms of random doubles, and the extremes.
    static func randomNumber(_ rng: inout SplitMix64) -> String {
        func digits(_ n: Int, leading: Bool) -> String {
            (0..<n).map { i in String(i == 0 && leading ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng)) }.joined()
        }
        let sign = Bool.random(using: &rng) ? "-" : ""
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return sign + (Bool.random(using: &rng) ? "0" : digits(Int.random(in: 1...24, using: &rng), leading: true))
        case 1: return sign + (Bool.random(using: &rng) ? "0" : digits(Int.random(in: 1...8, using: &rng), leading: true)) + "."
            + digits(Int.random(in: 1...22, using: &rng), leading: false)
        case 2: return sign + digits(Int.random(in: 1...20, using: &rng), leading: true) + (Bool.random(using: &rng) ? "e" : "E")
            + ["", "+", "-"][Int.random(in: 0..<3, using: &rng)] + String(Int.random(in: 0...340, using: &rng))
        case 3: return sign + "0." + digits(Int.random(in: 1...20, using: &rng), leading: false) + "e-" + String(Int.random(in: 290...330, using: &rng))
        case 4:
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? "\(d)".replacingOccurrences(of: "e+", with: "e") : "0"
        case 5:
            let d = Double.random(in: -4096...4096, using: &rng)
            return "\(d)"
        default:
            // As the window writes them: whole pixels, milliseconds, pressures of a few digits.
            return [String(Int.random(in: -5000...5000, using: &rng)), String(format: "%.3f", Double.random(in: 0...100_000, using: &rng)),
                    "0." + digits(Int.random(in: 1...6, using: &rng), leading: false)][Int.random(in: 0..<3, using: &rng)]
        }
    }

    /// Over thousands of random numbers, the fast path's Doubles are the general parser's bit for
    /// bit, and both are the correctly rounded value (C's strtod), but for "-0", which both read
    /// as the integer 0.
    @Test func randomNumbersAreTheSameDoublesBitForBit() {
        var rng = SplitMix64(seed: 19)
        var checked = 0
        for _ in 0..<4000 {
            let a = Self.randomNumber(&rng), b = Self.randomNumber(&rng)
            let text = header + "\n" + down + "\n" + #"{"t": 1, "type": "move", "x": \#(a), "y": \#(b)}"# + "\n"
            let (fast, general) = bothWays(text)
            guard case .success(let f) = fast, case .success(let g) = general else {
                // Only an overflow to infinity may be refused, and then by both alike.
                #expect(strtod(a, nil).isInfinite || strtod(b, nil).isInfinite, "\(a), \(b)")
                expectAgreement(text, "\(a), \(b)")
                continue
            }
            guard case .pointerMove(let s) = f.replay.events.last?.event, case .pointerMove(let u) = g.replay.events.last?.event else {
                Issue.record("no move for \(a), \(b)")
                continue
            }
            #expect(s.x.bitPattern == u.x.bitPattern && s.y.bitPattern == u.y.bitPattern, "\(a) → \(s.x) / \(u.x), \(b) → \(s.y) / \(u.y)")
            for (literal, value) in [(a, s.x), (b, s.y)] {
                let expected = literal == "-0" ? 0.0 : strtod(literal, nil)
                #expect(value.bitPattern == expected.bitPattern, "\(literal) → \(value), strtod: \(expected)")
            }
            checked += 1
        }
        #expect(checked > 3900)
        #expect(fastLines(header + "\n" + down + "\n" + #"{"t": 1, "type": "move", "x": 1.5e3, "y": -0.25}"#) == 2)
    }
}
