import Paint
import ReplayFormat

/// A session file played in the window at the pace it was drawn (`window --play`): given the
/// time since the play began, the events now due, whole frames of the player at a time. The
/// pace is the timelapse's drawing clock (`DrawingClock`: idle gaps squeezed to half a second),
/// divided by the speed. Pure: the caller brings the time.
public struct Playthrough {
    /// The file's events, in order.
    private let events: [Replay.TimedEvent]
    /// When each event is due, in seconds since the play began (equal within a frame).
    private let due: [Double]
    /// Events taken so far.
    public private(set) var taken = 0

    /// - Parameter speed: how many times faster than drawn (above 0).
    public init(events: [Replay.TimedEvent], speed: Double) {
        self.events = events
        // The frames the player draws: the opening one (frame 0), then each frame with events.
        var counter = ReplayPlayer.FrameCounter()
        var eventFrame: [Int] = [], drawnFrames = [0]
        eventFrame.reserveCapacity(events.count)
        for e in events {
            let f = counter.frame(of: e)
            eventFrame.append(f)
            if f != drawnFrames[drawnFrames.count - 1] { drawnFrames.append(f) }
        }
        let clock = DrawingClock.squeezed(drawnFrames)
        var due: [Double] = [], k = 0
        due.reserveCapacity(events.count)
        for f in eventFrame {
            if f != drawnFrames[k] { k += 1 }
            due.append(Double(clock[k]) / ReplayPlayer.framesPerSecond / speed)
        }
        self.due = due
    }

    /// The whole play, in seconds.
    public var seconds: Double { due.last ?? 0 }

    /// Every event has been taken.
    public var isDone: Bool { taken == events.count }

    /// How far the play has gone, 0…100, by its time.
    public var percent: Int {
        guard taken > 0, seconds > 0 else { return isDone ? 100 : 0 }
        return Int((100 * due[taken - 1] / seconds).rounded(.down))
    }

    /// The events due by `seconds` since the play began and not taken yet.
    public mutating func take(at seconds: Double) -> ArraySlice<Replay.TimedEvent> {
        let start = taken
        // A microsecond's grace: a clock in whole nanoseconds reaches frame k's k/60 s just before it.
        while taken < events.count && due[taken] <= seconds + 1e-6 { taken += 1 }
        return events[start..<taken]
    }

    /// Every event not taken yet: the play jumps to its end.
    public mutating func takeRest() -> ArraySlice<Replay.TimedEvent> { take(at: .infinity) }
}
