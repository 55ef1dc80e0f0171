import Foundation

/// A progress bar on stderr, redrawn in place at most ten times a second: work done, time
/// elapsed, an estimate of the time left. Silent unless stderr is a terminal, so logs and
/// pipes get no control characters; and silent for work that ends within `showAfter` seconds.
final class ProgressBar {
    private let label: String
    private let total: Int
    private let enabled: Bool
    private let showAfter: Double
    private let start = Date()
    private var lastDrawn: Date?

    init(_ label: String, total: Int, showAfter: Double = 0, enabled: Bool = isatty(2) == 1) {
        self.label = label
        self.total = max(total, 1)
        self.showAfter = showAfter
        self.enabled = enabled
    }

    /// `done` of the total are done (a guessed total is never shown as reached before `finish`).
    func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(start) >= showAfter else { return }
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, done < total { return }
        let done = min(done, total)
        lastDrawn = now
        FileHandle.standardError.write(Data(("\r" + Self.line(label, done: done, total: total, elapsed: now.timeIntervalSince(start))).utf8))
    }

    /// Ends the bar's line (it stays on screen).
    func finish() {
        guard enabled, lastDrawn != nil else { return }
        lastDrawn = nil
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// `timelapse [##########----------] 450/900 frames  4.2 s  ~4.2 s left`
    static func line(_ label: String, done: Int, total: Int, elapsed: Double) -> String {
        let width = 24
        let filled = min(width, done * width / max(total, 1))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let left = done > 0 && done < total ? String(format: "  ~%.1f s left", elapsed * Double(total - done) / Double(done)) : ""
        return "\(label) [\(bar)] \(done)/\(total) frames  \(String(format: "%.1f", elapsed)) s\(left)\u{1B}[K"
    }
}
