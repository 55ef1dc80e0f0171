// Dabs: where a brush meets pixels. A brush engine never touches pixels: it describes dabs, and a
// `DabSurface` lays them, answers the colour under a dab (for smudging) and reports the damage.
//
// Start with `Dab` (what libmypaint's MyPaintSurface.draw_dab takes, every parameter) and the
// `DabSurface` protocol (draw_dab, get_color, begin/end_atomic, and the end of a stroke), then
// `TiledDabSurface`, Quicksilver's surface over a layer's 64x64 8-bit premultiplied tiles: a
// stroke paints into 15-bit working tiles (`WorkingTiles`, a layer tile promoted when the stroke
// first touches it) and each atomic section's dabs are laid by the dab kernel (Kernels'
// `DabKernel`) in 16x16 threadgroups on `ComputeContext`'s workers; when the stroke ends, the
// working tiles are rounded back into the layer once (docs/brushes.md says why: the
// measurements). `DabPrecision` names the other depths measured.
