import Portal
import Testing

/// A Request.Response signal's arguments as an answer.
struct ChooserAnswerTests {
    @Test func chosenFilesAreDecodedPaths() {
        let results = DBusValue.vardict([
            ("uris", .strings(["file:///tmp/my%20drawing.ora"])),
            ("current_filter", FileFilter("PNG", [.glob("*.png")]).value),
        ])
        #expect(ChooserAnswer.from(response: 0, results: results) == .chosen(["/tmp/my drawing.ora"], filter: "PNG"))
        #expect(ChooserAnswer.from(response: 0, results: .vardict([("uris", .strings(["file:///a"]))])) == .chosen(["/a"], filter: nil))
    }

    @Test func cancelledAndEndedOtherwise() {
        #expect(ChooserAnswer.from(response: 1, results: .vardict([])) == .cancelled)
        #expect(ChooserAnswer.from(response: 2, results: .vardict([("uris", .strings(["file:///a"]))])) == .ended)
        #expect(ChooserAnswer.from(response: 7, results: .vardict([])) == .ended)
    }

    @Test func anAnswerNamingNoLocalFileFails() {
        for results in [DBusValue.vardict([]), .vardict([("uris", .strings([]))]), .vardict([("uris", .strings(["sftp://h/x.ora"]))]),
                        .vardict([("uris", .string("file:///x.ora"))])] {
            guard case .failed(let e) = ChooserAnswer.from(response: 0, results: results) else {
                Issue.record("\(results) names no file")
                continue
            }
            #expect(e.kind == .badAnswer)
        }
    }
}
