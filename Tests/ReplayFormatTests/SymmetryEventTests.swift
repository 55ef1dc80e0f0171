import Events
import Geometry
import ReplayFormat
import Testing

private let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#

/// A symmetry line with these fields after its type.
private func symmetry(_ fields: String) -> String { #"{"t": 0, "type": "symmetry", "# + fields + "}" }

@Suite struct SymmetryEventTests {
    @Test func theDocumentedLineReadsAndWritesBackTheSame() throws {
        let line = #"{"t": 1.5, "type": "symmetry", "mode": "rotational", "x": 320.5, "y": 240, "lines": 6}"#
        let text = header + "\n" + line + "\n"
        let r = try ReplayParser.parse(text)
        #expect(r.events == [Replay.TimedEvent(t: 1.5, event: .command(.symmetry(Symmetry(mode: .rotational, x: 320.5, y: 240, lines: 6))))])
        #expect(r.text == text)
    }

    @Test(arguments: Symmetry.Mode.allCases)
    func everyModeRoundTrips(mode: Symmetry.Mode) throws {
        let s = Symmetry(mode: mode, x: -12.5, y: 1e6, lines: 64)
        let line = Replay.line(for: Replay.TimedEvent(t: 0, event: .command(.symmetry(s))))
        #expect(line.contains(#""mode": "\#(mode.rawValue)""#))
        let r = try ReplayParser.parse(header + "\n" + line + "\n")
        #expect(r.events.first?.event == .command(.symmetry(s)))
    }

    @Test func leftOutFieldsAreTheirDefaultsAndAreWrittenAnyway() throws {
        let r = try ReplayParser.parse(header + "\n" + symmetry(#""mode": "vertical""#) + "\n")
        #expect(r.events.first?.event == .command(.symmetry(Symmetry(mode: .vertical, x: 0, y: 0, lines: 2))))
        #expect(Replay.line(for: Replay.TimedEvent(t: 0, event: .command(.symmetry(.off))))
            == #"{"t": 0, "type": "symmetry", "mode": "off", "x": 0, "y": 0, "lines": 2}"#)
    }

    /// Each bad line, as line 2, and the whole message it must get.
    static let errors: [(String, String)] = [
        (symmetry(#""x": 3"#), #""symmetry" needs "mode" ("off", "vertical", "horizontal", "both" or "rotational")"#),
        (symmetry(#""mode": "diagonal""#),
         #"unknown symmetry mode "diagonal" (expected one of "off", "vertical", "horizontal", "both", "rotational")"#),
        (symmetry(#""mode": 2"#), #""mode" must be a string, got a number"#),
        (symmetry(#""mode": "rotational", "lines": 1"#), #""lines" must be in 2…64, got 1"#),
        (symmetry(#""mode": "rotational", "lines": 65"#), #""lines" must be in 2…64, got 65"#),
        (symmetry(#""mode": "rotational", "lines": 2.5"#), #""lines" must be an integer, got 2.5"#),
        (symmetry(#""mode": "vertical", "x": "middle""#), #""x" must be a number, got a string"#),
        (symmetry(#""mode": "vertical", "x": 2e9"#), #""x" must be in -1000000000…1000000000, got 2000000000"#),
        (symmetry(#""mode": "vertical", "y": 1e999"#), #""y" must be a finite number"#),
        (symmetry(#""mode": "both", "angle": 3"#), #"unknown field "angle" in a "symmetry" event"#),
    ]

    @Test(arguments: errors)
    func badSymmetryNamesTheLineAndTheField(line: String, message: String) {
        do {
            _ = try ReplayParser.parse(header + "\n" + line + "\n")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.line == 2 && error.message == message, "\(error)")
        }
    }
}
