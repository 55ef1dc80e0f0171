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
}
