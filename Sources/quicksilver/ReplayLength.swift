import Files
import Foundation

/// How many 60 Hz frames a replay or journal spans, guessed from its last line's time (its
/// tail alone is read): the total of `render`'s progress bar. A continued session's clock
/// starts again at its `continued` line, so there the guess falls short; the bar then waits
/// near its end. Nil when the tail has no time, and for a stream (a FIFO, a pipe): opening one
/// would wait for a writer, or take what it writes from the player.
enum ReplayLength {
    static func frames(of path: String) -> Int? {
        guard FileBytes.isRegularFile(path), let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let end = try? file.seekToEnd(), end > 0 else { return nil }
        try? file.seek(toOffset: end > 4096 ? end - 4096 : 0)
        guard let data = try? file.readToEnd(), let tail = String(data: data, encoding: .utf8) else { return nil }
        for line in tail.split(separator: "\n").reversed() {
            guard let range = line.range(of: "\"t\":") else { continue }
            let number = line[range.upperBound...].drop { $0 == " " }.prefix { "0123456789.eE+-".contains($0) }
            if let t = Double(number), t.isFinite, t >= 0, t < 1e9 { return Int(t * 60) + 1 }
        }
        return nil
    }
}
