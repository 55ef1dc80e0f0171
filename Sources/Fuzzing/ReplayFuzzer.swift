// Fuzzing: a mutation fuzzer for the replay and journal parser. Start with `ReplayFuzzer.run`:
// it mutates a corpus of valid and broken files (bit flips, splices, truncations, hostile
// tokens), feeds each input to the strict and the forgiving parser, and checks what must always
// hold: no crash or hang, every rejection names a line that exists, whatever is accepted
// writes back and reads again as the same replay, and plays through a session.
import Compute
import Geometry
import Paint
import ReplayFormat

public struct ReplayFuzzer {
    public struct Finding: Error, CustomStringConvertible {
        public var input: [UInt8]
        public var problem: String
        public var description: String { "\(problem)\ninput: \(String(decoding: input, as: UTF8.self).debugDescription)" }
    }

    /// Tokens a mutation may splice in: the grammar's words and the values that hurt parsers.
    static let dictionary: [String] = [
        "\"t\": ", "\"type\": ", "\"down\"", "\"move\"", "\"up\"", "\"brush\"", "\"exit\"", "\"resize\"", "\"clear\"",
        "\"undo\"", "\"x\": ", "\"y\": ", "\"pressure\": ", "\"mods\": [\"shift\"]", "\"kind\": \"pixel\"",
        "\"size\": 512", "\"color\": \"#ff00ff80\"", "\"width\": 16384", "\"height\": 1", "\"snapshot\": \"a.png\"",
        "\"view\"", "\"zoom\": 32", "\"zoom\": 0.125", "\"paste\"", "\"image\": \"a.png\"", "\"started\": \"2026-01-01T00:00:00Z\"",
        "1e999", "-1e308", "1e-400", "0.5", "-0", "18446744073709551616", "9223372036854775807", "NaN",
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "\u{7f}", "\n", "\r\n", "null", "true",
        String(repeating: "[", count: 40), String(repeating: "9", count: 400),
    ]

    private var state: UInt64
    private let corpus: [[UInt8]]
    private let compute = ComputeContext(threads: 1)

    public init(corpus: [[UInt8]], seed: UInt64) {
        precondition(!corpus.isEmpty)
        self.corpus = corpus
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    /// Runs `count` inputs; returns the first finding, or nil.
    public mutating func run(count: Int) -> Finding? {
        for _ in 0..<count {
            let input = mutate(corpus[next(corpus.count)])
            if let finding = check(input) { return finding }
        }
        return nil
    }

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    mutating func mutate(_ seed: [UInt8]) -> [UInt8] {
        var b = seed
        for _ in 0...next(4) {
            let at = next(b.count + 1)
            switch next(8) {
            case 0 where !b.isEmpty: b[min(at, b.count - 1)] ^= UInt8(1 << next(8))
            case 1 where !b.isEmpty: b[min(at, b.count - 1)] = UInt8(next(256))
            case 2: b.removeSubrange(at..<min(b.count, at + next(16) + 1))
            case 3: b.insert(contentsOf: Self.dictionary[next(Self.dictionary.count)].utf8, at: at)
            case 4: b = Array(b.prefix(at))
            case 5:
                let other = corpus[next(corpus.count)]
                let from = next(other.count + 1)
                b.insert(contentsOf: other[from..<min(other.count, from + next(200))], at: at)
            case 6 where at < b.count: b.insert(contentsOf: b[at..<min(b.count, at + next(64))], at: at)
            default: b.insert(contentsOf: Array("\n".utf8), at: at)
            }
        }
        return b
    }

    /// The properties every input must keep; a description of the first one broken.
    func check(_ input: [UInt8]) -> Finding? {
        let lines = input.split(separator: 0x0a, omittingEmptySubsequences: false).count
        let strict = input.withUnsafeBufferPointer { b in Result { () throws(ReplayError) in try ReplayParser.parse(b) } }
        let forgiving = input.withUnsafeBufferPointer { b in
            Result { () throws(ReplayError) in try ReplayParser.parse(b, recovering: true) }
        }
        switch strict {
        case .failure(let e):
            if e.line < 1 || e.line > max(lines, 1) { return Finding(input: input, problem: "error names line \(e.line) of \(lines)") }
            if e.message.isEmpty || e.message.contains("\n") { return Finding(input: input, problem: "bad message \(e.message.debugDescription)") }
        case .success(let replay):
            guard case .success(let (again, cutOff)) = forgiving, cutOff == nil, again.events == replay.events else {
                return Finding(input: input, problem: "the forgiving parser disagrees with the strict one")
            }
            let written = replay.text
            guard let reread = try? ReplayParser.parse(written), reread.header == replay.header, reread.events == replay.events else {
                return Finding(input: input, problem: "does not read back the same after writing:\n\(written)")
            }
            play(replay)
        }
        return nil
    }

    /// Plays small accepted replays, so renderer crashes on odd input are found too.
    private func play(_ replay: Replay) {
        guard replay.header.size.area <= 512 * 512, replay.events.count <= 5000,
              !replay.events.contains(where: { if case .resize(let s) = $0.event { s.area > 512 * 512 } else { false } })
        else { return }
        let session = Session(size: replay.header.size, background: replay.header.background, seed: replay.header.seed, compute: compute)
        ReplayPlayer.play(replay.events, session: session, presenter: OffscreenPresenter(size: replay.header.size))
    }
}
