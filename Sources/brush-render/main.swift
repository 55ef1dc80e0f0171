// brush-render: a MyPaint brush painting a recording on Quicksilver's dab surface, as a process
// of its own, the peer of libmypaint's (Tests/Bench/mypaint-render.c) for docs/brushes.md's table
// and `make bench`'s mypaint.ratio. Not installed.
//
//   brush-render BRUSH '#rrggbb' EVENTS OUT.png [--size WxH] [--precision P] [--threads N] [--legacy] [--psnr REF.png]
//                [--under BRUSH2 '#rrggbb' DX DY]
//
// BRUSH is a .myb file or an installed brush's name ("classic/charcoal"); EVENTS is a recording
// in libmypaint's format (`t x y pressure [xtilt ytilt]` a line), played by the playing protocol
// (Brushes' `BrushPlayer`). OUT.png is the picture (0, 0)–(W, H), default 1024x768, composited
// over white. --precision: perStroke (the default), eightBit or fifteenBit (Dabs' `DabPrecision`).
// --legacy: libmypaint's first interface (mypaint_brush_stroke_to), as the C program's --legacy.
// --under BRUSH2 '#rrggbb' DX DY: the recording first played with BRUSH2, shifted by (DX, DY), as
// the C program's --under (paint for an eraser, a smudge or a lock-alpha brush to work on).
// --psnr REF.png: prints `psnr DB`, the picture against REF.png (libmypaint's, over white).
//
//   brush-render --compare A.png B.png
//
// prints `psnr DB` of two pictures of one size (a `quicksilver render` against libmypaint's).
// Errors are one line on stderr; the exit status is 2 for a bad input, 1 for anything else.
import Brushes
import Compute
import Dabs
import Files
import Geometry
import Glibc
import Kernels
import Measures
import PNGFile

func fail(_ message: String, status: Int32 = 2) -> Never {
    let line = Array("brush-render: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var positional: [String] = []
var size = Size(width: 1024, height: 768)
var precision = DabPrecision.perStroke
var threads: Int?
var legacy = false
var reference: String?
var under: (brush: String, color: Color, dx: Double, dy: Double)?
var args = CommandLine.arguments.dropFirst()
if args.first == "--compare" {
    let files = Array(args.dropFirst())
    guard files.count == 2 else { fail("--compare takes A.png B.png") }
    let a: PNGImage, b: PNGImage
    do { (a, b) = (try PNGImage.read(from: files[0]), try PNGImage.read(from: files[1])) } catch { fail(error.message) }
    guard a.width == b.width, a.height == b.height else { fail("\(files[0]) and \(files[1]) differ in size") }
    print("psnr \(PSNR.decibels(a.pixels, b.pixels))")
    exit(0)
}
while let a = args.popFirst() {
    switch a {
    case "--legacy": legacy = true
    case "--under":
        guard let brush = args.popFirst(), let color = args.popFirst().flatMap(Color.init(hex:)),
              let dx = args.popFirst().flatMap(Double.init), let dy = args.popFirst().flatMap(Double.init) else {
            fail("--under takes BRUSH '#rrggbb' DX DY")
        }
        under = (brush, color, dx, dy)
    case "--psnr":
        guard let path = args.popFirst() else { fail("--psnr takes a PNG") }
        reference = path
    case "--size":
        let parts = (args.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0, parts[0] <= 16384, parts[1] <= 16384 else { fail("--size takes WxH") }
        size = Size(width: parts[0], height: parts[1])
    case "--precision":
        guard let p = args.popFirst().flatMap(DabPrecision.init(rawValue:)) else {
            fail("--precision takes one of \(DabPrecision.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        precision = p
    case "--threads":
        guard let n = args.popFirst().flatMap(Int.init), n > 0 else { fail("--threads takes a count") }
        threads = n
    default: positional.append(a)
    }
}
guard positional.count == 4 else {
    fail("usage: brush-render BRUSH '#rrggbb' EVENTS OUT.png [--size WxH] [--precision P] [--threads N] [--legacy] [--psnr REF.png]")
}
guard let color = Color(hex: positional[1]) else { fail("\(positional[1]): not a colour (#rrggbb)") }
/// A .myb file, or an installed brush by name.
func brushSettings(_ brush: String) throws(BrushError) -> BrushSettings {
    brush.hasSuffix(".myb") ? try BrushLibrary.load(brush) : try BrushLibrary.installed().settings(named: brush)
}

do {
    let settings = try brushSettings(positional[0])
    let eventsPath = positional[2]
    let bytes: [UInt8]
    do { bytes = try FileBytes.read(eventsPath, limit: 1 << 30) } catch { fail(error.description) }
    let events = try BrushRecording.parse(String(decoding: bytes, as: UTF8.self), path: eventsPath)
    let surface = TiledDabSurface(compute: ComputeContext(threads: threads), precision: precision)
    if let under {
        let shifted = events.map { BrushEvent(t: $0.t, x: $0.x + under.dx, y: $0.y + under.dy, pressure: $0.pressure, xtilt: $0.xtilt,
                                              ytilt: $0.ytilt) }
        try BrushPlayer.play(shifted, settings: try brushSettings(under.brush), color: under.color, on: surface, legacy: legacy)
    }
    try BrushPlayer.play(events, settings: settings, color: color, on: surface, legacy: legacy)
    let rgb = surface.overWhite(Rect(size: size))
    var pixels = [UInt32](repeating: 0, count: size.area)
    for i in 0..<size.area { pixels[i] = 0xff00_0000 | UInt32(rgb[3 * i]) << 16 | UInt32(rgb[3 * i + 1]) << 8 | UInt32(rgb[3 * i + 2]) }
    do { try PNGImage(width: size.width, height: size.height, pixels: pixels).write(to: positional[3]) } catch {
        fail(error.description, status: 1)
    }
    if let reference {
        let theirs: PNGImage
        do { theirs = try PNGImage.read(from: reference) } catch { fail("\(reference): \(error.message)") }
        guard theirs.width == size.width, theirs.height == size.height else { fail("\(reference): not \(size.width)x\(size.height)") }
        print("psnr \(PSNR.decibels(pixels, theirs.pixels))")
    }
} catch {
    fail(error.description)
}
