import Portal

/// Names through the desktop's file chooser: Save As, a first save and Open ask it when it
/// answers (`FileChoice` says what), and the frame loop goes on meanwhile; its answer, taken at
/// a wake-up, saves or opens as the status strip's Return would, or falls back to the strip.
extension PaintApp {
    /// The desktop's file chooser, and what the question out to it is for (nil: none is).
    struct NameChooser {
        let chooser: FileChooser
        var purpose: NameEntry.Purpose?
    }

    /// What the router knows of the chooser.
    var chooserState: ChooserState {
        guard let chooser = desktop.chooser, chooser.chooser.mayAnswer else { return .absent }
        return chooser.purpose != nil || chooser.chooser.isAsking ? .open : .ready
    }

    /// Asks the chooser for a name for `purpose`.
    func ask(_ purpose: NameEntry.Purpose) {
        guard let chooser = desktop.chooser?.chooser, desktop.chooser?.purpose == nil else { return }
        desktop.chooser?.purpose = purpose
        chooser.ask(FileChoice.question(for: purpose, names: transfers.names))
        statusLine.isStale = true
    }

    /// Carries out the chooser's answer, once it came.
    func takeChooserAnswer() {
        guard let purpose = desktop.chooser?.purpose, let answer = desktop.chooser?.chooser.take() else { return }
        desktop.chooser?.purpose = nil
        statusLine.isStale = true
        switch FileChoice.outcome(of: answer, for: purpose, files: transfers.names.files) {
        case .request(let request): perform(.app(request))
        case .say(let said): statusLine.message = said
        case .askInStrip(let suggestion, let said):
            for action in router.askInStrip(purpose, suggestion: suggestion ?? transfers.names.suggestion(for: purpose)) { perform(action) }
            if let said {
                statusLine.message = said
                transfers.console.err("quicksilver: \(said)")
            }
        }
    }
}
