/// What a document may hold, in one place: the window, the journal, the replay format's parser
/// and OpenRaster reading all check against these, so that whatever the window can make, a
/// replay of it can play, and whatever a file declares is refused before anything is allocated.
public enum DocumentLimits {
    /// Layers in a document. A new layer past it is not made (the window says so); a replay's
    /// `select` index and a file's layer count are checked against it.
    public static let maxLayers = 4096
}
