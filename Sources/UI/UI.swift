// UI: the on-canvas tools — a pop-up palette, the brush outline, a status strip and the
// mercurial shading editor — drawn by the frame's own pass into the frame, over the canvas, in
// window pixels. No toolkit: a few anti-aliased primitives (`Painter`), a 5x7 bitmap font
// (`Font`), and one type per piece.
//
// Start at `Tools`: the `Overlay` the session draws, holding the pieces, their damage, and the
// one hit-test the app routes pointer events by. Each piece lays itself out at a UI scale (1 at
// 96 dpi, 2 at 192), draws into a cached sprite when its state changes (`Sprite`), and answers
// "what is under this point" with a value, never by acting: the app turns answers into the
// same commands its keys send, so the journal sees a colour or a shading, never a click.
