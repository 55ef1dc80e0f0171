import ArgumentParser
import Foundation

/// An option's real range, checked in `validate()`: a refusal names the option, the range and
/// the value given, in one line ("--speed must be in 0.000001…1000000, got 1e-320"). NaN and
/// infinities are outside every range.
struct OptionRange<Value: Comparable & CustomStringConvertible & Sendable>: Sendable {
    let name: String
    let range: ClosedRange<Value>

    init(_ name: String, _ range: ClosedRange<Value>) {
        self.name = name
        self.range = range
    }

    /// Throws unless `value` lies in the range.
    func check(_ value: Value) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be in \(Self.text(range.lowerBound))…\(Self.text(range.upperBound)), got \(Self.text(value))")
        }
    }

    /// Throws unless `value`, when given, lies in the range.
    func check(_ value: Value?) throws {
        if let value { try check(value) }
    }

    /// A value as the message shows it: Doubles between a millionth and 10¹⁵ in plain decimals
    /// ("0.000001", "86400"), others as Swift writes them ("1e-320", "inf").
    static func text(_ v: Value) -> String {
        guard let d = v as? Double, d.isFinite, abs(d) >= 1e-6 || d == 0, abs(d) < 1e15 else { return v.description }
        if d == d.rounded() { return String(Int64(d)) }
        var s = String(format: "%.9f", d)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}

/// The ranges options share.
enum OptionRanges {
    /// Worker threads of the compute pass.
    static let threads = OptionRange("--threads", 1...1024)
    /// How much faster than drawn a play or a timelapse goes.
    static let speed = OptionRange("--speed", 0.000_001...1_000_000.0)
}
