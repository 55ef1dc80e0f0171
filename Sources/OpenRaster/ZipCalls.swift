import CZip
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An entry of a zip archive as its central directory declares it (nothing read yet).
struct ZipEntry: Sendable {
    var index: UInt64
    var name: String
    /// Uncompressed, as declared: what a read may give, never more (`ZipReader.read` checks).
    var size: Int
    /// Compressed, as declared.
    var compressedSize: Int
    var stored: Bool
}

/// A zip archive in memory, read through libzip (the one file that calls it). Lives only inside
/// `ZipReader.open`, which keeps the bytes it reads from in place.
final class ZipReader {
    private let archive: OpaquePointer
    /// In the archive's order.
    let entries: [ZipEntry]
    private let byName: [String: ZipEntry]

    /// The most bytes deflate gives for each compressed byte (a 258-byte match in two bits),
    /// and room beside that for a stream's first bytes.
    static let maxInflation = 1032, inflationSlack = 1 << 10

    /// The bytes of the archive read from.
    private let archiveBytes: Int

    /// Opens `bytes` as a zip archive and hands it to `body`; the archive is closed after.
    static func open<T>(_ bytes: [UInt8], _ body: (ZipReader) throws(ORAError) -> T) throws(ORAError) -> T {
        let result = bytes.withUnsafeBytes { raw -> Result<T, ORAError> in
            // CHECKCONS: a local header that disagrees with the central directory is damage.
            let archive: OpaquePointer
            switch openArchive(raw, flags: ZIP_RDONLY | ZIP_CHECKCONS) {
            case .success(let opened): archive = opened
            case .failure(let error): return .failure(refusal(error, raw))
            }
            let entries: [ZipEntry]
            do throws(ORAError) { entries = try listEntries(archive) } catch {
                zip_discard(archive)
                return .failure(error)
            }
            let reader = ZipReader(archive, entries, archiveBytes: raw.count)
            return Result { () throws(ORAError) in try body(reader) }
        }
        return try result.get()
    }

    /// libzip's archive over `raw`, or its error code.
    private static func openArchive(_ raw: UnsafeRawBufferPointer, flags: Int32) -> Result<OpaquePointer, OpenFailure> {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(raw.baseAddress, UInt64(raw.count), 0, &error) else {
            return .failure(OpenFailure(code: zip_error_code_zip(&error), text: String(cString: zip_error_strerror(&error))))
        }
        guard let archive = zip_open_from_source(source, flags, &error) else {
            zip_source_free(source)
            return .failure(OpenFailure(code: zip_error_code_zip(&error), text: String(cString: zip_error_strerror(&error))))
        }
        return .success(archive)
    }

    /// libzip's refusal to open an archive.
    private struct OpenFailure: Error {
        var code: Int32
        var text: String
    }

    /// What libzip's refusal means, said plainly where it has words of its own for a common case.
    private static func refusal(_ failure: OpenFailure, _ raw: UnsafeRawBufferPointer) -> ORAError {
        switch failure.code {
        case ZIP_ER_NOZIP:
            // No end of central directory found. A file that starts as a zip does (an entry's
            // local header) lost its end: cut short, as a download or a copy can be.
            if raw.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                return ORAError(message: "cut off: the zip archive ends before the directory of its entries")
            }
            return ORAError(message: "not an OpenRaster file: not a zip archive")
        case ZIP_ER_EXISTS:
            // Two entries of one name: which, from the directory read without that check.
            if case .success(let archive) = openArchive(raw, flags: ZIP_RDONLY) {
                defer { zip_discard(archive) }
                var seen: Set<String> = []
                for index in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
                    guard let name = zip_get_name(archive, index, 0).map({ String(cString: $0) }) else { continue }
                    if !seen.insert(name).inserted {
                        return ORAError(message: "damaged zip archive: it holds two entries named \(ORAText.quoted(name))")
                    }
                }
            }
            return ORAError(message: "damaged zip archive: it holds two entries of the same name")
        default:
            return ORAError(message: "damaged zip archive: \(failure.text)")
        }
    }

    private init(_ archive: OpaquePointer, _ entries: [ZipEntry], archiveBytes: Int) {
        self.archive = archive
        self.entries = entries
        self.archiveBytes = archiveBytes
        var byName: [String: ZipEntry] = [:]
        for entry in entries where byName[entry.name] == nil { byName[entry.name] = entry }
        self.byName = byName
    }

    private static func listEntries(_ archive: OpaquePointer) throws(ORAError) -> [ZipEntry] {
        var entries: [ZipEntry] = []
        for index in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
            var st = zip_stat_t()
            zip_stat_init(&st)
            guard zip_stat_index(archive, index, 0, &st) == 0, st.valid & UInt64(ZIP_STAT_NAME) != 0, let cName = st.name,
                  st.valid & UInt64(ZIP_STAT_SIZE) != 0, st.valid & UInt64(ZIP_STAT_COMP_SIZE) != 0,
                  st.valid & UInt64(ZIP_STAT_COMP_METHOD) != 0 else {
                throw ORAError(message: "damaged zip archive: entry \(index) cannot be read")
            }
            entries.append(ZipEntry(index: index, name: String(cString: cName), size: Int(clamping: st.size),
                                    compressedSize: Int(clamping: st.comp_size), stored: Int32(st.comp_method) == ZIP_CM_STORE))
        }
        return entries
    }

    deinit { zip_discard(archive) }

    func entry(named name: String) -> ZipEntry? { byName[name] }

    /// The entry's bytes, inflated. Its declared size is checked against `limit`, against the
    /// compressed bytes it declares (which must lie in the archive) and against what those can
    /// inflate to, before anything is allocated or read; and what comes out is never allowed
    /// past that size: a zip bomb that understates its sizes is stopped one byte beyond what it
    /// declared, and one that overstates them is refused before its buffer is made.
    func read(_ entry: ZipEntry, limit: Int) throws(ORAError) -> [UInt8] {
        guard entry.size <= limit else {
            throw ORAError(entry: entry.name, message: "\(entry.size) bytes uncompressed, more than the \(limit)-byte limit")
        }
        guard entry.compressedSize <= archiveBytes else {
            throw ORAError(entry: entry.name, message: "damaged: it declares \(entry.compressedSize) compressed bytes, more than the archive's \(archiveBytes)")
        }
        let most = entry.stored ? entry.compressedSize : entry.compressedSize * Self.maxInflation + Self.inflationSlack
        guard entry.size <= most else {
            throw ORAError(entry: entry.name, message: "damaged: its \(entry.compressedSize) compressed bytes cannot inflate to the \(entry.size) it declares")
        }
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
            throw ORAError(entry: entry.name, message: "cannot be read: \(String(cString: zip_strerror(archive)))")
        }
        defer { zip_fclose(file) }
        var bytes = [UInt8](repeating: 0, count: entry.size + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return 0 }
                return zip_fread(file, base + count, UInt64(buffer.count - count))
            }
            if n < 0 { throw ORAError(entry: entry.name, message: "damaged: \(String(cString: zip_file_strerror(file)))") }
            if n == 0 { break }
            count += Int(n)
        }
        guard count <= entry.size else { throw ORAError(entry: entry.name, message: "holds more bytes than the \(entry.size) it declares") }
        guard count == entry.size else { throw ORAError(entry: entry.name, message: "cut off: \(count) of the \(entry.size) bytes it declares") }
        bytes.removeLast()
        return bytes
    }
}

/// A zip archive built in memory through libzip: entries in the order they are added, each
/// stored or deflated, then the archive's bytes.
final class ZipWriter {
    private let source: OpaquePointer
    private var archive: OpaquePointer?

    init() throws(ORAError) {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error) else { throw Self.failure(&error) }
        guard let archive = zip_open_from_source(source, ZIP_TRUNCATE, &error) else {
            zip_source_free(source)
            throw Self.failure(&error)
        }
        // Kept past zip_close, which would otherwise free it: it holds the finished archive.
        zip_source_keep(source)
        self.source = source
        self.archive = archive
    }

    deinit {
        if let archive { zip_discard(archive) }
        zip_source_free(source)
    }

    /// Adds an entry holding a copy of `bytes`, deflated or stored (no compression: what must be
    /// read in place, like `mimetype`, or what is compressed already, like a PNG).
    func add(_ name: String, _ bytes: [UInt8], deflate: Bool) throws(ORAError) {
        guard let archive else { throw ORAError(entry: name, message: "cannot add to a finished archive") }
        // libzip reads the bytes only when the archive is closed: it gets a copy of its own, and frees it.
        guard let copy = malloc(max(1, bytes.count)) else { throw ORAError(entry: name, message: "out of memory") }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { _ = memcpy(copy, base, $0.count) } }
        guard let entrySource = zip_source_buffer(archive, copy, UInt64(bytes.count), 1) else {
            free(copy)
            throw ORAError(entry: name, message: String(cString: zip_strerror(archive)))
        }
        let index = zip_file_add(archive, name, entrySource, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(entrySource)
            throw ORAError(entry: name, message: String(cString: zip_strerror(archive)))
        }
        // A fixed time (1980-01-01, zip's first), not the clock's: the same document gives the
        // same bytes however often and whenever it is saved (render -o OUT.ora included).
        guard zip_file_set_mtime(archive, UInt64(index), 315_532_800, 0) == 0,
              zip_set_file_compression(archive, UInt64(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0 else {
            throw ORAError(entry: name, message: String(cString: zip_strerror(archive)))
        }
    }

    /// The archive's bytes: libzip writes every entry into the buffer, which is then read back.
    func finish() throws(ORAError) -> [UInt8] {
        guard let archive else { throw ORAError(message: "the archive is finished already") }
        guard zip_close(archive) == 0 else { throw ORAError(message: "cannot write the zip archive: \(String(cString: zip_strerror(archive)))") }
        self.archive = nil
        guard zip_source_open(source) == 0 else { throw sourceFailure() }
        defer { zip_source_close(source) }
        guard zip_source_seek(source, 0, SEEK_END) == 0 else { throw sourceFailure() }
        let size = zip_source_tell(source)
        guard size >= 0, zip_source_seek(source, 0, SEEK_SET) == 0 else { throw sourceFailure() }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int64 in
                guard let base = buffer.baseAddress else { return 0 }
                return zip_source_read(source, base + count, UInt64(buffer.count - count))
            }
            guard n > 0 else { throw sourceFailure() }
            count += Int(n)
        }
        return bytes
    }

    private func sourceFailure() -> ORAError {
        ORAError(message: "cannot read back the zip archive: \(String(cString: zip_error_strerror(zip_source_error(source))))")
    }

    private static func failure(_ error: inout zip_error_t) -> ORAError {
        ORAError(message: "cannot make a zip archive: \(String(cString: zip_error_strerror(&error)))")
    }
}
