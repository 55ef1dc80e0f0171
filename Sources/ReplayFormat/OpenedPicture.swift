/// A picture a session opened, as its journal's header names it (`"opened": {"path": …,
/// "hash": …, "copy": …}`): the file, what its bytes were, and the copy of them beside the journal.
public struct OpenedPicture: Sendable, Equatable {
    /// The file opened, absolute.
    public var path: String
    /// Its bytes' `FileHash` when it was opened ("fnv1a64:…"): the file is played only while
    /// it still holds them.
    public var hash: String
    /// A file beside the replay holding the same bytes, written after the journal starts.
    public var copy: String

    public init(path: String, hash: String, copy: String) {
        self.path = path; self.hash = hash; self.copy = copy
    }
}
