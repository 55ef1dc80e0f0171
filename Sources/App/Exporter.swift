import Files
import Foundation
import PNGFile

/// The screenshot export (Ctrl+Shift+E, Print): picks the folder and a fresh name, and writes
/// the PNG without ever overwriting.
public struct Exporter: Sendable {
    /// `--export-dir`, else $XDG_PICTURES_DIR or the one in ~/.config/user-dirs.dirs, else
    /// ~/Pictures when it exists, else the current folder.
    public let folder: String

    public init(folder: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.folder = folder ?? Self.defaultFolder(environment)
    }

    public static func defaultFolder(_ env: [String: String]) -> String {
        let home = env["HOME"] ?? ""
        var candidates: [String] = []
        if let xdg = env["XDG_PICTURES_DIR"] { candidates.append(xdg) }
        let configHome = env["XDG_CONFIG_HOME"] ?? home + "/.config"
        if let dirs = try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8) {
            for line in dirs.split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
                let value = line.dropFirst("XDG_PICTURES_DIR=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                candidates.append(value.replacingOccurrences(of: "$HOME", with: home))
            }
        }
        if !home.isEmpty { candidates.append(home + "/Pictures") }
        var isDir: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0, isDirectory: &isDir) && isDir.boolValue } ?? "."
    }

    /// The picture as quicksilver-YYYYMMDD-HHMMSS.png, then -2, -3, … when taken. Returns the path written.
    public func save(_ image: PNGImage, at date: Date = Date()) throws -> String {
        try save(ext: "png", at: date) { path throws(FileError) in try image.writeNew(to: path) }
    }

    /// A fresh name, never overwriting: `write` returns false when the name is taken.
    private func save(ext: String, at date: Date, _ write: (String) throws(FileError) -> Bool) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = folder + "/quicksilver-" + formatter.string(from: date)
        for n in 1...1000 {
            let path = stem + (n == 1 ? "" : "-\(n)") + "." + ext
            if try write(path) { return path }
        }
        throw FileError(path: stem + "." + ext, message: "a thousand files already have this name")
    }
}
