// Measures: the yardsticks for the pen's geometry, kept out of the product. `make bench`'s
// program (quicksilver-bench) prints its prediction and stabilizer tables with them, and the
// Strokes and Paint tests hold the `Predictor` and the `Stabilizer` to their goals with them;
// `PSNR` is how near a brush paints to libmypaint (docs/brushes.md).
//
// Start with `StabilizerMeasure` (shaky lines, and how straight the stroke through a follower
// comes out) and `PredictionMeasure` (hand-like strokes, and how far a predicted tail lands from
// where the pen went). `PathAverage` (the first stabilizer) and `LazyRope` (Lazy Nezumi's and
// Krita's) are the followers the current one is compared with.
