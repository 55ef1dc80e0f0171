import Testing
@testable import quicksilver

/// `quicksilver render`'s plain arguments, read without ArgumentParser (`RenderCommand.plain`):
/// the same command as ArgumentParser makes of them, and nothing (so that ArgumentParser reads
/// them, with its messages) for what is not plain.
@Suite struct RenderArgumentsTests {
    @Test(arguments: [
        ["r.jsonl", "-o", "out.png"],
        ["-o", "out.png", "r.jsonl"],
        ["r.jsonl", "--output", "out.ora"],
        ["r.jsonl", "--output=out.png", "--crop", "ink"],
        ["--crop=frame", "r.jsonl", "-o", "a b.png", "--threads", "3"],
        ["r.jsonl", "--threads=1024", "-o", "OUT.PNG"],
    ])
    func plainArgumentsMakeTheCommandArgumentParserMakes(_ arguments: [String]) throws {
        let plain = try #require(RenderCommand.plain(arguments))
        let parsed = try RenderCommand.parse(arguments)
        #expect(plain.replay == parsed.replay && plain.output == parsed.output && plain.crop == parsed.crop
                && plain.threads == parsed.threads)
    }

    @Test(arguments: [
        [], ["r.jsonl"], ["-o", "out.png"], ["r.jsonl", "s.jsonl", "-o", "out.png"],
        ["r.jsonl", "-o", "out.jpg"], ["r.jsonl", "-o", "out.ora", "--crop", "ink"],
        ["r.jsonl", "-o", "out.png", "--threads", "0"], ["r.jsonl", "-o", "out.png", "--threads", "-2"],
        ["r.jsonl", "-o", "out.png", "--threads", "two"], ["r.jsonl", "-o", "out.png", "--crop", "all"],
        ["r.jsonl", "-o", "a.png", "-o", "b.png"], ["r.jsonl", "-o", "out.png", "--help"], ["--help"],
        ["r.jsonl", "-o", "out.png", "--"], ["r.jsonl", "-oout.png"], ["r.jsonl", "-o", "-x.png"], ["r.jsonl", "-o"],
    ])
    func anythingElseIsLeftToArgumentParser(_ arguments: [String]) {
        #expect(RenderCommand.plain(arguments) == nil)
    }
}
