/// What a paste brought back from the clipboard: a PNG's bytes, or why there is none.
public enum ClipboardImage: Sendable, Equatable {
    case image([UInt8])
    /// No image: the clipboard is empty, holds something else, or its owner stopped answering.
    case nothing(String)
}
