// Brushes: MyPaint's brushes on Quicksilver's engine. libmypaint (CMyPaint) computes a brush's
// dynamics; Quicksilver's dab surface (the Dabs module) lays the dabs.
//
// Start with `BrushPlayer`: the playing protocol (docs/brushes.md), which makes a brush anew
// (`BrushEngine`, from a .myb's checked `BrushSettings`), sets its colour, and plays pointer
// events (`BrushEvent`, one `stroke_to` each, in its own atomic section) onto a `DabSurface`
// through `SurfaceBridge`, libmypaint's MyPaintSurface2 with Swift callbacks. `BrushLibrary`
// finds the installed brushes where MyPaint looks (packs, names, icons); `BrushSettings` checks a
// .myb file with its own strict JSON reader (`BrushJSON`) and refuses a broken one in one line
// that says where (`BrushError`). `BrushRecording` reads libmypaint's benchmark recordings.
