import ArgumentParser

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Run the benchmarks (build with -c release).")
    func run() throws {}
}
