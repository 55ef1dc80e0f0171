// Paint: the app core, with no display. The window and `quicksilver render` both run it.
//
// Start with `Session`: `handle(_:)` queues `SessionEvent`s (every pointer sample is kept, in
// order); `draw(_:to:)` runs once per frame: it plays the queued samples through the stroke
// engine into `StrokeLayer`, runs commands against `Canvas` and `History`, then composes the
// damaged region into the presenter's image, and reports what it played. The live mercurial
// stroke is a `MercurialBrush`; its finish is an `EmbossJob` computed off the frame loop.
// `ReplayPlayer` plays a replay's events through a session on a virtual 60 Hz clock.
