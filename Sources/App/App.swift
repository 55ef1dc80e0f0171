// App: the window's logic, with no X in it: testable with a fake window and a manual clock.
//
// Start with `PaintApp`, the frame loop's delegate: each wake-up it hands the window's
// `InputEvent`s to the `PointerRouter`, a pure value that says what each means (one `Mode` for
// every state the pointer and keys can be in; keys through `KeyMap`, the one table of bindings;
// each sample's pressure through `Pressure`), and carries out the `RouterAction`s it returns:
// events queued on the `Session`, gestures handed to UI's widgets, saves and copies
// (`Transfers`). Each frame it draws, then records and journals exactly what the frame played
// (`SessionLogs`), stamped with that frame. It talks to the window through `AppWindow` (events
// in; title, present, frame target out), which the X11 window implements. `InkPath` presents pen
// samples as they arrive, `Play` runs a `window --play`, `FrameStats` the `--stats` figures,
// `Console` the lines on stdout and stderr.
