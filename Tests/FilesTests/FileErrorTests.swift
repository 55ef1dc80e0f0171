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

    /// Made in code, as callers outside this module do: the cause is unknown.
    @Test func aMessageAloneIsOther() {
        let error = FileError(path: "a.png", message: "cannot encode the canvas")
        #expect(error.kind == .other && error.description == "a.png: cannot encode the canvas")
    }
}
