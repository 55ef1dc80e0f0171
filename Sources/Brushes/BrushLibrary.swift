import Files
import Glibc

/// The MyPaint brushes installed, found where MyPaint looks: `mypaint-data/2.0/brushes` under
/// `$XDG_DATA_HOME` (default ~/.local/share), then under each of `$XDG_DATA_DIRS` (default
/// /usr/local/share:/usr/share), a brush in an earlier folder hiding one of the same name in a
/// later. Each folder in there is a pack (classic, deevad, ramon, tanda, kaerhon_v1, Dieterle,
/// experimental…); a brush is named by pack and file ("classic/charcoal"); its icon is the
/// `_prev.png` beside its .myb. Packs and the brushes in each come in the order of the folder's
/// order.conf (MyPaint's), the rest after them by name.
public struct BrushLibrary: Sendable {
    /// One installed brush.
    public struct Entry: Sendable, Equatable {
        /// "pack/name" ("name" for a brush outside any pack).
        public var name: String
        public var pack: String
        /// Its .myb file.
        public var path: String
        /// Its preview, when there is one.
        public var icon: String?
    }

    /// The folders searched, first first.
    public let folders: [String]
    /// Every brush found, pack by pack.
    public let brushes: [Entry]

    /// The packs, in order.
    public var packs: [String] {
        var seen = Set<String>()
        return brushes.compactMap { seen.insert($0.pack).inserted ? $0.pack : nil }
    }

    /// The folders MyPaint would search, given an environment (the process's by default).
    public static func searchFolders(environment: [String: String]? = nil) -> [String] {
        func value(_ key: String) -> String? {
            if let environment { return environment[key].flatMap { $0.isEmpty ? nil : $0 } }
            guard let p = getenv(key) else { return nil }
            let s = String(cString: p)
            return s.isEmpty ? nil : s
        }
        var roots: [String] = []
        if let home = value("XDG_DATA_HOME") {
            roots.append(home)
        } else if let home = value("HOME") {
            roots.append(home + "/.local/share")
        }
        roots += (value("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        var seen = Set<String>()
        return roots.map { $0 + "/mypaint-data/2.0/brushes" }.filter { seen.insert($0).inserted }
    }

    /// The brushes under `folders` (those that exist).
    public init(folders: [String]) {
        self.folders = folders
        var byName: [String: Entry] = [:]
        var order: [String] = []
        for folder in folders where Folder.exists(folder) {
            var found: [Entry] = []
            for item in Self.list(folder) {
                let path = folder + "/" + item
                if item.hasSuffix(".myb") {
                    found.append(Self.entry(pack: "", file: item, in: folder))
                } else if Folder.exists(path) {
                    for file in Self.list(path) where file.hasSuffix(".myb") { found.append(Self.entry(pack: item, file: file, in: path)) }
                }
            }
            for e in found where byName[e.name] == nil {
                byName[e.name] = e
                order.append(e.name)
            }
        }
        // Packs by their first mention in an order.conf, then by name; brushes likewise within.
        var rank: [String: Int] = [:]
        for folder in folders where Folder.exists(folder) {
            for name in Self.order(of: folder) where rank[name] == nil { rank[name] = rank.count }
        }
        func packRank(_ pack: String) -> Int {
            order.filter { byName[$0]?.pack == pack }.compactMap { rank[$0] }.min() ?? Int.max
        }
        let packs = Set(byName.values.map(\.pack)).sorted { a, b in
            let ra = packRank(a), rb = packRank(b)
            return ra != rb ? ra < rb : a < b
        }
        brushes = packs.flatMap { pack in
            byName.values.filter { $0.pack == pack }.sorted { a, b in
                let ra = rank[a.name] ?? Int.max, rb = rank[b.name] ?? Int.max
                return ra != rb ? ra < rb : a.name < b.name
            }
        }
    }

    /// The brushes installed where MyPaint looks.
    public static func installed(environment: [String: String]? = nil) -> BrushLibrary {
        BrushLibrary(folders: searchFolders(environment: environment))
    }

    /// The brush called `name` ("classic/charcoal"), if installed.
    public func entry(named name: String) -> Entry? { brushes.first { $0.name == name } }

    /// The settings of the brush called `name`: an error naming it when it is not installed.
    public func settings(named name: String) throws(BrushError) -> BrushSettings {
        guard let e = entry(named: name) else {
            throw BrushError(path: name, message: "no such brush installed (looked in \(folders.joined(separator: ", ")))")
        }
        return try Self.load(e.path)
    }

    /// The largest .myb file read (the stock ones are under 20 KB).
    public static let maxFileBytes = 4 << 20

    /// Reads and checks a .myb file.
    public static func load(_ path: String) throws(BrushError) -> BrushSettings {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: maxFileBytes) } catch { throw BrushError(path: path, message: error.reason) }
        return try BrushSettings.parse(bytes, path: path)
    }

    private static func entry(pack: String, file: String, in folder: String) -> Entry {
        let base = String(file.dropLast(4))
        let icon = folder + "/" + base + "_prev.png"
        return Entry(name: pack.isEmpty ? base : pack + "/" + base, pack: pack, path: folder + "/" + file,
                     icon: FileBytes.isRegularFile(icon) ? icon : nil)
    }

    /// The brush names an order.conf lists, in order ("Group:" lines skipped).
    private static func order(of folder: String) -> [String] {
        guard let bytes = try? FileBytes.read(folder + "/order.conf", limit: 1 << 20) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let s = line.trimmingCharacters(in: " \t\r")
            return s.isEmpty || s.hasPrefix("#") || s.hasPrefix("Group:") ? nil : s
        }
    }

    /// The names in a folder, sorted (hidden ones left out).
    private static func list(_ folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        return String(drop { chars.contains($0) }.reversed().drop { chars.contains($0) }.reversed())
    }
}
