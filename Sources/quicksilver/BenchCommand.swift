import ArgumentParser
import Clock
import Compute
import Events
import Files
import Foundation
import App
import Geometry
import Input
import Journal
import Kernels
import Paint
import PNGFile
import ReplayFormat
import UI
import Strokes
import X11Window

/// `quicksilver bench`: the figures in the README. Each case is the median of repeated runs
/// after a warm-up; build with `-c release` (`make bench`), debug builds are ~10x slower.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmarks (use a release build: make bench).",
        discussion: """
        Cases: compose.full (the compose kernel over the whole canvas under a live stroke whose \
        bounds are the whole canvas, one row in three covered; compose.fullcover: every pixel \
        covered and blended), \
        memcpy.full (copying the same bytes: the bandwidth limit beside it), compose.stroke (one \
        typical frame of a 16 px pen stroke: four new samples spanning ~60 px, stroke work plus \
        compose of the damaged region), pen.8 and pen.32 (a 10,000-segment random-walk stroke \
        committed into the canvas), restore.300k (crash recovery of a 300,000-sample journal, parsing and playing overlapped \
        on two threads; parse.300k and play.300k: each half alone; `make bench` also runs C++ simdjson over the same journal \
        and cairo drawing its strokes, and prints the ratios, and restore.300k / play.300k), \
        mercurial.frame (a batch of four, blur and threshold over the whole canvas), \
        mercurial.stroke (a typical frame, damaged region only), blur.full, emboss.full, pulse.frame \
        (a pulsing frame over a canvas with a stroke on it), view.zoom2 and view.zoom0.5 (the whole \
        window composed at 200 % and at 50 %), clipboard.copy (what Ctrl+C costs: the canvas as a \
        PNG), blend.* (a canvas-sized layer blended row by row on one thread in each blend mode, \
        and blend.memcpy, the same rows copied), and, when an X display is available, present.shm and present.putimage (a full-window \
        present at 1920x1080, waiting for completion) and clipboard.transfer (that PNG from one \
        window to another through the X server's CLIPBOARD; .noisy: a canvas of noise, whose PNG \
        of several MB crosses in INCR chunks), compose.stroke.layers1 and .layers20 (compose.stroke's frame in a \
        document of 1 and of 20 layers, each a translucent wash over the canvas, the stroke on the middle one), and \
        layers.memory (the resident memory a 3840x2160 document of 40 layers, one with a stroke, adds), \
        document.save and document.open (a 10-layer document saved as OpenRaster and opened from it) \
        beside document.png (the same picture flattened and written as a PNG). \
        The stabilizer table (geometry, not time): the centre-line RMS of a heavy and a gentle \
        tremor at full strength and the lag, beside the first version, libmypaint's slow \
        tracking (--mypaint) and a lazy rope.
        """
    )

    @Option(help: "Canvas size, WxH.")
    var size: WindowSize = WindowSize(Size(width: 1920, height: 1080))

    @Option(help: "Worker threads (default: all cores).")
    var threads: Int?

    @Flag(help: "Print one JSON object: case name → median milliseconds.")
    var json = false

    @Option(help: "Run only the cases whose names start with this.")
    var only: String?

    /// Tests/Bench/simdjson_parse (built by `make bench`): parse.300k's journal parsed by C++
    /// simdjson too, and the ratio printed.
    @Option(help: .hidden) var simdjson: String?

    /// Tests/Bench/cairo_play (built by `make bench`): play.300k's strokes drawn by cairo too, and
    /// the ratio printed.
    @Option(help: .hidden) var cairo: String?

    /// Velocity windows (ms) the prediction report compares; the predictor's own by default.
    @Option(parsing: .upToNextOption, help: .hidden)
    var predictWindows: [Double] = []

    @Option(help: "The libmypaint program the stabilizer table compares with (make bench builds it).")
    var mypaint = ".build/bench/mypaint-track"

    /// Curvature followed and damping, for comparing predictors.
    @Option(help: .hidden) var predictCurvature: Double?
    @Option(help: .hidden) var predictDamping: Double?

    func run() throws {
        let compute = ComputeContext(threads: threads)
        let bench = Benchmarks(size: size.size, compute: compute)
        defer { try? FileManager.default.removeItem(atPath: Benchmarks.journalPath) }
        var results: [(String, Double)] = []
        for (name, runs, make) in bench.cases() where only.map({ name.hasPrefix($0) }) ?? true {
            let ms = Benchmarks.median(runs: runs, make())
            results.append((name, ms))
            if !json { printLine(Self.row(name, ms)) }
            let comparisons = [("parse.300k", "simdjson", simdjson, "C++ simdjson iterate_many, same file: parse.300k"),
                               ("play.300k", "cairo", cairo, "cairo, same strokes (width 8, round caps and joins): play.300k")]
            for (ours, suffix, program, what) in comparisons where name == ours {
                guard let program else { continue }
                let theirs = Benchmarks.comparison(program)
                results.append(("\(ours).\(suffix)", theirs ?? .nan))
                if !json {
                    printLine(Self.row("\(ours).\(suffix)", theirs ?? .nan)
                        + (theirs.map { String(format: "   \(what) is %.2fx", ms / $0) } ?? "   (failed)"))
                }
            }
        }
        for (name, runs, make) in bench.frameCases() where only.map({ name.hasPrefix($0) }) ?? true {
            let m = Benchmarks.medianWorstFrame(runs: runs, make())
            results += [(name, m.worst), ("\(name).opening", m.opening), ("\(name).frames", m.frames), ("\(name).total", m.total)]
            if !json {
                printLine(Self.row(name, m.worst) + String(format: "   the slowest of %.0f frames; the opening one %.3f ms, all %.3f ms", m.frames, m.opening, m.total))
            }
        }
        let byName = Dictionary(results, uniquingKeysWith: { a, _ in a })
        if !json, let restore = byName["restore.300k"], let play = byName["play.300k"] {
            printLine("restore.300k / play.300k".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.2fx", restore / play))
        }
        if only.map({ "layers.memory".hasPrefix($0) || $0.hasPrefix("layers.memory") }) ?? true {
            let mb = Benchmarks.layersMemory(compute: compute)
            if !json { printLine("layers.memory".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.1f MB", mb)) }
            results.append(("layers.memory.mb", mb))
        }
        if only.map({ "predict".hasPrefix($0) || $0.hasPrefix("predict") }) ?? true, !json {
            for line in Benchmarks.prediction(windows: predictWindows, curvature: predictCurvature, damping: predictDamping) { printLine(line) }
        }
        if only.map({ "stabilizer".hasPrefix($0) || $0.hasPrefix("stabilizer") }) ?? true, !json {
            for line in StabilizerBench(mypaint: mypaint).lines() { printLine(line) }
        }
        let displayCases: [(String, () -> Double?)] = [
            ("present.shm", { Benchmarks.present(shared: true) }), ("present.putimage", { Benchmarks.present(shared: false) }),
            ("clipboard.transfer", { bench.clipboardTransfer(noisy: false) }),
            ("clipboard.transfer.noisy", { bench.clipboardTransfer(noisy: true) }),
        ]
        for (name, run) in displayCases where only.map({ name.hasPrefix($0) }) ?? true {
            guard let ms = run() else { continue }
            results.append((name, ms))
            if !json { printLine(Self.row(name, ms)) }
        }
        if json {
            printLine("{" + results.map { "\"\($0.0)\": \(String(format: "%.4f", $0.1))" }.joined(separator: ", ") + "}")
        }
    }
}

extension BenchCommand {
    static func row(_ name: String, _ ms: Double) -> String {
        name.padding(toLength: max(26, name.count + 1), withPad: " ", startingAt: 0) + String(format: "%9.3f ms", ms)
    }
}

/// The benchmark cases, each a closure timed by `median(runs:_:)`.
struct Benchmarks {
    let size: Size
    let compute: ComputeContext

    /// Resident memory a 3840x2160 document with 40 empty layers and one stroke (on the one in
    /// the middle) adds, with a frame of it composed: empty layers must cost next to nothing.
    static func layersMemory(compute: ComputeContext) -> Double {
        let before = ProcessCalls.residentBytes()
        let size = Size(width: 3840, height: 2160)
        let session = Session(size: size, compute: compute)
        for _ in 1..<40 { session.handle(.command(.layer(.new(name: nil)))) }
        session.handle(.command(.layer(.select(20))))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        session.handle(.pointerMove(StrokeSample(x: 3700, y: 2000, pressure: 0.5)))
        session.handle(.pointerUp(StrokeSample(x: 3700, y: 100, pressure: 0.5)))
        let window = OffscreenPresenter(size: size)
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: window)
        let after = ProcessCalls.residentBytes()
        return withExtendedLifetime((session, window)) { Double(after - before) / 1e6 }
    }

    /// Median wall time in milliseconds of `runs` calls after two warm-up calls.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        body(); body()
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let d = clock.measure(body)
            times.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        }
        return percentile(times, 0.5) ?? 0
    }

    /// Each case: name, runs, and a factory for its body (set-up happens only for cases run).
    func cases() -> [(String, Int, () -> () -> Void)] {
        [("compose.full", 50, { composeFull(coveredRowEvery: 3) }), ("compose.fullcover", 50, { composeFull(coveredRowEvery: 1) }),
         ("compose.copy", 50, { composeFull(coveredRowEvery: 0) }),
         ("memcpy.full", 50, { memcpyFull() }),
         ("compose.stroke", 400, { composeStroke() }), ("compose.stroke.layers1", 400, { composeStroke(layers: 1) }),
         ("compose.stroke.layers20", 400, { composeStroke(layers: 20) }),
         ("pen.8", 9, { penStroke(size: 8) }), ("pen.32", 9, { penStroke(size: 32) }),
         ("restore.300k", 5, { restore300k() }), ("parse.300k", 5, { parse300k() }), ("play.300k", 5, { play300k() }),
         ("mercurial.frame", 30, { mercurialFrame() }), ("mercurial.stroke", 200, { mercurialStroke() }),
         ("blur.full", 30, { blurFull() }), ("emboss.full", 10, { embossFull() }), ("pulse.frame", 50, { pulseFrame() }),
         ("view.zoom2", 50, { zoomedFrame(scale: 1) }), ("view.zoom0.5", 50, { zoomedFrame(scale: -1) }),
         ("clipboard.copy", 9, { clipboardCopy() }),
         ("document.png", 9, { documentFile("png") }), ("document.save", 9, { documentFile("save") }), ("document.open", 9, { documentFile("open") }),
         ("ui.palette.open", 50, { toolsFrame(.paletteOpen) }), ("ui.palette.drag", 50, { toolsFrame(.paletteDrag) }),
         ("ui.editor.drag", 20, { toolsFrame(.editorDrag) }),
         ("ui.editor.open", 20, { toolsFrame(.editorOpen) }), ("ui.outline", 200, { toolsFrame(.outline) }),
         ("ui.none", 200, { toolsFrame(.none) })] + layerCases()
    }

    /// Cases spread over several frames, each run giving every frame's milliseconds and which
    /// one opened the piece: the figure is the median over the runs of the slowest frame (an
    /// average would hide it).
    func frameCases() -> [(String, Int, () -> () -> (times: [Double], opening: Int))] {
        [("ui.editor.first", 20, { editorFirstFrames(afterStart: false) }),
         ("ui.editor.afterstart", 20, { editorFirstFrames(afterStart: true) })]
    }

    /// The median over `runs` (after two warm-ups) of each run's slowest frame, and of its
    /// opening frame, its frame count and its total.
    static func medianWorstFrame(runs: Int, _ body: () -> (times: [Double], opening: Int))
        -> (worst: Double, opening: Double, frames: Double, total: Double) {
        _ = body(); _ = body()
        let all = (0..<runs).map { _ in body() }
        func median(_ f: ((times: [Double], opening: Int)) -> Double) -> Double { percentile(all.map(f), 0.5) ?? 0 }
        return (median { $0.times.max() ?? 0 }, median { $0.times[$0.opening] }, median { Double($0.times.count) },
                median { $0.times.reduce(0, +) })
    }

    static func milliseconds(_ body: () -> Void) -> Double {
        let d = ContinuousClock().measure(body)
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    enum ToolsCase { case paletteOpen, paletteDrag, editorDrag, editorOpen, outline, none }

    /// A window of the canvas's size over a painted canvas with the on-canvas tools at UI scale
    /// 1 and the status strip shown, its first frame drawn.
    private func toolsWindow() -> (Session, OffscreenPresenter, Widgets) {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        let tools = Widgets.standard(windowSize: size, scale: 1)
        session.overlay = tools
        let wash = [UInt32](repeating: 0xC040_6080, count: size.area)
        session.handle(.command(.paste(PastedImage(file: "wash.png", x: 0, y: 0, size: size, pixels: wash))))
        tools.status?.show(StatusStrip(swatch: .black, fields: ["pen 8", "#000000", "layer 1/1", "100 %", "journal ok"]))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return (session, presenter, tools)
    }

    /// `ui.editor.first`: the editor's first opening in a window, at once (none of its hemisphere
    /// computed before), as the app draws it: the opening frame, then the frames that go on
    /// until the full hemisphere is shown (`Widgets.catchUp` before each). `afterStart`
    /// (`ui.editor.afterstart`): the frames after the window's start that prepare it, then the
    /// same opening.
    private func editorFirstFrames(afterStart: Bool) -> () -> (times: [Double], opening: Int) {
        let (session, presenter, tools) = toolsWindow()
        var frame = 0
        return { [size] in
            let fresh = Widgets.standard(windowSize: size, scale: 1)
            session.overlay = fresh
            fresh.editor?.prepare(for: Shading.mercurialPaint)  // as the window's start does, before its first frame
            var times: [Double] = []
            func draw() {
                frame += 1
                times.append(Self.milliseconds {
                    fresh.catchUp()
                    session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                })
            }
            while afterStart && fresh.isCatchingUp { draw() }
            let opening = times.count
            fresh.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
            repeat { draw() } while fresh.isCatchingUp
            session.overlay = tools
            return (times, opening)
        }
    }

    /// One frame of the window with the on-canvas tools over a painted canvas, at UI scale 1:
    /// the palette closing and opening again (two frames, the sum: each damages its rectangle),
    /// a drag on its hue ring, a light dragged in the shading editor (its half-resolution
    /// hemisphere, as while dragging), the editor closing and opening again, the brush outline
    /// moved 3 px, or (`ui.none`) a frame with nothing to do, the loop's floor.
    private func toolsFrame(_ what: ToolsCase) -> () -> Void {
        let (session, presenter, tools) = toolsWindow()
        var palette = Palette(color: Color(r: 200, g: 40, b: 40), recent: KeyMap.palette, kind: .pen, size: 8, scale: 1)
        if what == .paletteDrag { tools.palette?.show(palette, atX: 600, y: 400) }
        if what == .editorDrag || what == .editorOpen {
            // As in a window some frames after its start: the editor prepared.
            tools.editor?.prepare(for: Shading.mercurialPaint)
            while tools.isCatchingUp { tools.catchUp() }
            tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
        }
        var frame = 0
        return {
            frame += 1
            switch what {
            case .paletteOpen:
                // Two frames: one closing it, then the one measured for, opening it again.
                tools.palette?.show(nil)
                session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                frame += 1
                tools.palette?.show(palette, atX: 600, y: 400)
            case .paletteDrag:
                palette.hue = Double(frame % 1000) / 1000
                tools.palette?.show(palette)
            case .editorDrag:
                if let e = tools.editor?.editor { tools.editor?.show(ShadingEditor(shading: e.moving(light: 0, toX: 88 + Double(frame % 40), y: 60), scale: 1), dragging: true) }
            case .editorOpen:
                // Two frames: one closing it, then the one measured for, opening it again.
                tools.editor?.show(nil)
                session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                frame += 1
                tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
            case .outline:
                tools.outline?.show(BrushOutline(x: 500 + Double(frame % 100) * 3, y: 500, radius: 8))
            case .none: break
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
            withExtendedLifetime(tools) {}
        }
    }

    /// The compose kernel over the whole canvas under a live stroke whose bounds are the whole
    /// canvas, one row in `coveredRowEvery` covered (1: every pixel blended, the worst case;
    /// 0: no live stroke, the copy a full redraw after expose, resize or clear costs).
    private func composeFull(coveredRowEvery: Int) -> () -> Void {
        var layer = TiledTexture()
        for key in TileKey.covering(Rect(size: size)) { layer.writableTile(key).texture.fill(Rect(x: 0, y: 0, width: Tile.side, height: Tile.side), with: 0x8040_2010) }
        let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        let committed = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let tail = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        for y in stride(from: 0, to: coveredRowEvery > 0 ? size.height : 0, by: max(1, coveredRowEvery)) { committed.texture.fill(Rect(x: 0, y: y, width: size.width, height: 1), with: 200) }
        let stroke = ComposeKernel.Stroke(color: Color(r: 30, g: 90, b: 200, a: 180), committed: committed.texture,
                                          tail: tail.texture, bounds: Rect(size: size))
        var kernel = ComposeKernel(below: .color(0xFFFF_FFFF), layer: layer, canvas: Rect(size: size), output: out.texture)
        kernel.stroke = coveredRowEvery > 0 ? stroke : nil
        return { [compute, size] in withExtendedLifetime((out, committed, tail)) { kernel.run(over: Rect(size: size), on: compute) } }
    }

    private func memcpyFull() -> () -> Void {
        let bytes = size.area * 4
        let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        a.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        b.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        return { b.copyMemory(from: a, byteCount: bytes) }  // buffers live for the process: a benchmark
    }

    /// One typical frame of a live pen stroke (`compose.stroke`, on a blank canvas); with
    /// `layers`, in a document of that many layers, each a translucent wash over the whole
    /// canvas, the stroke on the one in the middle (`compose.stroke.layers1` and `.layers20`:
    /// what the stack view's caches save).
    private func composeStroke(layers: Int = 0) -> () -> Void {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        if layers > 0 {
            for i in 0..<layers {
                if i > 0 { session.handle(.command(.layer(.new(name: nil)))) }
                let wash = [UInt32](repeating: 0x2000_0000 | UInt32(i * 12) << 16 | 0x80, count: size.area)
                session.handle(.command(.paste(PastedImage(file: "wash.png", x: 0, y: 0, size: size, pixels: wash))))
            }
            session.handle(.command(.layer(.select(layers / 2))))
        }
        session.handle(.command(.brush(size: 16)))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        var frame = 0
        var x = 100.0, dx = 15.0
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return {
            frame += 1
            for _ in 0..<4 {
                x += dx
                if x > Double(size.width - 100) || x < 100 { dx = -dx }
                let y = Double(size.height) / 2 + 200 * sin(x / 150)
                session.handle(.pointerMove(StrokeSample(x: x, y: y, pressure: 0.5)))
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// A deterministic random walk inside the canvas: steps of up to 10 px.
    func randomWalk(segments: Int) -> [(Double, Double)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var p = (Double(size.width) / 2, Double(size.height) / 2)
        var out = [p]
        for _ in 0..<segments {
            let angle = next() * 2 * Double.pi, step = next() * 10
            p.0 = min(max(p.0 + cos(angle) * step, 0), Double(size.width - 1))
            p.1 = min(max(p.1 + sin(angle) * step, 0), Double(size.height - 1))
            out.append(p)
        }
        return out
    }

    /// Queues `walk` as one stroke (down, moves, up) for the session's next frame.
    private func queueStroke(_ walk: [(Double, Double)], into session: Session) {
        func sample(_ p: (Double, Double)) -> StrokeSample { StrokeSample(x: p.0, y: p.1, pressure: 0.5) }
        session.handle(.pointerDown(sample(walk[0])))
        for p in walk.dropFirst() { session.handle(.pointerMove(sample(p))) }
        session.handle(.pointerUp(sample(walk[walk.count - 1])))
    }

    private func penStroke(size brushSize: Int) -> () -> Void {
        let walk = randomWalk(segments: 10_000)
        let session = Session(size: size, compute: compute, historyBytes: 0)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.brush(size: brushSize)))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return {
            queueStroke(walk, into: session)
            session.draw(FrameInfo(index: 1, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// One batch of four samples through the scaffold kernel, then blur and threshold of the
    /// whole canvas: the worst frame of a mercurial stroke.
    private func mercurialFrame() -> () -> Void {
        let scaffold = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let mask = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let kernel = ScaffoldKernel(seed: 1), blur = GaussianBlur(sigma: 3)
        let cx = Int32(size.width / 2), cy = Int32(size.height / 2)
        let batch = SampleBatch(x: SIMD4(cx, cx + 20, cx + 40, cx + 60), y: SIMD4(cy, cy + 5, cy + 10, cy + 15))
        return { [compute] in
            _ = kernel.run(batch, radius: 100, into: scaffold.texture, clip: scaffold.texture.bounds, on: compute)
            blur.runThresholded(scaffold.texture, over: scaffold.texture.bounds, into: mask.texture, on: compute)
        }
    }

    /// A typical mercurial frame: four new samples of a stroke (default size 200, pressure
    /// 0.5), sprayed, blurred and thresholded over the damaged region, and composed.
    private func mercurialStroke() -> () -> Void {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.brush(kind: .mercurial)))
        session.handle(.pointerDown(StrokeSample(x: 300, y: 500, pressure: 0.5)))
        var frame = 0, x = 300.0
        return {
            frame += 1
            for _ in 0..<4 {
                x = x > Double(size.width - 300) ? 300 : x + 4
                session.handle(.pointerMove(StrokeSample(x: x, y: 500 + 100 * sin(x / 200), pressure: 0.5)))
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// σ 3 Gaussian blur of a full single-channel canvas.
    private func blurFull() -> () -> Void {
        let source = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        for y in stride(from: 0, to: size.height, by: 7) { for x in stride(from: 0, to: size.width, by: 5) { source.texture[x, y] = 255 } }
        let out = TextureStorage<Float>(width: size.width, height: size.height, filledWith: 0)
        let blur = GaussianBlur(sigma: 3)
        return { [compute] in blur.run(source.texture, over: source.texture.bounds, into: out.texture, on: compute) }
    }

    /// The emboss of a mask covering most of the canvas (height field, normals, hemisphere).
    private func embossFull() -> () -> Void {
        let mask = TextureStorage<UInt8>(width: size.width, height: size.height, filledWith: 0)
        let w = Double(size.width), h = Double(size.height)
        for y in 0..<size.height {
            for x in 0..<size.width where sin(Double(x) / w * 12) * cos(Double(y) / h * 9) > -0.3 { mask.texture[x, y] = 255 }
        }
        let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        let emboss = Emboss(shading: .mercurialPaint)
        return { [compute] in emboss.shade(mask.texture, into: out.texture, on: compute) }
    }

    /// A frame while the background pulses: the whole window recomposed with the filter, over a
    /// canvas with a long 32 px stroke on it (bare, painted and edge pixels all occur).
    private func pulseFrame() -> () -> Void {
        let session = drawnSession(color: .black)
        let presenter = OffscreenPresenter(size: size)
        session.handle(.command(.pulse(on: true)))
        var frame = 0
        return {
            frame += 1
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// How far the pen's predicted tail lands from where the pen went, in pixels (mean and 95th
    /// percentile at horizons of 8, 16 and 25 ms), on hand-like strokes at a mouse's, a tablet's
    /// and a gaming mouse's rate, and on the random walks of the pen cases (at 1 kHz).
    static func prediction(windows: [Double], curvature: Double? = nil, damping: Double? = nil) -> [String] {
        let defaults = Predictor()
        let sets: [(String, [[PredictionMeasure.Sample]])] = [
            ("hand.125Hz", PredictionMeasure.handStrokes(count: 60, hz: 125, integer: true, seed: 1)),
            ("hand.200Hz", PredictionMeasure.handStrokes(count: 60, hz: 200, integer: false, seed: 2)),
            ("hand.1kHz", PredictionMeasure.handStrokes(count: 30, hz: 1000, integer: true, seed: 3)),
            ("scribble.200Hz", PredictionMeasure.handStrokes(count: 60, hz: 200, integer: false, scribbling: true, seed: 4)),
            ("walk.1kHz", [Benchmarks(size: Size(width: 1920, height: 1080), compute: ComputeContext(threads: 1))
                .randomWalk(segments: 3000).enumerated().map { (Double($0.offset) / 1000, $0.element.0, $0.element.1) }]),
        ]
        var lines: [String] = []
        for window in windows.isEmpty ? [Predictor().window * 1000] : windows {
            for (name, strokes) in sets {
                var line = "predict.\(name)".padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "window %2.0f ms", window)
                for h in [0.008, 0.016, 0.025] {
                    let e = PredictionMeasure.errors(strokes, horizon: h, window: window / 1000, curvature: curvature ?? defaults.curvature,
                                                     damping: damping ?? defaults.damping)
                    line += String(format: "   %2.0f ms: mean %5.2f px, p95 %5.2f px", h * 1000, e.mean, e.p95)
                }
                let still = PredictionMeasure.errors(strokes, horizon: 0.016, predicting: false)
                line += String(format: "   (none at 16 ms: mean %5.2f px)", still.mean)
                lines.append(line)
            }
        }
        return lines
    }

    /// A canvas with a long 32 px random-walk stroke on it, committed.
    private func drawnSession(color: Color = Color(r: 30, g: 90, b: 200, a: 200)) -> Session {
        let session = Session(size: size, compute: compute, historyBytes: 0)
        session.handle(.command(.brush(size: 32, color: color)))
        queueStroke(randomWalk(segments: 10_000), into: session)
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: size))
        return session
    }

    /// A full-window frame at a zoom: the view moved (so the whole window is redrawn), composed
    /// through the transform.
    private func zoomedFrame(scale: Int) -> () -> Void {
        let session = drawnSession()
        let presenter = OffscreenPresenter(size: size)
        var frame = 0
        return {
            frame += 1
            session.handle(.view(ViewTransform(scale: scale, x: -(frame % 7), y: -(frame % 5))))
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
        }
    }

    /// What Ctrl+C costs the frame loop: the canvas at 100 % as a PNG (its offer to the server
    /// is one request).
    private func clipboardCopy() -> () -> Void {
        let session = drawnSession()
        return {
            let shot = session.snapshot()
            _ = try? PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels).encode()
        }
    }

    /// A 10-layer document at the canvas size, each layer with a band of random-walk strokes
    /// across the canvas, saved as OpenRaster (`save`) or opened from the saved file (`open`):
    /// against exporting the same picture flattened as a PNG (`png`, written to a file too).
    private func documentFile(_ what: String) -> () -> Void {
        let session = Session(size: size, compute: compute)
        let walk = randomWalk(segments: 20_000)
        for i in 0..<10 {
            if i > 0 { session.handle(.command(.layer(.new(name: nil)))) }
            session.handle(.command(.brush(size: 12, color: KeyMap.palette[i % 9])))
            for s in 0..<20 {
                let points = walk[(i * 20 + s) * 100..<(i * 20 + s + 1) * 100]
                for (k, p) in points.enumerated() {
                    let sample = StrokeSample(x: p.0, y: p.1, pressure: 0.5)
                    session.handle(k == 0 ? .pointerDown(sample) : k == points.count - 1 ? .pointerUp(sample) : .pointerMove(sample))
                }
            }
        }
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        let path = NSTemporaryDirectory() + "quicksilver-bench-\(getpid()).\(what == "png" ? "png" : "ora")"
        func save() {
            let shot = session.snapshot()
            let merged = PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
            if what == "png" { try? merged.write(to: path) } else { try? DocumentFile.write(session.documentImage(), merged: merged, to: path) }
        }
        save()
        if what == "open" { return { _ = try? DocumentFile.read(ora: path, maxSide: 16384) } }
        return save
    }

    /// That PNG from one window, which owns CLIPBOARD, to another, which asks for image/png:
    /// from the request to the last byte received. `noisy`: a canvas of noise instead, a PNG of
    /// several MB, sent in INCR chunks. Nil without a display.
    func clipboardTransfer(noisy: Bool) -> Double? {
        let session = drawnSession()
        if noisy {
            var state: UInt32 = 1
            session.load(DocumentImage.picture((0..<size.area).map { _ in state = state &* 1_664_525 &+ 1_013_904_223; return 0xFF00_0000 | state >> 8 }, size: size, background: .white))
        }
        let shot = session.snapshot()
        guard let png = try? PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels).encode(),
              let owner = try? X11Window(display: nil, size: Size(width: 64, height: 64), title: "Quicksilver bench owner"),
              let asker = try? X11Window(display: nil, size: Size(width: 64, height: 64), title: "Quicksilver bench asker")
        else { return nil }
        defer { owner.close(); asker.close() }
        guard owner.offerClipboard(png: png) else { return nil }
        var received = 0
        let ms = Self.median(runs: 20) {
            asker.requestClipboardImage()
            while true {
                _ = owner.pendingEvents()
                if let answer = asker.pendingEvents().lazy.compactMap({ e -> ClipboardImage? in if case .paste(let a) = e { a } else { nil } }).first {
                    if case .image(let bytes) = answer { received = bytes.count }
                    break
                }
                _ = Poll.wait([owner.connectionFileDescriptor, asker.connectionFileDescriptor], timeoutMS: 1000)
            }
        }
        return received == png.count ? ms : nil
    }

    /// restore.300k's journal given to `binary`, a C or C++ program doing the same work another way
    /// (Tests/Bench/simdjson_parse.cpp parses it, Tests/Bench/cairo_play.c draws its strokes): its
    /// median milliseconds (the first number it prints), or nil when it fails.
    static func comparison(_ binary: String) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [journalPath, "5"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let first = String(decoding: output, as: UTF8.self).split(separator: " ").first else { return nil }
        return Double(first)
    }

    /// Where `restore300k` writes its journal (removed when the benchmarks end).
    static let journalPath = NSTemporaryDirectory() + "quicksilver-bench-journal-\(getpid()).jsonl"

    /// Parsing alone: the same journal's lines read and checked, nothing played (the floor under
    /// `restore.300k`).
    private func parse300k() -> () -> Void {
        _ = restore300k()   // writes the journal
        return {
            var parser = ReplayParser()
            try? LineReader.forEachLine(in: Self.journalPath) { bytes, _ in
                _ = try parser.feed(bytes, recovering: true)
                if parser.events.count >= 4096 { _ = parser.takeEvents() }
            }
        }
    }

    /// Playing alone: the same journal's events, parsed beforehand, played into a fresh session
    /// (the other half of `restore.300k`, which overlaps the two on two threads).
    private func play300k() -> () -> Void {
        _ = restore300k()
        var events: [Replay.TimedEvent] = []
        var parser = ReplayParser()
        try? LineReader.forEachLine(in: Self.journalPath) { bytes, _ in
            _ = try parser.feed(bytes, recovering: true)
            events += parser.takeEvents()
        }
        return { [compute, size] in
            let session = Session(size: size, compute: compute)
            ReplayPlayer.play(events, session: session, presenter: OffscreenPresenter(size: Size(width: 0, height: 0)))
        }
    }

    /// Crash recovery of a journal holding 300,000 samples (an hour of drawing at ~83 Hz, here
    /// 1,500 strokes of 200 samples): read, parse, play into a fresh session.
    private func restore300k() -> () -> Void {
        let path = Self.journalPath
        var text = Replay.line(for: Replay.Header(size: size)) + "\n"
        let walk = randomWalk(segments: 300_000)
        var t = 0.0
        for stroke in 0..<1_500 {
            for i in 0..<200 {
                // As the window records them: whole-pixel X coordinates, millisecond times.
                let p = walk[stroke * 200 + i]
                let sample = StrokeSample(x: p.0.rounded(), y: p.1.rounded(), pressure: 0.5)
                let event: SessionEvent = i == 0 ? .pointerDown(sample) : i == 199 ? .pointerUp(sample) : .pointerMove(sample)
                text += Replay.line(for: Replay.TimedEvent(t: (t * 1000).rounded() / 1000, event: event)) + "\n"
                t += 0.012
            }
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return { [compute] in _ = try? Playback.load(path, reading: .recovering, compute: compute) }
    }

    /// A full 1920x1080 present through a real window, waiting for the server to finish it;
    /// nil when no display can be opened.
    static func present(shared: Bool) -> Double? {
        let size = Size(width: 1920, height: 1080)
        guard let window = try? X11Window(display: nil, size: size, title: "Quicksilver bench", sharedMemory: shared),
              window.usesSharedMemory == shared else { return nil }
        defer { window.close() }
        let target = window.frameTarget()
        target.fill(target.bounds, with: 0xFF33_6699)
        return median(runs: 200) {
            _ = window.frameTarget()
            window.present(Rect(size: size))
            window.waitForPresentCompletion()
        }
    }
}

/// The value at fraction `p` of the sorted values (nearest rank), or nil when there are none.
func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
