import Clock
import Compute
import Events
import Geometry
import Paint

/// A `window --play` under way: the file being played at its pace, the player drawing it to
/// the window, when it began, whether a key or a click asked for the end, and the start
/// commands to play once it has ended. Its events reach neither the journal nor the recording:
/// both already open with them (the continuation).
struct Play {
    var file: Playthrough
    var player: ReplayPlayer
    /// The loop time when the play began (nil until its first frame).
    var start: Double?
    /// A key or a click asked for the end.
    var jumpToEnd = false
    /// The start commands, played once the play has ended (a `continued` line follows the
    /// file's events), and the view the window opened with, shown again then.
    let afterwards: [Command]
    let view: ViewTransform

    init(file: Playthrough, session: Session, presenter: Presenter, afterwards: [Command], view: ViewTransform) {
        self.file = file
        player = ReplayPlayer(session: session, presenter: presenter)
        self.afterwards = afterwards
        self.view = view
    }

    /// Plays the events of the file now due (all of them after a jump) and shows them; true
    /// once the file is played out.
    mutating func frame(_ frame: FrameInfo, now: Double, session: Session, presenter: Presenter) -> Bool {
        if start == nil {
            // The canvas the file starts from, before its first events are due.
            session.draw(frame, to: presenter)
            start = now
        }
        let due = jumpToEnd ? file.takeRest() : file.take(at: now - (start ?? now))
        if !due.isEmpty {
            player.feed(due)
            // Only whole frames of the player are due: this one's events are all in.
            player.flush()
        }
        return file.isDone
    }

    /// Plays what is left at once (the window is closing).
    mutating func playRest() { player.feed(file.takeRest()) }

    /// The play is over: its last frame drawn, the start commands and the window's view queued.
    mutating func end(session: Session) {
        player.finish()
        for c in afterwards { session.handle(.command(c)) }
        if view != session.upcomingView { session.handle(.view(view)) }
    }

    /// What the status says while it plays.
    var prompt: String { "playing \(file.percent) % (a key or a click: to the end)" }
}
