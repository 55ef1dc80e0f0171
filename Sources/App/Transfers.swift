import Events
import Geometry
import Input
import Journal
import Paint
import PNGFile

/// What goes out of the window and comes into it as a picture: Ctrl+S's screenshot and
/// Ctrl+Shift+S's document (written at the frame, so they save what it played), Ctrl+C's copy
/// and Ctrl+V's paste. Each returns what the status says of it.
struct Transfers {
    let exporter: Exporter
    let console: Console
    /// What waits for the frame: a save, a copy.
    private(set) var requested: (export: Exporter.Kind?, copy: Bool) = (nil, false)
    /// Where a paste asked for goes (the canvas point under the pointer at Ctrl+V).
    private var pasteAt: (x: Double, y: Double)?
    /// Pastes so far: each one's picture is kept as `<journal>.paste-N.png` (and beside the recording).
    private var pastes = 0

    init(exporter: Exporter, console: Console) {
        self.exporter = exporter
        self.console = console
    }

    var hasRequests: Bool { requested.export != nil || requested.copy }

    mutating func requestExport(_ kind: Exporter.Kind) { requested.export = kind }
    mutating func requestCopy() { requested.copy = true }

    /// A paste to centre at canvas point (x, y) once the clipboard answers.
    mutating func requestPaste(at x: Double, _ y: Double) { pasteAt = (x, y) }

    /// Carries out what the frame's requests ask, from the session as it now is; returns what
    /// the status should say (nil: nothing done).
    mutating func carryOut(_ session: Session, window: AppWindow) -> String? {
        var said: String?
        if let kind = requested.export {
            requested.export = nil
            said = export(kind, session)
        }
        if requested.copy {
            requested.copy = false
            said = copy(session, window)
        }
        return said
    }

    /// The canvas as a screenshot saves it and the clipboard serves it: whole, at 100 %.
    private func picture(_ session: Session) -> PNGImage {
        session.settle()
        let shot = session.snapshot()
        return PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
    }

    private func export(_ kind: Exporter.Kind, _ session: Session) -> String {
        let what = kind == .picture ? "screenshot" : "saving the document"
        do {
            let merged = picture(session)
            let path = try kind == .picture ? exporter.save(merged) : exporter.save(session.documentImage(), merged: merged)
            console.out(path)
            return "saved \(path)"
        } catch {
            console.err("quicksilver: \(what) failed: \(error)")
            return "\(what) failed"
        }
    }

    private func copy(_ session: Session, _ window: AppWindow) -> String {
        let image = picture(session)
        do {
            return window.offerClipboard(png: try image.encode()) ? "copied \(image.width)x\(image.height) to the clipboard"
                : "the clipboard could not be taken"
        } catch {
            console.err("quicksilver: copy failed: \(error)")
            return "copy failed"
        }
    }

    /// The clipboard answered a paste: its image, centred where the paste was asked, as one
    /// command; its PNG is kept beside the journal and the recording first, which name it, so
    /// a replay pastes it again (a paste that cannot be kept is not made). Returns the command
    /// (if any) and what the status says.
    mutating func pasted(_ answer: ClipboardImage, logs: SessionLogs) -> (Command?, String?) {
        guard let at = pasteAt else { return (nil, nil) }
        pasteAt = nil
        guard case .image(let bytes) = answer else {
            if case .nothing(let why) = answer { return (nil, why) }
            return (nil, nil)
        }
        let image: PNGImage
        do { image = try PNGImage.decode(bytes, maxSide: SessionStart.maxSide) } catch {
            return (nil, "the clipboard's image cannot be read: \(error.message)")
        }
        pastes += 1
        let name = "paste-\(pastes).png"
        do { try logs.keep(picture: bytes, as: name) } catch {
            console.err("quicksilver: cannot keep the pasted picture: \(error)")
            return (nil, "the paste could not be kept, so it was not made")
        }
        let size = Size(width: image.width, height: image.height)
        let x = Int((at.x - Double(size.width) / 2).rounded()), y = Int((at.y - Double(size.height) / 2).rounded())
        return (.paste(PastedImage(file: name, x: x, y: y, size: size, pixels: image.pixels)), "pasted \(size)")
    }
}
