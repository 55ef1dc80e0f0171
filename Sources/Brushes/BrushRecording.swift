/// A recording of pointer events in libmypaint's benchmark format: one event a line,
/// `t x y pressure` (seconds, canvas pixels, 0…1; pressure 0 = the pen is up), optionally followed
/// by `xtilt ytilt`, fields separated by white space (libmypaint's tests/events/painting30sec.dat).
public enum BrushRecording {
    /// The events of `text`; `path` is what errors name (`FILE:LINE: what`).
    public static func parse(_ text: String, path: String) throws(BrushError) -> [BrushEvent] {
        var events: [BrushEvent] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard fields.count == 4 || fields.count == 6 else {
                throw BrushError(path: path, line: lineNumber, message: "expected \"t x y pressure [xtilt ytilt]\", found \(fields.count) fields")
            }
            var v: [Double] = []
            for f in fields {
                guard let d = Double(f), d.isFinite else {
                    throw BrushError(path: path, line: lineNumber, message: "\"\(f)\" is not a number")
                }
                v.append(d)
            }
            events.append(BrushEvent(t: v[0], x: v[1], y: v[2], pressure: v[3], xtilt: v.count == 6 ? v[4] : 0,
                                     ytilt: v.count == 6 ? v[5] : 0))
        }
        return events
    }
}
