import Clock
import Compute
import Events
import Foundation
import Geometry
import Journal
import Kernels
@testable import Paint
import ReplayFormat
import Testing
import TestSupport

/// The stack of layers: each operation, undo of each, and what is shown, checked against a
/// flattening written here from the pixel model's definition (not the production compose).
@Suite struct LayerTests {
    private let size = Size(width: 150, height: 100)

    /// Plays events (each line a replay event after the header) and returns the session.
    private func play(_ lines: [String], background: String = "#ffffff", threads: Int = 1) throws -> Session {
        let path = try ScratchFolder.make("layers") + "/r.jsonl"
        let text = (["{\"quicksilver\": 1, \"width\": \(size.width), \"height\": \(size.height), \"background\": \"\(background)\"}"] + lines)
            .joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return try Playback.load(path, compute: ComputeContext(threads: threads)).session
    }

    func stroke(y: Int, t: Double, color: String = "#000000", size: Int = 8) -> [String] {
        ["{\"t\": \(t), \"type\": \"brush\", \"size\": \(size), \"color\": \"\(color)\"}",
         "{\"t\": \(t), \"type\": \"down\", \"x\": 5, \"y\": \(y)}", "{\"t\": \(t), \"type\": \"up\", \"x\": 145, \"y\": \(y)}"]
    }

    func layer(_ action: String, t: Double, _ extra: String = "") -> String {
        "{\"t\": \(t), \"type\": \"layer\", \"action\": \"\(action)\"\(extra)}"
    }

    /// The shown picture by the definition: the background, then each visible layer
    /// source-over at its opacity, in straight 0…1 arithmetic, rounded at the end.
    private func reference(_ image: DocumentImage) -> [UInt32] {
        let w = image.frame.width, h = image.frame.height
        let bg = [image.background.r, image.background.g, image.background.b].map { Double($0) / 255 }
        var out = [[Double]](repeating: bg, count: w * h)
        for l in image.layers where l.attributes.visible {
            let o = Double(UInt32((l.attributes.opacity * 255).rounded())) / 255
            // Layers have no edges: only what lies on the canvas is in the picture.
            for y in l.bounds.ys where y >= 0 && y < h {
                for x in l.bounds.xs where x >= 0 && x < w {
                    let p = l[x, y]
                    let a = Double(p >> 24) / 255 * o
                    let c = [p >> 16 & 0xff, p >> 8 & 0xff, p & 0xff].map { Double($0) / 255 * o }
                    for k in 0..<3 { out[y * w + x][k] = c[k] + out[y * w + x][k] * (1 - a) }
                }
            }
        }
        return out.map { c -> UInt32 in
            let r = UInt32((c[0] * 255).rounded()), g = UInt32((c[1] * 255).rounded()), b = UInt32((c[2] * 255).rounded())
            return 0xFF00_0000 | r << 16 | g << 8 | b
        }
    }

    private func expectNearReference(_ s: Session, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = s.snapshot().pixels, want = reference(s.documentImage())
        let worst = largestChannelDifference(shown, want)
        #expect(worst <= 2, "\(what): off by \(worst) levels", sourceLocation: sourceLocation)
    }

    @Test func newLayersStackInOrderAndEachPaintsOnlyItself() throws {
        let s = try play(stroke(y: 30, t: 0, color: "#ff0000") + [layer("new", t: 0.1)] + stroke(y: 60, t: 0.2, color: "#0000ff"))
        let d = s.document
        #expect(d.layers.map(\.name) == ["Layer 1", "Layer 2"] && d.current == 1)
        #expect(d.layers[0].bounds.intersection(Rect(x: 0, y: 50, width: 150, height: 20)).isEmpty || d.layers[0].pixels[70, 60] == 0)
        #expect(d.layers[1].pixels[70, 60] == 0xFF00_00FF && d.layers[1].pixels[70, 30] == 0, "layer 2 holds only its stroke")
        let shot = s.snapshot()
        #expect(shot[70, 30] == 0xFFFF_0000 && shot[70, 60] == 0xFF00_00FF && shot[70, 90] == 0xFFFF_FFFF)
        expectNearReference(s, "two layers")
    }

    @Test func hiddenLayersAndOpacityChangeWhatIsShownNotWhatIsStored() throws {
        var lines = stroke(y: 50, t: 0, color: "#ff0000", size: 30) + [layer("new", t: 0.1)] + stroke(y: 50, t: 0.2, color: "#0000ff", size: 10)
        lines.append(layer("set", t: 0.3, ", \"opacity\": 0.5"))
        let half = try play(lines)
        #expect(half.snapshot()[70, 50] == 0xFF80_007F || half.snapshot()[70, 50] == 0xFF7F_0080, "blue at half over red: \(String(half.snapshot()[70, 50], radix: 16))")
        expectNearReference(half, "opacity 0.5")
        let hidden = try play(lines + [layer("set", t: 0.4, ", \"visible\": false")])
        #expect(hidden.snapshot()[70, 50] == 0xFFFF_0000, "the hidden layer shows nothing")
        #expect(hidden.document.layers[1].pixels[70, 50] == 0xFF00_00FF, "and keeps its pixels")
        expectNearReference(hidden, "hidden")
    }

    @Test func theEraserMakesTheCurrentLayerTransparentSoTheOnesBelowShow() throws {
        let lines = stroke(y: 50, t: 0, color: "#ff0000", size: 30) + [layer("new", t: 0.1)] + stroke(y: 50, t: 0.2, color: "#0000ff", size: 30)
            + ["{\"t\": 0.3, \"type\": \"brush\", \"kind\": \"eraser\", \"size\": 10}",
               "{\"t\": 0.3, \"type\": \"down\", \"x\": 70, \"y\": 5}", "{\"t\": 0.3, \"type\": \"up\", \"x\": 70, \"y\": 95}"]
        let s = try play(lines)
        #expect(s.snapshot()[70, 50] == 0xFFFF_0000, "red from below where blue was erased")
        #expect(s.snapshot()[20, 50] == 0xFF00_00FF)
        #expect(s.document.layers[1].pixels[70, 50] == 0)
        // On the bottom layer the eraser shows the background.
        let bottom = try play(stroke(y: 50, t: 0, color: "#ff0000", size: 30) + ["{\"t\": 0.3, \"type\": \"brush\", \"kind\": \"eraser\", \"size\": 10}",
            "{\"t\": 0.3, \"type\": \"down\", \"x\": 70, \"y\": 5}", "{\"t\": 0.3, \"type\": \"up\", \"x\": 70, \"y\": 95}"], background: "#20c040")
        #expect(bottom.snapshot()[70, 50] == 0xFF20_C040)
    }

    @Test func everyLayerOperationIsOneUndoStepAndRedoes() throws {
        let base = stroke(y: 20, t: 0, color: "#ff0000") + [layer("new", t: 0.1)] + stroke(y: 50, t: 0.2, color: "#00ff00")
            + [layer("new", t: 0.3, ", \"name\": \"Top\"")] + stroke(y: 80, t: 0.4, color: "#0000ff")
        let ops: [(String, String)] = [("delete", ""), ("down", ""), ("merge", ""), ("set", ", \"opacity\": 0.3"),
                                       ("set", ", \"mode\": \"svg:multiply\""), ("set", ", \"visible\": false"), ("new", "")]
        let before = try play(base)
        let beforeImage = before.documentImage(), beforeShot = before.snapshot().pixels
        for (action, extra) in ops {
            let done = try play(base + [layer(action, t: 0.5, extra)])
            let undone = try play(base + [layer(action, t: 0.5, extra), "{\"t\": 0.6, \"type\": \"undo\"}"])
            #expect(undone.documentImage() == beforeImage && undone.snapshot().pixels == beforeShot, "\(action)\(extra) undone")
            let redone = try play(base + [layer(action, t: 0.5, extra), "{\"t\": 0.6, \"type\": \"undo\"}", "{\"t\": 0.7, \"type\": \"redo\"}"])
            #expect(redone.documentImage() == done.documentImage() && redone.snapshot().pixels == done.snapshot().pixels, "\(action)\(extra) redone")
            expectNearReference(done, action)
        }
    }

    @Test func mergeDownKeepsWhatIsShownAndMovingReorders() throws {
        let base = stroke(y: 50, t: 0, color: "#ff0000", size: 30) + [layer("new", t: 0.1)] + stroke(y: 50, t: 0.2, color: "#0000ff", size: 10)
            + [layer("set", t: 0.25, ", \"opacity\": 0.6")]
        let separate = try play(base), merged = try play(base + [layer("merge", t: 0.3)])
        #expect(merged.document.layers.count == 1 && merged.document.layers[0].name == "Layer 1")
        let diff = largestChannelDifference(separate.snapshot().pixels, merged.snapshot().pixels)
        #expect(diff <= 1, "merging changes what is shown by at most rounding: \(diff)")
        let moved = try play(base + [layer("down", t: 0.3)])
        #expect(moved.document.layers.map(\.name) == ["Layer 2", "Layer 1"] && moved.document.current == 0)
        #expect(moved.snapshot()[70, 50] == 0xFFFF_0000, "red now covers blue")
    }

    @Test func theLastLayerIsNeverDeletedAndSelectionIsNotAStep() throws {
        let s = try play(stroke(y: 50, t: 0) + [layer("delete", t: 0.1)])
        #expect(s.document.layers.count == 1 && s.document.layers[0].pixels[70, 50] != 0)
        let selected = try play(stroke(y: 50, t: 0) + [layer("new", t: 0.1), layer("select", t: 0.2, ", \"index\": 0"), "{\"t\": 0.3, \"type\": \"undo\"}"])
        #expect(selected.document.layers.count == 1, "the undo took back the new layer, not the selection")
    }

    /// The caches below and above the current layer show exactly what composing every layer
    /// afresh shows, whichever layer is current and whatever changed since (a property over
    /// random operations, at one thread and at many).
    @Test(arguments: [1, 3])
    func theStackViewsCachesNeverShowStalePixels(threads: Int) throws {
        var rng = SplitMix64(seed: 7)
        var lines: [String] = []
        var t = 0.0
        for _ in 0..<60 {
            t += 0.05
            switch rng.next() % 8 {
            case 0: lines.append(layer("new", t: t))
            case 1: lines.append(layer("select", t: t, ", \"index\": \(rng.next() % 4)"))
            case 2: lines.append(layer(["up", "down", "merge", "delete"][Int(rng.next() % 4)], t: t))
            case 3: lines.append(layer("set", t: t, ", \"opacity\": \(Double(rng.next() % 11) / 10)"))
            case 4: lines.append("{\"t\": \(t), \"type\": \"\(["undo", "redo"][Int(rng.next() % 2)])\"}")
            default:
                let colors = ["#ff000080", "#00ff00", "#0000ffcc", "#ffffff"]
                lines += stroke(y: Int(rng.next() % 100), t: t, color: colors[Int(rng.next() % 4)], size: Int(rng.next() % 30) + 2)
            }
        }
        // One session, a frame presented after every event: each frame reads caches that the
        // events before it left, and must show what a fresh flattening shows.
        let header = "{\"quicksilver\": 1, \"width\": \(size.width), \"height\": \(size.height)}\n"
        let events = try ReplayParser.parse(header + lines.joined(separator: "\n") + "\n").events
        let session = Session(size: size, compute: ComputeContext(threads: threads, inlineThreshold: 0))
        let window = OffscreenPresenter(size: size)
        for (i, e) in events.enumerated() {
            session.handle(e.event)
            session.draw(FrameInfo(index: i, timestamp: 0, targetTimestamp: 0), to: window)
            guard case .pointerDown = e.event else {
                let want = reference(session.documentImage())
                // What the window shows (only the damage recomposed) and a whole fresh compose.
                let worst = max(largestChannelDifference(window.image.pixels, want), largestChannelDifference(session.snapshot().pixels, want))
                #expect(worst <= 2, "after event \(i) (\(e.event)): off by \(worst)")
                if worst > 2 { return }
                continue
            }
        }
    }

    /// Four layers on a 150x400 canvas, a stroke on each, all shown; then layer `select`
    /// chosen (its frame not drawn yet): the caches to catch up.
    private final class Reselected {
        static let size = Size(width: 150, height: 400)
        let header = "{\"quicksilver\": 1, \"width\": \(size.width), \"height\": \(size.height)}\n"
        let session = Session(size: size, compute: ComputeContext(threads: 2, inlineThreshold: 0))
        let window = OffscreenPresenter(size: size)
        private var frame = 0

        init(_ t: LayerTests, select: Int = 1) throws {
            var lines = t.stroke(y: 20, t: 0, color: "#ff0000", size: 20)
            for i in 1...3 { lines += [t.layer("new", t: Double(i))] + t.stroke(y: 20 + 90 * i, t: Double(i), color: "#00ff0080", size: 30) }
            for e in try ReplayParser.parse(header + lines.joined(separator: "\n") + "\n").events { session.handle(e.event) }
            while session.needsDraw { _ = draw() }
            session.handle(.command(.layer(.select(select))))
        }

        func draw() -> Rect {
            frame += 1
            return session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: window).presented
        }
    }

    /// Another layer made current changes no pixel shown: its frame composes and presents
    /// nothing (it recomposed the whole canvas, flattening every layer), the caches are rebuilt
    /// a band a frame while the frames ask for it, and a stroke then is shown right, as is one
    /// drawn before they are done.
    @Test(arguments: [false, true])
    func choosingAnotherLayerRecomposesNothingAndTheCachesCatchUp(strokeAtOnce: Bool) throws {
        let r = try Reselected(self)
        let (session, window, header) = (r.session, r.window, r.header)
        func draw() -> Rect { r.draw() }
        #expect(draw().isEmpty, "nothing composed or presented")
        var catchingUp = 0
        if !strokeAtOnce {
            while session.needsDraw { #expect(draw().isEmpty); catchingUp += 1 }
            #expect(catchingUp == 2, "7 tile rows, 3 a frame: the first band in the choosing frame, then two: \(catchingUp)")
        }
        for e in try ReplayParser.parse(header + stroke(y: 200, t: 9, color: "#0000ff", size: 40).joined(separator: "\n") + "\n").events {
            session.handle(e.event)
        }
        while session.needsDraw { _ = draw() }
        #expect(session.document.current == 1)
        let want = reference(session.documentImage())
        #expect(largestChannelDifference(window.image.pixels, want) <= 2, "the window shows the stroke over the right caches")
        #expect(largestChannelDifference(session.snapshot().pixels, want) <= 2)
    }

    /// A layer's eye, opacity or mode changed alone changes the picture only where the layer
    /// has pixels: that is what the frame composes and presents (below the current layer, above
    /// it, and the current one), and it shows the stack as it now is.
    @Test func oneLayersLookRedrawsOnlyWhereItHasPixels() throws {
        let r = try Reselected(self, select: 2)
        let (session, window, tall) = (r.session, r.window, Reselected.size)
        func draw() -> Rect { r.draw() }
        while session.needsDraw { _ = draw() }
        let changes: [(Int, LayerOp)] = [(0, .set(visible: false)), (3, .set(opacity: 0.5)), (2, .set(mode: .multiply)), (0, .set(visible: true))]
        for (index, change) in changes {
            session.handle(.command(.layer(.select(index))))
            session.handle(.command(.layer(change)))
            session.handle(.command(.layer(.select(2))))
            let presented = draw()
            let bounds = session.document.layers[index].bounds.intersection(Rect(size: tall))
            #expect(!presented.isEmpty && presented == bounds, "layer \(index), \(change): \(presented), its pixels \(bounds)")
            #expect(largestChannelDifference(window.image.pixels, reference(session.documentImage())) <= 2, "layer \(index), \(change)")
        }
    }

    /// A compose while the caches catch up (the layer panel redrawn over the canvas, after a
    /// click chose another layer) rebuilds only the stale part it reads: the rest still catches
    /// up over the frames after, and both show the right pixels.
    @Test func aComposeWhileCatchingUpRebuildsOnlyWhatItReads() throws {
        let r = try Reselected(self)
        let (session, tall) = (r.session, Reselected.size)
        func draw() -> Rect { r.draw() }
        #expect(draw().isEmpty)
        let want = reference(session.documentImage())
        // A panel-sized part at the bottom right, across the bands not yet rebuilt.
        let part = Rect(x: 100, y: 180, width: 50, height: 200)
        let out = TextureStorage<UInt32>(width: tall.width, height: tall.height, filledWith: 0)
        session.compose(part, into: out.texture)
        var worst = 0
        for y in part.ys {
            for x in part.xs { worst = max(worst, largestChannelDifference([out.texture.row(y)[x]], [want[y * tall.width + x]])) }
        }
        #expect(worst <= 2, "the part composed over caches rebuilt where it reads")
        #expect(session.needsDraw, "the rest of the caches still to catch up")
        var catchingUp = 0
        while session.needsDraw { #expect(draw().isEmpty); catchingUp += 1 }
        // The caches are rebuilt in tiles, a band of three tile rows (136 rows, rounded up)
        // across the view a frame: the choosing frame rebuilt tile rows 0...2, the compose the
        // part's tiles (columns 1...2 of rows 2...5). Left stale: column 0 of rows 3...5 and
        // row 6: six tiles, one frame.
        #expect(catchingUp == 1, "one more frame: \(catchingUp)")
        #expect(largestChannelDifference(session.snapshot().pixels, want) <= 2)
    }

    /// An undo selects the layer it changes: the view, built for the layer current before,
    /// must follow (three layers, so both caches are in use).
    @Test func anUndoThatChangesTheCurrentLayerIsShownRight() throws {
        let lines = stroke(y: 20, t: 0, color: "#ff0000", size: 20) + [layer("new", t: 0.1)] + stroke(y: 50, t: 0.2, color: "#00ff00", size: 20)
            + [layer("new", t: 0.3)] + stroke(y: 80, t: 0.4, color: "#0000ff", size: 20) + [layer("select", t: 0.5, ", \"index\": 1")]
        let header = "{\"quicksilver\": 1, \"width\": \(size.width), \"height\": \(size.height)}\n"
        let events = try ReplayParser.parse(header + (lines + ["{\"t\": 0.6, \"type\": \"undo\"}"]).joined(separator: "\n") + "\n").events
        let session = Session(size: size, compute: ComputeContext(threads: 1))
        let window = OffscreenPresenter(size: size)
        for (i, e) in events.enumerated() {
            session.handle(e.event)
            session.draw(FrameInfo(index: i, timestamp: 0, targetTimestamp: 0), to: window)
        }
        #expect(session.document.current == 2, "the undo selected the layer it changed")
        #expect(window.image.texture[70, 50] == 0xFF00_FF00 && window.image.texture[70, 20] == 0xFFFF_0000 && window.image.texture[70, 80] == 0xFFFF_FFFF)
        // And composed afresh (an expose, a screenshot), through the view's caches.
        let shot = session.snapshot()
        #expect(shot[70, 50] == 0xFF00_FF00 && shot[70, 20] == 0xFFFF_0000 && shot[70, 80] == 0xFFFF_FFFF)
    }

    /// The golden replay with layers (Tests/Fixtures/golden/layers.jsonl; GoldenTests checks its
    /// picture pixel for pixel) leaves the stack its events describe, and shows what that stack
    /// shows at a few pixels worked out by hand from the blend formulas.
    @Test func theLayersGoldenLeavesTheStackItDescribes() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/layers.jsonl").path
        let s = try Playback.load(path, compute: ComputeContext(threads: 1)).session
        let layers = s.document.layers.map(\.attributes)
        // Warm merged into Ground (undone, redone); Doomed deleted (undone, redone); Bar moved to
        // the top and renamed; the hide of Layer 2 undone; Sketch hidden; Layer 2 current.
        #expect(layers.map(\.name) == ["Ground", "Layer 2", "Difference", "Sketch"], "the unnamed layer takes the first number not used")
        #expect(layers.map(\.mode) == [.normal, .screen, .difference, .normal])
        #expect(layers.map(\.opacity) == [1, 1, 0.9, 1] && layers.map(\.visible) == [true, true, true, false])
        #expect(s.document.current == 1)
        #expect(s.document.layers[3].pixels[20, 30] != 0, "the hidden sketch keeps its pixels")
        let shot = s.snapshot()
        func near(_ x: Int, _ y: Int, _ rgb: (Double, Double, Double), _ what: String) {
            let p = shot[x, y], got = [p >> 16 & 0xFF, p >> 8 & 0xFF, p & 0xFF].map(Double.init)
            #expect(zip(got, [rgb.0, rgb.1, rgb.2]).allSatisfy { abs($0 - $1) <= 1.5 }, "\(what) at (\(x), \(y)): \(String(p, radix: 16))")
        }
        let bg = (244.0, 239.0, 230.0)
        near(20, 30, bg, "bare: the sketch there is hidden")
        near(245, 50, bg, "the eraser's hole through the screen blob, down to the bare background")
        near(230, 140, (48, 96, 192), "the wave, opaque, where the deleted layer's red line crossed it")
        // Ground's orange at 0.8 where it was bare (multiply onto nothing is the orange itself),
        // over the background: merged. Unmerged, the multiply layer would show (244, 156, 69).
        near(40, 35, (0.8 * 255 + 0.2 * 244, 0.8 * 144 + 0.2 * 239, 0.8 * 32 + 0.2 * 230), "the merged orange")
        // Screen: 1 − (1 − a)(1 − b), of the yellow on the background.
        near(232, 62, (255 - 11 * 15 / 255.0, 255 - 16 * 31 / 255.0, 255 - 25 * 191 / 255.0), "the yellow in screen")
        // Difference at 0.9: 0.9·|b − s| + 0.1·b, of the light grey bar on the background.
        near(160, 5, (0.9 * 20 + 0.1 * 244, 0.9 * 15 + 0.1 * 239, 0.9 * 6 + 0.1 * 230), "the bar in difference, on top")
    }

    @Test func aDocumentImageSurvivesPremultipliedToStraightAndBack() {
        // Files hold straight alpha: every premultiplied pixel comes back exactly.
        var wrong = 0
        for a in UInt32(0)...255 {
            for c in UInt32(0)...a {
                let p = a << 24 | c << 16 | (a - c) << 8 | (c / 2)
                if Premultiplied.from(straight: Premultiplied.straight(p)) != p { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}
