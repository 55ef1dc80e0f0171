import Files
import ReplayFormat

/// The MyPaint brushes last chosen, remembered between sessions: `brushes.json` in the state
/// folder (`$XDG_STATE_HOME/quicksilver`), `{"version": 1, "recent": ["classic/charcoal", …]}`,
/// the latest first, written whole (atomically) each time a brush is chosen. A file that cannot
/// be read or makes no sense is never a reason not to open the window: it is said in one line
/// and the defaults are used.
public struct RecentBrushesFile: Sendable {
    public let path: String

    /// The file's name in the state folder.
    public static let name = "brushes.json"
    /// The most names kept.
    public static let maxCount = 32
    /// The largest file read (a full one is under 2 KB).
    static let maxBytes = 64 << 10

    public init(folder: String) { path = folder + "/" + Self.name }

    /// The names it holds, the latest first; none where there is no file; none and what is
    /// wrong, in one line, where it is damaged.
    public func load() -> (names: [String], problem: String?) {
        guard FileBytes.isRegularFile(path) || FileBytes.isStream(path) else { return ([], nil) }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: Self.maxBytes) } catch { return ([], damaged(error.reason)) }
        guard case .object(let members)? = try? JSON.parse(String(decoding: bytes, as: UTF8.self)) else {
            return ([], damaged("not a JSON object"))
        }
        let fields = Dictionary(members, uniquingKeysWith: { a, _ in a })
        guard case .number(_, 1)? = fields["version"] else { return ([], damaged("no \"version\": 1")) }
        guard case .array(let items)? = fields["recent"] else { return ([], damaged("no \"recent\" list")) }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item, !name.isEmpty, name.utf8.count <= 256 else {
                return ([], damaged("\"recent\" holds something other than brush names"))
            }
            if !names.contains(name) { names.append(name) }
        }
        return (Array(names.prefix(Self.maxCount)), nil)
    }

    private func damaged(_ why: String) -> String { "quicksilver: \(path): \(why); the palette's ring starts from the stock brushes" }

    /// Writes `names` (the latest first), its folder made if missing.
    public func save(_ names: [String]) throws(FileError) {
        let list = names.prefix(Self.maxCount).map { JSON.quoted($0) }.joined(separator: ", ")
        try Folder.make(FilePath.folder(of: path))
        try AtomicFile.write(Array("{\"version\": 1, \"recent\": [\(list)]}\n".utf8), to: path)
    }
}
