import Files
import Journal
import PNGFile

/// A file given where a replay is wanted that is plainly something else, told by its first
/// bytes: a PNG picture, or a zip (an OpenRaster document). Said as what it is, not as the
/// JSON error its first line would make ("expected a value, found …").
enum NotAReplay {
    /// The line to say for `path` given to `command` (render, timelapse), or nil when it may be a
    /// replay (anything else is for the replay parser to judge, line by line).
    static func refusal(_ path: String, command: String) -> String? {
        guard FileBytes.isRegularFile(path), let head = try? FileReader(path).read(upTo: 8) else { return nil }
        let what: String, opens: String?
        if head.starts(with: PNGImage.signature) {
            (what, opens) = ("a PNG picture", "a picture")
        } else if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            (what, opens) = DocumentFile.isOpenRaster(path) ? ("an OpenRaster document", "a document") : ("a zip archive", nil)
        } else {
            return nil
        }
        return "\(path): \(what), not a replay: \(command) plays a replay or session journal (.jsonl, JSON Lines)"
            + (opens.map { "; quicksilver window \(path) opens \($0) to paint on" } ?? "")
    }
}
