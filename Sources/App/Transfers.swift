import Clock
import Events
import Files
import Geometry
import Input
import Journal
import Paint
import ReplayFormat
import PNGFile

/// What goes out of the window and comes into it as a picture: the document saved to its file
/// (Ctrl+S, Ctrl+Shift+S), the screenshot export (Ctrl+Shift+E), both taken at the frame so
/// they save what it played and written in the background (`BackgroundWrites`); Ctrl+C's copy
/// and Ctrl+V's paste. Each returns what the status says of it.
struct Transfers {
    let exporter: Exporter
    let console: Console
    let writes: BackgroundWrites
    /// The document's file, and whether it changed since.
    var names: DocumentNames
    /// What waits for the frame: an export, a save, a copy.
    private(set) var requested: (export: Bool, save: String?, copy: Bool) = (false, nil, false)
    /// Where a paste asked for goes (the canvas point under the pointer at Ctrl+V).
    private var pasteAt: (x: Double, y: Double)?
    /// Pastes so far: each one's picture is kept as `<journal>.paste-N.png` (and beside the recording).
    private var pastes = 0

    init(exporter: Exporter, console: Console, names: DocumentNames, wakeup: Wakeup?) {
        self.exporter = exporter
        self.console = console
        self.names = names
        writes = BackgroundWrites(wakeup: wakeup)
    }

    /// What the writes finished since the last call say (the last of them), the document's file
    /// and unsaved mark brought up to date; and whether a save of the document finished.
    mutating func finishedWrites() -> (said: String?, saved: Bool) {
        var said: String?, saved = false
        for d in writes.take() {
            said = d.said
            if let s = d.saved {
                names.saved(to: s.path, revision: s.revision)
                saved = true
            }
        }
        return (said, saved)
    }

    var hasRequests: Bool { requested.export || requested.save != nil || requested.copy }

    mutating func requestExport() { requested.export = true }
    mutating func requestSave(to path: String) { requested.save = path }
    mutating func requestCopy() { requested.copy = true }

    /// A paste to centre at canvas point (x, y) once the clipboard answers.
    mutating func requestPaste(at x: Double, _ y: Double) { pasteAt = (x, y) }

    /// Carries out what the frame's requests ask, from the session as it now is; returns what
    /// the status should say (nil: nothing done).
    mutating func carryOut(_ session: Session, window: AppWindow) -> String? {
        let asked = requested
        requested = (false, nil, false)
        var said: String?
        if asked.export { said = export(session) ?? said }
        if let path = asked.save { said = save(session, to: path) ?? said }
        if asked.copy { said = copy(session, window) }
        return said
    }

    /// The canvas as a screenshot saves it and the clipboard serves it: whole, at 100 %.
    private func picture(_ session: Session) -> PNGImage {
        session.settle()
        let shot = session.snapshot()
        return PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
    }

    private func export(_ session: Session) -> String? {
        let (shot, exporter, console) = (picture(session), exporter, console)
        writes.run {
            do {
                let path = try exporter.save(shot)
                console.out(path)
                return .init(said: "exported \(path)")
            } catch {
                console.err("quicksilver: screenshot failed: \(error)")
                return .init(said: "screenshot failed")
            }
        }
        return nil
    }

    /// Writes the document to `path`, whole or not at all: OpenRaster with every layer, or PNG
    /// flattened (said, where there were layers to flatten). It is then the document's file.
    /// The layers are taken now; encoding and writing them happen in the background.
    private func save(_ session: Session, to path: String) -> String? {
        let name = FilePath.baseName(of: path)
        let merged = picture(session)
        let ora = DocumentFile.isOpenRaster(path)
        if ora, let why = session.layersTooLargeToWrite() {
            return "not saved: \(why)"
        }
        let document = ora ? session.documentImage() : nil
        let flattened = !ora && session.document.layers.count > 1
        let (console, revision) = (console, names.revision)
        writes.run {
            do throws(FileError) {
                if let document { try DocumentFile.write(document, merged: merged, to: path) } else { try merged.write(to: path) }
                console.out(path)
                return .init(said: flattened ? "saved \(name), flattened: a PNG keeps no layers (save as .ora to keep them)" : "saved \(name)",
                             saved: (path, revision))
            } catch {
                console.err("quicksilver: saving \(path) failed: \(error)")
                return .init(said: "saving \(name) failed: \(error.message)")
            }
        }
        return "saving \(name)…"
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
