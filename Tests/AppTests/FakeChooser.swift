import Portal

/// A file chooser that answers when the test says: what it was asked, one question at a time.
final class FakeChooser: FileChooser {
    var mayAnswer = true
    private(set) var questions: [ChooserQuestion] = []
    private var answer: ChooserAnswer?
    private var out = false

    var isAsking: Bool { out }

    func ask(_ question: ChooserQuestion) {
        questions.append(question)
        out = true
    }

    /// The user's answer, taken at the app's next wake-up.
    func answers(_ a: ChooserAnswer) { answer = a }

    func take() -> ChooserAnswer? {
        defer { if answer != nil { answer = nil; out = false } }
        return answer
    }
}
