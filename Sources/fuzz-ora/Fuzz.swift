// fuzz-ora: the libFuzzer executable of Fuzzing's `ORATarget` (`make fuzz` builds and runs it).
// The fuzz build (--sanitize=fuzzer) compiles this file as a library and links libFuzzer's
// main; the normal build compiles it as a main file with no statements, a program that does
// nothing (`make test` runs the target's checks over its corpus instead).
import Fuzzing

/// libFuzzer's entry point: checks one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ORATarget.fuzz(data, size)
}
