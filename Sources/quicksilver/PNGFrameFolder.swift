import Foundation
import Geometry
import PNGFile

/// A folder of numbered PNG frames, `frame-000001.png` on: written into a temporary folder
/// beside it and renamed into place at the end, so the folder appears whole or not at all. The
/// folder must not exist yet, or be empty.
final class PNGFrameFolder: FrameSink {
    private let folder: String
    private let temporary: String
    private let size: Size
    private var count = 0
    private var finished = false

    init(folder: String, size: Size) throws(TimelapseError) {
        var folder = folder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        self.folder = folder
        self.size = size
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: folder), !existing.isEmpty {
            throw TimelapseError("\(folder): the folder is not empty; frames go to a new or empty folder")
        }
        let parent = (folder as NSString).deletingLastPathComponent
        temporary = (parent.isEmpty ? "." : parent) + "/.\((folder as NSString).lastPathComponent).partial-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        } catch {
            throw TimelapseError("\(folder): cannot make the folder (\(parent.isEmpty ? "." : parent) is not a writable folder)")
        }
    }

    func write(_ frame: [UInt32]) throws(TimelapseError) {
        count += 1
        let name = "frame-" + String(repeating: "0", count: max(0, 6 - String(count).count)) + String(count) + ".png"
        // Not synced one by one: the folder is renamed into place only once all are written.
        let bytes: [UInt8]
        do { bytes = try PNGImage(width: size.width, height: size.height, pixels: frame).encode() } catch {
            throw TimelapseError("quicksilver: cannot encode frame \(count): \(error)")
        }
        guard FileManager.default.createFile(atPath: temporary + "/" + name, contents: Data(bytes)) else {
            throw TimelapseError("quicksilver: cannot write \(folder)/\(name)")
        }
    }

    func finish() throws(TimelapseError) {
        // rename() replaces an empty folder, and fails on one that is not.
        guard rename(temporary, folder) == 0 else {
            throw TimelapseError("quicksilver: cannot put the frames in \(folder): \(String(cString: strerror(errno)))")
        }
        finished = true
    }

    func abandon() {
        guard !finished else { return }
        finished = true
        try? FileManager.default.removeItem(atPath: temporary)
    }

    deinit { abandon() }
}
