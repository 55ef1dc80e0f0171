import Clock
import Foundation
import Geometry
import Input
import Paint
import PNGFile
import X11Window

/// The cases on an X display ($DISPLAY): presents and clipboard transfers through real windows.
/// Each throws when the display cannot be opened or the work fails.
extension Benchmarks {
    /// That PNG from one window, which owns CLIPBOARD, to another, which asks for image/png:
    /// from the request to the last byte received. `noisy`: a canvas of noise instead, a PNG of
    /// several MB, sent in INCR chunks.
    func clipboardTransfer(noisy: Bool) throws -> Double {
        let session = drawnSession()
        if noisy {
            var state: UInt32 = 1
            session.load(DocumentImage.picture((0..<size.area).map { _ in state = state &* 1_664_525 &+ 1_013_904_223; return 0xFF00_0000 | state >> 8 }, size: size, background: .white))
        }
        let shot = session.snapshot()
        let png = try PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels).encode()
        let owner = try X11Window(display: nil, size: Size(width: 64, height: 64), title: "Quicksilver bench owner")
        defer { owner.close() }
        let asker = try X11Window(display: nil, size: Size(width: 64, height: 64), title: "Quicksilver bench asker")
        defer { asker.close() }
        guard owner.offerClipboard(png: png) else { throw BenchFailure("the window could not take CLIPBOARD") }
        return try Self.median(runs: 20) {
            asker.requestClipboardImage()
            var quietSeconds = 0
            while true {
                _ = owner.pendingEvents()
                if let answer = asker.pendingEvents().lazy.compactMap({ e -> ClipboardImage? in if case .paste(let a) = e { a } else { nil } }).first {
                    switch answer {
                    case .image(let bytes) where bytes.count == png.count: break
                    case .image(let bytes): throw BenchFailure("\(bytes.count) bytes of PNG received, not \(png.count)")
                    case .nothing(let why): throw BenchFailure("no image received: \(why)")
                    }
                    break
                }
                let polled = Poll.wait([owner.connectionFileDescriptor, asker.connectionFileDescriptor], timeoutMS: 1000)
                if polled.contains(where: \.broken) { throw BenchFailure("the connection to the X server broke") }
                quietSeconds = polled.contains(where: \.readable) ? 0 : quietSeconds + 1
                if quietSeconds == 5 { throw BenchFailure("no answer from the X server in 5 s") }
            }
        }
    }

    /// A full 1920x1080 present through a real window, waiting for the server to finish it;
    /// nil when `shared` asks for MIT-SHM and the display does not offer it.
    static func present(shared: Bool) throws -> Double? {
        let size = Size(width: 1920, height: 1080)
        let window = try X11Window(display: nil, size: size, title: "Quicksilver bench", sharedMemory: shared)
        defer { window.close() }
        guard window.usesSharedMemory == shared else { return nil }
        let target = window.frameTarget()
        target.fill(target.bounds, with: 0xFF33_6699)
        return median(runs: 200) {
            _ = window.frameTarget()
            window.present(Rect(size: size))
            window.waitForPresentCompletion()
        }
    }
}
