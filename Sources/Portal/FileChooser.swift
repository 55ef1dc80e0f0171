/// A file chooser the window can ask without waiting: the desktop's (`PortalFileChooser`), or a
/// fake in tests. One question at a time; its answer is taken when it comes.
public protocol FileChooser: AnyObject {
    /// False once it is known that no chooser answers (the app then asks another way); true
    /// while that is still being found out, or when one does.
    var mayAnswer: Bool { get }
    /// A question is out and its answer not yet taken.
    var isAsking: Bool { get }
    /// Asks `question`; returns at once. The answer comes through `take()`.
    func ask(_ question: ChooserQuestion)
    /// The answer, once it came (once).
    func take() -> ChooserAnswer?
}
