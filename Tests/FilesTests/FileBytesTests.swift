import Files
import Foundation
import Testing
import TestSupport

/// FileBytes and LineReader on real files of every kind: regular files, FIFOs with and without a
/// writer, a pipe, character devices, a folder, a socket.
@Suite struct FileBytesTests {
    private func folder() throws -> String { try ScratchFolder.make("files") }

    private func expectError(_ kind: FileError.Kind, _ message: String, reading path: String, limit: Int = 1 << 20,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let bytes = try FileBytes.read(path, limit: limit)
            Issue.record("read \(bytes.count) bytes, expected \(kind)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, sourceLocation: sourceLocation)
            #expect(error.description == "\(path): \(message)", sourceLocation: sourceLocation)
        }
    }

    private func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) } }

    @Test func aRegularFileIsReadWholeUpToItsLimit() throws {
        let path = try folder() + "/a"
        let content = bytes(300_000)
        try Data(content).write(to: URL(fileURLWithPath: path))
        #expect(try FileBytes.read(path, limit: content.count) == content)
        expectError(.tooLarge, "too large: more than 299999 bytes", reading: path, limit: content.count - 1)
        let empty = try folder() + "/empty"
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try FileBytes.read(empty, limit: 0) == [])
    }

    @Test func aFolderASocketAndAMissingFileAreRefused() throws {
        let dir = try folder()
        expectError(.isFolder, "is a folder, not a file", reading: dir)
        expectError(.notFound, "cannot open: No such file or directory", reading: dir + "/missing")
        expectError(.notFound, "cannot open: No such file or directory", reading: dir + "/missing/a")

        let socketPath = dir + "/socket"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind \(socketPath)")
        expectError(.notRegularFile, "not a regular file", reading: socketPath)
    }

    @Test(.disabled(if: getuid() == 0, "root reads every file"))
    func anUnreadableFileIsPermissionDenied() throws {
        let path = try folder() + "/secret"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        chmod(path, 0)
        expectError(.permissionDenied, "cannot open: Permission denied", reading: path)
    }

    /// /dev/null is a character device that ends at once; /dev/zero one that never ends.
    @Test func characterDevicesAreReadAsStreams() throws {
        #expect(try FileBytes.read("/dev/null", limit: 10) == [])
        expectError(.tooLarge, "too large: more than 1 MiB", reading: "/dev/zero", limit: 1 << 20)
    }

    /// A reader takes the first bytes, then the rest up to a limit: of a file, a FIFO, a device.
    @Test func aReaderTakesTheFirstBytesThenTheRest() throws {
        let path = try folder() + "/a"
        let content = bytes(300_000)
        try Data(content).write(to: URL(fileURLWithPath: path))
        let file = try FileReader(path)
        #expect(file.regularFileSize == content.count && !file.isStream)
        #expect(try file.read(upTo: 10) == Array(content.prefix(10)))
        #expect(try file.readAll(limit: content.count) == content)

        // /dev/zero never ends: its first bytes come at once, and the rest stops at the limit.
        let zero = try FileReader("/dev/zero")
        #expect(zero.isStream)
        #expect(try zero.read(upTo: 8) == Array(repeating: 0, count: 8))
        let error = #expect(throws: FileError.self) { try zero.readAll(limit: 1 << 20) }
        #expect(error?.kind == .tooLarge && error?.description == "/dev/zero: too large: more than 1 MiB")

        let fifo = try folder() + "/fifo"
        try makeFIFO(fifo)
        try feed(content, toFIFO: fifo)
        let read = returning(within: 10, unblocking: fifo) {
            Result { () throws(FileError) -> [[UInt8]] in
                let reader = try FileReader(fifo)
                return [try reader.read(upTo: 4), try reader.readAll(limit: 1 << 20)]
            }
        }
        #expect(try #require(read, "the read did not end within 10 s").get() == [Array(content.prefix(4)), content])
        #expect(FileBytes.streamKind(fifo) == "a FIFO or pipe" && FileBytes.streamKind("/dev/zero") == "a character device")
        #expect(FileBytes.streamKind(path) == nil)
    }

    @Test func aFIFOWithNoWriterReadsAsEmptyAtOnce() throws {
        let fifo = try folder() + "/fifo"
        try makeFIFO(fifo)
        let read = returning(within: 3, unblocking: fifo) { Result { () throws(FileError) in try FileBytes.read(fifo, limit: 100) } }
        #expect(try #require(read, "the read did not end within 3 s").get() == [])
        let lines = returning(within: 3, unblocking: fifo) {
            Result { () throws -> Int in var n = 0; try LineReader.forEachLine(in: fifo) { _, _ in n += 1 }; return n }
        }
        #expect(try #require(lines, "LineReader did not end within 3 s").get() == 0)
    }

    /// More than a pipe holds (64 KiB): the writer waits for the reader, which reads to the end.
    @Test func aFIFOIsReadToItsWritersEnd() throws {
        let fifo = try folder() + "/fifo"
        try makeFIFO(fifo)
        let content = bytes(500_000)
        try feed(content, toFIFO: fifo)
        let read = returning(within: 10, unblocking: fifo) { Result { () throws(FileError) in try FileBytes.read(fifo, limit: 1 << 20) } }
        #expect(try #require(read, "the read did not end within 10 s").get() == content)
    }

    /// What /dev/stdin names when a pipe feeds it: /proc/self/fd/0, the pipe itself.
    @Test func aPipeIsReadToItsEnd() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let content = bytes(200_000)
        let writeEnd = ends[1]
        Thread.detachNewThread { writeAll(content, to: writeEnd); close(writeEnd) }
        #expect(try FileBytes.read("/proc/self/fd/\(ends[0])", limit: 1 << 20) == content)
    }

    @Test func aFolderGivenToLineReaderIsRefused() throws {
        let dir = try folder()
        let error = #expect(throws: FileError.self) { try LineReader.forEachLine(in: dir) { _, _ in } }
        #expect(error?.kind == .isFolder && error?.description == "\(dir): is a folder, not a file")
    }
}
