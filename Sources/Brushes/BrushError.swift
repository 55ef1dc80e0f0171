/// Why a brush could not be had, in one line that says where: `FILE:LINE: what` when a line is
/// known, else `FILE: what`.
public struct BrushError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file (or the name the brush was asked by).
    public var path: String
    /// The line (from 1) the problem is on, when one is.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int? = nil, message: String) {
        self.path = path; self.line = line; self.message = message
    }

    public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
}
