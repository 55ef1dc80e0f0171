#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The operating-system calls this module makes, in one place.
enum System {
    /// Cores this process may run on.
    static var activeProcessorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// `count` zeroed elements, or nil when out of memory. Large blocks come straight from the
    /// kernel's zero pages, so a page costs nothing until it is first written.
    static func zeroedMemory<T: BitwiseCopyable>(_: T.Type, count: Int) -> UnsafeMutablePointer<T>? {
        calloc(count, MemoryLayout<T>.stride)?.bindMemory(to: T.self, capacity: count)
    }

    /// `count` uninitialized elements, or nil when out of memory.
    static func memory<T: BitwiseCopyable>(_: T.Type, count: Int) -> UnsafeMutablePointer<T>? {
        malloc(count * MemoryLayout<T>.stride)?.bindMemory(to: T.self, capacity: count)
    }

    /// Frees what `zeroedMemory` or `memory` returned.
    static func freeMemory<T>(_ p: UnsafeMutablePointer<T>) { free(p) }
}
