// Input: what the window reports, before the app has decided anything about it.
//
// Start with `InputEvent`, the one enum the X11 layer translates X events into (in one switch)
// and the app core reads. A `PointerSample` carries the device's own pressure when it has one
// (nil for a mouse): the app decides the pressure actually drawn with (see App's `Pressure`).
// A `KeyPress` carries a typed `Key` (the key itself, never a keysym or its name) without knowing
// what it does: the app's `KeyMap` does.
