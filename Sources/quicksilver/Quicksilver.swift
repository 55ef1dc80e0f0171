// quicksilver: the command line. Start here for how the program is put together:
// `WindowCommand` opens the X11 window (the default) and runs App's `PaintApp` in it, `RenderCommand` plays a replay headlessly
// to a PNG. Typed errors from every layer become exit codes here and nowhere else: 2 for a bad
// replay file, 1 for any other failure. The benchmarks are a program of their own
// (quicksilver-bench, `make bench`), not a subcommand: nothing of them is installed.
import App
import ArgumentParser

@main
struct Quicksilver: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "quicksilver",
        abstract: "A fast paint window for X11.",
        version: version,
        subcommands: [WindowCommand.self, RenderCommand.self, TimelapseCommand.self, SessionsCommand.self],
        defaultSubcommand: WindowCommand.self
    )

    /// `quicksilver render …` with plain, valid arguments is read without ArgumentParser
    /// (`RenderCommand.plain`): its reflection over the tree of subcommands, and then over
    /// render's own options, was 2 ms of each `render`, a tenth of an empty one. Everything else
    /// (another command, help, a mistake in render's arguments) goes through the tree, whose
    /// messages and usage name `quicksilver render`, as before.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "render", let render = RenderCommand.plain(Array(arguments.dropFirst())) {
            do { try render.run() } catch { RenderCommand.exit(withError: error) }
            return
        }
        main(nil)
    }
}

/// One line on stderr.
func printError(_ message: String) { Console.standard.err(message) }

/// One line on stdout, written at once.
func printLine(_ message: String) { Console.standard.out(message) }

/// Exit statuses, one place.
enum Exit {
    /// A replay or journal file is malformed.
    static let badInput = ExitCode(2)
    /// Anything else went wrong (unwritable output, no display, …).
    static let failure = ExitCode(1)
}
