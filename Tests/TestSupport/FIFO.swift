import Foundation

/// Makes a FIFO at `path` (mkfifo), mode 0600.
public func makeFIFO(_ path: String) throws {
    guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}

/// Writes `bytes` into the FIFO at `path` from a thread, then closes it. Its write end is open
/// before this returns, so a reader opened after finds a writer there however the threads are
/// scheduled (a second descriptor holds the FIFO open for reading meanwhile: without a reader
/// the writer's open would wait).
public func feed(_ bytes: [UInt8], toFIFO path: String) throws {
    let holder = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard holder >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { close(holder); throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    Thread.detachNewThread {
        writeAll(bytes, to: fd)
        close(fd)
        close(holder)
    }
}

/// Writes `bytes` to `fd` (a pipe's write end, say), stopping at the first failure.
public func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var done = 0
    while done < bytes.count {
        let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        done += n
    }
}

/// Runs `body` on a thread of its own and returns what it returns, or nil when it has not
/// returned within `seconds`: then `fifo` is opened for writing and closed again, so that a read
/// waiting there for a writer ends, and the thread with it. A test of something that must not
/// block then fails instead of hanging the suite.
public func returning<T: Sendable>(within seconds: Double, unblocking fifo: String,
                                   _ body: @escaping @Sendable () -> T) -> T? {
    let outcome = Outcome<T>()
    Thread.detachNewThread { outcome.set(body()) }
    if outcome.done.wait(timeout: .now() + seconds) == .success { return outcome.value }
    let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    if fd >= 0 { close(fd) }
    _ = outcome.done.wait(timeout: .now() + seconds)
    return nil
}

private final class Outcome<T>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: T?
    var value: T? { lock.withLock { result } }
    func set(_ value: T) {
        lock.withLock { result = value }
        done.signal()
    }
}
