/// Where a timelapse's frames go, one after another, all of the same size (0xAARRGGBB,
/// opaque). Nothing is in place at the output's path until `finish()` succeeds; a sink given up
/// (an error, or dropped unfinished) leaves nothing behind.
protocol FrameSink: AnyObject {
    /// Takes the next frame.
    func write(_ frame: [UInt32]) throws(TimelapseError)
    /// Ends the output and puts it in place.
    func finish() throws(TimelapseError)
    /// Gives the output up now (a signal came): whatever it made so far is removed, a child
    /// process it started is stopped.
    func abandon()
}

/// Why a timelapse could not be made: one line for stderr, and the exit status it calls for.
struct TimelapseError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
