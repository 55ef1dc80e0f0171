import Files
import Portal

/// The desktop's file chooser from the app's side, pure: the question Save, Save As and Open
/// ask it, and what its answer does. A chosen name goes where the status strip's Return sends
/// one (`AppRequest.save` or `.open`), without asking again before replacing a file: the chooser
/// asked.
enum FileChoice {
    /// What an answer does.
    enum Outcome: Equatable {
        /// Save or open, as the strip's Return would.
        case request(AppRequest)
        /// Nothing is done; the status says why.
        case say(String)
        /// Ask in the status strip instead, starting from this name (as shown, `~/…`; nil: the
        /// strip's own suggestion), the status saying why if `said`.
        case askInStrip(suggestion: String?, said: String?)
    }

    static let openRaster = FileFilter("OpenRaster (.ora, layers kept)", [.glob("*.ora"), .mime("image/openraster")])
    static let png = FileFilter("PNG picture (.png, flattened)", [.glob("*.png"), .mime("image/png")])
    static let openable = FileFilter("Drawings (.ora, .png) and sessions (.jsonl)",
                                     [.glob("*.ora"), .glob("*.png"), .glob("*.jsonl"), .mime("image/openraster"), .mime("image/png")])
    static let anyFile = FileFilter("All files", [.glob("*")])

    /// The question for a save (a new document's first), a Save As or an Open, starting where
    /// the strip's prompt would: the document's own folder and name, or the export folder's
    /// first free `untitled.ora`.
    static func question(for purpose: NameEntry.Purpose, names: DocumentNames) -> ChooserQuestion {
        let files = names.files
        switch purpose {
        case .open, .rename:
            let folder = names.path.map(FilePath.folder) ?? files.absolute(names.folder)
            return ChooserQuestion(.open, title: "Open drawing", folder: folder, filters: [openable, anyFile], acceptLabel: "_Open")
        case .save, .saveAs:
            let path = files.absolute(names.suggestion(for: purpose))
            let pngFirst = FilePath.extension(of: path).lowercased() == "png"
            return ChooserQuestion(.save, title: purpose == .save ? "Save drawing" : "Save drawing as", folder: FilePath.folder(of: path),
                                   name: FilePath.baseName(of: path), filters: pngFirst ? [png, openRaster] : [openRaster, png],
                                   acceptLabel: "_Save")
        }
    }

    /// What `answer` to the question for `purpose` does. A save's name without .ora or .png
    /// gets the extension of the filter chosen (OpenRaster unless it was PNG's); if a file has
    /// that name the chooser did not ask about it, so the strip does.
    static func outcome(of answer: ChooserAnswer, for purpose: NameEntry.Purpose, files: PathLookup) -> Outcome {
        switch answer {
        case .chosen(let paths, let filter):
            guard let path = paths.first else { return .say("the file chooser chose no file") }
            switch purpose {
            case .open, .rename: return .request(.open(path))
            case .save, .saveAs:
                if NameEntry.savable(path) { return .request(.save(to: path)) }
                let named = path + (filter == png.name ? ".png" : ".ora")
                return files.isFile(named) ? .askInStrip(suggestion: files.shown(named), said: nil) : .request(.save(to: named))
            }
        case .cancelled, .ended: return .say(purpose == .open ? "nothing opened" : "nothing saved")
        case .failed(let why): return .askInStrip(suggestion: nil, said: "the file chooser failed: \(why)")
        case .unavailable: return .askInStrip(suggestion: nil, said: nil)
        }
    }
}
