// Clock: when frames happen. The display-link stand-in.
//
// Start with `FrameLoop`: it keeps a grid of frame deadlines (60 Hz), sleeps until the next one
// or until input arrives, and calls its delegate to drain input and to draw each frame; late
// wake-ups count as missed deadlines and draw only the newest frame. It never spins: with the
// clock paused and no input it sleeps. Time comes through the `FrameClock` seam: `TimerFDClock`
// is the real one (a timerfd on CLOCK_MONOTONIC, waited on with poll() together with the X
// connection), `ManualClock` moves only when told (tests). `SignalFD` turns SIGTERM, SIGINT and
// SIGHUP into a descriptor the loop waits on. `FrameInfo` is what a frame knows of its time.
// `ClockCalls` holds the raw Linux calls.
