// Events: what a session plays and a replay records, with everything decided: the pressure of
// every sample, the command a key stands for.
//
// Start with `SessionEvent`: pointer samples (`StrokeSample`), document commands (`Command`:
// brush changes, undo, clear, the view filters) and the visible size. The window's app turns
// `InputEvent`s into these; `quicksilver render` reads them from replay lines. `Brush` is the
// current brush, as commands change it.
