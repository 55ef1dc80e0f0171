// App: the window's logic, with no X in it: testable with a fake window and a manual clock.
//
// Start with `PaintApp`, the frame loop's delegate: each wake-up it takes the window's
// `InputEvent`s, decides each sample's pressure (`Pressure`, the one place that does), maps
// keys to commands (`KeyMap`) and queues `SessionEvent`s on the `Session`; each frame it draws,
// then records and journals exactly what the frame played, stamped with that frame. It talks
// to the window through `AppWindow` (events in; title, present, frame target out), which the
// X11 window implements. `Exporter` writes Ctrl+S screenshots, `FrameStats` the `--stats`
// figures, `Console` the lines on stdout and stderr.
