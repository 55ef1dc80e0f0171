// UI: the on-canvas tools — a pop-up palette, the brush outline, a status strip and the
// mercurial shading editor — drawn by the frame's own pass into the frame, over the canvas, in
// window pixels. No toolkit: a few anti-aliased primitives (`Painter`), a 5x7 bitmap font
// (`Font`), and one type per piece.
//
// Start at `Widgets`: the `Overlay` the session draws, a z-ordered list of `Widget`s with one
// hit test the app's pointer router routes presses by, one way to draw and one damage. Each
// widget (`PaletteWidget`, `ShadingEditorWidget`, `StatusStripWidget`, `OutlineWidget`) keeps
// its place and sprite; the value it shows (`Palette`, `ShadingEditor`, …) lays itself out at a UI
// scale (1 at 96 dpi, 2 at 192) and draws into a sprite cached while it is unchanged. A widget
// never acts on the session: it turns a press into the same commands the keys send, so the
// journal sees a colour or a shading, never a click.
