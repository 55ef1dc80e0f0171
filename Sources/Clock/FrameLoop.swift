/// What a `FrameLoop` asks of the app: drain input, draw frames, say when to stop.
public protocol FrameLoopDelegate: AnyObject {
    /// Reads and applies all pending input (e.g. `window.pendingEvents()`).
    ///
    /// Called before every wait: once at the start, after each wake-up, and again after each
    /// frame, so that events a library already buffered in user space (Xlib reads ahead, e.g.
    /// while a present waits for its completion), which poll() cannot see, are never left waiting.
    /// - Returns: true when the input changed something that needs a frame: a paused clock then
    ///   restarts at the next deadline.
    func frameLoopDidWake(_ loop: FrameLoop) -> Bool

    /// Draws the frame due at `frame.timestamp`.
    /// - Returns: true to keep the clock running (animation, a stroke in progress), false to
    ///   pause it until input asks for a frame.
    func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool

    /// Checked after every input drain; true makes `run` return.
    var shouldStop: Bool { get }

    /// True when input waits in a library's user-space buffer (read while drawing), which
    /// poll() cannot see: the loop drains again instead of sleeping.
    var hasBufferedInput: Bool { get }
}

extension FrameLoopDelegate {
    public var hasBufferedInput: Bool { false }
}

/// A display-link stand-in: a grid of absolute deadlines `start + k/hz`, waited on together with
/// input file descriptors (the X connection). It never spins: with the clock paused and no
/// input it sleeps in the clock's wait.
///
/// ```
/// let loop = FrameLoop(hz: 60, clock: TimerFDClock(), fds: [window.connectionFileDescriptor])
/// loop.run(delegate)
/// ```
public final class FrameLoop {
    /// Frames per second of the deadline grid.
    public let hz: Int
    /// Deadlines that passed without a frame drawn for them (the app was too slow).
    public private(set) var missedDeadlines = 0
    /// Frames drawn so far.
    public private(set) var framesDrawn = 0
    /// True while the clock is disarmed (the last frame said nothing more to draw).
    public private(set) var isPaused = true

    private let clock: FrameClock
    private let fds: [Int32]
    private let startNS: Int64
    /// The index of the deadline the alarm is set for while running.
    private var nextIndex = 0
    /// The frame whose deadline has passed, drawn after the input drain that follows the wake-up.
    private var due: FrameInfo?
    /// The grid: deadline `anchorIndex` is at `anchorNS`, the others `periodNS` apart. It starts
    /// as `start + k/hz` and moves when the loop follows a display (`follow`).
    private var anchorIndex = 0
    private var anchorNS: Int64
    public private(set) var periodNS: Int64
    /// True once `follow` has moved the grid onto a display's.
    public private(set) var followsDisplay = false

    /// - Parameters:
    ///   - hz: frames per second (60).
    ///   - clock: the time source and waiting place (`TimerFDClock` in the window).
    ///   - fds: input descriptors to wake for when readable (the X connection, signals).
    /// The loop's zero (`now == 0`, frame index 0) is this moment on `clock`.
    public init(hz: Int = 60, clock: FrameClock, fds: [Int32]) {
        precondition(hz > 0)
        self.hz = hz
        self.clock = clock
        self.fds = fds
        startNS = clock.nowNS
        anchorNS = startNS
        periodNS = 1_000_000_000 / Int64(hz)
    }

    /// Moves the grid onto the display's: deadlines `periodNS` apart, one at `deadlineNS` (a
    /// vertical blank less the time a frame takes). Frame indices keep counting. A paused
    /// clock restarts at the first deadline of the new grid from now on; a running clock's next
    /// frame moves to the new deadline nearest its old one, so a change of phase moves it by
    /// at most half a period (drawn at once if that is past), never postpones it by a whole one.
    public func follow(periodNS: Int64, deadlineNS: Int64) {
        guard periodNS > 0 else { return }
        let now = clock.nowNS
        func onGrid(nearest t: Int64) -> Int64 {
            let k = (Double(t - deadlineNS) / Double(periodNS)).rounded()
            return deadlineNS + Int64(k) * periodNS
        }
        var first: Int64
        if isPaused {
            first = onGrid(nearest: now)
            if first <= now { first += periodNS }
            anchorIndex = latestIndex(atNS: now) + 1
        } else {
            first = onGrid(nearest: self.deadlineNS(nextIndex))
            anchorIndex = nextIndex
        }
        anchorNS = first
        self.periodNS = periodNS
        followsDisplay = true
        if !isPaused { clock.arm(at: self.deadlineNS(nextIndex)) }
    }

    /// Seconds since the loop was created, on its clock.
    public var now: Double { Double(clock.nowNS - startNS) / 1e9 }

    /// Nanoseconds on the loop's clock (the timebase of `follow` and of vertical blanks).
    public var nowNS: Int64 { clock.nowNS }

    /// The index of the frame the clock draws next: the one already due (its deadline passed and
    /// the input drain before it is running), else the deadline the alarm is set for, or, paused,
    /// the one it would restart at. No frame drawn later has a lower index: work stamped with this
    /// frame (the immediate ink path's) never comes after work stamped with a later one.
    public var upcomingFrame: Int {
        if let due { return due.index }
        return isPaused ? latestIndex(atNS: clock.nowNS) + 1 : nextIndex
    }

    /// Seconds of deadline `index` on the loop's clock (`index / hz`).
    private func time(ofFrame index: Int) -> Double { Double(index) / Double(hz) }

    /// When deadline `index` is, on the grid (the start's `k/hz` until the loop follows a display).
    private func deadlineNS(_ index: Int) -> Int64 {
        followsDisplay ? anchorNS + Int64(index - anchorIndex) * periodNS
            : startNS + Int64(index) * 1_000_000_000 / Int64(hz)   // exact to the nanosecond: k·10⁹/hz
    }

    /// The newest deadline at or before `ns`.
    private func latestIndex(atNS ns: Int64) -> Int {
        var index = anchorIndex + Int((ns - anchorNS) / periodNS)
        while deadlineNS(index) > ns { index -= 1 }
        while deadlineNS(index + 1) <= ns { index += 1 }
        return index
    }

    /// Restarts a paused clock at the next deadline of the grid (never an off-grid one).
    public func resume() {
        guard isPaused else { return }
        nextIndex = latestIndex(atNS: clock.nowNS) + 1
        isPaused = false
        clock.arm(at: deadlineNS(nextIndex))
    }

    /// Stops the clock until `resume()` (or input that asks for a frame).
    public func pause() {
        guard !isPaused else { return }
        isPaused = true
        clock.arm(at: nil)
    }

    /// Runs until `delegate.shouldStop`: drains input, sleeps on the clock and `fds`, and calls
    /// `draw` once per passed group of deadlines (late wake-ups count missed deadlines and draw
    /// only the latest). The clock starts running.
    public func run(_ delegate: some FrameLoopDelegate) {
        resume()
        var watched = fds
        while true {
            if delegate.frameLoopDidWake(self) { resume() }
            if delegate.shouldStop { break }
            if let frame = due {
                due = nil
                framesDrawn += 1
                if !delegate.frameLoop(self, draw: frame) { pause() }
                continue  // drain again: drawing may have made a library buffer events
            }
            if delegate.hasBufferedInput { continue }
            let wake = clock.wait(for: watched)
            // A descriptor that hung up or is invalid would make every wait return at once.
            let broken = Set(zip(watched, wake.broken).filter(\.1).map(\.0))
            if !broken.isEmpty { watched.removeAll { broken.contains($0) } }
            guard wake.alarm, !isPaused else { continue }
            let now = clock.nowNS
            guard now >= deadlineNS(nextIndex) else {
                clock.arm(at: deadlineNS(nextIndex))  // woke early: keep waiting for it
                continue
            }
            let index = latestIndex(atNS: now)
            missedDeadlines += index - nextIndex
            nextIndex = index + 1
            clock.arm(at: deadlineNS(nextIndex))
            due = FrameInfo(index: index, timestamp: time(ofFrame: index), targetTimestamp: time(ofFrame: index + 1))
        }
        due = nil
        pause()
    }
}
