import Compute
import Events
import Geometry
import Kernels
import Paint
import ReplayFormat
import Testing
import TestSupport

private let header = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48}"

@Suite struct ReplayErrorTests {
    /// Each bad line, placed as line 2 (or 1 for headers), and the message it must get.
    static let cases: [(String, String)] = [
        ("{\"t\": 0, \"type\": \"wiggle\"}", "unknown event type \"wiggle\""),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2, \"z\": 3}", "unknown field \"z\" in a \"down\" event"),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1}", "\"down\" needs \"y\""),
        ("{\"t\": 0, \"type\": \"down\", \"x\": \"1\", \"y\": 2}", "\"x\" must be a number, got a string"),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1e999, \"y\": 2}", "\"x\" must be a finite number"),
        ("{\"t\": 0, \"type\": \"move\", \"x\": 1, \"y\": 2}", "\"move\" without a \"down\""),
        ("{\"t\": 0, \"type\": \"up\", \"x\": 1, \"y\": 2}", "\"up\" without a \"down\""),
        ("{\"t\": -1, \"type\": \"clear\"}", "\"t\" must be ≥ 0"),
        ("{\"type\": \"clear\"}", "missing \"t\""),
        ("{\"t\": 0}", "missing \"type\""),
        ("{\"t\": 0, \"type\": \"brush\", \"size\": 513}", "\"size\" must be in 1…512, got 513"),
        ("{\"t\": 0, \"type\": \"brush\", \"size\": 0}", "\"size\" must be in 1…512, got 0"),
        ("{\"t\": 0, \"type\": \"brush\", \"size\": 2.5}", "\"size\" must be an integer"),
        ("{\"t\": 0, \"type\": \"brush\", \"color\": \"red\"}", "\"color\" must be \"#rrggbb\" or \"#rrggbbaa\", got \"red\""),
        ("{\"t\": 0, \"type\": \"brush\", \"kind\": \"crayon\"}", "unknown brush kind \"crayon\""),
        ("{\"t\": 0, \"type\": \"brush\"}", "\"brush\" needs at least one of"),
        ("{\"t\": 0, \"type\": \"channel\", \"channel\": \"a\"}", "\"channel\" must be \"r\", \"g\" or \"b\", got \"a\""),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2, \"pressure\": 1.5}", "\"pressure\" must be in 0…1"),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2, \"mods\": [\"alt\"]}", "\"mods\" may hold only"),
        ("{\"t\": 0, \"type\": \"clear\"", "unterminated object"),
        ("[1, 2]", "expected a JSON object, found an array"),
        ("", "expected a value, found end of line"),
        ("{\"t\": 0, \"type\": \"clear\"} x", "unexpected 'x' after the value"),
        ("{\"t\": 0, \"t\": 1, \"type\": \"clear\"}", "field \"t\" appears twice"),
        ("{\"t\": 01, \"type\": \"clear\"}", "leading zero"),
        ("{\"t\": 0, \"type\": \"clear\", \"x\": " + String(repeating: "[", count: 40) + "}", "nested deeper than 16 levels"),
        ("{\"t\": 0, \"type\": \"cl\u{7}ear\"}", "control character in string"),
    ]

    @Test(arguments: cases)
    func eventErrorsNameLineTwo(line: String, message: String) {
        do {
            _ = try ReplayParser.parse(header + "\n" + line + "\n")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains(message), "got: \(error.message)")
        }
    }

    /// A bad line of each kind (after a header, and a down for the exit's), and its kind.
    static let kinds: [(String, ReplayError.Kind)] = [
        ("{\"t\": 0, \"type\": \"clear\"", .malformedJSON),
        ("{\"t\": 0, \"type\": \"cl\u{7}ear\"}", .malformedJSON),
        ("{\"t\": 0, \"t\": 1, \"type\": \"clear\"}", .malformedJSON),
        ("[1, 2]", .notAnObject),
        ("{\"t\": 0, \"type\": \"wiggle\"}", .unknownEventType),
        ("{\"t\": 0, \"type\": \"clear\", \"x\": 1}", .unknownField),
        ("{\"t\": 0, \"type\": \"shading\", \"shininess\": 0, \"lights\": [" + Array(repeating: "{\"hue\": 0, \"brightness\": 0, \"x\": 0, \"y\": 0, \"z\": 0, \"w\": 0}", count: 4).joined(separator: ", ") + "]}", .unknownField),
        ("{\"t\": 0}", .missingField),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1}", .missingField),
        ("{\"t\": 0, \"type\": \"brush\"}", .missingField),
        ("{\"t\": 0, \"type\": \"layer\"}", .missingField),
        ("{\"t\": 0, \"type\": \"down\", \"x\": \"1\", \"y\": 2}", .wrongType),
        ("{\"t\": 0, \"type\": \"brush\", \"size\": 2.5}", .wrongType),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2, \"mods\": \"shift\"}", .wrongType),
        ("{\"t\": 0, \"type\": \"brush\", \"size\": 513}", .outOfRange),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1e999, \"y\": 2}", .outOfRange),
        ("{\"t\": -1, \"type\": \"clear\"}", .outOfRange),
        ("{\"t\": 0, \"type\": \"layer\", \"action\": \"select\", \"index\": 4096}", .outOfRange),
        ("{\"t\": 0, \"type\": \"layer\", \"action\": \"new\", \"name\": \"\"}", .outOfRange),
        ("{\"t\": 0, \"type\": \"shading\", \"shininess\": 0, \"lights\": []}", .outOfRange),
        ("{\"t\": 0, \"type\": \"brush\", \"kind\": \"crayon\"}", .unknownValue),
        ("{\"t\": 0, \"type\": \"channel\", \"channel\": \"a\"}", .unknownValue),
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 64}", .outOfRange),
        ("{\"t\": 0, \"type\": \"down\", \"x\": 1, \"y\": 2, \"mods\": [\"alt\"]}", .unknownValue),
        ("{\"t\": 0, \"type\": \"layer\", \"action\": \"step\"}", .unknownValue),
        ("{\"t\": 0, \"type\": \"brush\", \"color\": \"red\"}", .malformedValue),
        ("{\"t\": 0, \"type\": \"paste\", \"image\": \"a/b.png\", \"x\": 1, \"y\": 2}", .malformedValue),
        ("{\"t\": 0, \"type\": \"layer\", \"action\": \"new\", \"name\": \"a\\nb\"}", .malformedValue),
        ("{\"t\": 0, \"type\": \"move\", \"x\": 1, \"y\": 2}", .strokeOrder),
        ("{\"t\": 0, \"type\": \"exit\"}\n{\"t\": 0, \"type\": \"clear\"}", .afterExit),
        ("{\"t\": 1, \"type\": \"clear\"}\n{\"t\": 0, \"type\": \"clear\"}", .timeGoesBackwards),
    ]

    @Test(arguments: kinds)
    func everyErrorHasItsKind(lines: String, kind: ReplayError.Kind) {
        do {
            _ = try ReplayParser.parse(header + "\n" + lines + "\n")
            Issue.record("accepted: \(lines)")
        } catch {
            #expect(error.kind == kind, "\(error)")
        }
    }

    @Test(arguments: [
        ("", ReplayError.Kind.noHeader), ("{\"t\": 0, \"type\": \"clear\"}", .noHeader), ("{\"quicksilver\": 2, \"width\": 1, \"height\": 1}", .unsupportedVersion),
        ("{\"quicksilver\": 1, \"width\": 1}", .missingField), ("{\"quicksilver\": 1, \"width\": 1, \"height\": 1, \"snapshot\": \"\"}", .malformedValue),
    ])
    func headerErrorsHaveTheirKind(line: String, kind: ReplayError.Kind) {
        #expect(throws: ReplayError.self) { try ReplayParser.parse(line) }
        do { _ = try ReplayParser.parse(line) } catch { #expect(error.kind == kind && error.line == 1, "\(error)") }
    }

    @Test func timeGoingBackwardsNamesItsLine() {
        let text = header + "\n{\"t\": 1, \"type\": \"clear\"}\n{\"t\": 2, \"type\": \"clear\"}\n{\"t\": 1.5, \"type\": \"clear\"}\n"
        #expect(throws: ReplayError(line: 4, message: "\"t\" goes backwards: 1.5 after 2", kind: .timeGoesBackwards)) { try ReplayParser.parse(text) }
    }

    @Test(arguments: [
        ("{\"width\": 10, \"height\": 10}", "the first line must be the header"),
        ("{\"quicksilver\": 2, \"width\": 10, \"height\": 10}", "unsupported format version 2"),
        ("{\"quicksilver\": 1, \"width\": 0, \"height\": 10}", "\"width\" must be in 1…16384, got 0"),
        ("{\"quicksilver\": 1, \"width\": 10, \"height\": 16385}", "\"height\" must be in 1…16384"),
        ("{\"quicksilver\": 1, \"width\": 10}", "missing \"height\""),
        ("{\"quicksilver\": 1, \"width\": 10, \"height\": 10, \"background\": \"#ff000080\"}", "\"background\" must be \"#rrggbb\""),
        ("{\"quicksilver\": 1, \"width\": 10, \"height\": 10, \"fps\": 30}", "unknown field \"fps\" in the header"),
        ("{\"quicksilver\": 1, \"width\": 10, \"height\": 10, \"spray\": \"frame\"}", "\"spray\" must be \"canvas\" or \"stroke\", got \"frame\""),
    ])
    func headerErrors(line: String, message: String) {
        do {
            _ = try ReplayParser.parse(line + "\n")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.line == 1)
            #expect(error.message.contains(message), "got: \(error.message)")
        }
    }

    @Test func invalidUTF8IsAnError() {
        var bytes = Array((header + "\n{\"t\": 0, \"type\": \"clear\", \"note\": \"").utf8)
        bytes += [0xff, 0xfe]
        bytes += Array("\"}\n".utf8)
        let result = bytes.withUnsafeBufferPointer { b in Result { () throws(ReplayError) in try ReplayParser.parse(b) } }
        guard case .failure(let e) = result else { Issue.record("accepted invalid UTF-8"); return }
        #expect(e.line == 2 && e.message.contains("invalid UTF-8"))
    }

    @Test func emptyFile() {
        #expect(throws: ReplayError.self) { try ReplayParser.parse("") }
    }
}

@Suite struct ReplayFormatTests {
    @Test func parsesEveryEventKind() throws {
        let text = """
        {"quicksilver": 1, "width": 640, "height": 480, "seed": 42, "background": "#102030"}
        {"t": 0, "type": "brush", "kind": "pixel", "size": 12, "color": "#ff000080"}
        {"t": 0.5, "type": "down", "x": 1.5, "y": -2, "pressure": 0.75, "mods": ["shift", "control"]}
        {"t": 0.5, "type": "move", "x": 1e9, "y": 3}
        {"t": 1, "type": "up", "x": 4, "y": 5}
        {"t": 2, "type": "channel", "channel": "b"}
        {"t": 3, "type": "undo"}
        {"t": 3, "type": "redo"}
        {"t": 4, "type": "clear"}
        {"t": 5, "type": "resize", "width": 800, "height": 600}

        """
        let r = try ReplayParser.parse(text)
        #expect(r.header == Replay.Header(size: Size(width: 640, height: 480), seed: 42, background: Color(r: 0x10, g: 0x20, b: 0x30)))
        #expect(r.events.map(\.event) == [
            .command(.brush(kind: .pixel, size: 12, color: Color(r: 255, g: 0, b: 0, a: 128))),
            .pointerDown(StrokeSample(x: 1.5, y: -2, pressure: 0.75, mods: [.shift, .control])),
            .pointerMove(StrokeSample(x: 1e9, y: 3, pressure: 0.5)),
            .pointerUp(StrokeSample(x: 4, y: 5, pressure: 0.5)),
            .command(.channel(.b)),
            .command(.undo), .command(.redo), .command(.clear),
            .resize(Size(width: 800, height: 600)),
        ])
        // Writing it back and reading again gives the same replay.
        let again = try ReplayParser.parse(r.text)
        #expect(again.header == r.header && again.events == r.events)
    }

    @Test func frameIndexIsFloorOfSixtyT() {
        #expect(ReplayPlayer.frameIndex(at: 0) == 0)
        #expect(ReplayPlayer.frameIndex(at: 0.0166) == 0)
        #expect(ReplayPlayer.frameIndex(at: 0.017) == 1)
        #expect(ReplayPlayer.frameIndex(at: 1e300) == 1_000_000_000_000_000)
    }

    @Test func jsonStringsAndNumbers() throws {
        #expect(try JSON.parse("\"a\\u00e9\\ud83d\\ude00\\n\"") == .string("aé😀\n"))
        #expect(try JSON.parse("-0.5e2") == .number(-50, integer: nil))
        #expect(try JSON.parse(" 123 ") == .number(123, integer: 123))
        #expect(try JSON.parse("[true, false, null, {}]") == .array([.bool(true), .bool(false), .null, .object([])]))
        #expect(throws: JSON.ParseError.self) { try JSON.parse("\"\\ud800\"") }
        #expect(throws: JSON.ParseError.self) { try JSON.parse("1.") }
        #expect(throws: JSON.ParseError.self) { try JSON.parse("tru") }
    }
}

@Suite struct ViewEventTests {
    @Test func viewsReadAndWriteBack() throws {
        let text = """
        {"quicksilver": 1, "width": 64, "height": 48}
        {"t": 0.1, "type": "view", "zoom": 0.125, "x": -3, "y": 7}
        {"t": 0.2, "type": "view", "zoom": 32, "x": 0, "y": 0}

        """
        let r = try ReplayParser.parse(text)
        #expect(r.events.map(\.event) == [.view(ViewTransform(scale: -3, x: -3, y: 7)), .view(ViewTransform(scale: 5, x: 0, y: 0))])
        #expect(r.text == text)
    }

    @Test func aTurnedMirroredViewAtAnyZoomReadsAndWritesBackAndOldLinesAreUpright() throws {
        let text = """
        {"quicksilver": 1, "width": 64, "height": 48}
        {"t": 0.1, "type": "view", "zoom": 1.189207115002721, "x": -3, "y": 7, "angle": 30, "mirror": true}
        {"t": 0.2, "type": "view", "zoom": 0.3, "x": 5, "y": 0, "angle": 345.5}
        {"t": 0.3, "type": "view", "zoom": 2, "x": 0, "y": 0, "mirror": true}

        """
        let r = try ReplayParser.parse(text)
        #expect(r.events.map(\.event) == [.view(ViewTransform(zoom: 1.189207115002721, angle: 30, mirror: true, x: -3, y: 7)),
                                          .view(ViewTransform(zoom: 0.3, angle: 345.5, x: 5, y: 0)),
                                          .view(ViewTransform(zoom: 2, mirror: true, x: 0, y: 0))])
        #expect(r.text == text)
        let negative = try ReplayParser.parse("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n"
            + "{\"t\": 0, \"type\": \"view\", \"zoom\": 1, \"x\": 0, \"y\": 0, \"angle\": -15}\n")
        #expect(negative.events.map(\.event) == [.view(ViewTransform(zoom: 1, angle: 345, x: 0, y: 0))])
    }

    @Test(arguments: [
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 64}", "\"zoom\" must be in 0.125…32, got 64"),
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 1, \"angle\": 400}", "\"angle\" must be in -360…360, got 400"),
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 1, \"mirror\": 1}", "\"mirror\" must be"),
        ("{\"t\": 0, \"type\": \"view\", \"x\": 3}", "\"view\" needs \"zoom\""),
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 1, \"x\": 1.5}", "\"x\" must be an integer"),
        ("{\"t\": 0, \"type\": \"view\", \"zoom\": 1, \"y\": 1e12}", "\"y\" must be an integer"),
    ])
    func badViews(line: String, message: String) {
        #expect(throws: ReplayError.self) { try ReplayParser.parse("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n" + line + "\n") }
        do { _ = try ReplayParser.parse("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n" + line + "\n") } catch {
            #expect(error.line == 2 && error.message.contains(message), "\(error.message)")
        }
    }

    @Test func aViewChangesNoPixelOfTheCanvas() throws {
        let plain = try render(strokeReplay([(20, 50), (180, 50)]))
        var lines = strokeReplay([(20, 50), (180, 50)]).split(separator: "\n").map(String.init)
        lines.insert("{\"t\": 0, \"type\": \"view\", \"zoom\": 4, \"x\": -50, \"y\": 3}", at: 2)
        let replay = try ReplayParser.parse(lines.joined(separator: "\n") + "\n")
        let session = Session(size: replay.header.size, compute: ComputeContext(threads: 1))
        ReplayPlayer.play(replay.events, session: session, presenter: OffscreenPresenter(size: replay.header.size))
        #expect(session.view.transform == ViewTransform(scale: 2, x: -50, y: 3))
        expectSamePixels(session.snapshot().pixels, plain.pixels, width: plain.width, "a view event changes no canvas pixel")
    }
}

@Suite struct PasteEventTests {
    @Test func pastesReadAndWriteBack() throws {
        let text = """
        {"quicksilver": 1, "width": 64, "height": 48}
        {"t": 0.1, "type": "paste", "image": "r.jsonl.paste-1.png", "x": -3, "y": 7}

        """
        let r = try ReplayParser.parse(text)
        #expect(r.events.map(\.event) == [.command(.paste(PastedImage(file: "r.jsonl.paste-1.png", x: -3, y: 7)))])
        #expect(r.text == text)
    }

    @Test(arguments: [
        ("{\"t\": 0, \"type\": \"paste\", \"x\": 1, \"y\": 2}", "\"paste\" needs \"image\""),
        ("{\"t\": 0, \"type\": \"paste\", \"image\": \"../a.png\", \"x\": 1, \"y\": 2}", "\"image\" must name a PNG file beside the replay"),
        ("{\"t\": 0, \"type\": \"paste\", \"image\": \"a.png\", \"y\": 2}", "\"paste\" needs \"x\""),
    ])
    func badPastes(line: String, message: String) {
        do {
            _ = try ReplayParser.parse("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n" + line + "\n")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.line == 2 && error.message.contains(message), "\(error.message)")
        }
    }
}

@Suite struct StabilizerFieldTests {
    @Test func theBrushCarriesAStabilizer() throws {
        let text = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n{\"t\": 0, \"type\": \"brush\", \"stabilizer\": 0.5}\n"
        let r = try ReplayParser.parse(text)
        #expect(r.events.map(\.event) == [.command(.brush(stabilizer: 0.5))])
        #expect(r.text == text)
        #expect(throws: ReplayError(line: 2, message: "\"stabilizer\" must be in 0…1, got 1.5", kind: .outOfRange)) {
            try ReplayParser.parse("{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n{\"t\": 0, \"type\": \"brush\", \"stabilizer\": 1.5}\n")
        }
        var brush = Brush()
        #expect(brush.nextStabilizer == 1.0 / 3)
        brush.apply(kind: nil, size: nil, color: nil, stabilizer: 1)
        #expect(brush.nextStabilizer == 0, "after the strongest: off")
    }
}

/// What a session's events say of its document's file.
@Suite struct DocumentNoteTests {
    private func at(_ t: Double, _ e: SessionEvent) -> Replay.TimedEvent { Replay.TimedEvent(t: t, event: e) }
    private let stroke = SessionEvent.pointerUp(StrokeSample(x: 1, y: 1, pressure: 0.5))

    @Test func theLastSaveNamesTheFileAndChangesAfterItMarkItEdited() {
        #expect(DocumentNote.after([at(0, stroke)], opened: nil) == nil, "a new document: no file")
        #expect(DocumentNote.after([], opened: "/p.png") == DocumentNote(file: "/p.png", edited: false))
        #expect(DocumentNote.after([at(0, stroke)], opened: "/p.png") == DocumentNote(file: "/p.png", edited: true))
        let saved = at(1, .command(.document(file: "/d/a.ora", edited: false)))
        #expect(DocumentNote.after([at(0, stroke), saved], opened: "/p.png") == DocumentNote(file: "/d/a.ora", edited: false))
        #expect(DocumentNote.after([saved, at(2, .command(.layer(.select(0))))], opened: nil)?.edited == false, "choosing a layer changes no picture")
        #expect(DocumentNote.after([saved, at(2, .command(.undo))], opened: nil)?.edited == true)
        #expect(DocumentNote.after([at(1, .command(.document(file: "/d/a.ora", edited: true)))], opened: nil)?.edited == true,
                "a save that did not hold what was queued")
    }
}
