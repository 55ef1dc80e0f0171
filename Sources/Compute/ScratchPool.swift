import Synchronization

/// Kernels' large transient buffers, the CPU's stand-in for Metal's threadgroup memory: a
/// threadgroup that needs one borrows it for its run and gives it back, so the next group (on
/// any worker, in this pass or a later one) writes to pages already backed instead of
/// allocating its own, which glibc may hand back to the kernel on free and fault in again (a
/// turned view's groups each take about 1.3 MB of scratch: 5–8 % of `compose.rotated` after the
/// benchmark's other cases).
public final class ScratchPool: Sendable {
    /// A buffer of `bytes` bytes, 64-byte aligned.
    private struct Buffer: @unchecked Sendable {
        let base: UnsafeMutableRawPointer, bytes: Int
    }

    private let idle = Mutex<[Buffer]>([])
    /// Buffers kept between borrowings; one given back beyond these is freed.
    private let kept: Int

    /// A pool that keeps up to `kept` buffers between borrowings (one per worker).
    public init(kept: Int) {
        self.kept = max(1, kept)
    }

    deinit {
        for buffer in idle.withLock({ $0 }) { buffer.base.deallocate() }
    }

    /// Runs `body` with `count` uninitialized elements of `T`, lent for its duration only;
    /// concurrent borrowers get distinct buffers.
    public func withBuffer<T: BitwiseCopyable, R>(of _: T.Type, count: Int,
                                                   _ body: (UnsafeMutablePointer<T>) throws -> R) rethrows -> R {
        let bytes = max(1, count) * MemoryLayout<T>.stride
        var buffer = idle.withLock { $0.popLast() }
        if let small = buffer, small.bytes < bytes {
            small.base.deallocate()
            buffer = nil
        }
        // A quarter more than asked, so that groups of nearly the same size share buffers.
        let lent = buffer ?? Self.allocate(bytes: bytes + bytes / 4)
        defer {
            let surplus = idle.withLock { list -> Buffer? in
                list.append(lent)
                return list.count > kept ? list.removeFirst() : nil
            }
            surplus?.base.deallocate()
        }
        return try body(lent.base.bindMemory(to: T.self, capacity: lent.bytes / MemoryLayout<T>.stride))
    }

    /// Buffers kept now (for tests).
    public var idleCount: Int { idle.withLock { $0.count } }

    private static func allocate(bytes: Int) -> Buffer {
        Buffer(base: .allocate(byteCount: bytes, alignment: 64), bytes: bytes)
    }
}
