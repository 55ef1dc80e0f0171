// fuzz-replay-fast-path: the libFuzzer executable of Fuzzing's `FastPathTarget` (`make fuzz` builds
// and runs it). Like fuzz-replay, the fuzz build compiles this file as a library linked with
// libFuzzer's main, the normal build as a program that does nothing (`make test` runs the
// target's checks over its corpus instead).
import Fuzzing

/// libFuzzer's entry point: checks one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FastPathTarget.fuzz(data, size)
}
