/// What the file chooser is asked: a name to save under, or a file to open, with what it
/// suggests. Its `options` are the portal call's `a{sv}`.
public struct ChooserQuestion: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `SaveFile`: one name, perhaps of a file that exists (the chooser asks before replacing).
        case save
        /// `OpenFile`: one existing file.
        case open
    }

    public var kind: Kind
    /// The dialog's title.
    public var title: String
    /// The folder it opens in (absolute), if any.
    public var folder: String?
    /// The file name typed in at the start (saving).
    public var name: String?
    /// The filters offered, the first one chosen at the start.
    public var filters: [FileFilter]
    /// The accept button's label ("_Save"), if not the chooser's own.
    public var acceptLabel: String?

    public init(_ kind: Kind, title: String, folder: String? = nil, name: String? = nil, filters: [FileFilter] = [],
                acceptLabel: String? = nil) {
        self.kind = kind; self.title = title; self.folder = folder; self.name = name; self.filters = filters
        self.acceptLabel = acceptLabel
    }

    /// The `org.freedesktop.portal.FileChooser` method that asks it.
    public var method: String { kind == .save ? "SaveFile" : "OpenFile" }

    /// The call's options, `a{sv}`: `handle_token` (so the request path is known before the
    /// call), modal, the label, the filters and the one chosen first, and where to start:
    /// `current_folder` is a NUL-terminated byte string (a path need not be UTF-8),
    /// `current_name` only for a save.
    public func options(token: String) -> DBusValue {
        var entries: [(String, DBusValue)] = [("handle_token", .string(token)), ("modal", .bool(true))]
        if let acceptLabel { entries.append(("accept_label", .string(acceptLabel))) }
        if kind == .open { entries += [("multiple", .bool(false)), ("directory", .bool(false))] }
        if !filters.isEmpty {
            entries.append(("filters", .array(element: "(sa(us))", filters.map(\.value))))
            entries.append(("current_filter", filters[0].value))
        }
        if let folder { entries.append(("current_folder", .bytes(Array(folder.utf8) + [0]))) }
        if kind == .save, let name { entries.append(("current_name", .string(name))) }
        return .vardict(entries)
    }
}
