import App
import ArgumentParser
import Foundation

/// What a run prints and how it ends: each figure's row on stdout as it is measured (with
/// `--json`, one object of every figure at the end instead), a line on stderr for each case that
/// failed or could not run here, and exit status 1 when any failed.
struct Report {
    /// One JSON object at the end instead of rows.
    let json: Bool
    /// Every figure so far, in order: case name → value (milliseconds unless the name says).
    private(set) var results: [(name: String, value: Double)] = []
    /// The cases whose work failed.
    private(set) var failed: [String] = []

    init(json: Bool) { self.json = json }

    /// A case's row: its name, then its milliseconds.
    static func row(_ name: String, _ ms: Double) -> String {
        name.padding(toLength: max(26, name.count + 1), withPad: " ", startingAt: 0) + String(format: "%9.3f ms", ms)
    }

    /// Runs `body` for case `name`: its result, or nil when it threw, after a line on stderr
    /// naming the case and why (`quicksilver-bench: NAME: why`) and the case noted as failed.
    mutating func attempt<T>(_ name: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            failed.append(name)
            printError("quicksilver-bench: \(name): \(error)")
            return nil
        }
    }

    /// Records case `name`'s milliseconds and prints its row, `note` after it.
    mutating func figure(_ name: String, _ ms: Double, note: String = "") {
        record(name, ms, row: Self.row(name, ms) + note)
    }

    /// Records a value for the JSON object, printing `row` (when given) in its place otherwise.
    mutating func record(_ name: String, _ value: Double, row: String? = nil) {
        results.append((name, value))
        if let row { line(row) }
    }

    /// The first value recorded under `name`.
    func value(_ name: String) -> Double? { results.first { $0.name == name }?.value }

    /// A line of a table (not with `--json`).
    func line(_ text: String) {
        if !json { printLine(text) }
    }

    /// A line on stderr about something not run here (no display, say): not a failure.
    func note(_ text: String) { printError("quicksilver-bench: " + text) }

    /// Prints the JSON object (with `--json`); throws exit status 1, after a line naming them,
    /// when any case failed.
    func finish() throws {
        if json {
            printLine("{" + results.map { "\"\($0.name)\": \(String(format: "%.4f", $0.value))" }.joined(separator: ", ") + "}")
        }
        guard failed.isEmpty else {
            printError("quicksilver-bench: \(failed.count) failed: \(failed.joined(separator: ", "))")
            throw ExitCode.failure
        }
    }
}

/// One line on stderr.
func printError(_ message: String) { Console.standard.err(message) }

/// One line on stdout, written at once.
func printLine(_ message: String) { Console.standard.out(message) }
