/// A file that failed to be written or read: which and why, ready for one line on stderr.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var message: String
    /// The system's error number when a call failed (ENOSPC, EROFS, EACCES, …), so a caller can
    /// tell a full disk from a refused folder; nil for errors of the content.
    public var code: Int32?
    public init(path: String, message: String, code: Int32? = nil) { self.path = path; self.message = message; self.code = code }
    init(path: String, _ failure: FileCalls.Failure) { self.init(path: path, message: failure.message, code: failure.code) }
    public var description: String { "\(path): \(message)" }
    /// Why, in a few words: the system's text for `code` ("No space left on device"), else the message.
    public var reason: String { code.map(FileCalls.text(of:)) ?? message }
}
