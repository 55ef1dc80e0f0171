/// What the window says about itself, kept in step with the title and the status strip: the
/// message of the last action, held until something replaces it, and what was last shown.
struct StatusLine {
    /// What the status says once the frame is drawn ("saved …", "pasted …").
    var message: String?
    /// Something it shows changed (a prompt) though no frame is otherwise due.
    var isStale = false
    /// What the title and strip show now.
    private(set) var shown: Status?

    /// The status to show now for `current` (with the message just said, if any), or nil when
    /// it is what is shown already. What the last action did stays said until another message
    /// replaces it or something else the status shows changes, the pressure aside (it moves with
    /// every sample of a pen, and with the modifier keys that simulate it: the Ctrl of Ctrl+V
    /// among them) and the document's unsaved mark (the first stroke after a save sets it).
    /// A frame that brings nothing new does not wipe it either.
    mutating func update(_ current: Status) -> (status: Status, titleChanged: Bool)? {
        var s = current
        s.message = message
        message = nil
        isStale = false
        if s.message == nil, let shown, let kept = shown.message {
            var same = s
            same.message = kept
            same.pressure = shown.pressure
            same.document = shown.document
            if same == shown { s.message = kept }
        }
        guard s != shown else { return nil }
        defer { shown = s }
        return (s, s.title != shown?.title)
    }
}
