import Events
import Foundation
import Geometry
import Input
import Kernels
import ReplayFormat
import Strokes
import Testing

/// Tests/Fixtures/replay-format: what the writer wrote and what the parser said before the format
/// became one table (`ReplayTable`), kept so that it stays byte for byte and word for word the same.
/// QS_UPDATE_GOLDENS=1 writes the files again (only ever on purpose: they are the old behaviour).
private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/replay-format")

/// Compares `text` with the golden file `name`, or writes it when asked to.
private func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = folder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["QS_UPDATE_GOLDENS"] != nil {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    let golden = try String(contentsOf: url, encoding: .utf8)
    let (got, want) = (text.split(separator: "\n", omittingEmptySubsequences: false), golden.split(separator: "\n", omittingEmptySubsequences: false))
    #expect(got.count == want.count, "\(name): \(got.count) lines against \(want.count)", sourceLocation: sourceLocation)
    var shown = 0
    for (i, (a, b)) in zip(got, want).enumerated() where a != b && shown < 20 {
        Issue.record("\(name):\(i + 1): got\n\(a)\nwant\n\(b)", sourceLocation: sourceLocation)
        shown += 1
    }
}

/// A broad set of valid events: every kind, every optional part present and absent, awkward numbers
/// and strings.
enum WrittenEvents {
    static let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 0.1 + 0.2, 1.0 / 3, 123.456, -4096.75, 1e-7, Double.leastNonzeroMagnitude, 1e15, 1e16, -1e300,
                                    1.7976931348623157e308, 2.2250738585072014e-308]
    static let fractions: [Double] = [0, 1, 0.5, 0.25, 0.1 + 0.2, 1.0 / 3, 1e-9, 0.999999999999]
    static let strings = ["a", "Layer 2", "quote \" and backslash \\", "tab\tend", "é😀 ünïcode", "\u{1}\u{1f}\u{7f}\u{80}\u{9f}\u{2028}\u{2029}"]

    static var events: [SessionEvent] {
        var events: [SessionEvent] = []
        let mods: [Modifiers] = [[], [.shift], [.control], [.shift, .control]]
        for (i, x) in numbers.enumerated() {
            let sample = StrokeSample(x: x, y: numbers[(i + 3) % numbers.count], pressure: fractions[i % fractions.count], mods: mods[i % 4])
            events += [.pointerDown(sample), .pointerMove(sample), .pointerUp(sample)]
        }
        events += [.resize(Size(width: 1, height: 16384)), .resize(Size(width: 640, height: 480))]
        for scale in ViewTransform.scales { events.append(.view(ViewTransform(scale: scale, x: scale * 1000, y: -scale))) }
        events += [.view(ViewTransform(scale: 0, x: -1_000_000_000, y: 1_000_000_000))]
        for kind in BrushKind.allCases as [BrushKind?] + [nil] {
            for size in [nil, 1, 512] as [Int?] {
                for color in [nil, Color.black, Color(r: 0x12, g: 0xab, b: 0xff, a: 0x80)] as [Color?] {
                    for stabilizer in [nil, 0, 1.0 / 3, 1] as [Double?] where kind != nil || size != nil || color != nil || stabilizer != nil {
                        events.append(.command(.brush(kind: kind, size: size, color: color, stabilizer: stabilizer)))
                    }
                }
            }
        }
        events.append(.command(.shading(.mercurialPaint)))
        if let light = Shading.Light(hue: 1, brightness: 0.1 + 0.2, x: -1000, y: 1000, z: 1e-7),
           let shading = Shading(shininess: 1, lights: [light, light, light, light]) {
            events.append(.command(.shading(shading)))
        }
        events += Channel.allCases.map { .command(.channel($0)) }
        events += [.command(.undo), .command(.redo), .command(.clear), .command(.continued), .command(.exit)]
        events += [.command(.layer(.new(name: nil))), .command(.layer(.delete)), .command(.layer(.select(0))), .command(.layer(.select(4095))),
                   .command(.layer(.move(1))), .command(.layer(.move(-1))), .command(.layer(.mergeDown))]
        // A layer's name is one line (U+2028 and U+2029 end lines too); a file name may hold them.
        events += strings.map { .command(.layer(.new(name: $0.filter { !$0.isNewline }))) }
        for visible in [nil, true, false] as [Bool?] {
            for opacity in [nil, 0, 0.5, 1] as [Double?] {
                for mode in [nil] + BlendMode.allCases as [BlendMode?] {
                    for name in [nil, "n", "x\"y"] as [String?] where visible != nil || opacity != nil || mode != nil || name != nil {
                        events.append(.command(.layer(.set(visible: visible, opacity: opacity, mode: mode, name: name))))
                    }
                }
            }
        }
        // Groups: made, taken away, entered and left; isolation set alone and with the rest.
        events += [.command(.layer(.group(name: nil))), .command(.layer(.group(name: "g"))), .command(.layer(.ungroup)),
                   .command(.layer(.into)), .command(.layer(.out)), .command(.layer(.set(isolated: true))),
                   .command(.layer(.set(isolated: false))), .command(.layer(.set(visible: false, opacity: 0.5, mode: .multiply, name: "g", isolated: true)))]
        events += strings.map { .command(.paste(PastedImage(file: $0 + ".png", x: -3, y: 1_000_000_000))) }
        events += [.command(.invert(nil)), .command(.invert(true)), .command(.invert(false))]
        for on in [nil, true, false] as [Bool?] {
            for hue in [nil, 0, 0.3] as [Double?] {
                for centre in [nil, 1] as [Double?] {
                    for range in [nil, 0.7] as [Double?] { events.append(.command(.pulse(on: on, hue: hue, centre: centre, range: range))) }
                }
            }
        }
        return events
    }

    static let times: [Double] = [0, 0.016666666666666666, 1e-7, 12345.678, 1e15, 1e16, 3.5]

    static var headers: [Replay.Header] {
        [Replay.Header(size: Size(width: 64, height: 48)),
         Replay.Header(size: Size(width: 1, height: 16384), seed: -9_223_372_036_854_775_807, background: Color(r: 1, g: 2, b: 3),
                       snapshot: "s \"q\".ora", started: "2026-11-23T14:45:01Z", continues: "/home/a b/c\\d.jsonl", continuesBytes: 0,
                       undoMegabytes: 0),
         Replay.Header(size: Size(width: 16384, height: 1), seed: 42, continuesBytes: Int.max, undoMegabytes: 1 << 20)]
    }

    /// Every line: the headers, each event at a few times, the opening lines and a brush's lines.
    static var text: String {
        var lines = headers.map { Replay.line(for: $0) }
        for (i, event) in events.enumerated() { lines.append(Replay.line(for: Replay.TimedEvent(t: times[i % times.count], event: event))) }
        var brush = Brush(tip: BrushTip(kind: .mercurial, size: 300), color: Color(r: 9, g: 8, b: 7, a: 6))
        brush.stabilizer = 2.0 / 3
        lines += Replay.openingLines(headers[1], brush: brush, frame: Rect(size: Size(width: 3, height: 4)))
        if let warm = Shading(shininess: 0.3, lights: Shading.mercurialPaint.lights.reversed()) { brush.shading = warm }
        lines += Replay.lines(for: brush, t: 2.5)
        lines.append(Replay.exitLine(t: 7.25))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Bad lines, made from a valid line of every shape by taking a field out, giving one or two
/// fields each of many wrong values, or adding one.
enum BadLines {
    static let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#
    static let down = #"{"t": 0, "type": "down", "x": 1, "y": 2}"#

    /// A valid line of each shape, its fields as (key, JSON) pairs (`t` and `type` first).
    static let templates: [[(String, String)]] = [
        [("quicksilver", "1"), ("width", "64"), ("height", "48"), ("seed", "5"), ("background", ##""#102030""##), ("snapshot", #""a.png""#),
         ("started", #""2026-01-01T00:00:00Z""#), ("continues", #""/x/y.jsonl""#), ("continuesBytes", "10"), ("undoMegabytes", "5")],
        [("t", "1"), ("type", #""down""#), ("x", "1"), ("y", "2"), ("pressure", "0.5"), ("mods", #"["shift"]"#)],
        [("t", "1"), ("type", #""move""#), ("x", "1"), ("y", "2"), ("pressure", "0.5"), ("mods", #"["shift"]"#)],
        [("t", "1"), ("type", #""up""#), ("x", "1"), ("y", "2"), ("pressure", "0.5"), ("mods", #"["control"]"#)],
        [("t", "1"), ("type", #""brush""#), ("kind", #""pen""#), ("size", "8"), ("color", ##""#ff0000""##), ("stabilizer", "0.5")],
        [("t", "1"), ("type", #""shading""#), ("shininess", "0.02"),
         ("lights", "[" + Array(repeating: #"{"hue": 0.1, "brightness": 1, "x": 0, "y": 25, "z": 0}"#, count: 4).joined(separator: ", ") + "]")],
        [("t", "1"), ("type", #""channel""#), ("channel", #""r""#)],
        [("t", "1"), ("type", #""undo""#)], [("t", "1"), ("type", #""redo""#)], [("t", "1"), ("type", #""clear""#)],
        [("t", "1"), ("type", #""continued""#)], [("t", "1"), ("type", #""exit""#)],
        [("t", "1"), ("type", #""document""#), ("file", #""/x/a.ora""#), ("edited", "true")],
        [("t", "1"), ("type", #""invert""#), ("on", "true")],
        [("t", "1"), ("type", #""pulse""#), ("on", "true"), ("hue", "0.1"), ("centre", "0.5"), ("range", "0.7")],
        [("t", "1"), ("type", #""layer""#), ("action", #""new""#), ("name", #""L""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""delete""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""select""#), ("index", "3")],
        [("t", "1"), ("type", #""layer""#), ("action", #""up""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""down""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""merge""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""set""#), ("visible", "false"), ("opacity", "0.5"), ("mode", #""svg:multiply""#),
         ("name", #""L""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""set""#), ("isolated", "true")],
        [("t", "1"), ("type", #""layer""#), ("action", #""group""#), ("name", #""G""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""ungroup""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""into""#)],
        [("t", "1"), ("type", #""layer""#), ("action", #""out""#)],
        [("t", "1"), ("type", #""paste""#), ("image", #""a.png""#), ("x", "-3"), ("y", "7")],
        [("t", "1"), ("type", #""view""#), ("zoom", "2"), ("x", "-3"), ("y", "7")],
        [("t", "1"), ("type", #""resize""#), ("width", "64"), ("height", "48")],
    ]

    static let wrongValues = [
        #""s""#, "1", "-1", "0", "2", "2.5", "-0.5", "1e999", "-1e999", "1e12", "99999999999", "4096", "4095", "16385", "513",
        "-1000000001", "1000000000", "1048577", "9223372036854775808", "true", "null", "[]", "{}", #"["shift", "alt"]"#, #"[1]"#,
        ##""#ff0000""##, ##""#ff000080""##, ##""#ff00""##, #""a/b""#, #""""#, #""x\ny""#, #""up""#, #""step""#, #""svg:multiply""#, #""pen""#,
        #""2026-1-01T00:00:00Z""#, "0.125", "32", "3", #""\u0000""#, "[" + Array(repeating: #"{"hue": 2, "brightness": 1, "x": 0, "y": 25, "z": 0}"#, count: 4).joined(separator: ", ") + "]",
        "[1, 2, 3, 4]", #"[{}, {}, {}, {}]"#, "[" + Array(repeating: #"{"hue": 0, "brightness": 1, "x": 0, "y": 25, "z": 0, "w": 1}"#, count: 4).joined(separator: ", ") + "]",
        "\"" + String(repeating: "n", count: 1025) + "\"",
    ]

    static func line(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Every bad line (each is a line 2 after a header, or a line 1 for header templates).
    static var lines: [(isHeader: Bool, line: String)] {
        var out: [(Bool, String)] = []
        for (n, template) in templates.enumerated() {
            let isHeader = n == 0
            out.append((isHeader, line(template)))
            for i in template.indices {
                var t = template
                t.remove(at: i)
                out.append((isHeader, line(t)))
                // `t` and `type` are every event's: all their wrong values once, for "clear".
                let envelope = !isHeader && i < 2
                for value in wrongValues where !envelope || template[1].1 == #""clear""# || value == #""s""# {
                    var w = template
                    w[i].1 = value
                    out.append((isHeader, line(w)))
                }
            }
            out.append((isHeader, line(template + [("extra", "1")])))
            out.append((isHeader, line([("extra", "1")] + template)))
            // Two wrong at once: which one is named.
            for i in template.indices {
                for j in template.indices where j > i {
                    for (a, b) in [(#""s""#, #""s""#), ("1e999", #""s""#), ("null", "-1")] {
                        var w = template
                        w[i].1 = a
                        w[j].1 = b
                        out.append((isHeader, line(w)))
                    }
                }
                var w = template
                w[i].1 = #""s""#
                out.append((isHeader, line(w + [("extra", "1")])))
            }
        }
        return out
    }

    /// What parsing each bad line gives: `ok` and the replay written back, or the error.
    static var outcomes: String {
        var out: [String] = []
        for (isHeader, line) in lines {
            // Pointer lines with the pointer up and down; other lines have nothing to do with it.
            let pointer = ["down", "move", "up"].contains { line.contains(#""type": "\#($0)""#) }
            for prefix in isHeader ? [""] : pointer ? [header + "\n", header + "\n" + down + "\n"] : [header + "\n"] {
                let text = prefix + line + "\n"
                do {
                    let r = try ReplayParser.parse(text)
                    out.append("ok " + r.text.split(separator: "\n").dropFirst().joined(separator: " | "))
                } catch {
                    out.append("\(error.line): \(error.message)")
                }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}

@Suite struct FormatGoldenTests {
    /// The writer writes every event, header and opening line byte for byte as before the table.
    @Test func theWriterWritesWhatItWroteBefore() throws {
        try expectGolden(WrittenEvents.text, "written.jsonl")
    }

    /// The lines written read back as the events they were written from.
    @Test func theWrittenEventsReadBack() throws {
        for (i, event) in WrittenEvents.events.enumerated() {
            let t = WrittenEvents.times[i % WrittenEvents.times.count]
            var lines = [BadLines.header]
            switch event {
            case .pointerMove, .pointerUp: lines.append(#"{"t": 0, "type": "down", "x": 1, "y": 2}"#)
            default: break
            }
            lines.append(Replay.line(for: Replay.TimedEvent(t: t, event: event)))
            let r = try ReplayParser.parse(lines.joined(separator: "\n") + "\n")
            #expect(r.events.last == Replay.TimedEvent(t: t, event: event), "\(lines.last ?? "")")
        }
        for header in WrittenEvents.headers { #expect(try ReplayParser.parse(Replay.line(for: header) + "\n").header == header) }
    }

    /// Every bad line gets the message it got before, naming the same line; the lines accepted are
    /// read as before.
    @Test func theParserSaysWhatItSaidBefore() throws {
        try expectGolden(BadLines.outcomes, "errors.txt")
    }
}
