// Fuzzing: the bodies of the libFuzzer targets `make fuzz` runs, one for each kind of input that
// comes from outside the process: `ReplayTarget` (replays and journals), `PNGTarget` (pictures
// opened or pasted), `ORATarget` (OpenRaster documents opened: stack.xml, its names, attributes
// and sizes) and `X11EventsTarget` (what the X server and the input devices report).
//
// Start with `FuzzTarget`: a target's `check` takes one input and returns the first property it
// broke. The executables fuzz-replay, fuzz-png, fuzz-ora and fuzz-x11-events hand it libFuzzer's inputs
// through `fuzz(_:_:)`; FuzzTests runs it over every committed seed in Tests/Fixtures/fuzz, so
// `make test` exercises the same bodies without libFuzzer.

/// A property an input broke, in words. The input itself is the corpus file a test read, or the
/// crash file libFuzzer writes.
public struct FuzzFinding: Error, CustomStringConvertible, Sendable {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { problem }
}

/// One libFuzzer target: what every input must keep.
public protocol FuzzTarget {
    /// The target's name: its seed corpus is Tests/Fixtures/fuzz/NAME, its executable fuzz-NAME.
    static var name: String { get }
    /// Checks one input; the first property it breaks, or nil.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding?
}

extension FuzzTarget {
    /// The body of `LLVMFuzzerTestOneInput`: checks libFuzzer's input in place (so AddressSanitizer
    /// sees a read one past its end) and stops the process on a finding, which libFuzzer reports
    /// as a crash and keeps the input of.
    public static func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        if let finding = check(UnsafeBufferPointer(start: data, count: size)) { fatalError("\(name): \(finding)") }
        return 0
    }
}
