import Paint

/// What a `FrameLoop` asks of the app: drain input, draw frames, say when to stop.
public protocol FrameLoopDelegate: AnyObject {
    /// Reads and applies all pending input (e.g. `window.pendingEvents()`).
    ///
    /// Called before every wait: once at the start, after each wake-up, and again after each
    /// frame, so that events a library already buffered in user space (Xlib reads ahead, e.g.
    /// while `frameTarget()` waits), which poll() cannot see, are never left waiting.
    /// - Returns: true when the input changed something that needs a frame: a paused clock then
    ///   restarts at the next deadline.
    func frameLoopDidWake(_ loop: FrameLoop) -> Bool

    /// Draws the frame due at `frame.timestamp`.
    /// - Returns: true to keep the clock running (animation, a stroke in progress), false to
    ///   pause it until input asks for a frame.
    func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool

    /// Checked after every input drain; true makes `run` return.
    var shouldStop: Bool { get }
}

/// A display-link stand-in: a clock of absolute deadlines `start + k/hz` on a timerfd, waited on
/// with poll() together with input file descriptors (the X connection). It never spins: with the
/// clock paused and no input it sleeps in poll().
///
/// ```
/// let loop = FrameLoop(hz: 60, fds: [window.connectionFileDescriptor])
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

    private let fds: [Int32]
    private let timer = TimerFD()
    private let startNS: Int64
    /// The index of the deadline the armed timer fires at next.
    private var nextIndex = 0

    /// - Parameters:
    ///   - hz: frames per second (60).
    ///   - fds: input descriptors to wake for when readable (the X connection).
    /// The clock's zero (`now == 0`, frame index 0) is this moment. Traps only if the process
    /// is out of file descriptors.
    public init(hz: Int = 60, fds: [Int32]) {
        precondition(hz > 0)
        self.hz = hz
        self.fds = fds
        startNS = OSCalls.monotonicNanoseconds()
    }

    /// Seconds since the loop was created, on CLOCK_MONOTONIC.
    public var now: Double { Double(OSCalls.monotonicNanoseconds() - startNS) / 1e9 }

    /// Seconds of deadline `index` on the loop's clock (`index / hz`).
    public func time(ofFrame index: Int) -> Double { Double(index) / Double(hz) }

    private func deadlineNS(_ index: Int) -> Int64 {
        startNS + Int64(index) * 1_000_000_000 / Int64(hz)
    }

    /// Restarts a paused clock at the next deadline of the grid (never an off-grid one).
    public func resume() {
        guard isPaused else { return }
        let elapsed = OSCalls.monotonicNanoseconds() - startNS
        nextIndex = Int(elapsed * Int64(hz) / 1_000_000_000) + 1
        isPaused = false
        timer.arm(firstNS: deadlineNS(nextIndex), intervalNS: 1_000_000_000 / Int64(hz))
    }

    /// Stops the clock until `resume()` (or input that asks for a frame).
    public func pause() {
        guard !isPaused else { return }
        isPaused = true
        timer.disarm()
        _ = timer.readExpirations()
    }

    /// Runs until `delegate.shouldStop`: drains input, sleeps in poll() on the timer and `fds`,
    /// and calls `draw` once per passed deadline group (late wake-ups count missed deadlines and
    /// draw only the latest). The clock starts running.
    public func run(_ delegate: some FrameLoopDelegate) {
        resume()
        var due: FrameInfo?
        var watched = fds
        while true {
            if delegate.frameLoopDidWake(self) { resume() }
            if delegate.shouldStop { break }
            if let frame = due {
                due = nil
                framesDrawn += 1
                if !delegate.frameLoop(self, draw: frame) { pause() }
                continue  // drain again: drawing may have made Xlib buffer events
            }
            let results = OSCalls.poll([timer.fileDescriptor] + watched, timeoutMS: -1)
            // A descriptor that hung up or is invalid would make poll() return at once forever.
            let broken = Set(zip(watched, results.dropFirst()).filter { $0.1.broken }.map(\.0))
            if !broken.isEmpty { watched.removeAll { broken.contains($0) } }
            if results[0].readable {
                let count = timer.readExpirations()
                if count > 0 && !isPaused {
                    let index = nextIndex + count - 1
                    missedDeadlines += count - 1
                    nextIndex = index + 1
                    // Re-anchor at the exact grid point (the kernel interval is whole ns).
                    timer.arm(firstNS: deadlineNS(nextIndex), intervalNS: 1_000_000_000 / Int64(hz))
                    due = FrameInfo(index: index, timestamp: time(ofFrame: index),
                                    targetTimestamp: time(ofFrame: index + 1))
                }
            }
        }
        pause()
    }
}
