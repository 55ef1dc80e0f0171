/// What came of a `ChooserQuestion`.
public enum ChooserAnswer: Sendable, Equatable {
    /// The files chosen (one, as Quicksilver asks), as local paths; `filter`: the name of the
    /// filter chosen with them, if the chooser said.
    case chosen([String], filter: String?)
    /// The user closed the chooser without choosing (its Cancel button).
    case cancelled
    /// The chooser ended without a choice some other way: GTK's says so of its Escape key and
    /// of the window's close button, and a backend that could not show a dialog says the same.
    case ended
    /// The chooser could not answer this time (it failed, or its answer was unusable).
    case failed(PortalError)
    /// No portal answers on this desktop: ask some other way, now and from now on.
    case unavailable(PortalError)

    /// The answer a `Request.Response` signal carries: `response` 0 (the user chose), 1 (the
    /// user cancelled) or 2 (ended some other way), and its `results` (`a{sv}`: `uris`, an `as` of
    /// file:// URIs; `current_filter`, a `(sa(us))`).
    public static func from(response: UInt32, results: DBusValue) -> ChooserAnswer {
        switch response {
        case 0:
            guard let uris = results["uris"]?.stringArray, !uris.isEmpty else {
                return .failed(PortalError(.badAnswer, "the file chooser answered with no file"))
            }
            var paths: [String] = []
            for uri in uris {
                guard let path = FileURI.path(uri) else { return .failed(PortalError(.badAnswer, "not a local file: \(uri)")) }
                paths.append(path)
            }
            var filter: String?
            if case .structure(let fields)? = results["current_filter"], case .string(let name)? = fields.first { filter = name }
            return .chosen(paths, filter: filter)
        case 1: return .cancelled
        default: return .ended
        }
    }
}
