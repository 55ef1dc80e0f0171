import Events
import Journal
import Paint
import ReplayFormat

/// The files the window writes what it plays to: `--record`'s replay and the session's journal.
/// It stamps each played event with its frame, tells them when a stroke ends (they sync, the
/// journal may compact), and keeps track of whether they are being written: a change is said
/// once, on stderr and in the status, and Ctrl+Q warns before quitting while they are not.
struct SessionLogs {
    let recorder: Journal?
    let journal: Journal?
    private let console: Console
    /// What the logs' health was last said to be (recorder, journal).
    private var reported: [Journal.Health]
    /// Ctrl+Q was pressed while a log could not be written: the next one quits anyway.
    private var quitDespiteUnsaved = false
    /// The index of the last frame drawn (the final one after the loop ends comes after it).
    private(set) var lastFrame = 0
    /// The loop frame the window's own clock starts after (its journal's times count from there).
    private var clockStart = 0

    init(recorder: Journal?, journal: Journal?, console: Console) {
        self.recorder = recorder
        self.journal = journal
        self.console = console
        reported = [.writing, .writing]
    }

    private var logs: [(log: Journal, what: String)] {
        [(recorder, "the recording"), (journal, "the journal")].compactMap { l, w in l.map { ($0, w) } }
    }

    /// A frame was drawn (by a play, which records nothing).
    mutating func frameDrawn(_ index: Int) { lastFrame = max(lastFrame, index) }

    /// The window's own clock starts now (a play has ended): its journal's times count from here.
    mutating func restartClock() {
        clockStart = lastFrame
        lastT = 0
        anchor = nil
    }

    /// The last time journaled (of the window's own clock).
    private var lastT = 0.0
    /// The newest pointer sample journaled with its own time (`SampleTimes`).
    private var anchor: SampleTimes.Anchor?

    /// Frame `index` on the journal's clock: it stands for the 60th of a second from k / 60.
    private func clockFrame(_ index: Int) -> Double { Double(max(lastFrame, index) - clockStart) }

    /// The times `count` events played by frame `index` are journaled at: each at the frame's
    /// middle (never before the last time journaled), so a replay batches them into exactly the
    /// same frame.
    func times(count: Int, inFrame index: Int) -> [Double] {
        Array(repeating: max((clockFrame(index) + 0.5) / ReplayPlayer.framesPerSecond, lastT), count: count)
    }

    /// The times the events frame `index` will play are journaled at while a MyPaint brush is
    /// in use (its dtime is the difference between two samples' times), from `own`, each
    /// event's own time on the window's clock (nil: none): at the samples' own gaps, within the
    /// frame, after the last time journaled (`SampleTimes`). The window gives the samples those
    /// times (`Session.stampQueued`) and `record` journals them.
    /// `early`: for the immediate ink path (`SampleTimes.init`).
    func sampleTimes(own: [Double?], inFrame index: Int, early: Bool = false) -> SampleTimes {
        let k = clockFrame(index), fps = ReplayPlayer.framesPerSecond
        return SampleTimes(own: own, after: lastT, in: k / fps ..< (k + 1) / fps, following: anchor, early: early)
    }

    /// Records and journals the events frame `index` played, stamped within that frame (at
    /// `stamped`'s times, which the window gave the samples, else `times(count:inFrame:)`): a
    /// replay then batches them into exactly the same frames (which the mercurial brush's spray
    /// depends on). Returns true when a stroke or a command ended among them.
    ///
    /// The stamp never goes back (the frame loop promises it; this keeps the promise for the
    /// journal too): a journal whose times go back cannot be restored, and that would lose the
    /// drawing, where a later stamp changes at most which frame a replay batches an event into.
    mutating func record(_ played: [SessionEvent], inFrame index: Int, stamped: SampleTimes? = nil) -> Bool {
        let times = stamped.flatMap { $0.times.count == played.count ? $0.times : nil } ?? times(count: played.count, inFrame: index)
        if let a = stamped?.anchor { anchor = a }
        lastFrame = max(lastFrame, index)
        var ended = false
        for (event, t) in zip(played, times) {
            lastT = t
            let timed = Replay.TimedEvent(t: t, event: event)
            recorder?.record(timed)
            journal?.record(timed)
            switch event {
            case .pointerUp, .command: ended = true
            case .pointerDown, .pointerMove, .resize, .reframe, .view: break
            }
        }
        return ended
    }

    /// A stroke or command has been played: sync (and maybe compact).
    func strokeEnded(now: Double, session: Session) {
        for (log, _) in logs { log.strokeEnded(now: now, session: session) }
    }

    /// Every wake-up of the frame loop: pending lines go to the writer at least every 100 ms.
    func tick(now: Double) {
        for (log, _) in logs { log.tick(now: now) }
    }

    /// Keeps a pasted picture's PNG beside both files, before its paste is recorded.
    func keep(picture png: [UInt8], as name: String) throws {
        for (log, _) in logs { try log.keep(picture: png, as: name) }
    }

    /// Says once, on stderr, when a log's writes start failing and when they work again;
    /// true when anything changed (the status then says so too).
    mutating func reportHealth() -> Bool {
        var changed = false
        for (i, (log, what)) in [(recorder, "the recording"), (journal, "the journal")].enumerated() {
            guard let log else { continue }
            let health = log.health
            guard health != reported[i] else { continue }
            reported[i] = health
            changed = true
            switch health {
            case .failing(let e):
                console.err("quicksilver: cannot write \(what) \(e.path): \(e.message); drawing goes on, kept in memory, "
                    + "and is written as soon as the disk takes it")
            case .writing:
                console.err("quicksilver: \(what) \(log.path) is written again: nothing was lost")
                quitDespiteUnsaved = false
            }
        }
        return changed
    }

    /// What the status says while a log cannot be written.
    var warning: String? {
        let failing = zip(reported, ["recording", "journal"]).compactMap { health, what -> String? in
            guard case .failing(let e) = health else { return nil }
            return "\(what) NOT SAVED (\(e.reason)), retrying"
        }
        return failing.isEmpty ? nil : failing.joined(separator: ", ")
    }

    /// Ctrl+Q or the close button: true to quit now; false, once, while a log cannot be
    /// written (the caller says why; the next one quits).
    mutating func mayQuit() -> Bool {
        guard warning != nil, !quitDespiteUnsaved else { return true }
        quitDespiteUnsaved = true
        return false
    }

    /// Closes both at the end of the session, saying on stderr what could not be written.
    func close() {
        for (log, what) in [(journal, "the session"), (recorder, "the recording")] {
            guard let log, let failure = log.close() else { continue }
            let lost = log.strokesNotSaved
            console.err("quicksilver: \(what) could not be written to the end (\(failure)): \(lost) stroke\(lost == 1 ? "" : "s") "
                + "not saved; it is kept up to the last line written")
        }
    }
}
