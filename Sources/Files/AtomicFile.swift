/// Writes whole files so that readers see the old content or the new, never a mix: the bytes go
/// to a temporary file in the same folder, are synced, and the temporary is renamed into place
/// (then the folder is synced, so the new name outlives a power cut too).
///
/// The temporary has no name while it is written (`O_TMPFILE`), where the file system allows:
/// a process killed mid-write (a chaos run kills the window a thousand times) leaves nothing
/// behind. It is named only for the instant before the rename; a new file (`writeNew`) is named
/// its own name at once. Elsewhere it is a hidden `.NAME.XXXXXX` from the start.
public enum AtomicFile {
    /// Removes a file if it is there; errors are ignored (for clean-up only).
    public static func remove(_ path: String) { FileCalls.unlink(path) }

    /// Makes `path` a second name of `source`, a file that was written whole and is never
    /// changed in place (a journal's snapshot, history or picture), when it holds `size` bytes:
    /// true once `path` names those bytes, at once however many (the folder synced, unless
    /// `syncing` is false: a caller linking several syncs the folder once, `syncFolder`). False
    /// when it cannot (another file system, the name taken, a file of another size): nothing is made.
    public static func link(_ source: String, to path: String, size: Int, syncing: Bool = true) -> Bool {
        guard FileCalls.size(source) == size, (try? FileCalls.linkIfAbsent(source, to: path)) == true else { return false }
        if syncing { FileCalls.syncFolder(FilePath.folder(of: path)) }
        return true
    }

    /// Syncs a folder, so that the names just made in it outlive a power cut.
    public static func syncFolder(_ folder: String) { FileCalls.syncFolder(folder) }

    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        _ = try write(bytes, to: path, replacing: true)
    }

    /// Like `write(_:to:)` but never replaces an existing file: returns false (and writes
    /// nothing) when `path` exists, so callers can pick another name without a race.
    public static func writeNew(_ bytes: [UInt8], to path: String) throws(FileError) -> Bool {
        try write(bytes, to: path, replacing: false)
    }

    private static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(FileError) -> Bool {
        let folder = FilePath.folder(of: path)
        guard let fd = FileCalls.openUnnamed(in: folder) else { return try writeNamed(bytes, to: path, replacing: replacing) }
        var isOpen = true
        do {
            try FileCalls.writeAll(fd, bytes)
            try FileCalls.sync(fd)
            let created = replacing ? try renameUnnamed(fd, to: path) : try FileCalls.nameUnnamed(fd, path)
            // close releases the descriptor even when it fails: never close it twice.
            isOpen = false
            try FileCalls.close(fd)
            if created { FileCalls.syncFolder(folder) }
            return created
        } catch {
            if isOpen { FileCalls.closeQuietly(fd) }
            throw FileError(path: path, error)
        }
    }

    /// Names the unnamed file on `fd` and renames it over `path`: rename needs a name to move.
    private static func renameUnnamed(_ fd: Int32, to path: String) throws(FileCalls.Failure) -> Bool {
        let prefix = FilePath.folder(of: path) + "/." + FilePath.baseName(of: path) + "."
        for _ in 0..<100 {
            let temp = FileCalls.randomName(prefix)
            guard try FileCalls.nameUnnamed(fd, temp) else { continue }
            do { try FileCalls.rename(temp, to: path) } catch {
                FileCalls.unlink(temp)
                throw error
            }
            return true
        }
        throw FileCalls.Failure(message: "cannot name a new file in \(FilePath.folder(of: path))")
    }

    /// As `write`, where the file system has no unnamed files: the temporary is named from the start.
    private static func writeNamed(_ bytes: [UInt8], to path: String, replacing: Bool) throws(FileError) -> Bool {
        let folder = FilePath.folder(of: path)
        let name = FilePath.baseName(of: path)
        let (fd, temp): (Int32, String)
        do { (fd, temp) = try FileCalls.makeTemporary(in: folder, prefix: ".\(name).") } catch {
            throw FileError(path: path, error)
        }
        var isOpen = true
        do {
            try FileCalls.writeAll(fd, bytes)
            try FileCalls.sync(fd)
            isOpen = false
            try FileCalls.close(fd)
            if replacing {
                try FileCalls.rename(temp, to: path)
            } else {
                // link() fails if the name exists: the new file appears whole or not at all.
                let created = try FileCalls.linkIfAbsent(temp, to: path)
                FileCalls.unlink(temp)
                if created { FileCalls.syncFolder(folder) }
                return created
            }
            FileCalls.syncFolder(folder)
        } catch {
            if isOpen { FileCalls.closeQuietly(fd) }
            FileCalls.unlink(temp)
            throw FileError(path: path, error)
        }
        return true
    }
}
