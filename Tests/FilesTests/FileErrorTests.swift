import Files
import Foundation
import Testing
import TestSupport

/// A FileError tells its cause apart, for callers that act on it, and stays one line.
@Suite struct FileErrorTests {
    /// /dev/full refuses every write with ENOSPC, as a full disk does.
    @Test func aFullDiskIsTold() throws {
        let writer = try LineWriter(creating: "/dev/full")
        writer.append("a line")
        let error = #expect(throws: FileError.self) { try writer.flush() }
        #expect(error?.kind == .noSpace && error?.description == "/dev/full: write failed: No space left on device")
    }

    @Test func aMissingFileOrFolderIsNotFound() throws {
        let dir = try ScratchFolder.make("files")
        let missing = #expect(throws: FileError.self) { try LineReader.forEachLine(in: dir + "/missing") { _, _ in } }
        #expect(missing?.kind == .notFound && missing?.description == "\(dir)/missing: cannot open: No such file or directory")
        let noFolder = #expect(throws: FileError.self) { try AtomicFile.write([1], to: dir + "/missing/a") }
        #expect(noFolder?.kind == .notFound)
    }

    /// A folder where the file should be: writing it atomically fails at the rename (and leaves
    /// no temporary behind), creating it at the open.
    @Test func aFolderInTheWayIsTold() throws {
        let dir = try ScratchFolder.make("files")
        let path = dir + "/picture.png"
        try Folder.make(path)
        let atomic = #expect(throws: FileError.self) { try AtomicFile.write([1, 2, 3], to: path) }
        #expect(atomic?.kind == .isFolder && atomic?.description == "\(path): cannot rename into place: Is a directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["picture.png"])
        let created = #expect(throws: FileError.self) { try LineWriter(creating: path) }
        #expect(created?.kind == .isFolder && created?.description == "\(path): cannot create: Is a directory")
    }

    /// A real small disk, filled, then made read-only: what each says, and the few words a title
    /// bar shows (`reason`).
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullAndAReadOnlyDiskAreTold() throws {
        let dir = try ScratchFolder.make("files")
        guard system("mount -t tmpfs -o size=64k tmpfs '\(dir)'") == 0 else { Issue.record("cannot mount a tmpfs"); return }
        defer { _ = system("umount '\(dir)'") }
        let full = #expect(throws: FileError.self) { try AtomicFile.write([UInt8](repeating: 7, count: 256 << 10), to: dir + "/big.png") }
        #expect(full?.kind == .noSpace && full?.description == "\(dir)/big.png: write failed: No space left on device")
        #expect(full?.reason == "No space left on device")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [], "the temporary is removed")

        try #require(system("mount -o remount,ro '\(dir)'") == 0, "cannot make the tmpfs read-only")
        let readOnly = #expect(throws: FileError.self) { try AtomicFile.write([1], to: dir + "/a.png") }
        #expect(readOnly?.kind == .readOnlyFileSystem
                && readOnly?.description == "\(dir)/a.png: cannot create a file in \(dir): Read-only file system")
        #expect(readOnly?.reason == "Read-only file system")
        let created = #expect(throws: FileError.self) { try LineWriter(creating: dir + "/journal.jsonl") }
        #expect(created?.kind == .readOnlyFileSystem && created?.description == "\(dir)/journal.jsonl: cannot create: Read-only file system")
    }
}
