import Clock
import Compute
import Events
import Geometry
import ReplayFormat

/// Plays a replay through a session on a virtual 60 Hz frame clock: an event at time t is
/// delivered to frame ⌊t·60⌋, exactly as the window batches the samples that arrive between two
/// frames, and `draw` runs after each frame's events. At a `continued` line the continuing
/// window's clock starts again from 0: its frames follow the ones before. Events can be fed in
/// pieces (a journal being parsed on another thread); `finish()` draws the last frame.
public struct ReplayPlayer {
    public static let framesPerSecond = 60.0

    public let session: Session
    public let presenter: Presenter
    /// Called after each frame is drawn, with its index (a timelapse takes its pictures here).
    public var afterFrame: ((Int) -> Void)?
    private var frames = FrameCounter()
    /// The frame being played (of the last event fed).
    private var frame = 0
    /// The current frame has been drawn since its last event (`flush`): it is not drawn again.
    private var drawn = false

    /// Which frame of the player each event of a replay plays in, in order.
    public struct FrameCounter {
        /// The frame of the last event.
        public private(set) var frame = 0
        /// Added to an event's frame index: where the clock of the window that continued the
        /// session (at the last `continued` line) starts, just after the frames before it.
        private var offset = 0

        public init() {}

        /// The frame `e`, the next event, plays in.
        public mutating func frame(of e: Replay.TimedEvent) -> Int {
            if case .command(.continued) = e.event { offset = frame + 1 - ReplayPlayer.frameIndex(at: e.t) }
            frame = offset + ReplayPlayer.frameIndex(at: e.t)
            return frame
        }
    }

    public init(session: Session, presenter: Presenter) {
        self.session = session
        self.presenter = presenter
    }

    /// The frame an event at `t` seconds belongs to.
    public static func frameIndex(at t: Double) -> Int {
        Int(min(max(t * framesPerSecond, 0), 1e15).roundedDown)
    }

    // Plays the next events, in order. Concrete types rather than any sequence: the body is then
    // compiled here for them, where a caller in another module would run the generic one, an
    // iterator and a copy of each event through witness tables (a restore's chunks, a --play's).

    /// Plays the next events, in order.
    public mutating func feed(_ events: [Replay.TimedEvent]) { feedAll(events) }

    /// Plays the next events, in order.
    public mutating func feed(_ events: ArraySlice<Replay.TimedEvent>) { feedAll(events) }

    private mutating func feedAll(_ events: some Collection<Replay.TimedEvent>) {
        var i = events.startIndex
        guard i != events.endIndex else { return }
        var f = frames.frame(of: events[i])
        while true {
            if f != frame {
                if !drawn { draw() }
                frame = f
            }
            // This frame's events, up to the first of a later frame.
            var j = events.index(after: i), next: Int?
            while j != events.endIndex {
                let g = frames.frame(of: events[j])
                if g != f { next = g; break }
                j = events.index(after: j)
            }
            guard let next else {
                // The frame may go on in the next events fed: queued, and drawn once they show
                // that it is over.
                for e in events[i..<j] { session.handle(e.event) }
                drawn = false
                return
            }
            // The frame is complete: played straight from here, nothing queued.
            draw(playing: events[i..<j].lazy.map(\.event))
            drawn = true
            (i, f) = (j, next)
        }
    }

    /// Draws the frame of the last events now, when the caller knows that no more events of it
    /// follow (a window playing a file frame by frame); it is not drawn again.
    public mutating func flush() {
        guard !drawn else { return }
        draw()
        drawn = true
    }

    /// Draws the frame of the last events, and bakes a last mercurial stroke's emboss: the
    /// session is then as the replay leaves it, ready to be read.
    public mutating func finish() {
        flush()
        session.settle()
    }

    private func draw() {
        session.draw(frameInfo, to: presenter)
        afterFrame?(frame)
    }

    /// Draws the current frame with `events` played after the queued ones.
    private func draw(playing events: some Sequence<SessionEvent>) {
        session.draw(frameInfo, playing: events, to: presenter)
        afterFrame?(frame)
    }

    private var frameInfo: FrameInfo {
        let t = Double(frame) / Self.framesPerSecond
        return FrameInfo(index: frame, timestamp: t, targetTimestamp: t + 1 / Self.framesPerSecond)
    }

    /// Plays all of `events` and draws the last frame.
    public static func play(_ events: [Replay.TimedEvent], session: Session, presenter: Presenter) {
        var player = ReplayPlayer(session: session, presenter: presenter)
        player.feed(events)
        player.finish()
    }
}
