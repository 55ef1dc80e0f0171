import Compute
import Events
import Geometry
import Kernels
import Paint
import ReplayFormat
import Testing
import TestSupport

/// Lights unlike MercurialPaint's: other hues, two of them dimmed, a tighter highlight.
let otherShading = #"{"t": 0.5, "type": "shading", "shininess": 0.2, "lights": [{"hue": 0, "brightness": 1, "x": 0, "y": 30, "z": 10}, {"hue": 0.6, "brightness": 0.8, "x": 30, "y": -30, "z": 5}, {"hue": 0.3, "brightness": 0.5, "x": -30, "y": -10, "z": 0}, {"hue": 0.9, "brightness": 1, "x": -20, "y": 20, "z": 40}]}"#

/// Two mercurial strokes on a 320x240 canvas, the first in the top half (y < 120), the second in
/// the bottom half, with `between` after the first, `during` inside the second (between its
/// samples) and `before` ahead of both.
private func twoStrokes(before: [String] = [], between: [String] = [], during: [String] = []) -> String {
    func stroke(y0: Double, t0: Double) -> [String] {
        let points = wave(count: 40, x0: 40, dx: 6, y0: y0, amplitude: 15, period: 6)
        var lines = points.enumerated().map { i, p in
            #"{"t": \#(t0 + Double(i) * 0.005), "type": "\#(i == 0 ? "down" : "move")", "x": \#(p.0), "y": \#(p.1), "pressure": 0.4}"#
        }
        lines.append(#"{"t": \#(t0 + 0.3), "type": "up", "x": 280, "y": \#(y0), "pressure": 0.4}"#)
        return lines
    }
    let second = stroke(y0: 180, t0: 1)
    return ([##"{"quicksilver": 1, "width": 320, "height": 240, "seed": 5, "background": "#1b1e24"}"##,
             ##"{"t": 0, "type": "brush", "kind": "mercurial", "size": 60, "color": "#b8c0cc"}"##]
        + before.map { $0.replacingOccurrences(of: #""t": 0.5"#, with: #""t": 0"#) }
        + stroke(y0: 60, t0: 0) + between
        + second.prefix(20) + during.map { $0.replacingOccurrences(of: #""t": 0.5"#, with: #""t": 1.095"#) } + second.dropFirst(20))
        .joined(separator: "\n") + "\n"
}

/// The rows `ys` of a 320-wide picture.
private func rows(_ p: Picture, _ ys: Range<Int>) -> [UInt32] { Array(p.pixels[ys.lowerBound * 320..<ys.upperBound * 320]) }

@Suite struct ShadingSessionTests {
    static let top = 0..<120, bottom = 120..<240

    @Test func aShadingAppliesToTheStrokesDrawnAfterIt() throws {
        let plain = try render(twoStrokes())
        let changed = try render(twoStrokes(between: [otherShading]))
        let bare: UInt32 = 0xFF1B_1E24
        #expect(rows(plain, Self.top).contains { $0 != bare } && rows(plain, Self.bottom).contains { $0 != bare }, "both strokes drawn")
        expectSamePixels(rows(changed, Self.top), rows(plain, Self.top), width: 320, "the first stroke, drawn before the change")
        let differing = zip(rows(changed, Self.bottom), rows(plain, Self.bottom)).filter { $0 != $1 }
        #expect(differing.count > 1000, "the second stroke is lit otherwise: \(differing.count) pixels differ")
        #expect(differing.allSatisfy { $0.0 != bare && $0.1 != bare }, "only where the metal is: the shape is the same")
        // Set before both strokes, it lights both: the second as when set between them.
        let first = try render(twoStrokes(before: [otherShading]))
        expectSamePixels(rows(first, Self.bottom), rows(changed, Self.bottom), width: 320, "the second stroke under the new lights")
        #expect(pixelDifference(rows(first, Self.top), rows(plain, Self.top), width: 320) != nil, "the first stroke under the new lights")
    }

    @Test func aStrokeKeepsTheShadingItStartedWith() throws {
        expectSame(try render(twoStrokes(during: [otherShading])), try render(twoStrokes()), "changed while the second stroke was drawn")
    }

    @Test func sameBytesAtOneAndFourThreads() throws {
        let text = twoStrokes(between: [otherShading])
        expectSame(try render(text, threads: 4), try render(text, threads: 1), "four threads")
    }

    @Test func aHemisphereIsMadeOnlyWhenTheShadingChanges() throws {
        func embossesMade(_ text: String) throws -> Int {
            let replay = try ReplayParser.parse(text)
            let session = Session(size: replay.header.size, seed: replay.header.seed, compute: ComputeContext(threads: 1))
            ReplayPlayer.play(replay.events, session: session, presenter: OffscreenPresenter(size: replay.header.size))
            _ = session.snapshot()
            return session.embossesMade
        }
        #expect(try embossesMade(twoStrokes()) == 1)
        #expect(try embossesMade(twoStrokes(between: [otherShading])) == 2)
        // The same shading again changes nothing; so does one that no stroke ends with.
        #expect(try embossesMade(twoStrokes(before: [otherShading], between: [otherShading])) == 1)
        #expect(try embossesMade(twoStrokes(during: [otherShading])) == 1)
    }
}
