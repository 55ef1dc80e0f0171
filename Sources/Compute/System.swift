#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The operating-system calls this module makes, in one place.
enum System {
    /// Cores this process may run on.
    static var activeProcessorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
