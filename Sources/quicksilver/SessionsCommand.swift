import ArgumentParser
import Foundation
import Journal

/// `quicksilver sessions`: the sessions folder, newest first, one line each.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the journaled sessions, newest first.",
        discussion: """
        One line per session: its journal's path, when it started and ended, the strokes drawn, \
        the canvas size, and how it ended (cleanly, in use by a running window, crashed, or \
        crashed and recovered in a later session). Continue any of them with \
        `quicksilver window PATH`, the newest with `quicksilver window --restore`.
        """
    )

    @Option(help: "The sessions folder (default: $XDG_STATE_HOME/quicksilver, i.e. ~/.local/state/quicksilver).")
    var stateDir: String?

    func run() throws {
        let store = SessionStore(folder: stateDir ?? SessionStore.defaultFolder())
        // A folder named on the command line must be there; the default one is made by the first
        // window that journals, so before that there are simply no sessions.
        if stateDir != nil, !store.exists {
            printError("quicksilver: \(store.folder): no such folder")
            throw Exit.failure
        }
        for s in store.list(countingStrokes: true) {
            let size = s.size.map(\.description) ?? "?"
            let strokes = s.strokes.map { "\($0) stroke\($0 == 1 ? "" : "s")" } ?? "?"
            printLine("\(s.path)  \(Self.time(s.started))  \(Self.time(s.ended))  \(strokes)  \(size)  \(s.state)")
        }
    }

    /// Local time, to the second.
    static func time(_ date: Date?) -> String {
        guard let date else { return "?" }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }
}
