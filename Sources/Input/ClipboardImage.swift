/// What a paste brought back from the clipboard: a PNG's bytes, or why there is none.
public enum ClipboardImage: Sendable, Equatable {
    case image([UInt8])
    /// No image, and why in words for the title: the clipboard is empty, holds something else or
    /// an empty image, or its owner quit or stopped answering.
    case nothing(String)
}
