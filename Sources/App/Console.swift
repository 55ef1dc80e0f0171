import Foundation

/// Where the program's lines go: stdout for results (a screenshot's path), stderr for what went
/// wrong. Each line is written at once (stdout to a file or pipe is otherwise block-buffered,
/// and a screenshot's path must reach whoever waits for it). Tests capture it.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out; self.err = err
    }

    /// The process's stdout and stderr.
    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
}
