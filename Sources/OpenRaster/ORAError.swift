import Files

/// An OpenRaster file that could not be read or written: which file, which entry in it, and what
/// is wrong, ready for one line on stderr: `picture.ora: data/layer2.png: not a PNG file`.
public struct ORAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The .ora file.
    public var path: String
    /// The archive entry at fault ("data/layer2.png"), with a line for stack.xml ("stack.xml:4");
    /// nil when the fault is the file's as a whole.
    public var entry: String?
    public var message: String
    /// The cause, for a file that could not be read or written at all (a full disk, a missing
    /// file); `.other` for what is wrong inside one.
    public var kind: FileError.Kind

    public init(path: String = "", entry: String? = nil, message: String, kind: FileError.Kind = .other) {
        self.path = path; self.entry = entry; self.message = message; self.kind = kind
    }

    init(_ error: FileError) { self.init(path: error.path, message: error.message, kind: error.kind) }

    /// One line: the entry, which the file names, and the message have their control
    /// characters escaped, and are cut when very long (what a message quotes from the file is
    /// escaped and cut already; this is the last word).
    public var description: String {
        ([path, entry.map { ORAText.oneLine($0) } ?? ""].filter { !$0.isEmpty } + [ORAText.oneLine(message, cut: 400)]).joined(separator: ": ")
    }

    /// The same error, said of the file at `path` (what is thrown inside names the entry only).
    func of(_ path: String) -> ORAError {
        var error = self
        if error.path.isEmpty { error.path = path }
        return error
    }
}
