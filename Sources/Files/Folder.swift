/// Folders made and checked through the same calls as files, so their errors read the same.
public enum Folder {
    /// Makes `path` and every folder above it that is missing (mode 0755 less umask). Names the
    /// part that stands in the way: "…/state is a file, not a folder".
    public static func make(_ path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            switch FileCalls.entry(at: prefix) {
            case .folder?: continue
            case .file?, .other?: throw FileError(path: prefix, message: "is a file, not a folder")
            case nil:
                do { try FileCalls.makeFolder(prefix) } catch {
                    // Another process may have made it meanwhile.
                    if FileCalls.entry(at: prefix) == .folder { continue }
                    throw FileError(path: prefix, error)
                }
            }
        }
    }

    /// True when `path` is a folder.
    public static func exists(_ path: String) -> Bool { FileCalls.entry(at: path) == .folder }

    /// The names in the folder at `path` (none where it cannot be read), in no set order.
    public static func names(in path: String) -> [String] { FileCalls.names(in: path) }
}
