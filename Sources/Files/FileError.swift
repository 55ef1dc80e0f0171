/// A file that failed to be written or read: which and why, ready for one line on stderr.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, for callers that act on the cause (a full disk, a missing file) rather
    /// than only print it.
    public enum Kind: Sendable, Equatable {
        case notFound, permissionDenied, noSpace, readOnlyFileSystem
        /// A folder where a file was wanted.
        case isFolder
        /// A socket, block device or other kind of file that is not read.
        case notRegularFile
        /// More bytes than the reader's limit.
        case tooLarge
        case other
    }

    public var path: String
    public var message: String
    public var kind: Kind

    public init(path: String, message: String, kind: Kind = .other) {
        self.path = path; self.message = message; self.kind = kind
    }

    public var description: String { "\(path): \(message)" }

    /// Why, in a few words ("No space left on device"): for a title bar, where the path and the
    /// call that failed would not fit.
    public var reason: String {
        switch kind {
        case .noSpace: "No space left on device"
        case .readOnlyFileSystem: "Read-only file system"
        case .permissionDenied: "Permission denied"
        case .notFound: "No such file or folder"
        default: message
        }
    }
}
