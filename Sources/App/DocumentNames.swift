import Files

/// The file the window's document is kept in, if it has one, whether it changed since it was
/// opened or saved, and the names a save or an open suggest.
public struct DocumentNames: Sendable, Equatable {
    /// Absolute; nil for a new document (its first save asks for a name).
    public var path: String?
    /// Changed since opened or last saved: the title marks it with a `*`.
    public private(set) var edited = false
    /// Counts the changes, so a save finishing knows whether what it wrote is still the latest.
    public private(set) var revision = 0
    /// Where a new document's first save and an open without a file look (the export folder).
    public var folder: String
    public var files: PathLookup

    /// - Parameter edited: the document already holds changes its file does not (a session
    ///   restored after a crash).
    public init(path: String? = nil, edited: Bool = false, folder: String = ".", files: PathLookup = .real(home: "", currentFolder: ".")) {
        self.path = path; self.folder = folder; self.files = files
        self.edited = path != nil && edited
    }

    /// The picture changed.
    public mutating func changed() {
        revision += 1
        edited = true
    }

    /// A save of the document as it was at `revision` finished writing `path`, now its file;
    /// unsaved changes are left only if it changed since.
    public mutating func saved(to path: String, revision saved: Int) {
        self.path = path
        if saved == revision { edited = false }
    }

    /// How the title names the document: its file's name, or "untitled"; `*` first while edited.
    public var title: String { (edited ? "*" : "") + (path.map(FilePath.baseName) ?? "untitled") }

    /// The name a prompt starts with, as it shows it (`~/…`).
    public func suggestion(for purpose: NameEntry.Purpose) -> String {
        switch purpose {
        case .open: return files.shown(path.map(FilePath.folder) ?? files.absolute(folder)) + "/"
        case .rename: return ""
        case .save, .saveAs:
            if let path { return files.shown(path) }
            let stem = files.absolute(folder) + "/untitled"
            let free = (1...999).lazy.map { stem + ($0 == 1 ? "" : "-\($0)") + ".ora" }.first { !files.isFile($0) }
            return files.shown(free ?? stem + ".ora")
        }
    }
}
