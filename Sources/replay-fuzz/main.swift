// replay-fuzz: runs the replay parser's mutation fuzzer (`make fuzz`).
// Usage: replay-fuzz CORPUS_DIR [INPUTS] [SEED]. Exits 1 with the input on the first finding.
import Foundation
import Fuzzing

let args = CommandLine.arguments
guard args.count >= 2 else {
    FileHandle.standardError.write(Data("usage: replay-fuzz CORPUS_DIR [INPUTS] [SEED]\n".utf8))
    exit(64)
}
let inputs = args.count > 2 ? Int(args[2]) ?? 1_000_000 : 1_000_000
let seed = args.count > 3 ? UInt64(args[3]) ?? 1 : 1
let names = ((try? FileManager.default.contentsOfDirectory(atPath: args[1])) ?? []).sorted()
let corpus = names.compactMap { FileManager.default.contents(atPath: args[1] + "/" + $0).map { Array($0) } }
guard !corpus.isEmpty else {
    FileHandle.standardError.write(Data("replay-fuzz: no corpus files in \(args[1])\n".utf8))
    exit(64)
}
var fuzzer = ReplayFuzzer(corpus: corpus, seed: seed)
let start = Date()
let chunk = 10_000
var done = 0
while done < inputs {
    let n = min(chunk, inputs - done)
    if let finding = fuzzer.run(count: n) {
        FileHandle.standardError.write(Data("replay-fuzz: FINDING after \(done) inputs: \(finding)\n".utf8))
        exit(1)
    }
    done += n
    if done % 100_000 == 0 { print("\(done) inputs, \(Int(Date().timeIntervalSince(start))) s") }
}
print("replay-fuzz: \(done) inputs from \(corpus.count) corpus files, no finding, \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
