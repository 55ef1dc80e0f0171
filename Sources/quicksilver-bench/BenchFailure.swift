/// Why a case's work failed, in words (printed after the case's name).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
