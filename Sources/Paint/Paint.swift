// Paint: the app core, with no display. The window and `quicksilver render` both run it.
//
// Start with `Session`: `handle(_:)` queues input events (every pointer sample is kept, in
// order); `draw(_:to:)` runs once per frame: it plays the queued samples through the stroke
// engine into `StrokeLayer`, runs commands against `Canvas` and `History`, then composes the
// damaged region into the presenter's image. `Replay` reads and writes the JSON Lines session
// format (`docs/replay-format.md`); `JSON` is its small strict parser.
