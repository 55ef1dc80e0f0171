// quicksilver-bench: the benchmarks, a program of their own beside `quicksilver` (`make bench`
// builds it in release and runs it; `make install` does not install it). Start here:
// `QuicksilverBench.run` goes through the timed cases that `Benchmarks` lists (one file per
// concern: Benchmarks+Canvas, +Tools, +Journal, +Documents, +Layers, +Display), then the tables
// that measure geometry rather than time (`PredictionBench`, `StabilizerBench`, over the
// Measures module), and prints each figure through a `Report`. A case whose work fails prints
// `quicksilver-bench: CASE: why` on stderr, the other cases still run, and the program exits 1.
import ArgumentParser
import Compute
import Foundation
import Geometry
import ReplayFormat

/// The figures in the README. Each case is the median of repeated runs after a warm-up; build
/// with `-c release` (`make bench`), debug builds are ~10x slower.
@main
struct QuicksilverBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quicksilver-bench",
        abstract: "Run Quicksilver's benchmarks (use a release build: make bench).",
        discussion: """
        Cases: compose.full (the compose kernel over the whole canvas under a live stroke whose \
        bounds are the whole canvas, one row in three covered; compose.fullcover: every pixel \
        covered and blended; compose.rotated: compose.full's scene in a view turned 30° about its centre), \
        memcpy.full (copying the same bytes: the bandwidth limit beside it; compose.full/memcpy.full \
        and compose.rotated/compose.full: the ratios, each pair run in alternation), compose.stroke (one \
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
        document of 1 and of 20 layers, each a translucent wash over the canvas, the stroke on the middle one), \
        compose.pan.layers20 (a frame while panning over those 20 layers: the whole window recomposed), and \
        layers.memory (the resident memory a 3840x2160 document of 40 layers, one with a stroke, adds), \
        document.save and document.open (a 20-layer document saved as OpenRaster and opened from it) \
        beside document.png (the same picture flattened and written as a PNG), ui.panel.select and \
        ui.panel.eye (a click on a layer panel row, on an eye, in the app over that document: the \
        wake-up and the frame) and ui.panel.rename (F2, a name typed, Return: the slowest frame). \
        The stabilizer table (geometry, not time): the centre-line RMS of a heavy and a gentle \
        tremor at full strength and the lag, beside the first version, libmypaint's slow \
        tracking (--mypaint) and a lazy rope. \
        A case whose work fails is named on stderr, the others still run, and the exit status is 1.
        """
    )

    @Option(help: "Canvas size, WxH.")
    var size: CanvasSize = CanvasSize(Size(width: 1920, height: 1080))

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

    @Option(help: "The libmypaint program brushes.libmypaint compares `quicksilver render` with (make bench builds it).")
    var mypaintRender = ".build/bench/mypaint-render"

    @Option(help: "The quicksilver program brushes.libmypaint times (default: the one beside this program; make bench passes the one make install installs).")
    var quicksilver: String?

    /// Curvature followed and damping, for comparing predictors.
    @Option(help: .hidden) var predictCurvature: Double?
    @Option(help: .hidden) var predictDamping: Double?

    func run() throws {
        let compute = ComputeContext(threads: threads)
        let bench = Benchmarks(size: size.size, compute: compute)
        defer { Benchmarks.removeFiles() }
        var report = Report(json: json)
        /// A case is run when --only is a prefix of its name.
        func selected(_ name: String) -> Bool { only.map { name.hasPrefix($0) } ?? true }
        /// A table is run when --only is a prefix of its name or names something in it.
        func selectedTable(_ name: String) -> Bool { only.map { name.hasPrefix($0) || $0.hasPrefix(name) } ?? true }

        let comparisons = [("parse.300k", "simdjson", simdjson, "C++ simdjson iterate_many, same file: parse.300k"),
                           ("play.300k", "cairo", cairo, "cairo, same strokes (width 8, round caps and joins): play.300k")]
        for (name, runs, make) in bench.cases() where selected(name) {
            guard let ms = report.attempt(name, { try Benchmarks.median(runs: runs, make()) }) else { continue }
            report.figure(name, ms)
            for (ours, suffix, program, what) in comparisons where name == ours {
                let theirName = "\(ours).\(suffix)"
                guard let program, let theirs = report.attempt(theirName, { try Benchmarks.comparison(program) }) else { continue }
                report.figure(theirName, theirs, note: String(format: "   \(what) is %.2fx", ms / theirs))
            }
        }
        for (name, runs, make) in bench.frameCases() where selected(name) {
            let m = Benchmarks.medianWorstFrame(runs: runs, make())
            report.figure(name, m.worst, note: String(format: "   the slowest of %.0f frames; the opening one %.3f ms, all %.3f ms",
                                                      m.frames, m.opening, m.total))
            report.record("\(name).opening", m.opening)
            report.record("\(name).frames", m.frames)
            report.record("\(name).total", m.total)
        }
        let all = bench.cases()
        for (name, a, b, target) in Benchmarks.ratios where selected(name) {
            guard let makeA = all.first(where: { $0.0 == a })?.2, let makeB = all.first(where: { $0.0 == b })?.2,
                  let r = report.attempt(name, { try Benchmarks.interleavedRatio(runs: 60, makeA(), makeB()) }) else { continue }
            let row = name.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(format: "%9.2fx   in alternation, medians %.3f and %.3f ms; target ≤ %.1fx", r.ratio, r.a, r.b, target)
            report.record(name, r.ratio, row: row)
        }
        if let restore = report.value("restore.300k"), let play = report.value("play.300k") {
            report.line("restore.300k / play.300k".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.2fx", restore / play))
        }
        if selectedTable("layers.memory"), let mb = report.attempt("layers.memory", { try Benchmarks.layersMemory(compute: compute) }) {
            let row = "layers.memory".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.1f MB", mb)
            report.record("layers.memory.mb", mb, row: row)
        }
        if selectedTable("predict"), !json {
            let table = PredictionBench(windows: predictWindows, curvature: predictCurvature, damping: predictDamping)
            for line in table.lines() { report.line(line) }
        }
        if selectedTable("stabilizer"), !json, let lines = report.attempt("stabilizer", { try StabilizerBench(mypaint: mypaint).lines() }) {
            for line in lines { report.line(line) }
        }
        if selectedTable("brushes.libmypaint"), !json {
            let quicksilver = quicksilver
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("quicksilver").path
            if let r = report.attempt("brushes.libmypaint", { try BrushRatioBench(mypaint: mypaintRender, quicksilver: quicksilver).ratios() }) {
                report.line("brushes.libmypaint".padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.2fx", r.median)
                            + "   quicksilver render ÷ libmypaint, whole processes, median of \(r.each.count) brushes (make brush-table: all)")
            }
        }
        runDisplayCases(bench, selected: selected, into: &report)
        try report.finish()
    }

    /// present.* and clipboard.transfer*, on $DISPLAY: with none set, one line on stderr says they
    /// were not run; a display that is set but cannot be used fails them.
    private func runDisplayCases(_ bench: Benchmarks, selected: (String) -> Bool, into report: inout Report) {
        let cases: [(String, () throws -> Double?)] = [
            ("present.shm", { try Benchmarks.present(shared: true) }), ("present.putimage", { try Benchmarks.present(shared: false) }),
            ("clipboard.transfer", { try bench.clipboardTransfer(noisy: false) }),
            ("clipboard.transfer.noisy", { try bench.clipboardTransfer(noisy: true) }),
        ].filter { selected($0.0) }
        guard !cases.isEmpty else { return }
        guard !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty else {
            report.note("DISPLAY is not set: \(cases.map(\.0).joined(separator: ", ")) not run")
            return
        }
        for (name, run) in cases {
            guard let result = report.attempt(name, run) else { continue }
            guard let ms = result else {
                report.note("\(name) not run: the display does not offer MIT-SHM")
                continue
            }
            report.figure(name, ms)
        }
    }
}

/// `WxH`, as an argument: a size a replay's header may have.
struct CanvasSize: ExpressibleByArgument {
    let size: Size
    init(_ size: Size) { self.size = size }
    init?(argument: String) {
        guard let size = Replay.Header.size(parsing: argument) else { return nil }
        self.size = size
    }
    var defaultValueDescription: String { size.description }
}
