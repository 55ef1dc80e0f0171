/// Why the desktop's file chooser could not be asked, or did not answer with a file: its kind,
/// for the app to act on (no portal: ask in the status strip instead), and one line to show.
public struct PortalError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No session bus: none named in the environment, or not reachable there.
        case noBus
        /// No desktop portal with a file chooser on the bus (or it did not say so in time).
        case noPortal
        /// A call on the bus failed (its D-Bus error is in the description).
        case callFailed
        /// The portal's answer named no local file.
        case badAnswer
        /// The bus connection closed while waiting for the answer.
        case disconnected
    }

    public let kind: Kind
    /// The reason, in words.
    public let description: String

    public init(_ kind: Kind, _ description: String) { self.kind = kind; self.description = description }
}
