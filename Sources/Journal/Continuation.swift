import ReplayFormat

/// What a session continued from a file carries, so that its own journal replays to exactly
/// what the window shows, undo and redo included: the file's events as far as they were played,
/// and the pictures they name. The new journal opens with them, then a `continued` line, and
/// so never depends on the file it continued (which may be pruned, moved or damaged later).
public struct Continuation: Sendable {
    /// The file continued, absolute.
    public var path: String
    /// Its size in bytes when it was read (before reading: a file still growing is never
    /// taken for wholly recovered).
    public var bytes: Int
    /// Its header: the canvas, seed, background, undo memory, snapshot and undo history the
    /// events start from.
    public var header: Replay.Header
    /// Every event played, in order, without the `exit`; a paste names its picture (no pixels).
    public var events: [Replay.TimedEvent]
    /// The bytes of the files beside it that it names, by the name the file gives them: the
    /// snapshot, the undo history (when it could be read), the pasted pictures.
    public var pictures: [String: [UInt8]]
    /// Which of `pictures` were read from the file of that name beside it (all but an opened
    /// picture read from the picture itself): files a journal wrote whole and never changes,
    /// which a journal in the same folder links rather than copies, so that it is on disk at
    /// once, however big they are.
    public var beside: Set<String> = []
}
