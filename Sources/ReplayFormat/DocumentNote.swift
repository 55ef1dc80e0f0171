import Events

/// The file a session's document is kept in, as its events tell it: the picture or document it
/// opened, then each `document` event (a save finished) naming the file anew. A session
/// restored after a crash goes on with it: its title names the file, Ctrl+S writes there, and
/// it is marked edited when the picture changed after the file was last written.
public struct DocumentNote: Equatable, Sendable {
    /// Absolute.
    public var file: String
    /// The document holds changes the file does not.
    public var edited: Bool

    public init(file: String, edited: Bool = false) {
        self.file = file
        self.edited = edited
    }

    /// After `events`, played from a header that opened `opened` (nil: a new document or a
    /// snapshot): nil while no file is known.
    public static func after(_ events: [Replay.TimedEvent], opened: String?) -> DocumentNote? {
        var note = opened.map { DocumentNote(file: $0) }
        for e in events { noting(e.event, in: &note) }
        return note
    }

    /// Brings `note` past one more event: a `document` event names the file, a change to the
    /// picture marks it edited.
    public static func noting(_ event: SessionEvent, in note: inout DocumentNote?) {
        if case .command(.document(let file, let edited)) = event {
            note = DocumentNote(file: file, edited: edited)
        } else if event.changesThePicture {
            note?.edited = true
        }
    }

    /// The event that says it.
    public var event: SessionEvent { .command(.document(file: file, edited: edited)) }
}
