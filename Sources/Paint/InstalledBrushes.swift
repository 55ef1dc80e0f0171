import Brushes
import Events
import ReplayFormat

/// The MyPaint brushes installed (where MyPaint looks: `BrushLibrary`), as a replay's brush
/// events name them: what completes an event that gives a name alone, and checks one that
/// embeds its settings, before it is played. Looks in the folders once, when first asked.
public final class InstalledBrushes {
    private var library: BrushLibrary?
    private let environment: [String: String]?

    /// The brushes `environment` points to (the process's by default).
    public init(environment: [String: String]? = nil) { self.environment = environment }

    /// The brushes of `library`, already found.
    public init(library: BrushLibrary) {
        self.library = library
        environment = nil
    }

    /// Why a brush event cannot be played, in one line.
    public struct Refusal: Error, Sendable {
        public let message: String
        public init(message: String) { self.message = message }
    }

    /// A MyPaint brush event, read from line `line`, with its settings (`complete`); any other
    /// event as it is. Throws what is wrong, on that line.
    public func completed(_ e: Replay.TimedEvent, line: Int) throws(ReplayError) -> Replay.TimedEvent {
        guard case .command(.mypaint(let choice)) = e.event else { return e }
        switch complete(choice) {
        case .success(let made): return Replay.TimedEvent(t: e.t, event: .command(.mypaint(made)))
        case .failure(let why): throw ReplayError(line: line, message: "MyPaint brush \(JSON.quoted(choice.name)): \(why.message)", kind: .unknownValue)
        }
    }

    /// `choice` with its settings: the embedded ones checked, else the installed brush's; what
    /// is wrong when neither.
    public func complete(_ choice: MyPaintChoice) -> Result<MyPaintChoice, Refusal> {
        do throws(BrushError) {
            if let json = choice.settings {
                _ = try BrushSettings.parse(Array(json.utf8), path: "the settings of \(choice.name)")
                return .success(choice)
            }
            let library = self.library ?? BrushLibrary.installed(environment: environment)
            self.library = library
            guard library.entry(named: choice.name) != nil else {
                throw BrushError(path: choice.name, message: "none of that name is installed (looked in \(library.folders.joined(separator: ", ")))")
            }
            var made = choice
            made.settings = try library.settings(named: choice.name).json
            return .success(made)
        } catch {
            return .failure(Refusal(message: error.line.map { "its settings, line \($0): " + error.message } ?? error.message))
        }
    }
}
