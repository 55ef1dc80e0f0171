import Events
import Kernels
import ReplayFormat
import Testing

private let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#

private func parse(_ lines: [String], fastPath: Bool = true) throws(ReplayError) -> [Replay.TimedEvent] {
    var bytes = Array(([header] + lines).joined(separator: "\n").utf8)
    return try bytes.withUnsafeMutableBufferPointer { (b) throws(ReplayError) in
        try ReplayParser.parse(UnsafeBufferPointer(b), recovering: false, fastPath: fastPath).replay.events
    }
}

private func error(_ lines: [String]) -> String? {
    do { _ = try parse(lines); return nil } catch { return "\(error.line): \(error.message)" }
}

/// The replay format's MyPaint brush event and the pointer lines' tilt and time.
@Suite struct MyPaintEventTests {
    static let settings = #"{"version": 3, "settings": {"radius_logarithmic": {"base_value": 2.5, "inputs": {"pressure": [[0, 0], [1, 0.25]]}}}}"#
    static let line = ##"{"t": 0.5, "type": "brush", "kind": "mypaint", "name": "classic/charcoal", "color": "#102030", "settings": "##
        + settings + "}"

    /// A brush event with its settings reads as the choice, the settings kept as their text,
    /// and is written back as the same line.
    @Test func aBrushWithItsSettingsReadsAndWritesBack() throws {
        let events = try parse([Self.line])
        let choice = MyPaintChoice(name: "classic/charcoal", color: Color(r: 0x10, g: 0x20, b: 0x30), settings: Self.settings)
        #expect(events == [Replay.TimedEvent(t: 0.5, event: .command(.mypaint(choice)))])
        #expect(Replay.line(for: events[0]) == Self.line)
        // Settings in another layout (a .myb file as it is) are written in the one form.
        let spaced = MyPaintChoice(name: "a", settings: "{\n  \"version\" :3,\"settings\":{ }\n}")
        #expect(Replay.line(for: Replay.TimedEvent(t: 0, event: .command(.mypaint(spaced))))
                    == #"{"t": 0, "type": "brush", "kind": "mypaint", "name": "a", "settings": {"version": 3, "settings": {}}}"#)
        // A name alone (looked up among the installed brushes when played).
        #expect(try parse([#"{"t": 0, "type": "brush", "kind": "mypaint", "name": "deevad/2B_pencil"}"#])
                    == [Replay.TimedEvent(t: 0, event: .command(.mypaint(MyPaintChoice(name: "deevad/2B_pencil"))))])
    }

    /// Fields that do not go together, each refused on its line in one sentence.
    @Test func fieldsThatDoNotGoTogetherAreRefused() {
        #expect(error([#"{"t": 0, "type": "brush", "kind": "mypaint"}"#]) == "2: a MyPaint brush needs \"name\"")
        #expect(error([#"{"t": 0, "type": "brush", "kind": "mypaint", "name": "a", "size": 4}"#])
                    == "2: \"size\" is not for a MyPaint brush (its settings say how it paints)")
        #expect(error([#"{"t": 0, "type": "brush", "kind": "pen", "name": "a"}"#]) == "2: \"name\" is only for a MyPaint brush (\"kind\": \"mypaint\")")
        #expect(error([#"{"t": 0, "type": "brush", "settings": {}}"#]) == "2: \"settings\" is only for a MyPaint brush (\"kind\": \"mypaint\")")
        #expect(error([#"{"t": 0, "type": "brush", "kind": "mypaint", "name": "a", "settings": [1]}"#]) == "2: \"settings\" must be an object, got an array")
        #expect(error([#"{"t": 0, "type": "brush", "kind": "crayon"}"#])?.hasSuffix("\"mercurial\", \"eraser\", \"mypaint\")") == true)
        // The writer refuses what the parser refuses, in its words.
        let bad = Replay.TimedEvent(t: 0, event: .command(.mypaint(MyPaintChoice(name: "a", settings: "[1]"))))
        #expect(Replay.problem(with: bad)?.message == "\"settings\" must be a JSON object")
    }

    /// Tilt: optional, −1…1, 0 when left out and then not written; read alike by the fast path
    /// and the general parser. A sample's time is its line's.
    @Test func tiltAndTimeOfPointerLines() throws {
        let lines = [#"{"t": 0.25, "type": "down", "x": 1, "y": 2, "pressure": 0.5, "xtilt": -0.5, "ytilt": 1}"#,
                     #"{"ytilt": 0.125, "t": 0.5, "type": "move", "x": 3, "y": 4}"#,
                     #"{"t": 0.75, "type": "up", "x": 3, "y": 4, "pressure": 0.5}"#]
        let fast = try parse(lines), general = try parse(lines, fastPath: false)
        #expect(fast == general)
        guard case .pointerDown(let down) = fast[0].event, case .pointerMove(let move) = fast[1].event, case .pointerUp(let up) = fast[2].event else {
            Issue.record("\(fast)")
            return
        }
        #expect(down == StrokeSample(x: 1, y: 2, pressure: 0.5, xtilt: -0.5, ytilt: 1) && move.ytilt == 0.125 && move.xtilt == 0 && up.ytilt == 0)
        #expect([down.t, move.t, up.t] == [0.25, 0.5, 0.75])
        for (e, written) in zip(fast, [lines[0], #"{"t": 0.5, "type": "move", "x": 3, "y": 4, "pressure": 0.5, "ytilt": 0.125}"#, lines[2]]) {
            #expect(Replay.line(for: e) == written)
        }
        #expect(error([#"{"t": 0, "type": "down", "x": 1, "y": 2, "xtilt": 1.5}"#]) == "2: \"xtilt\" must be in -1…1, got 1.5")
    }
}
