import Compute
import Foundation
import Journal
import Paint

/// Where the window journals, and bringing a previous session back from there.
enum JournalLocation {
    /// `--journal FILE`, else $XDG_STATE_HOME/quicksilver/journal.jsonl (default
    /// ~/.local/state/quicksilver/journal.jsonl); the folder is created.
    static func path(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let option { return option }
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.local/state"
        let folder = state + "/quicksilver"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            printError("quicksilver: cannot create the journal folder \(folder): \(error.localizedDescription)")
            throw Exit.failure
        }
        return folder + "/journal.jsonl"
    }

    /// The previous session from the journal at `path` when it did not end cleanly (a crash,
    /// kill -9, power loss, a lost X server) or when `restore` asks for it; nil otherwise.
    /// Says on stderr what it did. A journal that cannot be read is moved aside, never deleted.
    static func recover(from path: String, restore: Bool, compute: ComputeContext, historyBytes: Int) -> Session? {
        guard FileManager.default.fileExists(atPath: path) else {
            if restore { printError("quicksilver: no previous session to restore in \(path)") }
            return nil
        }
        do {
            let loaded = try Playback.load(path, forgivingCutOffLastLine: true, compute: compute, historyBytes: historyBytes)
            guard !loaded.endedCleanly || restore else { return nil }
            if let cutOff = loaded.cutOff {
                printError("quicksilver: warning: \(path):\(cutOff.line): the last line was cut off (\(cutOff.message)); recovered up to line \(cutOff.line - 1)")
            }
            let why = loaded.endedCleanly ? "as asked (--restore)" : "it did not end cleanly"
            printError("quicksilver: restored the previous session from \(path) (\(loaded.strokes) strokes): \(why)")
            return loaded.session
        } catch {
            let aside = path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            printError("quicksilver: cannot restore the previous session: \(error); kept it as \(aside)")
            return nil
        }
    }
}
