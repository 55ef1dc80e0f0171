// Kernels: everything that writes pixels, as plain functions over `Texture` views.
//
// Start with `ComposeKernel`: it turns the canvas plus the live stroke's coverage into the 32-bit
// image the window presents and export writes, over just the damaged region (its fused pass and
// a turned view's bilinear rows are CVector's, in AVX2 or AVX-512 where the processor has them).
// `Coverage` stamps the stroke engine's dabs and spans into an 8-bit coverage mask. `Blend` holds
// the one source-over formula that both of them and the stroke bake share. `Color` is the pixel format.
// `LayerBlend` composites one premultiplied layer onto another in a `BlendMode` (OpenRaster's
// composite-ops, as Krita reads them).
//
// The mercurial brush's kernels follow the stroke's life: `ScaffoldKernel` sprays particles for
// each batch of four samples (`SampleBatch`, `MercurialRandom`), `GaussianBlur` with `Threshold`
// makes the live metaball look, and `Emboss` shades the finished shape from a `Hemisphere`
// generated for the brush's `Shading` (its lights and shininess). `Pulse` (with `HSV`) gives the breathing background that the compose pass's
// view filter shows.
//
// The dab kernel lays MyPaint dabs on 15-bit premultiplied tiles exactly as libmypaint 1.6 does:
// `DabKernel` (a batch of `DabStamp`s on one 16x16 threadgroup), each a `DabMask` (the shape) and
// a `DabPaint` (the blend passes; `DabColorize`, and `Spectral` for pigment mixing); `DabSampler`
// reads the colour under a dab for smudging (with `GlibcRandom`, rand()'s sequence); `Fix15`
// converts between 8 and 15 bits. `DabRows` and `DabLanes` are the lanes of the hot paths; where
// the processor has AVX2 a dab's rows are CVector's (DabRows.c), eight pixels at a time, the
// same bytes. The Dabs module's surface dispatches them.
