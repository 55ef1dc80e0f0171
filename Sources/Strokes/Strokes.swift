// Strokes: pointer samples in, dabs and spans out.
//
// Start with `StrokeBuilder`: it smooths samples into quadratic Bézier curves through their
// midpoints (the Qiita "smooth drawing" recipe), walks the curve placing dabs at a spacing that
// carries its remainder from sample to sample, and hands every dab (the pen) or span (the pixel
// pen) to a `StrokeSink`, a batch whose owner draws it. It never touches pixels; each call
// returns the damaged rectangle.
// `PressureSimulator` turns modifier keys into pressure for devices that have none.
