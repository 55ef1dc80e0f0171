import Files
import Input

/// Typing a name in the status strip: a file's, for Save As (Ctrl+Shift+S), a first save (Ctrl+S
/// on a document without a file) and Open (Ctrl+O), or the current layer's (F2, one line of at
/// most 1024 bytes, as the replay format keeps it). It starts with a suggestion typed in;
/// Ctrl+U clears it, BackSpace takes a character back, Tab completes from the folder, Return
/// accepts, Escape cancels. Accepting a save over an existing file asks first: Return again
/// replaces it, any other key goes back to the name. Pure but for `PathLookup`, which tests fake.
public struct NameEntry: Sendable, Equatable {
    /// What the name is asked for.
    public enum Purpose: Sendable, Equatable {
        case save, saveAs, open, rename

        var verb: String {
            switch self {
            case .save, .saveAs: "save as"
            case .open: "open"
            case .rename: "rename the layer"
            }
        }
    }

    public let purpose: Purpose
    /// The name as typed (`~` stands for the home folder).
    public private(set) var text: String
    /// The absolute path waiting for Return to replace it.
    public private(set) var confirming: String?
    /// What the last key could not do, or the names Tab found, for the status.
    public private(set) var hint: String?

    public init(_ purpose: Purpose, suggestion: String) {
        self.purpose = purpose
        text = suggestion
    }

    /// What a key did.
    public enum Outcome: Equatable, Sendable {
        /// Taken by the entry.
        case typed
        /// Return with a usable name: this absolute path.
        case accepted(String)
        case cancelled
    }

    public mutating func key(_ key: KeyPress, files: PathLookup) -> Outcome {
        if let path = confirming {
            confirming = nil
            return key.key == .enter ? .accepted(path) : (key.key == .escape ? .cancelled : .typed)
        }
        hint = nil
        if key.mods.contains(.control) {
            if key.key == .char("u") { text = "" }
            return .typed
        }
        switch key.key {
        case .escape: return .cancelled
        case .enter: return accept(files)
        case .backspace:
            text = String(text.dropLast())
            return .typed
        case .tab:
            if purpose != .rename { complete(files) }
            return .typed
        default:
            // Keys that type nothing (Shift, arrows) leave the name as it is.
            if !key.text.isEmpty, key.text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                if purpose == .rename, text.utf8.count + key.text.utf8.count > Self.nameBytes {
                    hint = "a layer's name is at most \(Self.nameBytes) bytes"
                } else {
                    text += key.text
                }
            }
            return .typed
        }
    }

    /// The longest layer name (the replay format's).
    public static let nameBytes = 1024

    private mutating func accept(_ files: PathLookup) -> Outcome {
        guard !text.isEmpty, purpose == .rename || !text.hasSuffix("/") else {
            hint = purpose == .rename ? "type a name" : "type a file name"
            return .typed
        }
        let path = files.absolute(text)
        switch purpose {
        case .rename: return .accepted(text)
        case .open:
            guard files.isFile(path) else {
                hint = files.isFolder(path) ? "a folder: type a file in it" : "no such file"
                return .typed
            }
            return .accepted(path)
        case .save, .saveAs:
            guard Self.savable(path) else {
                hint = "a name ending in .ora (layers kept) or .png (flattened)"
                return .typed
            }
            guard files.isFolder(FilePath.folder(of: path)) else {
                hint = "no folder \(FilePath.folder(of: path))"
                return .typed
            }
            if files.isFolder(path) {
                hint = "a folder: type a file in it"
                return .typed
            }
            if files.isFile(path) {
                confirming = path
                return .typed
            }
            return .accepted(path)
        }
    }

    /// Completes the name's last part from the names in its folder: the one that fits (a
    /// folder's gets its "/"), else as far as they all agree, listing them.
    private mutating func complete(_ files: PathLookup) {
        let folderText = text.contains("/") ? String(text[...(text.lastIndex(of: "/") ?? text.startIndex)]) : ""
        let part = String(text.dropFirst(folderText.count))
        let folder = files.absolute(folderText.isEmpty ? "." : folderText)
        let names = files.names(folder).filter { $0.hasPrefix(part) && ($0.first != "." || part.first == ".") }.sorted()
        guard let first = names.first else {
            hint = "nothing here starts with \"\(part)\""
            return
        }
        if names.count == 1 {
            text = folderText + first + (files.isFolder(folder + "/" + first) ? "/" : "")
            return
        }
        var common = first
        for n in names.dropFirst() { while !n.hasPrefix(common) { common.removeLast() } }
        text = folderText + common
        let shown = names.prefix(6).joined(separator: "  ")
        hint = names.count > 6 ? shown + "  … (\(names.count))" : shown
    }

    /// A document is saved as OpenRaster or as a flattened PNG.
    public static func savable(_ path: String) -> Bool { ["ora", "png"].contains(FilePath.extension(of: path).lowercased()) }

    /// What the status strip shows.
    public var prompt: String {
        if let confirming { return "\(FilePath.baseName(of: confirming)) exists: Return replaces it, any other key goes back" }
        let does = switch purpose { case .open: "opens"; case .rename: "renames"; default: "saves" }
        let help = hint ?? (purpose == .rename ? "" : "Tab completes, ") + "Ctrl+U clears, Return \(does), Escape cancels"
        return "\(purpose.verb): \(text)_ (\(help))"
    }
}

/// What a `NameEntry` reads of the file system.
public struct PathLookup: Sendable {
    public var home: String
    public var currentFolder: String
    public var isFile: @Sendable (String) -> Bool
    public var isFolder: @Sendable (String) -> Bool
    public var names: @Sendable (_ in: String) -> [String]

    public init(home: String, currentFolder: String, isFile: @escaping @Sendable (String) -> Bool,
                isFolder: @escaping @Sendable (String) -> Bool, names: @escaping @Sendable (String) -> [String]) {
        self.home = home; self.currentFolder = currentFolder; self.isFile = isFile; self.isFolder = isFolder; self.names = names
    }

    /// The file system itself.
    public static func real(home: String, currentFolder: String) -> PathLookup {
        PathLookup(home: home, currentFolder: currentFolder, isFile: { FileBytes.isRegularFile($0) },
                   isFolder: { Folder.exists($0) }, names: { Folder.names(in: $0) })
    }

    /// `text` as an absolute path: `~` is the home folder, a relative name is in the current folder.
    public func absolute(_ text: String) -> String {
        var path = text
        if path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
        if !path.hasPrefix("/") { path = currentFolder + "/" + path }
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` as the entry shows it: under the home folder as `~/…`.
    public func shown(_ path: String) -> String {
        path.hasPrefix(home + "/") && !home.isEmpty ? "~" + path.dropFirst(home.count) : path
    }
}

extension PathLookup: Equatable {
    public static func == (a: PathLookup, b: PathLookup) -> Bool { a.home == b.home && a.currentFolder == b.currentFolder }
}
